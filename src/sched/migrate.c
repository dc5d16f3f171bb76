/*
 * migrate.c - a task's moves between runqueues (set_task_cpu() and what surrounds it,
 * kernel/sched/core.c and fair.c): a queued task's (the load balancer's detach_task() and
 * attach_task(), or a move the trace shows without its cause), a sleeping task's at its wakeup
 * (migrate_task_rq_fair(): its load leaves at the source's next update), and from v6.12 the
 * balancer's move of a task asleep in EEVDF's delayed dequeue, with the pick it calls for.
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
		migrate_task_rq_fair(s, src_rq, p, true, now);
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
 * sched_waking, which tells a wakeup's migration from the balancer's. From v6.12 this is the
 * newidle balance's move (the delay ends at once, by the pick that follows it), and
 * migrate_balanced_asleep() the softirq's.
 */
void migrate_parked(struct sched *s, struct task_node *n, int dst, u64 now)
{
	struct task *p = &n->t;
	struct rq *src_rq = &s->rq[p->cpu], *dst_rq = &s->rq[dst];

	update_rq_clock(src_rq, now);
	migrate_task_rq_fair(s, src_rq, p, true, now);
	p->cpu = dst;
	dst_rq->seen = true;
	update_rq_clock(dst_rq, now);
	attach_task_cfs_rq(s, dst_rq, p);
}

/*
 * The load balancer's move, from its softirq, of a task the trace has asleep (v6.12+): the
 * kernel had it in EEVDF's delayed dequeue, since a balancer moves only queued tasks and a
 * wakeup never moves a delayed one (ttwu_runnable() requeues it where it is). It moves queued
 * and still delayed (migrate_delayed_fair()); one the model had not kept delayed joins the
 * destination delayed, at lag 0. attach_task()'s wakeup_preempt() reschedules an idle
 * destination (the fair class is above idle's) or a fair one whose EEVDF pick is the moved
 * task, and the pick that follows, when the CPU is back in task context (the softirq over,
 * sched_delayed_pick_point()), dequeues the delayed tasks it chooses: Debian 6.12 and 7.2
 * fair.c detach_task(), attach_task(), check_preempt_wakeup_fair(), core.c wakeup_preempt().
 * A newidle balance's move (task context: inside the destination's __schedule(), which the
 * trace switches out only after this event) is followed at once by that pick: the model ends
 * the delay at the move (settle_delayed(), migrate_parked()).
 */
void migrate_balanced_asleep(struct sched *s, struct task_node *n, int dst, u64 now)
{
	struct task *p = &n->t;
	struct rq *src_rq = &s->rq[p->cpu], *dst_rq = &s->rq[dst];

	if (task_delayed(p)) {
		update_rq_clock(src_rq, now);
		dst_rq->seen = true;
		update_rq_clock(dst_rq, now);
		migrate_delayed_fair(s, src_rq, dst_rq, p);
	} else {
		migrate_parked(s, n, dst, now); /* the clocks, the detach and the attach */
		enqueue_delayed_fair(s, dst_rq, p);
	}
	task_event(s, p, dst, TASK_EV_MIGRATE, now);
	if (dst_rq->curr && (node_of(dst_rq->curr)->queued_class != SCHED_CLASS_CFS ||
			     eevdf_pick_delayed(s, dst_rq) != p))
		return;
	if (!s->cfg.defer_delayed_pick) {
		pick_delayed_fair(s, dst_rq);
		return;
	}
	dst_rq->pick_due_at = now;
	s->pick_due_mask |= 1ull << dst;
}

u64 sched_delayed_pick_mask(const struct sched *s)
{
	return s->pick_due_mask;
}

u64 sched_delayed_pick_since(const struct sched *s, int cpu)
{
	return s->rq[cpu].pick_due_at;
}

void sched_delayed_pick_point(struct sched *s, int cpu, u64 now_ns)
{
	struct rq *rq;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus || !(s->pick_due_mask & (1ull << cpu)))
		return;
	s->pick_due_mask &= ~(1ull << cpu);
	rq = &s->rq[cpu];
	update_rq_clock(rq, now_ns);
	pick_delayed_fair(s, rq);
}

/* A sleeping task moves (migrate_task_rq_fair, not queued) at now: its load is removed from
 * the source at that rq's next update; last_update_time = 0 attaches it at the next enqueue. */
void migrate_sleeping(struct sched *s, struct task_node *n, int dst, u64 now)
{
	struct task *p = &n->t;

	if (p->class == SCHED_CLASS_CFS && p->cpu >= 0)
		migrate_task_rq_fair(s, &s->rq[p->cpu], p, false, now);
	p->cpu = dst;
}
