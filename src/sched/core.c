/*
 * core.c - the scheduler model's core: tasks and runqueues rebuilt from sched_switch /
 * sched_wakeup* / sched_migrate_task, after Linux v5.9 kernel/sched/core.c:
 * enqueue_task/dequeue_task (uclamp_rq_inc/dec before the class), update_rq_clock,
 * wake_up_new_task (post_init_entity_util_avg on the chosen CPU), set_task_cpu (migration:
 * the moves themselves in migrate.c), scheduler_tick, and the class dispatch of
 * set_next_task/put_prev_task. The classes are in fair.c, rt.c and deadline.c; --seed-util in
 * trace_start.c. Written from the v5.9 sources' logic;
 * not copied. Kernel function names are kept.
 *
 * Differences from v5.9 core.c, and why (the conventions where the trace gives no answer,
 * docs/conventions.md, each also in sched.h and the report):
 * - __schedule() is replaced by the trace: sched_switch says who runs; a switch whose prev is
 *   not the model's running task is trusted (the model is put right and the case counted).
 * - try_to_wake_up() takes the CPU the trace (or the emulated placement) gives; the task
 *   table is a pid hash (the kernel has task_structs).
 * - The rq clock is the event's time: no irq or steal time, util_irq = 0. A switch or wakeup
 *   takes the clock the trace shows for it (sched_set_event_clock), else its stamp less the
 *   configured lead (clock.c).
 * - A task first seen without sched_wakeup_new starts with zero sums and last_update_time =
 *   its rq's clock_pelt then; with start_from_trace_util and trace util events before its
 *   first scheduling event it starts from those averages, last_update_time = 0, so its first
 *   enqueue attaches them to the cfs_rq (sums = avg * divider, as attach_entity_load_avg
 *   does).
 * - The governor kthread sugov:N is not workload, but it runs in the DL class as the kernel's
 *   does (SCHED_FLAG_SUGOV, a "special" DL entity): its runs build the rq's avg_dl
 *   (set_next_task_dl, put_prev_task_dl, task_tick_dl do not look at the flag), its enqueue
 *   kicks no governor (add_running_bw() skips special entities), and it is queued when the
 *   trace switches to it, not at its wakeup; its migrations change nothing. Debian 5.10,
 *   6.1 and 7.2 kernel/sched/deadline.c. Its wakeup still reads the rq clock and, preempting
 *   the CPU's task, asks __schedule() to skip the next clock update, as any wakeup does:
 *   its run is accounted from the wakeup's clock (core.c try_to_wake_up(), 5.10 to 7.2).
 * - A prio change (class change) is applied when the task is next off its runqueue
 *   (__sched_setscheduler's dequeue/enqueue is not in the trace).
 * - A class change leaves the task's util where it is: no switched_from_fair() detach, no
 *   switched_to_fair() attach. The trace shows the new class only at the task's next event,
 *   after a run the kernel already accounted to the new class (rt-app: sched_setscheduler at
 *   the start of a 200-ms RT run, the prio shown at its end). Detaching then takes that run's
 *   util out of the cfs_rq while the replay has no avg_rt for it (tried on the lab corpus:
 *   7.2 rt policy0 recall 78.2 -> 76.1 %); kept attached, it decays as the kernel's avg_rt
 *   does.
 */
#include "sched/sched_priv.h"

#include <stdlib.h>
#include <string.h>

const char *sched_task_event_name(enum sched_task_event ev)
{
	switch (ev) {
	case TASK_EV_WAKEUP: return "wakeup";
	case TASK_EV_SWITCH_IN: return "switch_in";
	case TASK_EV_TICK: return "tick";
	case TASK_EV_PREEMPT: return "preempt";
	case TASK_EV_SLEEP: return "sleep";
	case TASK_EV_MIGRATE: return "migrate";
	case TASK_EV_DELAY_END: return "delay_end";
	}
	return "?";
}

/* ---- hooks ----------------------------------------------------------------------------------- */

void cpufreq_update_util(struct sched *s, struct rq *rq, unsigned int flags)
{
	if (s->hooks.cpufreq_update && !s->mute)
		s->hooks.cpufreq_update(s->hooks.ctx, rq->cpu, rq->clock.clock_task, flags);
}

void task_event(struct sched *s, struct task *p, int cpu, enum sched_task_event ev,
		u64 now)
{
	if (s->hooks.task_event && !s->mute)
		s->hooks.task_event(s->hooks.ctx, p, cpu, ev, now);
}

/* ---- clocks ---------------------------------------------------------------------------------- */

/*
 * update_rq_clock(): the task clock is now_ns; clock_pelt follows it scaled while the CPU runs
 * a task and is synced to it while idle (also for a zero delta, as the kernel).
 */
void update_rq_clock(struct rq *rq, u64 now)
{
	s64 delta;

	if (now < rq->clock.clock_task)
		return;
	delta = (s64)(now - rq->clock.clock_task);
	rq->clock.clock_task = now;
	if (rq->pv.contrib_scaling) {
		/* v4.19 has no clock_pelt: PELT runs on rq_clock_task (rq_clock_pelt() below
		 * then equals it, and no idle time is ever lost) */
		rq->clock.clock_pelt = now;
		return;
	}
	update_rq_clock_pelt(&rq->clock, delta, rq->curr == NULL, rq->cpu_capacity,
			     rq->freq_scale);
}

/* ---- class enqueue/dequeue, pick (core.c; the classes in fair.c, rt.c, deadline.c) -------- */

