/*
 * pelt.h - Per-Entity Load Tracking, the kernel's integer arithmetic (Linux v5.9
 * kernel/sched/pelt.c, pelt.h, sched-pelt.h) and util_est (fair.c). Facts §1-§2.
 * Constants come from the generated pelt_tables.h (tools/gen_pelt_tables.c).
 */
#ifndef GOVSIM_SCHED_PELT_H
#define GOVSIM_SCHED_PELT_H

#include "core/types.h"

/* include/linux/sched.h struct util_est */
struct util_est {
	unsigned int enqueued;
	unsigned int ewma;
};
#define UTIL_EST_WEIGHT_SHIFT 2
#define UTIL_AVG_UNCHANGED    0x1

/* include/linux/sched.h struct sched_avg (v5.9) */
struct sched_avg {
	u64 last_update_time;
	u64 load_sum;
	u64 runnable_sum;
	u32 util_sum;
	u32 period_contrib;
	unsigned long load_avg;
	unsigned long runnable_avg;
	unsigned long util_avg;
	struct util_est util_est;
};

#endif
