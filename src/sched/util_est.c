/*
 * util_est.c - util_est_enqueue/util_est_dequeue of Linux v5.9 kernel/sched/fair.c, written
 * from facts/kernel-v5.9.md §2 (not copied). Kernel names kept.
 */
#include "sched/util_est.h"

void util_est_enqueue(struct sched_avg *cfs, const struct sched_avg *p)
{
	cfs->util_est.enqueued += (unsigned int)_task_util_est(p);
}

bool util_est_dequeue(struct sched_avg *cfs, struct sched_avg *p, bool task_sleep,
		      unsigned long capacity_orig)
{
	struct util_est ue;
	unsigned int task_est = (unsigned int)_task_util_est(p);
	long last_ewma_diff;

	/* 1. the root cfs_rq loses the task's estimate, never below 0 */
	cfs->util_est.enqueued -= cfs->util_est.enqueued < task_est ? cfs->util_est.enqueued
								    : task_est;

	/* 2. no activation completed (e.g. a migration): the task's estimate stays */
	if (!task_sleep)
		return false;

	/* 3. PELT not updated since the last dequeue: nothing new to learn */
	ue = p->util_est;
	if (ue.enqueued & UTIL_AVG_UNCHANGED)
		return false;

	/* 4.-5. the new sample; FASTUP: an increase replaces the EWMA at once */
	ue.enqueued = (unsigned int)(p->util_avg | UTIL_AVG_UNCHANGED);
	if (ue.ewma < ue.enqueued) {
		ue.ewma = ue.enqueued;
		goto done;
	}

	/* 6. within 1% (10/1024) of the EWMA: no write at all, enqueued included */
	last_ewma_diff = (long)ue.enqueued - (long)ue.ewma;
	if (within_margin((int)last_ewma_diff, (int)(SCHED_CAPACITY_SCALE / 100)))
		return false;

	/* 7. a task above the CPU's capacity may have had no idle time: not a valid sample */
	if (p->util_avg > capacity_orig)
		return false;

	/*
	 * 8. ewma(t) = w util + (1 - w) ewma(t-1) = ewma(t-1) + w (util - ewma(t-1)), w = 1/4:
	 *    ((ewma << 2) + diff) >> 2 in unsigned int, as the kernel.
	 */
	ue.ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ue.ewma += (unsigned int)last_ewma_diff;
	ue.ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	p->util_est = ue;
	return true;
}