static bool uclamp_class(enum sched_class_id c)
{
	return c == SCHED_CLASS_CFS || c == SCHED_CLASS_RT;
}

/* enqueue_task(): uclamp_rq_inc() before the class enqueue, or after it (v6.12 to v6.15:
 * Debian 6.12 core.c l.2019-2031), where the enqueue's cpufreq kicks do not see the task's
 * clamps. */
void enqueue_task(struct sched *s, struct rq *rq, struct task_node *n)
{
	struct task *p = &n->t;

	n->queued_class = p->class;
	p->uclamp.class_enabled = uclamp_class(p->class);
	if (s->hooks.uclamp_inc && !s->uclamp_inc_after_enqueue)
		s->hooks.uclamp_inc(s->hooks.ctx, rq->cpu, p);
	switch (p->class) {
	case SCHED_CLASS_CFS:
		enqueue_task_fair(s, rq, p);
		break;
	case SCHED_CLASS_RT:
		enqueue_task_rt(s, rq);
		break;
	case SCHED_CLASS_DL:
		enqueue_task_dl(s, rq, p->is_governor);
		break;
	case SCHED_CLASS_STOP: /* enqueue/dequeue/set_next/put_prev_task_stop: no signal */
	case SCHED_CLASS_IDLE:
		break;
	}
	if (s->hooks.uclamp_inc && s->uclamp_inc_after_enqueue)
		s->hooks.uclamp_inc(s->hooks.ctx, rq->cpu, p);
	p->on_rq = true;
}

static void apply_pending_prio(struct sched *s, struct task_node *n, u64 now);

/* dequeue_task(): uclamp_rq_dec() before the class dequeue. flags: DEQUEUE_SLEEP,
 * DEQUEUE_SPECIAL. */
void dequeue_task(struct sched *s, struct rq *rq, struct task_node *n, int flags, u64 now)
{
	struct task *p = &n->t;

	if (s->hooks.uclamp_dec)
		s->hooks.uclamp_dec(s->hooks.ctx, rq->cpu, p); /* class_enabled as at enqueue */
	switch (n->queued_class) {
	case SCHED_CLASS_CFS:
		dequeue_task_fair(s, rq, p, flags);
		break;
	case SCHED_CLASS_RT:
		dequeue_task_rt(s, rq);
		break;
	case SCHED_CLASS_DL:
		dequeue_task_dl(rq);
		break;
	case SCHED_CLASS_STOP: /* enqueue/dequeue/set_next/put_prev_task_stop: no signal */
	case SCHED_CLASS_IDLE:
		break;
	}
	p->on_rq = false;
	apply_pending_prio(s, n, now);
}

/* set_next_task(): set_next_entity (CFS), set_next_task_rt/dl with the previous class. */
static void set_next_task(struct sched *s, struct rq *rq, struct task_node *n,
			  enum sched_class_id prev_class)
{
	struct task *p = &n->t;

	switch (n->queued_class) {
	case SCHED_CLASS_CFS:
		set_next_task_fair(s, rq, p);
		break;
	case SCHED_CLASS_RT:
		set_next_task_rt(rq, prev_class);
		break;
	case SCHED_CLASS_DL:
		set_next_task_dl(rq, prev_class);
		break;
	case SCHED_CLASS_STOP: /* enqueue/dequeue/set_next/put_prev_task_stop: no signal */
	case SCHED_CLASS_IDLE:
		break;
	}
	rq->curr = p;
	s->busy_mask |= 1ull << rq->cpu;
	p->running = true;
	p->in_iowait = false; /* io_schedule_finish() once it runs again */
}

/* put_prev_task(): put_prev_entity (CFS, running = 1 if still queued), put_prev_task_rt/dl. */
static void put_prev_task(struct sched *s, struct rq *rq, struct task_node *n)
{
	struct task *p = &n->t;

	switch (n->queued_class) {
	case SCHED_CLASS_CFS:
		put_prev_task_fair(s, rq, p);
		break;
	case SCHED_CLASS_RT:
		put_prev_task_rt(rq);
		break;
	case SCHED_CLASS_DL:
		put_prev_task_dl(rq);
		break;
	case SCHED_CLASS_STOP: /* enqueue/dequeue/set_next/put_prev_task_stop: no signal */
	case SCHED_CLASS_IDLE:
		break;
	}
	p->running = false;
	rq->curr = NULL;
	s->busy_mask &= ~(1ull << rq->cpu);
}

/* The rq goes idle after prev: pick_next_task_fair's update_idle_rq_clock_pelt() (only on
 * the fair fast path, i.e. prev was CFS), which from v6.0 also syncs clock_pelt and records
 * the idle clocks (_update_idle_rq_clock_pelt()), and the nohz idle-entry count. */
static void rq_enter_idle(const struct sched *s, struct rq *rq, enum sched_class_id prev_class)
{
	if (prev_class == SCHED_CLASS_CFS) {
		update_idle_rq_clock_pelt(&rq->clock, rq->cfs.avg.util_sum + rq->avg_rt.util_sum +
							      rq->avg_dl.util_sum);
		if (s->migrate_pelt_lag && !s->contrib_scaling)
			_update_idle_rq_clock_pelt(&rq->clock);
	}
	idle_loop_restart(rq);
	if (!rq->idle_traced)
		rq->idle_calls++;
}

/* ---- task state changes ---------------------------------------------------------------------- */

