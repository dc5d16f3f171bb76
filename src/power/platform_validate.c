/*
 * platform_validate.c - a platform model's database, table by table in the order of the
 * dependencies, into a struct platform: each row read and checked against the rules of its
 * table (models/schema.sql). Every rule failure names the table, the row (by its key columns,
 * as written in the file) and the rule.
 */
#include "power/platform_priv.h"

#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* "'label': <message>", GS_EMODEL. */
int model_error(struct loader *l, const char *fmt, ...)
{
	char msg[GS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return gs_error_set(l->err, GS_EMODEL, "'%s': %s", l->label, msg);
}

int loader_prepare(struct loader *l, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(l->db, sql, -1, st, NULL) != SQLITE_OK)
		return model_error(l, "%s", sqlite3_errmsg(l->db));
	return 0;
}

/* The end of a query: SQLITE_DONE is fine, anything else is an error naming SQLite's reason. */
int loader_step_done(struct loader *l, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return model_error(l, "%s", sqlite3_errmsg(l->db));
	return 0;
}

int bad_int(struct loader *l, const char *row, const char *col, s64 lo, s64 hi)
{
	return model_error(l, "%s: %s must be an integer in %lld..%lld", row, col, (long long)lo,
			   (long long)hi);
}

/* ---- the generic row loader ---------------------------------------------------------------- */

/* "<table> row <key>=<value> ...", the values as the file wrote them, into sb (emptied first). */
static void row_name(const struct model_table *t, sqlite3_stmt *st, struct strbuf *sb)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s row", t->table);
	for (int i = 0; i < t->nr_cols; i++)
		if (t->cols[i].key)
			strbuf_addf(sb, t->quote_keys ? " %s='%s'" : " %s=%s", t->cols[i].name,
				    coltxt(st, i));
}

/* Each row of t through t->row, named by its key columns (cut at MODEL_ROW_NAME_MAX). */
static int each_row(struct loader *l, const struct model_table *t, sqlite3_stmt *st, void *arg)
{
	struct strbuf name = STRBUF_INIT;
	char row[MODEL_ROW_NAME_MAX];
	int rc, ret = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		row_name(t, st, &name);
		if (strbuf_error(&name)) {
			ret = gs_error_set(l->err, GS_ENOMEM, "out of memory");
			break;
		}
		strbuf_copy(&name, row, sizeof(row));
		if ((ret = t->row(l, st, row, arg)))
			break;
	}
	strbuf_free(&name);
	if (ret) {
		sqlite3_finalize(st);
		return ret;
	}
	return loader_step_done(l, st, rc);
}

int load_rows(struct loader *l, const struct model_table *t, void *arg)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st;
	int rc;

	strbuf_addf(&sql, "SELECT ");
	for (int i = 0; i < t->nr_cols; i++)
		strbuf_addf(&sql, "%s%s", i ? ", " : "", t->cols[i].name);
	strbuf_addf(&sql, " FROM %s ORDER BY rowid", t->table);
	rc = strbuf_error(&sql) ? gs_error_set(l->err, GS_ENOMEM, "out of memory")
				: loader_prepare(l, strbuf_str(&sql), &st);
	strbuf_free(&sql);
	return rc ? rc : each_row(l, t, st, arg);
}

/* ---- the core tables ---------------------------------------------------------------------- */

static int platform_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	int *n = arg;

	if (++*n > 1)
		return model_error(l, "%s: more than one platform row", row);
	if (!col_str(st, 0, l->p->name, sizeof(l->p->name)) || !l->p->name[0])
		return model_error(l, "%s: name must be 1..%zu characters", row,
				   sizeof(l->p->name) - 1);
	if (!col_str(st, 1, l->p->description, sizeof(l->p->description)))
		return model_error(l, "%s: description longer than %zu characters", row,
				   sizeof(l->p->description) - 1);
	if (!col_str(st, 2, l->p->cost_unit, sizeof(l->p->cost_unit)))
		return model_error(l, "%s: cost_unit longer than %zu characters", row,
				   sizeof(l->p->cost_unit) - 1);
	return 0;
}

