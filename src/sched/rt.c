/*
 * rt.c - the RT class of the scheduler model, after Linux v5.9 kernel/sched/rt.c:
 * enqueue_task_rt/dequeue_task_rt (the cpufreq kick of enqueue_top_rt_rq), set_next_task_rt,
 * put_prev_task_rt, task_tick_rt: the rq's avg_rt PELT signal and rt_nr_running. Written
 * from the v5.9 sources' logic; kernel names kept.
 *
 * Differences from v5.9 rt.c, and why:
 * - No priority arrays, push/pull or throttling: the trace (or the work timing) says which
 *   RT task runs where; only the signals schedutil reads (avg_rt, rt_nr_running) are kept.
 * - dequeue_task_rt() kicks cpufreq once (dequeue_rt_entity() re-enqueues the top rt_rq,
 *   whose enqueue_top_rt_rq() kicks), whatever the remaining count.
 * - task_tick_rt() updates avg_rt without a cpufreq kick, as v5.9.
 */
#include "sched/sched_priv.h"

void enqueue_task_rt(struct sched *s, struct rq *rq)
{
	rq->rt_nr_running++;
	cpufreq_update_util(s, rq, 0); /* enqueue_top_rt_rq() */
}

void dequeue_task_rt(struct sched *s, struct rq *rq)
{
	if (rq->rt_nr_running)
		rq->rt_nr_running--;
	cpufreq_update_util(s, rq, 0); /* dequeue_rt_entity() -> enqueue_top_rt_rq() */
}

/* update_rt_rq_load_avg(running = 0) when the previous task was not RT */
void set_next_task_rt(struct rq *rq, enum sched_class_id prev_class)
{
	if (prev_class != SCHED_CLASS_RT)
		update_rt_rq_load_avg(rq_clock_pelt(&rq->clock), &rq->avg_rt, 0, &rq->pv);
}

void put_prev_task_rt(struct rq *rq)
{
	update_rt_rq_load_avg(rq_clock_pelt(&rq->clock), &rq->avg_rt, 1, &rq->pv);
}

/* no cpufreq kick in v5.9 */
void task_tick_rt(struct rq *rq)
{
	update_rt_rq_load_avg(rq_clock_pelt(&rq->clock), &rq->avg_rt, 1, &rq->pv);
}
