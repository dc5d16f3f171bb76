/*
 * eas_snapshot.c - what the EAS placement reads of the model (eas.h): a runqueue's signals
 * and counts as v5.9's CPU selection sees them, and a task's averages synced to its cfs_rq's
 * last update (sync_entity_load_avg(), kernel/sched/fair.c). Not a kernel mirror: the
 * placement itself is fair_eas.c's and fair_select.c's.
 */
#include "sched/sched_priv.h"

#include <string.h>

#include "sched/eas.h"

void sched_eas_cpu(struct sched *s, int cpu, struct eas_cpu *out)
{
	const struct rq *rq = &s->rq[cpu];
	unsigned int nr = rq->cfs.h_nr_running + rq->rt_nr_running + rq->dl_nr_running;

	out->capacity_orig = out->capacity = rq->cpu_capacity;
	out->util_avg = rq->cfs.avg.util_avg;
	out->util_est_enqueued = rq->cfs.avg.util_est.enqueued;
	out->runnable_avg = rq->cfs.avg.runnable_avg;
	out->load_avg = rq->cfs.avg.load_avg;
	out->util_rt = rq->avg_rt.util_avg;
	out->util_dl = rq->avg_dl.util_avg;
	out->bw_dl = 0;
	out->util_irq = 0;
	out->rt_runnable = rq->rt_nr_running > 0;
	/* a running task is counted once: it is queued (on_rq) while it runs */
	out->nr_running = nr;
	out->idle = rq->curr == NULL && nr == 0;
	out->curr_prio = rq->curr ? rq->curr->prio : 140;
	/* the model keeps no RT priority queue: the running RT task's prio, else none */
	out->rt_highest_prio = rq->curr && rq->curr->class == SCHED_CLASS_RT ? rq->curr->prio
									    : 100;
	out->uclamp = &s->rq[cpu].uclamp;
}

void sched_eas_task(const struct sched *s, const struct task *p, struct eas_task *out)
{
	struct sched_avg sa = p->avg;

	memset(out, 0, sizeof(*out));
	out->cpu = p->cpu;
	/* sync_entity_load_avg(): decay to the cfs_rq's last_update_time (not "now") */
	if (p->cpu >= 0 && sa.last_update_time && p->class == SCHED_CLASS_CFS &&
	    s->rq[p->cpu].cfs.avg.last_update_time > sa.last_update_time)
		__update_load_avg_blocked_se(s->rq[p->cpu].cfs.avg.last_update_time, &sa,
					     p->weight);
	out->util_avg = sa.util_avg;
	out->util_est_ewma = sa.util_est.ewma;
	out->util_est_enqueued = sa.util_est.enqueued;
	out->load_avg = sa.load_avg;
	out->new_task = !p->avg.last_update_time;
	out->prio = p->prio;
	out->uc = &p->uclamp;
}