static int load_platform_row(struct loader *l)
{
	static const struct model_col cols[] = {{"name", true}, {"description", false},
						{"cost_unit", false}};
	static const struct model_table t = MODEL_TABLE("platform", cols, true, platform_row);
	int rc, n = 0;

	if ((rc = load_rows(l, &t, &n)))
		return rc;
	if (n == 0)
		return model_error(l, "platform: no row (exactly one is needed)");
	return 0;
}

static int freq_invariance_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	int *n = arg;

	if (++*n > 1)
		return model_error(l, "%s: more than one frequency_invariance row", row);
	l->p->freq_invariant = sqlite3_column_int(st, 0) != 0;
	return 0;
}

static int cpufreq_driver_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	int *n = arg;

	if (++*n > 1)
		return model_error(l, "%s: more than one cpufreq_driver row", row);
	l->p->dvfs_any_cpu = sqlite3_column_int(st, 0) != 0;
	return 0;
}

/* cpufreq_driver: optional, one row; without it the driver can switch from any CPU, as
 * cpufreq-dt, scmi-cpufreq and qcom-cpufreq-hw do. */
static int load_cpufreq_driver(struct loader *l)
{
	static const struct model_col cols[] = {{"dvfs_possible_from_any_cpu", true}};
	static const struct model_table t =
		MODEL_TABLE("cpufreq_driver", cols, false, cpufreq_driver_row);
	int n = 0;

	l->p->dvfs_any_cpu = true;
	return load_rows(l, &t, &n);
}

/* frequency_invariance: optional, one row; without it the kernel is frequency invariant. */
static int load_freq_invariance(struct loader *l)
{
	static const struct model_col cols[] = {{"freq_invariant", true}};
	static const struct model_table t =
		MODEL_TABLE("frequency_invariance", cols, false, freq_invariance_row);
	int n = 0;

	l->p->freq_invariant = true;
	return load_rows(l, &t, &n);
}

static int cluster_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	struct plat_cluster *c = &p->clusters[p->nr_clusters];
	s64 v = 0;

	(void)arg;
	if (p->nr_clusters >= GS_MAX_CLUSTERS)
		return model_error(l, "%s: more than %d clusters", row, GS_MAX_CLUSTERS);
	if (!col_int(st, 0, 0, GS_MAX_CLUSTERS - 1, &v) || v != p->nr_clusters)
		return model_error(l, "%s: cluster ids must be 0, 1, ... in row order "
				      "(expected %d)",
				   row, p->nr_clusters);
	if (!col_str(st, 1, c->name, sizeof(c->name)))
		return model_error(l, "%s: name longer than %zu characters", row,
				   sizeof(c->name) - 1);
	c->id = (int)v;
	if (!col_int(st, 2, 0, UINT32_MAX, &v))
		return bad_int(l, row, "transition_latency_ns", 0, UINT32_MAX);
	c->transition_latency_ns = (u32)v;
	if (!col_is_null(st, 3)) {
		if (!col_int(st, 3, 0, UINT32_MAX, &v))
			return bad_int(l, row, "dyn_power_coeff", 0, UINT32_MAX);
		c->dyn_power_coeff = (u32)v;
	}
	p->nr_clusters++;
	return 0;
}

static int load_clusters(struct loader *l)
{
	static const struct model_col cols[] = {{"cluster", true},
						{"name", false},
						{"transition_latency_ns", false},
						{"dyn_power_coeff", false}};
	static const struct model_table t = MODEL_TABLE("clusters", cols, false, cluster_row);
	int rc;

	if ((rc = load_rows(l, &t, NULL)))
		return rc;
	if (l->p->nr_clusters == 0)
		return model_error(l, "clusters: no row (at least one cluster is needed)");
	return 0;
}

struct cpus_seen {
	int n, max_cpu;
	u32 max_cap;
};

