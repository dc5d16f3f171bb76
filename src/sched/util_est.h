/*
 * util_est.h - utilization estimation of Linux v5.9 kernel/sched/fair.c (util_est_enqueue,
 * util_est_dequeue, _task_util_est, task_util_est) on plain struct sched_avg values, so the
 * scheduler model and the tests share one implementation. Facts §2 (the order of steps).
 *
 * Features as v5.9 defaults: UTIL_EST and UTIL_EST_FASTUP on. The task's util_est.enqueued
 * keeps the UTIL_AVG_UNCHANGED flag in its LSB (cleared by cfs_se_util_change() in pelt.h
 * when the task's PELT average is recomputed).
 */
#ifndef GOVSIM_SCHED_UTIL_EST_H
#define GOVSIM_SCHED_UTIL_EST_H

#include "core/types.h"
#include "sched/pelt.h"

/* max(ewma, enqueued) | UTIL_AVG_UNCHANGED: what a task adds to its cfs_rq's estimate. */
static inline unsigned long _task_util_est(const struct sched_avg *p)
{
	unsigned int m = p->util_est.ewma > p->util_est.enqueued ? p->util_est.ewma
								  : p->util_est.enqueued;
	return m | UTIL_AVG_UNCHANGED;
}

/* max(task_util(p), _task_util_est(p)) */
static inline unsigned long task_util_est(const struct sched_avg *p)
{
	unsigned long e = _task_util_est(p);
	return p->util_avg > e ? p->util_avg : e;
}

/* abs(value) < margin, computed as the kernel does: (unsigned)(value + margin - 1) < 2m - 1 */
static inline bool within_margin(int value, int margin)
{
	return (unsigned int)(value + margin - 1) < (unsigned int)(2 * margin - 1);
}

/* At the start of enqueue_task_fair: cfs->util_est.enqueued += _task_util_est(p). */
void util_est_enqueue(struct sched_avg *cfs, const struct sched_avg *p);

/*
 * At the end of dequeue_task_fair: remove p's estimate from cfs; then, if the task went to
 * sleep (task_sleep) and its util_avg changed since the last dequeue, fold util_avg into
 * p->util_est (FASTUP, 1% margin, skip when util_avg > capacity_orig, EWMA weight 1/4).
 * Returns true when p->util_est was written (the kernel's sched_util_est_se_tp point).
 */
bool util_est_dequeue(struct sched_avg *cfs, struct sched_avg *p, bool task_sleep,
		      unsigned long capacity_orig);

#endif
