/*
 * platform_kernel_cost.c - the kernel cost table of a platform model (models/schema.sql
 * kernel_costs) into struct platform.kcost (kernel/kernel_cost.h), read by the generic
 * table loader. Optional: a model without rows has no cost table (kcost.present false).
 */
#include "power/platform_priv.h"

#include <math.h>

static int kernel_cost_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct kcost *kc = &l->p->kcost;
	int op = kcost_op_from_name((const char *)sqlite3_column_text(st, 0));
	double ns = sqlite3_column_double(st, 1);
	const unsigned char *src = sqlite3_column_text(st, 3);
	s64 cpu;

	(void)arg;
	if (op < 0)
		return model_error(l, "%s: unknown operation (want activate_task, deactivate_task, "
				      "cgroup_level, uclamp_rq_inc_id, uclamp_rq_dec_id, "
				      "uclamp_static_branch, cpufreq_update_util, governor_eval, "
				      "freq_switch)",
				   row);
	if (col_is_null(st, 1) || sqlite3_column_type(st, 1) == SQLITE_TEXT || !isfinite(ns) ||
	    ns < 0 || ns > 1e9)
		return model_error(l, "%s: ns must be a number in 0..1e9", row);
	if (!col_int(st, 2, 0, l->p->nr_cpus - 1, &cpu))
		return bad_int(l, row, "cpu", 0, l->p->nr_cpus - 1);
	if (!src || !*src)
		return model_error(l, "%s: empty source", row);
	if (kc->cpu[op] >= 0)
		return model_error(l, "%s: given twice", row);
	kc->ns[op] = ns;
	kc->cpu[op] = (int)cpu;
	kc->present = true;
	return 0;
}

int load_kernel_costs(struct loader *l)
{
	static const struct model_col cols[] = {
		{"operation", true}, {"ns", false}, {"cpu", false}, {"source", false}};
	static const struct model_table t =
		MODEL_TABLE("kernel_costs", cols, true, kernel_cost_row);
	u32 cap[GS_MAX_CPUS];
	int rc;

	kcost_init(&l->p->kcost);
	if ((rc = load_rows(l, &t, NULL))) {
		kcost_init(&l->p->kcost);
		return rc;
	}
	for (int c = 0; c < l->p->nr_cpus; c++)
		cap[c] = l->p->cpus[c].capacity;
	kcost_set_capacity(&l->p->kcost, cap);
	return 0;
}