static int cpu_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct cpus_seen *seen = arg;
	s64 cpu = 0, cap = 0;

	if (!col_int(st, 0, 0, GS_MAX_CPUS - 1, &cpu))
		return bad_int(l, row, "cpu", 0, GS_MAX_CPUS - 1);
	if (l->cpu_seen[cpu])
		return model_error(l, "%s: cpu listed twice", row);
	if (!col_int(st, 1, 1, SCHED_CAPACITY_SCALE, &cap))
		return model_error(l, "%s: capacity %s not in 1..%ld", row, coltxt(st, 1),
				   SCHED_CAPACITY_SCALE);
	l->cpu_seen[cpu] = true;
	l->cpu_capacity[cpu] = (u32)cap;
	l->cpu_assumed[cpu] = strncmp(coltxt(st, 2), "assumed", 7) == 0;
	if (cpu > seen->max_cpu)
		seen->max_cpu = (int)cpu;
	if ((u32)cap > seen->max_cap)
		seen->max_cap = (u32)cap;
	seen->n++;
	return 0;
}

static int load_cpus(struct loader *l)
{
	static const struct model_col cols[] = {{"cpu", true}, {"capacity", false},
						{"source", false}};
	static const struct model_table t = MODEL_TABLE("cpus", cols, false, cpu_row);
	struct platform *p = l->p;
	struct cpus_seen seen = {0, -1, 0};
	int rc;

	if ((rc = load_rows(l, &t, &seen)))
		return rc;
	if (seen.n == 0)
		return model_error(l, "cpus: no row (at least one cpu is needed)");
	for (int cpu = 0; cpu <= seen.max_cpu; cpu++)
		if (!l->cpu_seen[cpu])
			return model_error(l, "cpus: cpu %d missing (cpu ids must be 0..%d)", cpu,
					   seen.max_cpu);
	if (seen.max_cap != SCHED_CAPACITY_SCALE)
		return model_error(l, "cpus: no cpu has capacity %ld (the largest is %u)",
				   SCHED_CAPACITY_SCALE, seen.max_cap);
	p->nr_cpus = seen.n;
	for (int cpu = 0; cpu < seen.n; cpu++) {
		p->cpus[cpu].id = cpu;
		p->cpus[cpu].capacity = l->cpu_capacity[cpu];
		p->cpus[cpu].capacity_assumed = l->cpu_assumed[cpu];
		p->cpus[cpu].cluster = -1;
	}
	return 0;
}

static int cluster_cpu_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	s64 cl = 0, cpu = 0;

	(void)arg;
	if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl))
		return model_error(l, "%s: no such cluster", row);
	if (!col_int(st, 1, 0, p->nr_cpus - 1, &cpu))
		return model_error(l, "%s: no such cpu", row);
	if (p->cpus[cpu].cluster >= 0)
		return model_error(l, "%s: cpu %lld is already in the policy of cluster %d "
				      "(every cpu must be in exactly one policy)",
				   row, (long long)cpu, p->cpus[cpu].cluster);
	p->cpus[cpu].cluster = (int)cl;
	return 0;
}

static int load_cluster_cpus(struct loader *l)
{
	static const struct model_col cols[] = {{"cluster", true}, {"cpu", true}};
	static const struct model_table t =
		MODEL_TABLE("cluster_cpus", cols, false, cluster_cpu_row);
	struct platform *p = l->p;
	int rc;

	if ((rc = load_rows(l, &t, NULL)))
		return rc;
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct plat_cluster *c;
		if (p->cpus[cpu].cluster < 0)
			return model_error(l, "cpus row cpu=%d: cpu in no policy (no cluster_cpus "
					      "row; every cpu must be in exactly one policy)",
					   cpu);
		c = &p->clusters[p->cpus[cpu].cluster];
		if (c->nr_cpus && p->cpus[c->cpus[0]].capacity != p->cpus[cpu].capacity)
			return model_error(l, "cpus row cpu=%d: capacity %u differs from cpu %d's %u "
					      "in the same cluster %d",
					   cpu, p->cpus[cpu].capacity, c->cpus[0],
					   p->cpus[c->cpus[0]].capacity, c->id);
		c->cpus[c->nr_cpus++] = cpu; /* ascending, as cpu ascends */
	}
	for (int i = 0; i < p->nr_clusters; i++)
		if (p->clusters[i].nr_cpus == 0)
			return model_error(l, "clusters row cluster=%d: no cpus (no cluster_cpus row)",
					   i);
	return 0;
}

