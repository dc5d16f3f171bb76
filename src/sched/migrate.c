/*
 * migrate.c - a task's moves between runqueues (set_task_cpu() and what surrounds it,
 * kernel/sched/core.c and fair.c): a queued task's (the load balancer's detach_task() and
 * attach_task(), or a move the trace shows without its cause), a sleeping task's at its wakeup
 * (migrate_task_rq_fair(): its load leaves at the source's next update).
 * sched_event()'s sched_migrate_task and wakeups call these (core.c).
 */
#include "sched/sched_priv.h"

/* The rq of p's CPU loses p (queued, not running): dequeue, detach, move, enqueue. */
void migrate_queued(struct sched *s, struct task_node *n, int dst, u64 now)
{
	struct task *p = &n->t;
	struct rq *src_rq = &s->rq[p->cpu], *dst_rq = &s->rq[dst];

	update_rq_clock(src_rq, now);
	s->migrating = p; /* p->on_rq = TASK_ON_RQ_MIGRATING */
	dequeue_task(s, src_rq, n, 0, now);
	if (n->queued_class == SCHED_CLASS_CFS)
		migrate_task_rq_fair(s, src_rq, p, true);
	s->migrating = NULL;
	p->cpu = dst;
	dst_rq->seen = true;
	update_rq_clock(dst_rq, now);
	enqueue_task(s, dst_rq, n);
}

/*
 * A task the model has asleep moves with no wakeup in progress. Outside try_to_wake_up() only
 * the load balancer moves a task (detach_task() -> set_task_cpu() -> attach_task(),
 * kernel/sched/fair.c), so the kernel had it on its runqueue: queued, where the trace missed
 * its wakeup, or, from v6.12, asleep in EEVDF's delayed dequeue (can_migrate_task() moves such
 * a task for migrate_load; Debian 7.2 l.11007). Its util leaves the source and joins the
 * destination now, not at its next wakeup; it stays asleep. Only where the trace records
 * sched_waking, which tells a wakeup's migration from the balancer's.
 */
void migrate_parked(struct sched *s, struct task_node *n, int dst, u64 now)
{
	struct task *p = &n->t;
	struct rq *src_rq = &s->rq[p->cpu], *dst_rq = &s->rq[dst];

	update_rq_clock(src_rq, now);
	migrate_task_rq_fair(s, src_rq, p, true);
	p->cpu = dst;
	dst_rq->seen = true;
	update_rq_clock(dst_rq, now);
	attach_task_cfs_rq(s, dst_rq, p);
}

/* A sleeping task moves (migrate_task_rq_fair, not queued): its load is removed from the
 * source at that rq's next update; last_update_time = 0 attaches it at the next enqueue. */
void migrate_sleeping(struct sched *s, struct task_node *n, int dst)
{
	struct task *p = &n->t;

	if (p->class == SCHED_CLASS_CFS && p->cpu >= 0)
		migrate_task_rq_fair(s, &s->rq[p->cpu], p, false);
	p->cpu = dst;
}
