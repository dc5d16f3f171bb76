/*
 * clock.c - the rq clock of a traced switch or wakeup. __schedule() calls update_rq_clock()
 * first (kernel/sched/core.c, v4.19 to 7.2), dequeues a sleeping prev, picks the next task
 * (after a newidle balance on a CPU about to idle) and only then traces sched_switch;
 * try_to_wake_up() traces sched_wakeup after its enqueue. So an event's clock is the one the
 * trace shows for it (the lab's probe on schedutil's hook: sched_set_event_clock()), else the
 * one the sim estimates from the first PELT event its update printed
 * (sched_anchor_switch_clock()), else its stamp less sched_config's lead, and for a switch from
 * a running fair task that called no hook, no later than the end of a PELT period
 * (sched_bound_event_clock()). update_rq_clock()
 * never goes back before the rq's last update, so an earlier event on the CPU bounds them.
 */
#include "sched/sched_priv.h"

/*
 * The clock of a switch whose __schedule() called no hook (sched_bound_event_clock()): the
 * updates of a running fair prev there (its dequeue, put_prev_entity()) call
 * cpufreq_update_util() exactly where update_cfs_rq_load_avg() ends a PELT period of the root
 * cfs_rq (update_load_avg(): "else if (decayed) cfs_rq_util_change()", kernel/sched/fair.c,
 * Debian 5.10 to 7.2). No call, so the kernel's clock came before the end of the period in
 * which the cfs_rq was last updated: by the replay, or at `updated`, the CPU's last traced hook
 * call (an update the replay may not make, in an interrupt). A later clock is moved to 1 us
 * (one PELT unit) before that end. The boundary is found on the PELT clock, which runs as the
 * task clock here: only where neither the capacity nor the frequency scales it (the lab's
 * guests); t unchanged elsewhere.
 */
static u64 clock_before_boundary(const struct rq *rq, u64 t, u64 updated)
{
	const struct sched_avg *sa = &rq->cfs.avg;
	u64 cur = rq_clock_pelt(&rq->clock), bnd, bt;
	s64 up = (s64)cur + (s64)(updated - rq->clock.clock_task);

	if (rq->cpu_capacity != SCHED_CAPACITY_SCALE || rq->freq_scale != SCHED_CAPACITY_SCALE ||
	    !sa->last_update_time)
		return t;
	bnd = sa->last_update_time + (u64)(1024 - sa->period_contrib) * 1024;
	if (updated && up >= (s64)bnd)
		bnd += ((u64)up - bnd) / PELT_PHASE_SPAN * PELT_PHASE_SPAN + PELT_PHASE_SPAN;
	if (bnd <= cur)
		return t;
	bt = rq->clock.clock_task + (bnd - cur);
	return t >= bt && bt - 1024 > rq->clock.clock_task ? bt - 1024 : t;
}

u64 bounded_switch_clock(const struct sched *s, const struct rq *rq,
			 const struct task_node *prev, u64 t)
{
	if (!s->event_clock && prev && prev->started && prev->t.class == SCHED_CLASS_CFS &&
	    rq->curr == &prev->t)
		t = clock_before_boundary(rq, t, s->event_clock_updated);
	return t;
}

bool sched_clock_skip_pending(const struct sched *s, int cpu)
{
	return cpu >= 0 && cpu < s->cfg.nr_cpus && s->rq[cpu].clock_skip_req;
}

void sched_set_event_clock(struct sched *s, u64 clock_ns)
{
	s->event_clock = clock_ns;
}

void sched_anchor_switch_clock(struct sched *s, u64 clock)
{
	s->switch_anchor = clock;
}

void sched_bound_event_clock(struct sched *s, u64 updated)
{
	s->event_clock_bound = true;
	s->event_clock_updated = updated;
}