/* An OPP's EM power: derived from the cluster's dyn_power_coeff, or given (column 3). */
static int opp_em_power(struct loader *l, sqlite3_stmt *st, const char *row,
			const struct plat_cluster *c, struct plat_opp *o)
{
	s64 given = 0;

	if (c->dyn_power_coeff) {
		if (!col_is_null(st, 3))
			return model_error(l, "%s: em_power_mw_given is set but cluster %d has a "
					      "dyn_power_coeff (the em power is derived from it)",
					   row, c->id);
		if (!o->volt_uv)
			return model_error(l, "%s: no volt_uv to derive the em power from", row);
		o->em_power_mw = em_opp_power_mw(c->dyn_power_coeff, o->volt_uv, o->freq_khz);
	} else if (col_is_null(st, 3)) {
		return model_error(l, "%s: no em power: cluster %d has no dyn_power_coeff and "
				      "em_power_mw_given is NULL",
				   row, c->id);
	} else if (!col_int(st, 3, INT64_MIN, INT64_MAX, &given)) {
		return model_error(l, "%s: em_power_mw_given must be an integer", row);
	} else {
		o->em_power_mw = given < 0 ? 0 : given > UINT32_MAX ? UINT32_MAX : (u32)given;
	}
	return 0;
}

static int opp_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	struct plat_cluster *c;
	struct plat_opp *o, *prev;
	s64 cl = 0, khz = 0, uv = 0;
	int rc;

	(void)arg;
	if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl))
		return model_error(l, "%s: no such cluster", row);
	c = &p->clusters[cl];
	o = &c->opps[c->nr_opps];
	prev = c->nr_opps ? o - 1 : NULL;
	if (c->nr_opps >= GS_MAX_OPPS)
		return model_error(l, "%s: more than %d opps in the cluster", row, GS_MAX_OPPS);
	if (!col_int(st, 1, 1, UINT32_MAX, &khz))
		return bad_int(l, row, "freq_khz", 1, UINT32_MAX);
	if (prev && khz <= prev->freq_khz)
		return model_error(l, "%s: frequencies not strictly increasing", row);
	if (!col_is_null(st, 2) && !col_int(st, 2, 1, UINT32_MAX, &uv))
		return bad_int(l, row, "volt_uv", 1, UINT32_MAX);
	if (uv && prev && prev->volt_uv && uv < prev->volt_uv)
		return model_error(l, "%s: voltages decrease (%lld uV after %u uV)", row,
				   (long long)uv, prev->volt_uv);
	o->freq_khz = (u32)khz;
	o->volt_uv = (u32)uv;
	if ((rc = opp_em_power(l, st, row, c, o)))
		return rc;
	if (o->em_power_mw == 0)
		return model_error(l, "%s: em power %u mW is not positive", row, o->em_power_mw);
	if (o->em_power_mw > EM_MAX_POWER)
		return model_error(l, "%s: em power %u mW above EM_MAX_POWER (%u mW)", row,
				   o->em_power_mw, EM_MAX_POWER);
	if (prev && o->em_power_mw < prev->em_power_mw)
		return model_error(l, "%s: em power decreases with frequency (%u mW after %u mW)",
				   row, o->em_power_mw, prev->em_power_mw);
	c->nr_opps++;
	return 0;
}

