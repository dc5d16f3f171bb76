/*
 * util_est.c - util_est_enqueue/util_est_dequeue of Linux v5.9 kernel/sched/fair.c, written
 * from the kernel's logic (not copied), and the other profiles' variants of the same
 * steps: v4.19 and v5.4 without UTIL_EST_FASTUP (v4.19 also
 * without the capacity skip), and the late-5.10.y split util_est_dequeue/util_est_update with
 * the MSB flag and the last_enqueued filter (fair.c l.3981-4065 v5.10.89, identical in v5.15,
 * v6.1 and v6.6). Kernel names kept.
 *
 * Differences from the kernel's util_est, and why:
 * - The UTIL_EST feature is always on (sched_feat(UTIL_EST) is the default); the v5.9
 *   util_est_dequeue() is one function here with the profile's variants as data
 *   (struct util_est_cfg), so one code path serves every profile.
 * - No trace_sched_util_est_se/cfs_tp tracepoints (the model reports through its own hooks).
 * - The capacity margin test takes the CPU capacity as an argument (capacity_of() is
 *   capacity_orig in the model: no RT/DL/irq/thermal pressure is subtracted).
 */
#include "sched/util_est.h"

const struct util_est_cfg util_est_cfg_v5_9 = {
	.fastup = true,
	.flag = UTIL_AVG_UNCHANGED,
	.margin = UTIL_EST_MARGIN_CAPACITY,
	.dequeue_order = UTIL_EST_ORDER_PELT_SUB_UPDATE,
};

void util_est_cfg_from_profile(struct util_est_cfg *cfg, const struct kernel_profile *kp)
{
	if (!kp) {
		*cfg = util_est_cfg_v5_9;
		return;
	}
	cfg->fastup = kp->util_est_fastup;
	cfg->flag = kp->util_est_flag == UTIL_EST_FLAG_MSB ? 0x80000000U : UTIL_AVG_UNCHANGED;
	cfg->margin = kp->util_est_margin;
	/* no kernel updates the task's estimate before it subtracts it from the cfs_rq's: an update
	 * point before the PELT update is read only with the subtraction before it */
	if (!kp->util_est_sub_before_pelt)
		cfg->dequeue_order = UTIL_EST_ORDER_PELT_SUB_UPDATE;
	else if (kp->util_est_update_point == UTIL_EST_UPDATE_BEFORE_PELT)
		cfg->dequeue_order = UTIL_EST_ORDER_SUB_UPDATE_PELT;
	else
		cfg->dequeue_order = UTIL_EST_ORDER_SUB_PELT_UPDATE;
}

void util_est_enqueue(struct sched_avg *cfs, const struct sched_avg *p)
{
	util_est_enqueue_cfg(&util_est_cfg_v5_9, cfs, p);
}

bool util_est_dequeue(struct sched_avg *cfs, struct sched_avg *p, bool task_sleep,
		      unsigned long capacity_orig)
{
	return util_est_dequeue_cfg(&util_est_cfg_v5_9, cfs, p, task_sleep, capacity_orig);
}

/* LSB: the flag is part of the sum (v4.19 ORs it in, v5.4-v5.9 _task_util_est carries it);
 * MSB: the cfs_rq sums flag-free values. */
static unsigned int util_est_cfs_value(const struct util_est_cfg *cfg, const struct sched_avg *p)
{
	unsigned int v = util_est_task_value(cfg, p);
	return cfg->flag == UTIL_AVG_UNCHANGED ? v | UTIL_AVG_UNCHANGED : v;
}

void util_est_enqueue_cfg(const struct util_est_cfg *cfg, struct sched_avg *cfs,
			  const struct sched_avg *p)
{
	cfs->util_est.enqueued += util_est_cfs_value(cfg, p);
}

void util_est_sub(const struct util_est_cfg *cfg, struct sched_avg *cfs, const struct sched_avg *p)
{
	unsigned int task_est = util_est_cfs_value(cfg, p);

	/* the root cfs_rq loses the task's estimate, never below 0 */
	cfs->util_est.enqueued -= cfs->util_est.enqueued < task_est ? cfs->util_est.enqueued
								    : task_est;
}

/*
 * v6.8+ util_est_update() (kernel/sched/fair.c, Debian 6.12 l.4994 and 7.2 l.5768): util_est
 * is one value, the EWMA, kept here in ue.ewma with ue.enqueued = ewma | flag so that
 * util_est_task_value() and the UTIL_AVG_UNCHANGED test read it as the kernel's single field.
 * 7.2 has no capacity skip (UTIL_EST_MARGIN_UNIFIED_NO_CAPACITY). Where the caller reads the
 * task's util (before or after the dequeue's PELT update) is cfg->dequeue_order's, in
 * sched/fair.c dequeue_task_fair().
 */