/*
 * A delayed task (v6.12+: asleep, its se still queued) that the trace shows waking on another
 * CPU, moving, changing class or dying: the kernel had dequeued it before (its pick, which
 * the model's emulated pick can miss), at the latest now.
 */
void settle_delayed(struct sched *s, struct task_node *n, u64 now)
{
	struct rq *rq;

	if (!n->ev.delayed || n->t.cpu < 0)
		return;
	rq = &s->rq[n->t.cpu];
	update_rq_clock(rq, now);
	dequeue_delayed_fair(s, rq, &n->t);
}

static void apply_prio(struct sched *s, struct task_node *n, int prio, u64 now)
{
	struct task *p = &n->t;
	enum sched_class_id old = p->class;

	p->prio = prio;
	if (p->is_governor)
		return;
	p->class = task_class(p, prio);
	/* a new nice in the fair class: set_user_nice() or sched_setattr() -> reweight_task() */
	if (p->class == SCHED_CLASS_CFS && old == SCHED_CLASS_CFS &&
	    prio_to_weight(prio) != p->weight && p->cpu >= 0)
		reweight_task_fair(&s->rq[p->cpu], p, prio_to_weight(prio));
	if (p->class == old)
		return;
	settle_delayed(s, n, now); /* __sched_setscheduler() ends a delay (Debian 6.12 l.7186) */
	if (s->hooks.task_class_change)
		s->hooks.task_class_change(s->hooks.ctx, p, old, now);
}

static void apply_pending_prio(struct sched *s, struct task_node *n, u64 now)
{
	if (n->prio_pending && !n->t.on_rq) {
		n->prio_pending = false;
		apply_prio(s, n, n->pending_prio, now);
	}
}

/* A prio seen in an event: a class change waits until the task is off its runqueue. */
static void see_prio(struct sched *s, struct task_node *n, int prio, u64 now)
{
	if (!n->t.on_rq || task_class(&n->t, prio) == n->queued_class) {
		n->prio_pending = false;
		if (prio != n->t.prio)
			apply_prio(s, n, prio, now);
		return;
	}
	n->prio_pending = true;
	n->pending_prio = prio;
}

/*
 * The first scheduling event of a task, on `cpu` at now (the rq clock already updated):
 * zero sums dated now, or the seeded averages to be attached at its first enqueue.
 */
static void task_start(struct sched *s, struct task_node *n, int cpu, int prio, u64 now)
{
	struct task *p = &n->t;
	struct rq *rq = &s->rq[cpu];

	n->started = true;
	p->cpu = cpu;
	p->prio = prio;
	p->weight = prio_to_weight(prio);
	p->is_governor = is_governor_comm(p->comm);
	p->is_stopper = is_stopper_comm(p->comm);
	p->class = task_class(p, prio);
	n->queued_class = p->class;
	if (n->seeded) {
		n->absorb = true;
		/* the seed's load sum was made at the nice-0 weight (its prio was not known) */
		n->seed.load_sum = n->seed.load_sum * TASK_SE_WEIGHT / p->weight;
		if (n->seed_dated && n->seed.last_update_time < rq_clock_pelt(&rq->clock))
			__update_load_avg_blocked_se(rq_clock_pelt(&rq->clock), &n->seed,
						     p->weight);
		p->avg = n->seed;
		p->avg.last_update_time = 0;
		s->stats.seeded++;
	} else {
		memset(&p->avg, 0, sizeof(p->avg));
		pelt_start_on_grid(&p->avg, rq_clock_pelt(&rq->clock));
	}
	s->stats.tasks++;
	if (s->hooks.task_new)
		s->hooks.task_new(s->hooks.ctx, p, now);
}

/* p is running on its CPU in the model but the trace says otherwise: put it back queued. */
static void unrun(struct sched *s, struct task_node *n, u64 now)
{
	struct rq *rq = &s->rq[n->t.cpu];
	enum sched_class_id c = n->queued_class;

	update_rq_clock(rq, now);
	put_prev_task(s, rq, n);
	rq_enter_idle(s, rq, c);
}

/* Bring n onto cpu's runqueue (queued, not running), whatever the model thought. */
static void make_queued_on(struct sched *s, struct task_node *n, int cpu, u64 now)
{
	struct task *p = &n->t;

	if (p->running && p->cpu != cpu) {
		s->stats.switch_next_elsewhere++;
		unrun(s, n, now);
	}
	if (p->cpu != cpu && p->cpu >= 0) {
		s->stats.implicit_migration++;
		settle_delayed(s, n, now);
		if (p->on_rq)
			migrate_queued(s, n, cpu, now);
		else
			migrate_sleeping(s, n, cpu, now);
	}
	p->cpu = cpu;
	if (!p->on_rq) {
		s->stats.implicit_enqueue++;
		apply_pending_prio(s, n, now);
		enqueue_task(s, &s->rq[cpu], n);
		task_event(s, p, cpu, TASK_EV_WAKEUP, now);
	}
}

/* ---- event handlers -------------------------------------------------------------------------- */

static int check_cpu(const struct sched *s, const struct event *ev, int cpu,
		     struct gs_error *err)
{
	if (cpu >= 0 && cpu < s->cfg.nr_cpus)
		return 0;
	return gs_error_set(err, GS_ETRACE, "%s at line %llu: cpu %d outside 0..%d",
			    event_type_name(ev->type), (unsigned long long)ev->line, cpu,
			    s->cfg.nr_cpus - 1);
}

