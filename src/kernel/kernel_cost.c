/*
 * kernel_cost.c - the kernel cost table and the cost of one enqueue/dequeue; see kernel_cost.h.
 *
 * Follows Linux v5.9: enqueue_task() (kernel/sched/core.c) runs uclamp_rq_inc() then the class's
 * enqueue_task_fair(), which walks for_each_sched_entity() once per cgroup level; dequeue_task()
 * mirrors it with uclamp_rq_dec(). uclamp_rq_inc/dec return at the static_branch_unlikely()
 * test while sched_uclamp_used is off, else loop over the UCLAMP_CNT clamp ids.
 */
#include "kernel/kernel_cost.h"

#include "core/result.h"

#include <string.h>


const char *kcost_op_name(enum kcost_op op)
{
	return (int)op >= 0 && op < KC__COUNT ? run_kernel_op_names[op] : NULL;
}

int kcost_op_from_name(const char *name)
{
	for (int i = 0; i < KC__COUNT; i++)
		if (name && strcmp(name, run_kernel_op_names[i]) == 0)
			return i;
	return -1;
}

void kcost_config_default(struct kcost_config *cfg)
{
	*cfg = (struct kcost_config){.uclamp = true, .static_key = true};
}

/* --traced-config's uclamp=MODE, each a configuration at depth 0 */
static const struct {
	const char *name;
	struct kcost_config c;
} modes[] = {
	{"none", {.uclamp = false}},
	{"off", {.uclamp = true, .static_key = true}},
	{"on", {.uclamp = true, .static_key = true, .key_on = true}},
	{"always", {.uclamp = true, .static_key = false}},
};

const char *kcost_config_uclamp_name(const struct kcost_config *cfg)
{
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (modes[i].c.uclamp == cfg->uclamp &&
		    (!cfg->uclamp || (modes[i].c.static_key == cfg->static_key &&
				      modes[i].c.key_on == cfg->key_on)))
			return modes[i].name;
	return "?";
}

static int parse_item(const char *item, size_t len, struct kcost_config *cfg,
		      struct gs_error *err)
{
	if (len > 7 && strncmp(item, "uclamp=", 7) == 0) {
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			if (strlen(modes[i].name) == len - 7 &&
			    strncmp(item + 7, modes[i].name, len - 7) == 0) {
				int depth = cfg->depth;
				*cfg = modes[i].c;
				cfg->depth = depth;
				return 0;
			}
		}
	} else if (len > 6 && strncmp(item, "depth=", 6) == 0) {
		int d = 0;
		size_t i;
		for (i = 6; i < len && item[i] >= '0' && item[i] <= '9' && d <= 64; i++)
			d = d * 10 + (item[i] - '0');
		if (i == len && d <= 64) {
			cfg->depth = d;
			return 0;
		}
	}
	return gs_error_set(err, GS_EARG,
			    "'%.*s': expected uclamp=none|off|on|always or depth=0..64", (int)len,
			    item);
}

int kcost_config_parse(const char *text, struct kcost_config *cfg, struct gs_error *err)
{
	unsigned seen = 0;

	kcost_config_default(cfg);
	for (const char *p = text;;) {
		size_t len = strcspn(p, ",");
		unsigned bit = strncmp(p, "depth=", 6) == 0 ? 2 : 1;
		int ret;

		if (seen & bit)
			return gs_error_set(err, GS_EARG, "'%.*s': given twice", (int)len, p);
		seen |= bit;
		ret = parse_item(p, len, cfg, err);
		if (ret)
			return ret;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void kcost_init(struct kcost *kc)
{
	memset(kc, 0, sizeof(*kc));
	for (int i = 0; i < KC__COUNT; i++)
		kc->cpu[i] = -1;
}

void kcost_set_capacity(struct kcost *kc, const u32 *capacity)
{
	for (int i = 0; i < KC__COUNT; i++)
		kc->work_ns[i] = kc->cpu[i] >= 0 ? kc->ns[i] * capacity[kc->cpu[i]] / 1024.0 : 0;
}

double kcost_sched_work(const struct kcost *kc, const struct kcost_config *cfg, bool enqueue)
{
	double w = kc->work_ns[enqueue ? KC_ACTIVATE : KC_DEACTIVATE];

	w += cfg->depth * kc->work_ns[KC_CGROUP_LEVEL];
	if (!cfg->uclamp)
		return w;
	if (cfg->static_key)
		w += kc->work_ns[KC_UCLAMP_BRANCH];
	if (cfg->key_on || !cfg->static_key)
		w += KCOST_CLAMP_IDS * kc->work_ns[enqueue ? KC_UCLAMP_INC_ID : KC_UCLAMP_DEC_ID];
	return w;
}

double kcost_time_ns(double work_ns, u32 cap, u32 khz, u32 max_khz)
{
	if (!cap || !khz || !max_khz)
		return 0;
	return work_ns * 1024.0 / cap * (double)max_khz / khz;
}