/* Derived per-OPP values, once each cluster's max frequency is known. */
static int opps_derive(struct loader *l)
{
	struct platform *p = l->p;

	for (int i = 0; i < p->nr_clusters; i++) {
		struct plat_cluster *c = &p->clusters[i];
		u32 max_khz, cpu_scale = p->cpus[c->cpus[0]].capacity;

		if (c->nr_opps == 0)
			return model_error(l, "clusters row cluster=%d: no opps", i);
		max_khz = plat_cluster_max_khz(c);
		for (int k = 0; k < c->nr_opps; k++) {
			struct plat_opp *o = &c->opps[k];
			o->capacity = plat_opp_capacity(cpu_scale, o->freq_khz, max_khz);
			o->em_cost = em_opp_cost(max_khz, o->em_power_mw, o->freq_khz);
			if (o->capacity < 1)
				return model_error(l, "opps row cluster=%d freq_khz=%u: capacity at the "
						      "OPP %u not in 1..%ld",
						   i, o->freq_khz, o->capacity, SCHED_CAPACITY_SCALE);
			if (k && o->capacity <= c->opps[k - 1].capacity)
				return model_error(l, "opps row cluster=%d freq_khz=%u: capacity at the "
						      "OPP %u not increasing (%u at %u kHz)",
						   i, o->freq_khz, o->capacity,
						   c->opps[k - 1].capacity, c->opps[k - 1].freq_khz);
		}
	}
	return 0;
}

static int load_opps(struct loader *l)
{
	static const struct model_col cols[] = {{"cluster", true},
						{"freq_khz", true},
						{"volt_uv", false},
						{"em_power_mw_given", false}};
	static const struct model_table t = MODEL_TABLE("opps", cols, false, opp_row);
	int rc;

	if ((rc = load_rows(l, &t, NULL)))
		return rc;
	return opps_derive(l);
}

/* The level column: 0 for 'cpu', 1 for 'cluster'; false (and *level 0) for anything else. */
static bool col_level(sqlite3_stmt *st, int i, int *level)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	*level = 0;
	if (t && strcmp((const char *)t, "cpu") == 0)
		return true;
	if (t && strcmp((const char *)t, "cluster") == 0) {
		*level = 1;
		return true;
	}
	return false;
}

/* An idle state's exit latency: wakeup_latency_us (column 6) when present, as
 * dt_idle_states.c takes wakeup-latency-us, otherwise entry + exit (columns 4 and 5). */
static int idle_exit_latency(struct loader *l, sqlite3_stmt *st, const char *row,
			     struct plat_idle_state *s)
{
	s64 entry = 0, ex = 0, wakeup = 0;

	if (!col_is_null(st, 6)) {
		if (!col_int(st, 6, 0, UINT32_MAX, &wakeup))
			return bad_int(l, row, "wakeup_latency_us", 0, UINT32_MAX);
		s->exit_latency_us = (u32)wakeup;
		return 0;
	}
	if (!col_int(st, 4, 0, UINT32_MAX / 2, &entry) || !col_int(st, 5, 0, UINT32_MAX / 2, &ex))
		return model_error(l, "%s: entry_latency_us and exit_latency_us are needed when "
				      "wakeup_latency_us is NULL",
				   row);
	s->exit_latency_us = (u32)(entry + ex);
	return 0;
}

static int idle_state_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	struct plat_cluster *c;
	struct plat_idle_state *s;
	s64 cl = 0, idx = 0, res = 0;
	int level = 0, rc;

	(void)arg;
	if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl))
		return model_error(l, "%s: no such cluster", row);
	c = &p->clusters[cl];
	s = &c->idle[c->nr_idle];
	if (c->nr_idle >= GS_MAX_IDLE_STATES)
		return model_error(l, "%s: more than %d idle states in the cluster", row,
				   GS_MAX_IDLE_STATES);
	if (!col_int(st, 1, 0, GS_MAX_IDLE_STATES - 1, &idx) || idx != c->nr_idle)
		return model_error(l, "%s: idle state indices must be 0, 1, ... in row order "
				      "(expected %d)",
				   row, c->nr_idle);
	if (!col_str(st, 2, s->name, sizeof(s->name)) || !s->name[0])
		return model_error(l, "%s: name must be 1..%zu characters", row, sizeof(s->name) - 1);
	if (!col_level(st, 3, &level))
		return model_error(l, "%s: level must be 'cpu' or 'cluster'", row);
	if (idx == 0 && level != 0)
		return model_error(l, "%s: state 0 (WFI) must be a cpu-level state", row);
	if (!col_int(st, 7, 0, UINT32_MAX, &res))
		return bad_int(l, row, "min_residency_us", 0, UINT32_MAX);
	if ((rc = idle_exit_latency(l, st, row, s)))
		return rc;
	s->index = (int)idx;
	s->cluster_level = level == 1;
	s->target_residency_us = (u32)res;
	c->nr_idle++;
	return 0;
}