/*
 * A CPU whose first event switches a new task out ran it since the start (the model's first
 * event, t0). Its PELT starts then: the rq clock may have moved past t0 meanwhile (the CPU's
 * ticks, with nothing known to run), so the task's window, and the root cfs_rq's while it
 * holds nothing, are dated back to t0 on the PELT clock (which an idle rq keeps equal to its
 * task clock). Its CPU's ticks since t0 updated its signals (entity_tick: update_load_avg,
 * which also clears util_est's UTIL_AVG_UNCHANGED): one update now stands for them when a
 * tick fell in the run. The hooks that carry a time (cpufreq, task_event) stay quiet.
 */
static bool task_tick(struct sched *s, int cpu, u64 now_ns);

static void switch_ran_since_start(struct sched *s, struct rq *rq, struct task_node *prev,
				   int prio, u64 now)
{
	u64 t0 = s->start_ns < now ? s->start_ns : now, back, pelt_t0;
	struct sched_avg *cfs = &rq->cfs.avg;

	s->mute = true;
	update_rq_clock(rq, t0);
	back = rq->clock.clock_task > t0 ? rq->clock.clock_task - t0 : 0;
	pelt_t0 = rq_clock_pelt(&rq->clock) > back ? rq_clock_pelt(&rq->clock) - back : 1;
	prev->t.ran_since_start = true;
	task_start(s, prev, rq->cpu, prio, t0);
	enqueue_task(s, rq, prev);
	set_next_task(s, rq, prev, SCHED_CLASS_IDLE);
	if (prev->queued_class == SCHED_CLASS_CFS && prev->t.avg.last_update_time &&
	    !prev->t.avg.util_sum && !prev->t.avg.load_sum) {
		pelt_start_on_grid(&prev->t.avg, pelt_t0);
		if (!cfs->util_sum && !cfs->load_sum && !cfs->runnable_sum)
			pelt_start_on_grid(cfs, pelt_t0);
	}
	if (now - t0 >= NSEC_PER_SEC / (u64)(s->cfg.hz > 0 ? s->cfg.hz : 250))
		(void)task_tick(s, rq->cpu, now);
	s->mute = false;
	s->stats.started_running++;
}

/* try_to_block_task(): a special state (stopped T, traced t, dead X or Z, parked P; frozen is
 * not traced) is never delayed (Debian 6.12 core.c l.6555, is_special_task_state()). */
static int switch_flags(u32 prev_state)
{
	return DEQUEUE_SLEEP | (prev_state & TASK_STATE_SPECIAL ? DEQUEUE_SPECIAL : 0);
}

/* try_to_block_task() -> block_task(): prev, still the running task, leaves its runqueue. */
static void deactivate_prev(struct sched *s, struct rq *rq, struct task_node *prev, u32 state,
			    u64 now)
{
	if (!s->cfg.iowait_traced)
		prev->t.in_iowait = (state & TASK_STATE_D) != 0;
	dequeue_task(s, rq, prev, switch_flags(state), now);
}

/* A switch marked TASK_STATE_BLOCK_EARLY: __schedule()'s dequeue of its prev, ahead of it.
 * Prev stays current until the switch, which only puts it; 0, and nothing if not running. */
static int block_early(struct sched *s, const struct event *ev, u64 now_ns)
{
	struct task_node *n = ev->sw.prev_pid > 0 ? node_find(s, ev->sw.prev_pid) : NULL;
	struct rq *rq = ev->cpu >= 0 && ev->cpu < s->cfg.nr_cpus ? &s->rq[ev->cpu] : NULL;

	if (!n || !rq || rq->curr != &n->t || !n->t.on_rq || !switch_prev_sleeps(ev->sw.prev_state))
		return 0;
	update_rq_clock(rq, switch_clock(s, rq, n, now_ns, false));
	deactivate_prev(s, rq, n, ev->sw.prev_state, now_ns);
	/* the pick before the balance (v6.12+): no runnable fair task is left, so it dequeues
	 * every delayed one, prev too if it was delayed */
	if (s->eevdf)
		pick_delayed_fair(s, rq);
	return 0;
}

/* __schedule()'s switch out of prev: deactivate_task() when it sleeps, then put_prev_task()
 * in the pick. The class it was queued in. */
static enum sched_class_id switch_out(struct sched *s, struct rq *rq, struct task_node *prev,
				      const struct event *ev, u64 now)
{
	struct task *p = &prev->t;
	enum sched_class_id prev_class = prev->queued_class;

	if (switch_prev_sleeps(ev->sw.prev_state)) {
		if (p->on_rq) /* else dequeued before the newidle balance: block_early() */
			deactivate_prev(s, rq, prev, ev->sw.prev_state, now);
		put_prev_task(s, rq, prev);
		see_prio(s, prev, ev->sw.prev_prio, now);
		task_event(s, p, rq->cpu, TASK_EV_SLEEP, now);
	} else {
		put_prev_task(s, rq, prev);
		see_prio(s, prev, ev->sw.prev_prio, now);
		task_event(s, p, rq->cpu, TASK_EV_PREEMPT, now);
	}
	return prev_class;
}

/* A switch whose prev sleeps (S, D) and is still queued, running on this rq: its
 * __schedule() dequeues it and picks after reading the clock (no newidle probe has applied the
 * dequeue first): sleep_clock_lead_ns. A dying prev's switch follows its exit's own path; an
 * idle kthread's (I) kept the shorter lead: on the lab's corpus the sleep lead there matched
 * fewer decisions (docs/lab.md). */
