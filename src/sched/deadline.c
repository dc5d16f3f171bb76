/*
 * deadline.c - the DL class of the scheduler model, after Linux v5.9 kernel/sched/deadline.c:
 * the rq's avg_dl PELT signal and dl_nr_running (set_next_task_dl, put_prev_task_dl,
 * task_tick_dl), kernel names kept.
 *
 * Differences from v5.9 deadline.c, and why:
 * - A trace does not carry a DL task's runtime/period: bandwidth is 0 (cpu_bw_dl() = 0); the
 *   enqueue kicks cpufreq as __add_running_bw() does, the deferred __sub_running_bw() (the
 *   inactive timer) is not modelled.
 * - No EDF, CBS or throttling: the trace says which DL task runs.
 */
#include "sched/sched_priv.h"

void enqueue_task_dl(struct sched *s, struct rq *rq, bool special)
{
	rq->dl_nr_running++;
	/* add_running_bw(): __add_running_bw() (bandwidth unknown, 0) kicks cpufreq, except for
	 * a special entity (sugov:N, dl_entity_is_special()) */
	if (!special)
		cpufreq_update_util(s, rq, 0);
}

void dequeue_task_dl(struct rq *rq)
{
	if (rq->dl_nr_running)
		rq->dl_nr_running--;
}

void set_next_task_dl(struct rq *rq, enum sched_class_id prev_class)
{
	if (prev_class != SCHED_CLASS_DL)
		update_dl_rq_load_avg(rq_clock_pelt(&rq->clock), &rq->avg_dl, 0, &rq->pv);
}

void put_prev_task_dl(struct rq *rq)
{
	update_dl_rq_load_avg(rq_clock_pelt(&rq->clock), &rq->avg_dl, 1, &rq->pv);
}

void task_tick_dl(struct rq *rq)
{
	update_dl_rq_load_avg(rq_clock_pelt(&rq->clock), &rq->avg_dl, 1, &rq->pv);
}
