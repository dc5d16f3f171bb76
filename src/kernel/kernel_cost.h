/*
 * kernel_cost.h - what the kernel's own work costs (its scheduler's enqueue and dequeue, the
 * cpufreq hook, a governor evaluation, a frequency switch): the cost table a platform's model
 * may carry (table kernel_costs, loaded by power/) and the cost of one enqueue or dequeue in a
 * given kernel configuration (the operations follow Linux v5.9 kernel/sched/core.c and
 * fair.c). Kernel knowledge, not power: it sits with the kernel profiles; the kcost_ prefix
 * reads "kernel cost".
 *
 * Operations, one row each in the table: ns per call on one CPU of the platform at that CPU's
 * max frequency (the `cpu` column), with its source.
 *   activate_task, deactivate_task  the base enqueue/dequeue (root cgroup, uclamp not built)
 *   cgroup_level                    extra per cgroup level at every enqueue and dequeue
 *                                   (enqueue_task_fair/dequeue_task_fair walk one sched_entity
 *                                   per level: for_each_sched_entity)
 *   uclamp_rq_inc_id, uclamp_rq_dec_id  per clamp id, when the sched_uclamp_used key is on
 *                                   (uclamp_rq_inc/dec loop over UCLAMP_CNT = 2 ids)
 *   uclamp_static_branch            the static_branch_unlikely() test when the key is off
 *   cpufreq_update_util             one hook call (the per-CPU update_util pointer, the call)
 *   governor_eval                   one governor evaluation (schedutil: sugov_update_*)
 *   freq_switch                     one frequency switch (the driver's work for one change)
 *
 * Costs are work like any other: a cost c measured on CPU m at its max frequency is
 * c x capacity(m) / 1024 of capacity-invariant work (ns at capacity 1024 and max frequency, the
 * unit of src/work/work.h), and takes work / (capacity(cpu)/1024 x f/f_max) ns on another CPU or
 * at another frequency.
 *
 * Plain data: struct kcost is a value (no heap). The platform loader fills it
 * (power/platform_kernel_cost.c: struct platform.kcost).
 */
#ifndef GOVSIM_KERNEL_KERNEL_COST_H
#define GOVSIM_KERNEL_KERNEL_COST_H

#include "core/error.h"
#include "core/types.h"

#include <stdbool.h>

enum kcost_op {
	KC_ACTIVATE,
	KC_DEACTIVATE,
	KC_CGROUP_LEVEL,
	KC_UCLAMP_INC_ID,
	KC_UCLAMP_DEC_ID,
	KC_UCLAMP_BRANCH,
	KC_UPDATE_UTIL,
	KC_GOV_EVAL,
	KC_FREQ_SWITCH,
	KC__COUNT
};

/* UCLAMP_CNT: clamp ids aggregated per uclamp_rq_inc/dec call */
#define KCOST_CLAMP_IDS 2

struct kcost {
	bool present;              /* the platform has a cost table (else every cost is 0) */
	double ns[KC__COUNT];      /* as the table gives it: ns on cpu[op] at its max frequency */
	int cpu[KC__COUNT];        /* the CPU it was measured on (-1: no row) */
	double work_ns[KC__COUNT]; /* capacity-invariant work per call (kcost_set_capacity) */
};

/*
 * A kernel configuration, as far as costs go: uclamp built in (CONFIG_UCLAMP_TASK), whether
 * the sched_uclamp_used static key exists (v5.9; without it aggregation always runs), whether
 * the key is on, and the task's cgroup depth (0: root group).
 */
struct kcost_config {
	bool uclamp;
	bool static_key;
	bool key_on;
	int depth;
};

/* The traced kernel by default: uclamp built in, the static key off, every task at the root. */
void kcost_config_default(struct kcost_config *cfg);

/*
 * Parse a configuration as `--traced-config` gives it: comma-separated items, each once at most,
 * over the default: uclamp=none (not built) | off (built, key off) | on (key on) | always (built
 * without the static key: aggregation at every enqueue, kernels before v5.9); depth=N (every
 * task's cgroup depth, 0..64). GS_EARG with the item named on anything else.
 */
int kcost_config_parse(const char *text, struct kcost_config *cfg, struct gs_error *err);

/* The uclamp=MODE of cfg as kcost_config_parse() reads it: "none", "off", "on" or "always". */
const char *kcost_config_uclamp_name(const struct kcost_config *cfg);

/* "activate_task" ...; NULL when out of range. */
const char *kcost_op_name(enum kcost_op op);
/* The op of a name, or -1. */
int kcost_op_from_name(const char *name);

/* Every cost 0, no table. */
void kcost_init(struct kcost *kc);

/* Fill work_ns from ns and the capacity of each row's CPU (capacity[cpu], 1..1024). */
void kcost_set_capacity(struct kcost *kc, const u32 *capacity);

/*
 * The capacity-invariant work of one enqueue (activate_task: enqueue true) or dequeue in
 * configuration cfg: base + depth x cgroup_level + the uclamp part (nothing when uclamp is not
 * built; with the key on, KCOST_CLAMP_IDS x the per-id cost, plus the branch when the key
 * exists; with the key off, the branch alone).
 */
double kcost_sched_work(const struct kcost *kc, const struct kcost_config *cfg, bool enqueue);

/* What the replay charges for one enqueue/dequeue: emulated minus traced (may be negative). */
static inline double kcost_sched_delta(const struct kcost *kc, const struct kcost_config *emu,
				       const struct kcost_config *traced, bool enqueue)
{
	return kcost_sched_work(kc, emu, enqueue) - kcost_sched_work(kc, traced, enqueue);
}

/* ns that work takes on a CPU of capacity cap (1..1024) at khz out of max_khz. */
double kcost_time_ns(double work_ns, u32 cap, u32 khz, u32 max_khz);

/*
 * kcost_time_ns() for one operation's work on one CPU (work_ns, cap and max_khz fixed for the
 * memo), kept until khz changes: the replay costs the same operation on the same CPU at the
 * same frequency over and over, and the two divisions were most of its overhead model's time.
 * Zero-initialised it holds khz 0, whose answer is kcost_time_ns()'s too (0).
 */
struct kcost_time_memo {
	u32 khz;
	double ns;
};

static inline double kcost_time_ns_memo(struct kcost_time_memo *m, double work_ns, u32 cap,
					u32 khz, u32 max_khz)
{
	if (m->khz != khz) {
		m->khz = khz;
		m->ns = kcost_time_ns(work_ns, cap, khz, max_khz);
	}
	return m->ns;
}

#endif