static bool sleeping_switch(const struct rq *rq, const struct task_node *prev,
			    const struct event *ev)
{
	return prev && prev->t.on_rq && rq->curr == &prev->t &&
	       (ev->sw.prev_state & (TASK_STATE_S | TASK_STATE_D));
}

static int handle_switch(struct sched *s, const struct event *ev, u64 now, struct gs_error *err)
{
	int cpu = ev->cpu, ret;
	struct rq *rq;
	struct task_node *prev = NULL, *next = NULL;
	enum sched_class_id prev_class = SCHED_CLASS_IDLE;

	ret = check_cpu(s, ev, cpu, err);
	if (ret)
		return ret;
	rq = &s->rq[cpu];
	s->pick_due_mask &= ~(1ull << cpu); /* this switch's __schedule() is the pick that was due */

	if (ev->sw.prev_pid > 0) {
		prev = node_get(s, ev->sw.prev_pid, ev->sw.prev_comm, now);
		if (!prev)
			return gs_error_set(err, GS_ENOMEM, "out of memory for tasks");
		prev->waking = false;
	}
	if (ev->sw.next_pid > 0) {
		next = node_get(s, ev->sw.next_pid, ev->sw.next_comm, now);
		if (!next)
			return gs_error_set(err, GS_ENOMEM, "out of memory for tasks");
	}

	if (prev && !prev->started && !rq->seen && !is_governor_comm(prev->t.comm))
		switch_ran_since_start(s, rq, prev, ev->sw.prev_prio, now);
	rq->seen = true;
	/* __schedule(): clock_update_flags <<= 1 turns a requested skip into RQCF_ACT_SKIP, and
	 * update_rq_clock() then does nothing: put_prev/set_next_entity's PELT updates see the
	 * clock of the wakeup (or of a tick since), so they decay nothing and kick no governor
	 * that the wakeup's own update did not (kernel/sched/core.c, v4.19 to 7.2). Where the trace
	 * shows the switch's clock (its hook call), that is the kernel's: a skip requested at a
	 * wakeup can have been spent by a __schedule() that picked the running task again, which
	 * traces no switch. */
	if (!rq->clock_skip_req || s->event_clock)
		update_rq_clock(rq, switch_clock(s, rq, prev, now, sleeping_switch(rq, prev, ev)));
	rq->clock_skip_req = false;

	if (prev && !prev->started)
		task_start(s, prev, cpu, ev->sw.prev_prio, now);
	if (next && !next->started)
		task_start(s, next, cpu, ev->sw.next_prio, now);
	if (next && next->t.is_governor)
		s->stats.governor_switches++;

	/* the trace is trusted: make the model's running task the traced prev */
	if (rq->curr != (prev ? &prev->t : NULL)) {
		s->stats.switch_prev_mismatch++;
		if (rq->curr)
			unrun(s, node_of(rq->curr), now);
		if (prev) {
			see_prio(s, prev, ev->sw.prev_prio, now);
			make_queued_on(s, prev, cpu, now);
			update_rq_clock(rq, event_clock(s, now, s->cfg.switch_clock_lead_ns));
			set_next_task(s, rq, prev, SCHED_CLASS_IDLE);
		}
	}

	if (prev)
		prev_class = switch_out(s, rq, prev, ev, now);

	/* the fair class's pick, where the trace shows one (a fair next, or idle): it dequeues
	 * the delayed tasks it would choose before next (v6.12+) */
	if (s->eevdf && (!next || next->t.class == SCHED_CLASS_CFS))
		pick_delayed_fair(s, rq);

	/* switch in */
	if (next) {
		if (next->t.running && next->t.cpu == cpu) /* prev == next: stays */
			return 0;
		see_prio(s, next, ev->sw.next_prio, now);
		make_queued_on(s, next, cpu, now);
		set_next_task(s, rq, next, prev_class);
		task_event(s, &next->t, cpu, TASK_EV_SWITCH_IN, now);
	} else if (prev) {
		if (s->hooks.newidle)
			s->hooks.newidle(s->hooks.ctx, cpu, (ev->sw.prev_state & TASK_STATE_EXIT) != 0,
					 now, rq->clock.clock_task);
		rq_enter_idle(s, rq, prev_class);
	}
	return 0;
}

static int handle_wakeup(struct sched *s, const struct event *ev, u64 now, bool new_task,
			 struct gs_error *err)
{
	struct task_node *n;
	struct task *p;
	struct rq *rq;
	int cpu = ev->wake.target_cpu, ret;
	bool fresh;

	if (ev->wake.pid <= 0)
		return 0;
	n = node_get(s, ev->wake.pid, ev->wake.comm, now);
	if (!n)
		return gs_error_set(err, GS_ENOMEM, "out of memory for tasks");
	p = &n->t;
	n->waking = false;
	if (cpu < 0) /* a format without target_cpu: the task's CPU, else the recording CPU */
		cpu = p->cpu >= 0 ? p->cpu : ev->cpu;
	ret = check_cpu(s, ev, cpu, err);
	if (ret)
		return ret;
	rq = &s->rq[cpu];

