/*
 * cpu_util.h - the one function that turns a CPU's runqueue signals into the utilization the
 * frequency governor asks for and the energy model charges: schedutil (gov/schedutil.c) and
 * EAS's compute_energy() (sched/fair_eas.c) both call it, as in the kernel since v5.15, where
 * effective_cpu_util() lives in kernel/sched/ (core.c, then fair.c from v6.8) for the same
 * reason. Mirror in cpu_util.c, with the kernel sources it follows and its differences.
 *
 * Plain data in, a number out: no allocation, no clock, no other govsim state. The header
 * needs nothing but the C library, so the governor built as a plugin compiles it in.
 *
 * Units: utilization, capacity and clamps on the 1024 scale (SCHED_CAPACITY_SCALE).
 */
#ifndef GOVSIM_SCHED_CPU_UTIL_H
#define GOVSIM_SCHED_CPU_UTIL_H

#include <stdbool.h>

/* What the util is for: the frequency (clamped, DL by bandwidth) or the energy (DL by util). */
enum schedutil_type { FREQUENCY_UTIL, ENERGY_UTIL };

/*
 * What the function reads of cpu_rq(cpu), besides the CFS util the caller chose (each kernel
 * reads its own: cpu_util_cfs(), capped, runnable-boosted, or EAS's cpu_util_next()).
 *
 * uclamp_min/uclamp_max are the bounds uclamp_rq_util_with(rq, util, p) clamps to: the rq's
 * values (rq->uclamp[UCLAMP_MIN/MAX].value), max-aggregated with p's effective clamps when the
 * caller evaluates the CPU with a task p on it (uclamp/uclamp.h: uclamp_rq_util_bounds()).
 * They are applied only while uclamp_used; 0 and 1024 (the rq's defaults) when uclamp is not
 * in use; 0 and ULONG_MAX leave the util as it is.
 */
struct cpu_util_rq {
	unsigned long util_rt;    /* cpu_util_rt(rq) */
	unsigned long util_dl;    /* cpu_util_dl(rq) */
	unsigned long bw_dl;      /* cpu_bw_dl(rq) */
	unsigned long util_irq;   /* cpu_util_irq(rq); 0 when irq time is not tracked */
	bool rt_runnable;         /* rt_rq_is_runnable(&rq->rt) */
	bool uclamp_used;         /* uclamp_is_used(): the sched_uclamp_used static key */
	unsigned long uclamp_min;
	unsigned long uclamp_max;
};

/*
 * v5.9 schedutil_cpu_util(cpu, util_cfs, max, type, p) -- v5.15 to v6.7
 * effective_cpu_util(cpu, util_cfs, [max,] type, p), v4.19 sugov_get_util()'s sum: the CPU's
 * util for `type` out of `max` (the CPU's capacity), at most max. p's clamps, if any, are in
 * rq->uclamp_min/max.
 */
unsigned long schedutil_cpu_util(const struct cpu_util_rq *rq, unsigned long util_cfs,
				 unsigned long max, enum schedutil_type type);

/*
 * v6.8+ effective_cpu_util(cpu, util_cfs, &min, &max): the CPU's actual util (cfs + rt + dl,
 * irq-scaled, at most the capacity `scale`), and in *min and *max the band the performance
 * must respect: *min = max(irq + bw_dl, rq uclamp.min), the capacity when an RT task is
 * runnable and uclamp is not used; *max = min(scale, rq uclamp.max). min and max must not be
 * NULL.
 */
unsigned long effective_cpu_util(const struct cpu_util_rq *rq, unsigned long util_cfs,
				 unsigned long scale, unsigned long *min, unsigned long *max);

/*
 * v6.1+ uclamp_rq_is_capped(rq): the rq's uclamp.max (rq_max: 1024 where uclamp is not in use)
 * is below 1024 and at or below cpu_util_cfs() (util_cfs, at most the CPU's `capacity`) plus
 * cpu_util_rt() (util_rt). schedutil's busy hold reads no idle-entry count then.
 */
bool uclamp_rq_is_capped(unsigned long util_cfs, unsigned long util_rt, unsigned long capacity,
			 unsigned long rq_max);

#endif
