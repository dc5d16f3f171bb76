/*
 * rt_eas.c - capacity-aware RT placement of Linux v5.9 kernel/sched/rt.c and cpupri.c, kernel
 * names kept: rt_task_fits_capacity, cpupri_find_fitness (with convert_prio and
 * __cpupri_find), find_lowest_rq, select_task_rq_rt. Written from the v5.9 sources' logic; not
 * copied.
 *
 * Differences from v5.9, and why:
 * - cpupri is recomputed from the snapshot (each CPU's rq->rt.highest_prio.curr) instead of
 *   kept incrementally: CPUPRI_NORMAL (1) for a CPU without RT tasks, idle or not (v5.9 never
 *   sets CPUPRI_IDLE for an online CPU), 101 - prio for RT.
 * - nr_cpus_allowed of rq->curr is taken as > 1 (the trace gives no affinity).
 * - No push/pull (push_rt_task, pull_rt_task): only the wakeup choice is emulated.
 */
#include "sched/eas.h"

#define MAX_RT_PRIO   100
#define CPUPRI_NORMAL 1

static inline bool allowed(const struct eas_task *p, int cpu)
{
	return !p->cpus_allowed || (p->cpus_allowed >> cpu) & 1;
}

/* rt_task_fits_capacity(p, cpu) = capacity_orig >= min(uclamp_min, uclamp_max) on asym */
bool rt_task_fits_capacity(const struct eas_rd *rd, const struct eas_task *p, int cpu)
{
	unsigned int min_cap, max_cap;

	if (!rd->asym)
		return true;
	min_cap = rd->uclamp && p->uc ? uclamp_eff_value(rd->uclamp, p->uc, UCLAMP_MIN) : 0;
	max_cap = rd->uclamp && p->uc ? uclamp_eff_value(rd->uclamp, p->uc, UCLAMP_MAX) : 1024;
	return rd->cpu[cpu].capacity_orig >= (min_cap < max_cap ? min_cap : max_cap);
}

static int convert_prio(int prio)
{
	return prio >= MAX_RT_PRIO ? CPUPRI_NORMAL : MAX_RT_PRIO - prio + 1;
}

/* __cpupri_find at every level below p's, lowest first; with fitness, CPUs that do not fit
 * are dropped and an empty level skipped; if none fits anywhere, search again without. */
static u64 cpupri_find_fitness(const struct eas_rd *rd, const struct eas_task *p, bool fitness)
{
	int task_pri = convert_prio(p->prio);

	for (int idx = 0; idx < task_pri; idx++) {
		u64 mask = 0;

		for (int cpu = 0; cpu < rd->nr_cpus; cpu++)
			if (allowed(p, cpu) && convert_prio(rd->cpu[cpu].rt_highest_prio) == idx &&
			    (!fitness || rt_task_fits_capacity(rd, p, cpu)))
				mask |= 1ull << cpu;
		if (mask)
			return mask;
	}
	return fitness ? cpupri_find_fitness(rd, p, false) : 0;
}

/* find_lowest_rq(p): task_cpu(p) if in the lowest mask; else this_cpu if in it; else the
 * first of the mask in task_cpu's MC, then DIE domain (both SD_WAKE_AFFINE). */
int find_lowest_rq(const struct eas_rd *rd, const struct eas_task *p, int this_cpu)
{
	u64 lowest = cpupri_find_fitness(rd, p, rd->asym), mc = 0;
	int cpu = p->cpu;

	if (p->cpus_allowed && __builtin_popcountll(p->cpus_allowed) == 1)
		return -1;
	if (!lowest)
		return -1;
	if (cpu >= 0 && (lowest >> cpu) & 1)
		return cpu;
	if (this_cpu >= 0 && !((lowest >> this_cpu) & 1))
		this_cpu = -1;
	for (int i = 0; i < rd->nr_cpus && cpu >= 0; i++)
		if (rd->cluster[i] == rd->cluster[cpu])
			mc |= 1ull << i;
	if (this_cpu >= 0 && cpu >= 0 && (mc >> this_cpu) & 1)
		return this_cpu;
	if (lowest & mc)
		return __builtin_ctzll(lowest & mc);
	if (this_cpu >= 0)
		return this_cpu; /* DIE spans every CPU */
	return __builtin_ctzll(lowest);
}

/* select_task_rq_rt(p, cpu, SD_BALANCE_WAKE/FORK): move when the CPU's curr is an RT task of
 * equal or higher priority, or p does not fit it; only to a CPU whose highest RT prio is
 * lower than p's, and (when moving only for the fit) one where p fits. */
int select_task_rq_rt(const struct eas_rd *rd, const struct eas_task *p, int cpu, int this_cpu)
{
	const struct eas_cpu *c = &rd->cpu[cpu];
	bool test = c->curr_prio < MAX_RT_PRIO && c->curr_prio <= p->prio;

	if (test || !rt_task_fits_capacity(rd, p, cpu)) {
		int target = find_lowest_rq(rd, p, this_cpu);

		if (!test && target != -1 && !rt_task_fits_capacity(rd, p, target))
			return cpu;
		if (target != -1 && p->prio < rd->cpu[target].rt_highest_prio)
			cpu = target;
	}
	return cpu;
}