	fresh = !n->started;
	if (fresh) {
		rq->seen = true;
		update_rq_clock(rq, event_clock(s, now, s->cfg.wakeup_clock_lead_ns));
		task_start(s, n, cpu, ev->wake.prio, now);
	}
	governor_wakeup(s, n, fresh && new_task, ev->wake.prio, now);
	if (p->is_governor) {
		/* the kthread's wakeup reads the target rq's clock and preempts its task (a DL task
		 * above every CFS and RT one: resched_curr(), then rq_clock_skip_update()), so the
		 * kthread's run is accounted from that clock; its enqueue waits for its switch */
		update_rq_clock(rq, event_clock(s, now, s->cfg.wakeup_clock_lead_ns));
		if (!rq->curr || (rq->curr != p && s->cfg.preempt_traced && ev->cpu == cpu &&
				  ev->wake.resched))
			rq->clock_skip_req = true;
		return 0;
	}
	/* wakeup_preempt() (check_preempt_curr() before v6.7), for ttwu_runnable()'s task too:
	 * "if (task_on_rq_queued(rq->curr) && test_tsk_need_resched(rq->curr))
	 * rq_clock_skip_update(rq);" (kernel/sched/core.c, Debian 5.10 to 7.2). sched_wakeup is
	 * traced after it, so its flags show TIF_NEED_RESCHED of the target's current task where
	 * the target CPU printed it (the waker there, or the wakeup IPI); sched_wakeup_new is
	 * traced before it, so there only a mark already set shows. A task woken while it runs
	 * has no preemption test. */
	if (rq->curr && rq->curr != p && s->cfg.preempt_traced && ev->cpu == cpu && ev->wake.resched)
		rq->clock_skip_req = true;
	if (p->on_rq) {
		s->stats.wakeup_on_rq++;
		see_prio(s, n, ev->wake.prio, now);
		return 0;
	}
	see_prio(s, n, ev->wake.prio, now);
	if (p->cpu >= 0 && p->cpu != cpu) {
		s->stats.implicit_migration++;
		settle_delayed(s, n, now);
		migrate_sleeping(s, n, cpu, now);
	}
	p->cpu = cpu;
	rq->seen = true;
	/* try_to_wake_up()'s update_rq_clock() before the enqueue: wakeup_clock_lead_ns */
	update_rq_clock(rq, event_clock(s, now, s->cfg.wakeup_clock_lead_ns));
	if (new_task && fresh && !n->seeded)
		post_init_entity_util_avg(s, rq, p);
	enqueue_task(s, rq, n);
	/* check_preempt_curr(): a task woken onto an idle CPU always preempts the idle task,
	 * which is queued, so the skip is requested (whether a busy CPU's task is preempted,
	 * the trace does not say until its switch) */
	if (!rq->curr)
		rq->clock_skip_req = true;
	task_event(s, p, cpu, TASK_EV_WAKEUP, now);
	return 0;
}

static int handle_migrate(struct sched *s, const struct event *ev, u64 now, struct gs_error *err)
{
	struct task_node *n;
	struct task *p;
	int dst = ev->migrate.dest_cpu, ret;

	if (ev->migrate.pid <= 0)
		return 0;
	ret = check_cpu(s, ev, ev->migrate.orig_cpu, err);
	if (!ret)
		ret = check_cpu(s, ev, dst, err);
	if (ret)
		return ret;
	n = node_get(s, ev->migrate.pid, ev->migrate.comm, now);
	if (!n)
		return gs_error_set(err, GS_ENOMEM, "out of memory for tasks");
	p = &n->t;
	if (!n->started) {
		s->rq[dst].seen = true;
		update_rq_clock(&s->rq[dst], now);
		task_start(s, n, dst, ev->migrate.prio, now);
		if (!p->is_governor)
			task_event(s, p, dst, TASK_EV_MIGRATE, now);
		return 0;
	}
	if (p->is_governor) {
		p->cpu = dst;
		return 0;
	}
	if (ev->migrate.prio >= 0 && ev->migrate.prio != p->prio)
		see_prio(s, n, ev->migrate.prio, now); /* set on its old CPU, before the move */
	if (p->cpu != ev->migrate.orig_cpu)
		s->stats.migrate_orig_mismatch++;
	if (p->cpu == dst)
		return 0;
	if (p->running) {
		s->stats.switch_prev_mismatch++;
		unrun(s, n, now);
	}
	if (s->eevdf && n->queued_class == SCHED_CLASS_CFS && s->saw_waking && !n->waking &&
	    !p->on_rq && (ev->migrate.irq & (EV_IRQ_SOFT | EV_IRQ_HARD)) &&
	    (task_delayed(p) || (p->cpu >= 0 && p->avg.last_update_time))) {
		migrate_balanced_asleep(s, n, dst, now);
		return 0;
	}
	settle_delayed(s, n, now);
	if (p->on_rq)
		migrate_queued(s, n, dst, now);
	else if (s->saw_waking && !n->waking && p->class == SCHED_CLASS_CFS && p->cpu >= 0 &&
		 p->avg.last_update_time) {
		migrate_parked(s, n, dst, now);
		eevdf_newidle_pulled(s, p);
	} else
		migrate_sleeping(s, n, dst, now);
	task_event(s, p, dst, TASK_EV_MIGRATE, now);
	return 0;
}

int sched_note_waking(struct sched *s, s32 pid, int prio, u64 now)
{
	struct task_node *n = pid > 0 ? node_find(s, pid) : NULL;

	s->saw_waking = true;
	if (!n)
		return 0;
	n->waking = true;
	if (n->governor_cfs && prio < 0) /* the setattr just before wake_up_process() */
		governor_setattr(s, n, prio, now);
	else if (n->started && prio >= 0 && prio != n->t.prio && !n->t.is_governor)
		see_prio(s, n, prio, now); /* a nice or class set before the wakeup (-1: none) */
	return 0;
}

