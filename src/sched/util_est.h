/*
 * util_est.h - utilization estimation of Linux v5.9 kernel/sched/fair.c (util_est_enqueue,
 * util_est_dequeue, _task_util_est, task_util_est) on plain struct sched_avg values, so the
 * scheduler model and the tests share one implementation, in the kernel's order of steps.
 *
 * Features as v5.9 defaults: UTIL_EST and UTIL_EST_FASTUP on. The task's util_est.enqueued
 * keeps the UTIL_AVG_UNCHANGED flag in its LSB (cleared by cfs_se_util_change() in pelt.h
 * when the task's PELT average is recomputed).
 */
#ifndef GOVSIM_SCHED_UTIL_EST_H
#define GOVSIM_SCHED_UTIL_EST_H

#include "core/types.h"
#include "kernel/profile.h"
#include "sched/pelt.h"

/*
 * The kernel profile's util_est (`govsim kernels show`), read once from the profile:
 * fastup (UTIL_EST_FASTUP, v5.5+), flag (UTIL_AVG_UNCHANGED 0x1, or 0x80000000 with the
 * late-5.10.y fixes: flag-free cfs_rq sums, the last_enqueued filter), margin (the filters
 * before the EWMA update), dequeue_order (below).
 */
/*
 * The order dequeue_task_fair() (kernel/sched/fair.c) runs its three util_est and PELT steps
 * in: the cfs_rq's estimate losing the task's (SUB), the task's EWMA update (UPDATE), and
 * dequeue_entity()'s PELT update with its cpufreq kick (PELT). From the profile's
 * util_est_sub_before_pelt and util_est_update_point.
 */
enum util_est_dequeue_order {
	/* v4.19 .. v5.10-early: util_est_dequeue() at the end, both steps after the kick */
	UTIL_EST_ORDER_PELT_SUB_UPDATE = 0,
	/* v5.10.89+ .. v6.6, and 7.2 (util_est_update from update_load_avg, UPDATE_UTIL_EST):
	 * util_est_dequeue() first, so the kick no longer sees the task; util_est_update() after
	 * the PELT update */
	UTIL_EST_ORDER_SUB_PELT_UPDATE,
	/* v6.12: util_est_dequeue() and util_est_update() both ahead of dequeue_entities(), the
	 * update on the util of the task's last PELT update */
	UTIL_EST_ORDER_SUB_UPDATE_PELT,
};

struct util_est_cfg {
	bool fastup;
	unsigned int flag;
	enum util_est_margin margin;
	enum util_est_dequeue_order dequeue_order;
};
/* v5.9: FASTUP, LSB flag, 1% margin + capacity skip, subtraction after the PELT update. */
extern const struct util_est_cfg util_est_cfg_v5_9;
void util_est_cfg_from_profile(struct util_est_cfg *cfg, const struct kernel_profile *kp);

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

/* The same steps under a profile's variant. util_est_enqueue_cfg adds the task's estimate
 * (flag-free with the MSB flag). util_est_sub is the subtraction alone (v5.10.89+
 * util_est_dequeue); util_est_update the task's EWMA update alone (v5.10.89+ util_est_update,
 * the second half of v5.9's util_est_dequeue); util_est_dequeue_cfg is both, in v5.9's order. */
void util_est_enqueue_cfg(const struct util_est_cfg *cfg, struct sched_avg *cfs,
			  const struct sched_avg *p);
void util_est_sub(const struct util_est_cfg *cfg, struct sched_avg *cfs, const struct sched_avg *p);
bool util_est_update(const struct util_est_cfg *cfg, struct sched_avg *p, bool task_sleep,
		     unsigned long capacity_orig);
bool util_est_dequeue_cfg(const struct util_est_cfg *cfg, struct sched_avg *cfs,
			  struct sched_avg *p, bool task_sleep, unsigned long capacity_orig);
/* The task's estimate without the flag: max(ewma, enqueued & ~flag). */
static inline unsigned int util_est_task_value(const struct util_est_cfg *cfg,
					       const struct sched_avg *p)
{
	unsigned int enq = p->util_est.enqueued & ~cfg->flag;
	return p->util_est.ewma > enq ? p->util_est.ewma : enq;
}

#endif