static int load_idle_states(struct loader *l)
{
	static const struct model_col cols[] = {
		{"cluster", true},	     {"idx", true},
		{"name", false},	     {"level", false},
		{"entry_latency_us", false}, {"exit_latency_us", false},
		{"wakeup_latency_us", false}, {"min_residency_us", false}};
	static const struct model_table t = MODEL_TABLE("idle_states", cols, false, idle_state_row);
	struct platform *p = l->p;
	int rc;

	if ((rc = load_rows(l, &t, NULL)))
		return rc;
	for (int i = 0; i < p->nr_clusters; i++)
		if (p->clusters[i].nr_idle == 0)
			return model_error(l, "clusters row cluster=%d: no idle states (state 0, WFI, "
					      "is needed)",
					   i);
	return 0;
}

/* cost_busy rows so far, per cluster and level: their number, the last capacity and power. */
struct busy_seen {
	int count[GS_MAX_CLUSTERS][2];
	u32 prev_cap[GS_MAX_CLUSTERS][2], prev_pow[GS_MAX_CLUSTERS][2];
};

/* The capacity (column 3) and power (column 4) of a cost_busy row, the k-th of its cluster and
 * level. */
static int busy_values(struct loader *l, sqlite3_stmt *st, const char *row, u32 prev_cap,
		       u32 prev_pow, int k, s64 *cap, s64 *pow)
{
	if (!col_int(st, 3, 1, SCHED_CAPACITY_SCALE, cap))
		return model_error(l, "%s: capacity %s not in 1..%ld", row, coltxt(st, 3),
				   SCHED_CAPACITY_SCALE);
	if (k > 0 && *cap <= prev_cap)
		return model_error(l, "%s: capacity %lld not increasing (%u before)", row,
				   (long long)*cap, prev_cap);
	if (!col_int(st, 4, INT64_MIN, INT64_MAX, pow))
		return model_error(l, "%s: power must be an integer", row);
	if (*pow <= 0 || *pow > UINT32_MAX)
		return model_error(l, "%s: power %lld is not positive", row, (long long)*pow);
	if (k > 0 && *pow < prev_pow)
		return model_error(l, "%s: power decreases with frequency (%lld after %u)", row,
				   (long long)*pow, prev_pow);
	return 0;
}

static int cost_busy_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct busy_seen *b = arg;
	struct platform *p = l->p;
	struct plat_cluster *c;
	s64 cl = 0, khz = 0, cap = 0, pow = 0;
	int level = 0, k = -1, rc;

	if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl))
		return model_error(l, "%s: no such cluster", row);
	c = &p->clusters[cl];
	if (!col_level(st, 1, &level))
		return model_error(l, "%s: level must be 'cpu' or 'cluster'", row);
	if (!col_int(st, 2, 1, UINT32_MAX, &khz) || (k = plat_cluster_opp_index(c, (u32)khz)) < 0)
		return model_error(l, "%s: no such opp in cluster %d", row, c->id);
	if (k != b->count[cl][level])
		return model_error(l, "%s: entries must follow the cluster's opps in order, one "
				      "each (expected freq_khz=%u)",
				   row,
				   b->count[cl][level] < c->nr_opps
					   ? c->opps[b->count[cl][level]].freq_khz
					   : 0);
	if ((rc = busy_values(l, st, row, b->prev_cap[cl][level], b->prev_pow[cl][level], k, &cap,
			      &pow)))
		return rc;
	if (level == 0)
		c->opps[k].cost_cpu_busy = (u32)pow;
	else
		c->opps[k].cost_cluster_busy = (u32)pow;
	b->prev_cap[cl][level] = (u32)cap;
	b->prev_pow[cl][level] = (u32)pow;
	b->count[cl][level]++;
	p->has_costs = true;
	return 0;
}