/*
 * A task switched out to die (do_task_dead()): its util leaves its CPU's cfs_rq
 * (task_dead_fair), and once off every runqueue its owner may keep what its results need and
 * the state is freed, so a trace of a million short-lived pids holds one at a time.
 */
/*
 * sched_move_task() as sched_autogroup_exit_task() calls it from do_exit() (kernel/sched/core.c
 * and autogroup.c, v5.10 to Debian 7.2, CONFIG_SCHED_AUTOGROUP=y): under the rq lock, the
 * running task is dequeued (DEQUEUE_SAVE | DEQUEUE_MOVE: not a sleep, util_est taken off),
 * put, moved (task_change_group_fair: detach and attach, one cpufreq kick each), enqueued back
 * and set as next. The kernel's three kicks at one rq clock -- the dequeue's decay, the
 * detach without the task's util, the attach with it -- are what a governor without a rate
 * limit (v6.9+ defaults on acpi-cpufreq) acts on. Differences: the group is the root cfs_rq
 * (no task groups); a task the model does not have running on cpu is left alone.
 */
void sched_task_exiting(struct sched *s, int cpu, s32 pid, u64 now_ns)
{
	struct task_node *n = node_find(s, pid);
	struct rq *rq;

	if (!s->cfg.sched_autogroup || !n || !n->started || !n->t.running || !n->t.on_rq ||
	    n->t.cpu != cpu || n->queued_class != SCHED_CLASS_CFS || n->t.is_governor ||
	    cpu < 0 || cpu >= s->cfg.nr_cpus)
		return;
	rq = &s->rq[cpu];
	update_rq_clock(rq, now_ns);
	dequeue_task(s, rq, n, 0, now_ns);
	put_prev_task(s, rq, n);
	if (n->t.class == SCHED_CLASS_CFS)
		task_change_group_fair(s, rq, &n->t);
	enqueue_task(s, rq, n);
	set_next_task(s, rq, n, SCHED_CLASS_CFS);
}

static void task_exit(struct sched *s, struct task_node *n, u64 now)
{
	if (n)
		settle_delayed(s, n, now);
	if (n && n->started && !n->t.on_rq && !n->t.running)
		task_dead_fair(s, &n->t);
	if (!n || !n->started || n->t.on_rq || n->t.running || n->t.is_governor ||
	    !s->hooks.task_exit || !s->hooks.task_exit(s->hooks.ctx, &n->t, now))
		return;
	node_free(s, n);
}

static int sched_event_at(struct sched *s, const struct event *ev, u64 now_ns,
			  struct gs_error *err)
{
	int ret;

	if (ev->type == EV_SWITCH && (ev->sw.prev_state & TASK_STATE_BLOCK_EARLY))
		return block_early(s, ev, now_ns);
	if (!s->have_start) {
		switch (ev->type) {
		case EV_SWITCH:
		case EV_WAKEUP:
		case EV_WAKEUP_NEW:
		case EV_MIGRATE:
			s->have_start = true;
			s->start_ns = now_ns;
			break;
		default:
			break;
		}
	}
	switch (ev->type) {
	case EV_SWITCH:
		ret = handle_switch(s, ev, now_ns, err);
		if (!ret && (ev->sw.prev_state & TASK_STATE_EXIT) && ev->sw.prev_pid > 0)
			task_exit(s, node_find(s, ev->sw.prev_pid), now_ns);
		return ret;
	case EV_WAKEUP:
		return handle_wakeup(s, ev, now_ns, false, err);
	case EV_WAKEUP_NEW:
		return handle_wakeup(s, ev, now_ns, true, err);
	case EV_MIGRATE:
		return handle_migrate(s, ev, now_ns, err);
	case EV_WAKING:
		return sched_note_waking(s, ev->wake.pid, ev->wake.prio, now_ns);
	case EV_PELT_SE:
	case EV_LOAD_SE:
	case EV_LOAD_AVG_TASK:
	case EV_UTIL_EST_SE:
		return s->cfg.start_from_trace_util ? start_task_from_trace_util(s, ev, err) : 0;
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
		return s->cfg.start_from_trace_util ? start_rq_from_trace_util(s, ev, now_ns) : 0;
	case EV_START_SE:
		return start_task_from_snapshot(s, ev, err);
	case EV_START_CFS:
		return start_rq_from_trace_util(s, ev, now_ns);
	default:
		return 0;
	}
}

int sched_event(struct sched *s, const struct event *ev, u64 now_ns, struct gs_error *err)
{
	int ret;

	if (s->event_clock > now_ns) /* a clock read after its event's stamp: not this event's */
		s->event_clock = 0;
	ret = sched_event_at(s, ev, now_ns, err);
	s->event_clock = 0;
	s->event_clock_bound = false;
	s->switch_anchor = 0;
	return ret;
}

/* ---- periodic updates ------------------------------------------------------------------------ */

/* curr's task_tick(): task_tick_fair/rt/dl; true when there was a task */
static bool task_tick(struct sched *s, int cpu, u64 now_ns)
{
	struct rq *rq;
	struct task_node *n;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return false;
	rq = &s->rq[cpu];
	update_rq_clock(rq, now_ns);
	if (!rq->curr)
		return false;
	n = node_of(rq->curr);
	switch (n->queued_class) {
	case SCHED_CLASS_CFS:
		task_tick_fair(s, rq, rq->curr);
		break;
	case SCHED_CLASS_RT:
		task_tick_rt(rq);
		break;
	case SCHED_CLASS_DL:
		task_tick_dl(rq);
		break;
	case SCHED_CLASS_STOP: /* task_tick_stop() does nothing */
	case SCHED_CLASS_IDLE:
		break;
	}
	return true;
}

