/*
 * cpu_util.c - the CPU's utilization for frequency selection and for energy, one copy for
 * schedutil and EAS (see cpu_util.h). It follows, side by side:
 *   - v5.9 kernel/sched/cpufreq_schedutil.c schedutil_cpu_util(cpu, util_cfs, max, type, p),
 *     which is v5.4's (l.206) and v5.10's (l.195) too;
 *   - v5.15 kernel/sched/core.c effective_cpu_util(cpu, util_cfs, max, type, p)
 *     (l.7155-7239), v6.1 (l.7248) and v6.6 (l.7407) effective_cpu_util(cpu, util_cfs, type,
 *     p), which read max from arch_scale_cpu_capacity() themselves: the same computation,
 *     schedutil_cpu_util() here;
 *   - v4.19 cpufreq_schedutil.c sugov_get_util() (l.207-271): the same sum without uclamp
 *     (a v4.19 run never has uclamp in use, so the clamp is the identity);
 *   - v6.8+ kernel/sched/fair.c effective_cpu_util(cpu, util_cfs, &min, &max) (l.8218 in
 *     6.12), which returns the actual util and leaves the headroom and the clamps to schedutil's
 *     sugov_effective_cpu_perf(): effective_cpu_util() here.
 * Which form and which CFS input a run uses is its kernel profile's (`govsim kernels show`:
 * sugov_util_fn, sugov_cfs_input); the RT rule's "uclamp in use" is the static key, or always
 * (5.4-early, which has no key and aggregates from boot).
 *
 * Differences from the kernel, and why:
 * - The runqueue is a plain struct the caller fills (struct cpu_util_rq), not cpu_rq(cpu):
 *   schedutil reads it through the governor interface, EAS from its snapshot of the rqs.
 * - p (EAS's compute_energy() evaluates the destination CPU with p's clamps) is not passed:
 *   the caller folds p's effective clamps into rq->uclamp_min/max (uclamp_rq_util_bounds()),
 *   which is what uclamp_rq_util_with(rq, util, p) clamps to.
 * - v6.1 and v6.6 read max inside; here every form takes it from the caller (the CPU's
 *   capacity, arch_scale_cpu_capacity()): the same number.
 * - The v6.8 form takes non-NULL min and max only (the kernel lets either be NULL).
 */
#include "sched/cpu_util.h"

#include "uclamp/uclamp.h"

unsigned long schedutil_cpu_util(const struct cpu_util_rq *rq, unsigned long util_cfs,
				 unsigned long max, enum schedutil_type type)
{
	unsigned long dl_util, util, irq;

	/* Without uclamp, a runnable RT task asks for the maximum (the RT boost). With uclamp in
	 * use, RT tasks get their boost through their uclamp.min instead. */
	if (!rq->uclamp_used && type == FREQUENCY_UTIL && rq->rt_runnable)
		return max;

	/* Early check for a CPU saturated by irq time. */
	irq = rq->util_irq;
	if (irq >= max)
		return max;

	/* CFS and RT utilization, clamped together by the rq's uclamp values (and p's). */
	util = util_cfs + rq->util_rt;
	if (type == FREQUENCY_UTIL && rq->uclamp_used)
		util = uclamp_clamp_util(util, rq->uclamp_min, rq->uclamp_max);

	dl_util = rq->util_dl;
	/* Saturated once DL is added: no idle time left, ask for the maximum. */
	if (util + dl_util >= max)
		return max;
	if (type == ENERGY_UTIL)
		util += dl_util;

	/*
	 * The task-clock signals do not see irq time; scale them to the time the CPU had for
	 * tasks and add irq back (scale_irq_capacity):
	 *
	 *   U' = irq + (max - irq) / max * U
	 *
	 * Without irq time (a trace that has none: every replay's util_irq is 0) that is U, the
	 * kernel's U * max / max exactly (no overflow: U < max <= 1024 here), without a division.
	 */
	if (irq) {
		util = util * (max - irq) / max;
		util += irq;
	}

	/* DL tasks are admitted by bandwidth: request exactly that for them. */
	if (type == FREQUENCY_UTIL)
		util += rq->bw_dl;

	return util < max ? util : max;
}

unsigned long effective_cpu_util(const struct cpu_util_rq *rq, unsigned long util_cfs,
				 unsigned long scale, unsigned long *min, unsigned long *max)
{
	unsigned long util, irq = rq->util_irq;

	/* IRQ/steal time saturates the CPU */
	if (irq >= scale) {
		*min = scale;
		*max = scale;
		return scale;
	}
	/* the DL bandwidth with the irq pressure, or the CFS/RT minimum performance */
	*min = irq + rq->bw_dl;
	if (rq->uclamp_min > *min)
		*min = rq->uclamp_min;
	/* a runnable RT task runs at the maximum while uclamp is not used */
	if (!rq->uclamp_used && rq->rt_runnable && scale > *min)
		*min = scale;
	/* RT and DL time is lost to CFS: add it */
	util = util_cfs + rq->util_rt + rq->util_dl;
	/* uclamp.max: a soft limit, below the actual util when clamped */
	*max = rq->uclamp_max < scale ? rq->uclamp_max : scale;
	if (util >= scale)
		return scale;
	/* U' = irq + (scale - irq) / scale * U: the task clock does not see irq time (U itself,
	 * without a division, when there is none: U < scale here) */
	if (irq) {
		util = util * (scale - irq) / scale;
		util += irq;
	}
	return util < scale ? util : scale;
}

/* kernel/sched/sched.h uclamp_rq_is_capped() (Debian 6.1 l.3053, 6.12, 7.2 l.3664): the key
 * on, READ_ONCE(rq->uclamp[UCLAMP_MAX].value) != SCHED_CAPACITY_SCALE and cpu_util_cfs(cpu) +
 * cpu_util_rt(rq) >= it; cpu_util_cfs() is at most the CPU's capacity (capacity_orig_of() in
 * 6.1, arch_scale_cpu_capacity() after). The key off reads as rq_max 1024 here. */
bool uclamp_rq_is_capped(unsigned long util_cfs, unsigned long util_rt, unsigned long capacity,
			 unsigned long rq_max)
{
	unsigned long cfs = util_cfs < capacity ? util_cfs : capacity;

	return rq_max != SCHED_CAPACITY_SCALE && cfs + util_rt >= rq_max;
}