static int load_cost_busy(struct loader *l)
{
	static const struct model_col cols[] = {{"cluster", true},
						{"level", true},
						{"freq_khz", true},
						{"capacity", false},
						{"power", false}};
	static const struct model_table t = MODEL_TABLE("cost_busy", cols, false, cost_busy_row);
	struct platform *p = l->p;
	struct busy_seen b = {{{0}}, {{0}}, {{0}}};
	int rc;

	if ((rc = load_rows(l, &t, &b)))
		return rc;
	for (int i = 0; i < p->nr_clusters; i++)
		for (int level = 0; level < 2; level++)
			if (b.count[i][level] && b.count[i][level] != p->clusters[i].nr_opps)
				return model_error(l, "cost_busy: cluster %d level %s has %d entries "
						      "for %d opps",
						   i, level ? "cluster" : "cpu", b.count[i][level],
						   p->clusters[i].nr_opps);
	return 0;
}

static int cost_idle_row(struct loader *l, sqlite3_stmt *st, const char *row, void *arg)
{
	struct platform *p = l->p;
	struct plat_cluster *c;
	s64 cl = 0, idx = 0, pow = 0;
	int level = 0;

	(void)arg;
	if (!col_int(st, 0, 0, p->nr_clusters - 1, &cl))
		return model_error(l, "%s: no such cluster", row);
	c = &p->clusters[cl];
	if (!col_level(st, 1, &level))
		return model_error(l, "%s: level must be 'cpu' or 'cluster'", row);
	if (!col_int(st, 2, 0, c->nr_idle - 1, &idx))
		return model_error(l, "%s: no such idle state in cluster %d", row, c->id);
	if (l->idle_cost_seen[cl][level][idx])
		return model_error(l, "%s: listed twice", row);
	if (!col_int(st, 3, 0, UINT32_MAX, &pow))
		return model_error(l, "%s: power %s must be a non-negative integer", row,
				   coltxt(st, 3));
	l->idle_cost_seen[cl][level][idx] = true;
	if (level == 0)
		c->idle[idx].cost_cpu_idle = (u32)pow;
	else
		c->idle[idx].cost_cluster_idle = (u32)pow;
	return 0;
}

static int load_cost_idle(struct loader *l)
{
	static const struct model_col cols[] = {
		{"cluster", true}, {"level", true}, {"idx", true}, {"power", false}};
	static const struct model_table t = MODEL_TABLE("cost_idle", cols, false, cost_idle_row);

	return load_rows(l, &t, NULL);
}

/*
 * Checks every rule on the tables of `db` and fills *p. The order of the checks is the order of
 * the dependencies: clusters, cpus, their policies, then what hangs off a cluster.
 */
int platform_validate_db(sqlite3 *db, const char *label, struct platform *p,
				struct gs_error *err)
{
	struct loader *l = calloc(1, sizeof(*l));
	int rc;

	if (!l)
		return gs_error_set(err, GS_ENOMEM, "out of memory loading '%s'", label);
	l->db = db;
	l->label = label;
	l->err = err;
	l->p = p;
	memset(p, 0, sizeof(*p));

	if (!(rc = load_platform_row(l)) && !(rc = load_freq_invariance(l)) &&
	    !(rc = load_cpufreq_driver(l)) && !(rc = load_clusters(l)) && !(rc = load_cpus(l)) &&
	    !(rc = load_cluster_cpus(l)) && !(rc = load_opps(l)) && !(rc = load_idle_states(l)) &&
	    !(rc = load_cost_busy(l)) && !(rc = load_cost_idle(l)) && !(rc = load_wattson(l)))
		rc = load_kernel_costs(l);
	free(l);
	return rc;
}