static bool util_est_update_unified(const struct util_est_cfg *cfg, struct sched_avg *p,
				    unsigned long capacity_orig)
{
	const unsigned int margin = SCHED_CAPACITY_SCALE / 100;
	unsigned int ewma = p->util_est.ewma, dequeued, last_ewma_diff;

	/* PELT not updated since enqueue: skip */
	if (p->util_est.enqueued & cfg->flag)
		return false;
	dequeued = (unsigned int)p->util_avg;
	/* an increase resets the EWMA: the average smooths decreases only */
	if (ewma <= dequeued) {
		ewma = dequeued;
		goto done;
	}
	/* within ~1% of the last activation: keep the value */
	last_ewma_diff = ewma - dequeued;
	if (last_ewma_diff < margin)
		goto done;
	/* no idle time can be granted on this CPU: not a sample (gone in 7.2) */
	if (cfg->margin == UTIL_EST_MARGIN_UNIFIED && dequeued > capacity_orig)
		return false;
	/* the task did not get all the CPU time it wanted: not a sample of its size */
	if (dequeued + margin < p->runnable_avg)
		goto done;
	/* ewma(t) = w * dequeued + (1 - w) * ewma(t-1), w = 1/4 */
	ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ewma -= last_ewma_diff;
	ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	p->util_est.ewma = ewma;
	p->util_est.enqueued = ewma | cfg->flag;
	return true;
}

bool util_est_update(const struct util_est_cfg *cfg, struct sched_avg *p, bool task_sleep,
		     unsigned long capacity_orig)
{
	struct util_est ue;
	long last_ewma_diff, last_enqueued_diff;
	const int margin = (int)(SCHED_CAPACITY_SCALE / 100);

	/* 2. no activation completed (e.g. a migration): the task's estimate stays */
	if (!task_sleep)
		return false;
	if (cfg->margin == UTIL_EST_MARGIN_UNIFIED ||
	    cfg->margin == UTIL_EST_MARGIN_UNIFIED_NO_CAPACITY)
		return util_est_update_unified(cfg, p, capacity_orig);

	/* 3. PELT not updated since the last dequeue: nothing new to learn */
	ue = p->util_est;
	if (ue.enqueued & cfg->flag)
		return false;

	/* 4. the new sample (LSB: flagged at once; MSB: flagged at `done`) */
	last_enqueued_diff = (long)ue.enqueued;
	ue.enqueued = (unsigned int)p->util_avg;
	if (cfg->flag == UTIL_AVG_UNCHANGED)
		ue.enqueued |= UTIL_AVG_UNCHANGED;

	/* 5. FASTUP (v5.5+): an increase replaces the EWMA at once */
	if (cfg->fastup && ue.ewma < ue.enqueued) {
		ue.ewma = ue.enqueued;
		goto done;
	}

	/* 6. within 1% (10/1024) of the EWMA: no write at all, enqueued included -- except,
	 *    with the last_enqueued filter, when enqueued itself moved by 1% or more: then
	 *    enqueued is written and the EWMA kept */
	last_ewma_diff = (long)ue.enqueued - (long)ue.ewma;
	last_enqueued_diff -= (long)ue.enqueued;
	if (within_margin((int)last_ewma_diff, margin)) {
		if (cfg->margin == UTIL_EST_MARGIN_LAST_ENQUEUED &&
		    !within_margin((int)last_enqueued_diff, margin))
			goto done;
		return false;
	}

	/* 7. a task above the CPU's capacity may have had no idle time: not a valid sample
	 *    (absent in v4.19) */
	if (cfg->margin != UTIL_EST_MARGIN_EWMA && p->util_avg > capacity_orig)
		return false;

	/*
	 * 8. ewma(t) = w util + (1 - w) ewma(t-1) = ewma(t-1) + w (util - ewma(t-1)), w = 1/4:
	 *    ((ewma << 2) + diff) >> 2 in unsigned int, as the kernel.
	 */
	ue.ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ue.ewma += (unsigned int)last_ewma_diff;
	ue.ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	ue.enqueued |= cfg->flag;
	p->util_est = ue;
	return true;
}

bool util_est_dequeue_cfg(const struct util_est_cfg *cfg, struct sched_avg *cfs,
			  struct sched_avg *p, bool task_sleep, unsigned long capacity_orig)
{
	/* 1. the root cfs_rq loses the task's estimate */
	util_est_sub(cfg, cfs, p);
	return util_est_update(cfg, p, task_sleep, capacity_orig);
}