void sched_tick(struct sched *s, int cpu, u64 now_ns)
{
	if (task_tick(s, cpu, now_ns))
		task_event(s, s->rq[cpu].curr, cpu, TASK_EV_TICK, now_ns);
}

/* hrtick() (kernel/sched/core.c, Debian 7.2): the donor's task_tick(queued=1), for a fair task
 * entity_tick() alone (task_tick_fair() returns before the per-tick rest: no TASK_EV_TICK). */
void sched_hrtick(struct sched *s, int cpu, u64 now_ns)
{
	(void)task_tick(s, cpu, now_ns);
}

void sched_set_freq_scale(struct sched *s, int cpu, u64 now_ns, unsigned long freq_scale)
{
	struct rq *rq;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return;
	rq = &s->rq[cpu];
	if (freq_scale == rq->freq_scale) /* a frequency-invariant CPU that did not move, or one
					   * that is not invariant: no clock read (sched.h) */
		return;
	update_rq_clock(rq, now_ns);
	rq->freq_scale = freq_scale;
	rq->pv.scale_freq = freq_scale;
}

struct uclamp_rq_pair *sched_cpu_uclamp(struct sched *s, int cpu)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return NULL;
	return &s->rq[cpu].uclamp;
}

void sched_task_uclamp_update(struct sched *s, struct task *p)
{
	struct task_node *n = node_of(p);

	if (!p->on_rq || p->cpu < 0 || !uclamp_class(n->queued_class))
		return;
	if (s->hooks.uclamp_dec)
		s->hooks.uclamp_dec(s->hooks.ctx, p->cpu, p);
	if (s->hooks.uclamp_inc)
		s->hooks.uclamp_inc(s->hooks.ctx, p->cpu, p);
}

/* ---- lifecycle ------------------------------------------------------------------------------- */

int sched_new(const struct sched_config *cfg, const struct sched_hooks *hooks, struct sched **out)
{
	struct sched *s;

	*out = NULL;
	if (!cfg || cfg->nr_cpus <= 0 || cfg->nr_cpus > GS_MAX_CPUS)
		return GS_EARG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return GS_ENOMEM;
	s->cfg = *cfg;
	if (s->cfg.hz <= 0)
		s->cfg.hz = 250;
	if (hooks)
		s->hooks = *hooks;
	util_est_cfg_from_profile(&s->ue, cfg->kernel);
	s->contrib_scaling = cfg->kernel && cfg->kernel->pelt_invariance == PELT_CONTRIB_SCALING;
	s->blocked_kick = !cfg->kernel || cfg->kernel->blocked_kick;
	s->idle_retain_tick = cfg->kernel && cfg->kernel->idle_retain_tick && !cfg->cpuidle_driver;
	s->post_init_se_weight = cfg->kernel && cfg->kernel->post_init_se_weight;
	s->post_init_attach_enqueue = cfg->kernel && cfg->kernel->post_init_attach_enqueue;
	s->detach_in_dequeue = cfg->kernel && cfg->kernel->detach_in_dequeue;
	s->migrate_pelt_lag = cfg->kernel && cfg->kernel->migrate_pelt_lag;
	s->eevdf = cfg->kernel ? cfg->kernel->eevdf_delay : EEVDF_DELAY_NONE;
	if (cfg->delay_dequeue < 0)
		s->eevdf = EEVDF_DELAY_NONE;
	else if (cfg->delay_dequeue > 0 && s->eevdf == EEVDF_DELAY_NONE)
		s->eevdf = EEVDF_DELAY_V6_12;
	s->eevdf_slice = eevdf_base_slice(cfg->nr_cpus);
	s->uclamp_inc_after_enqueue = cfg->kernel && cfg->kernel->uclamp_inc_after_enqueue;
	s->setattr_reweight_after_detach =
		cfg->kernel && cfg->kernel->setattr_reweight_after_detach;
	s->fair_server = cfg->kernel && cfg->kernel->fair_server;
	for (int i = 0; i < cfg->nr_cpus; i++) {
		struct rq *rq = &s->rq[i];

		rq->cpu = i;
		rq->cpu_capacity = cfg->capacity[i] ? cfg->capacity[i] : SCHED_CAPACITY_SCALE;
		rq->freq_scale = SCHED_CAPACITY_SCALE;
		rq->pv.contrib_scaling = s->contrib_scaling;
		rq->pv.scale_freq = rq->freq_scale;
		rq->pv.scale_cpu = rq->cpu_capacity;
		rq->pv.util_avg_unchanged = s->ue.flag;
		rq->pv.sum_sync = cfg->kernel ? cfg->kernel->pelt_sum_sync : PELT_SUMS_SUBTRACT;
		rq->idle_traced = cfg->idle_traced;
		if (cfg->has_rq_clock_offset)
			/* rq clock = trace time - offset: its phase is -offset mod the span */
			rq->clock.phase = (u64)((((s64)PELT_PHASE_SPAN -
						  cfg->rq_clock_offset_ns[i] % (s64)PELT_PHASE_SPAN)) %
						(s64)PELT_PHASE_SPAN);
	}
	if (table_grow(s) < 0) {
		free(s);
		return GS_ENOMEM;
	}
	*out = s;
	return 0;
}

void sched_free(struct sched *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_chunks; i++)
		free(s->chunks[i]);
	free(s->chunks);
	pid_table_free(&s->tasks_by_pid);
	free(s);
}
