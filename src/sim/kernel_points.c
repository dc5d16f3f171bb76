/*
 * kernel_points.c - the kernel's own update points where a trace shows them, in traced timing:
 * the scheduler tick (hrtimer_expire_entry) and the blocked-load refreshes (the lab's
 * update_blocked_averages probe, or softirq_entry of SCHED_SOFTIRQ). Each replaces the replay's
 * own model of it from its first event on (the tick grid of src/sim/sim.c sim_advance; the load
 * balancer's updates of balance.c). And the rq clock of a switch or a wakeup, where a traced call
 * of schedutil's hook shows it.
 */
#include "sim/sim_priv.h"

#include "sched/sched.h"

/* A kernel point on ev's CPU: the CPU checked and the loop advanced to ev's time (0), or the
 * error. */
static int to_point(struct sim *s, const struct event *ev, struct gs_error *err)
{
	if (sim_check_cpu(s, ev->cpu, ev, err))
		return GS_ETRACE;
	return sim_advance(s, ev->ts_ns, err);
}

/*
 * The scheduler's high-resolution tick (hrtimer_expire_entry of hrtick; kernel/sched/core.c
 * hrtick(), armed by hrtick_start_fair() at the running task's slice end while others are
 * queued, where sched_feat(HRTICK) is on: Debian 7.2): the donor's task_tick(queued=1), which
 * for a fair task updates its load (and calls cpufreq when a PELT period ended) and returns
 * before the rest of a tick; no load balancing, no idle-tick mark. Traced timing only.
 * Differences: a hrtick on a CPU the replay thinks idle is skipped.
 */
static int sim_feed_hrtick(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (s->work)
		return 0;
	if ((ret = to_point(s, ev, err)))
		return ret;
	if (!s->cpu[ev->cpu].busy)
		return 0;
	s->this_cpu = ev->cpu;
	sched_hrtick(s->sched, ev->cpu, ev->ts_ns);
	s->this_cpu = -1;
	sim_flush_freq(s);
	return 0;
}

/*
 * The kernel's own tick (hrtimer_expire_entry of tick_sched_timer): in traced timing, from the
 * first one on, the scheduler tick runs when the trace says, on the CPU that took it, instead of
 * on the replay's grid of TICK_NSEC multiples (whose phase the trace does not otherwise give,
 * and which a virtual machine's late timers do not keep). As on the grid, only a busy CPU's
 * tick updates its signals; then the load balancer's updates at a tick (balance.c).
 */
int sim_feed_tick(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (ev->timer.hrtick)
		return sim_feed_hrtick(s, ev, err);
	if (!ev->timer.sched_tick || s->work)
		return 0;
	if (sim_check_cpu(s, ev->cpu, ev, err))
		return GS_ETRACE;
	if (!s->traced_ticks) {
		s->traced_ticks = true;
		s->next_tick = NO_TIME;
	}
	ret = sim_advance(s, ev->ts_ns, err);
	if (ret)
		return ret;
	if (s->cpu[ev->cpu].busy) {
		s->this_cpu = ev->cpu;
		sched_tick(s->sched, ev->cpu, ev->ts_ns);
		s->this_cpu = -1;
	} else {
		sched_idle_tick(s->sched, ev->cpu, ev->ts_ns);
	}
	sim_balance_tick(s, ev->cpu, ev->ts_ns);
	sim_flush_freq(s);
	return 0;
}

/*
 * sched_process_exit under sched_autogroup: the exiting task's move to its group
 * (sched_task_exiting). do_exit() traces sched_process_exit first and moves the task later,
 * in sched_autogroup_exit_task() before exit_notify() (kernel/exit.c, Debian 5.10 to 7.2):
 * tens of microseconds to milliseconds later on the lab's guests, after exit_mm() and the
 * like. The move's detach and attach (and its dequeue, where that decayed the root) each call
 * schedutil's hook on the task's CPU, in its context, at one rq clock, where the task is in the
 * root group: two calls with one clock, which no other update of the exiting task makes (a
 * switch's or a wakeup's update calls the hook once; a newidle balance reads the clock anew).
 * Where the trace shows the hook (the lab's probes, the governor live on the CPU), sim_feed()
 * holds the exiting task's first such call (not one inside its sched_waking, until that task's
 * sched_wakeup: the enqueue's) until the CPU's next event says whether it is the move (the next
 * call, at the same clock) or another update's (anything else but the probes and PELT events
 * inside an update): the move is made at the first call, at its clock (rq_clock_offset_ns); if
 * the task dies first, at its last switch. Elsewhere it is made at the event's time. Traced
 * timing only: under work timing an exit is where the work ends.
 */
static int exit_move(struct sim *s, const struct event *ev, int cpu, s32 pid, u64 clock,
		     struct gs_error *err)
{
	int ret;

	if ((ret = to_point(s, ev, err)))
		return ret;
	s->this_cpu = cpu;
	sched_task_exiting(s->sched, cpu, pid, clock);
	s->this_cpu = -1;
	sim_flush_freq(s);
	return 0;
}

int sim_feed_exit(struct sim *s, const struct event *ev, struct gs_error *err)
{
	if (s->work || !s->cfg.sched_autogroup)
		return 0;
	if (s->clock_timing && s->cpu[ev->cpu].hooks_seen && ev->proc.pid > 0) {
		s->cpu[ev->cpu].exit_pid = ev->proc.pid;
		s->cpu[ev->cpu].exit_move = false;
		return 0;
	}
	return exit_move(s, ev, ev->cpu, ev->proc.pid, ev->ts_ns, err);
}

int sim_exit_move_point(struct sim *s, const struct event *ev, struct gs_error *err)
{
	struct sim_cpu *c;
	s32 pid;
	s64 t;

	if (!s->clock_timing)
		return 0;
	if (ev->type == EV_SWITCH && ev->sw.prev_pid > 0 && (ev->sw.prev_state & TASK_STATE_EXIT))
		for (int cpu = 0; cpu < s->plat->nr_cpus; cpu++)
			if (s->cpu[cpu].exit_pid == ev->sw.prev_pid) {
				s->cpu[cpu].exit_pid = 0;
				return exit_move(s, ev, cpu, ev->sw.prev_pid, ev->ts_ns, err);
			}
	if (ev->type != EV_GOV_HOOK || ev->hook.irq || ev->cpu < 0 || ev->cpu >= s->plat->nr_cpus)
		return 0;
	c = &s->cpu[ev->cpu];
	pid = c->exit_pid;
	if (!pid || ev->pid != pid || !c->exit_move || ev->hook.time != c->exit_move_time)
		return 0;
	c->exit_pid = 0;
	c->exit_move = false;
	c->moved_pid = pid;
	c->moved_time = ev->hook.time;
	t = (s64)ev->hook.time + s->cfg.rq_clock_offset_ns[ev->cpu];
	return exit_move(s, ev, ev->cpu, pid, t > 0 && (u64)t < ev->ts_ns ? (u64)t : ev->ts_ns,
			 err);
}

/*
 * The kernel's own blocked-load updates, where the trace shows them (traced timing). From the
 * first one on they replace the load balancer's updates of balance.c:
 * - update_blocked_averages(cpu) itself (the lab's kprobe event, recorded on the CPU that ran
 *   it): every call -- the CPU's own SCHED_SOFTIRQ, newidle_balance() before it idles, and
 *   the idle-load balancer's updates of other idle CPUs (remote: cpufreq_this_cpu_can_update()
 *   decides whether the hook acts);
 * - else softirq_entry of SCHED_SOFTIRQ (vec 7): where a refresh may happen, not what it
 *   refreshed; the load balancer's model decides that (balance.c sim_balance_softirq) and
 *   keeps the refreshes no softirq shows (a CPU going idle).
 * The update decays the CPU's rt, dl and cfs averages and calls cpufreq_update_util() when
 * one decayed (sched_update_blocked), so a later enqueue within the same 1024-us PELT period
 * does not kick the governor again -- as in the kernel.
 */
int sim_feed_blocked_update(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int cpu = ev->type == EV_BLOCKED_UPDATE ? ev->blocked.cpu : ev->cpu;
	int ret;

	if (s->work)
		return 0;
	if (ev->type == EV_SOFTIRQ_ENTRY && (ev->softirq.vec != SCHED_SOFTIRQ_VEC ||
					     s->traced_blocked == TRACED_BLOCKED_PROBE))
		return 0;
	if (sim_check_cpu(s, ev->cpu, ev, err) || sim_check_cpu(s, cpu, ev, err))
		return GS_ETRACE;
	if (ev->type == EV_BLOCKED_UPDATE)
		s->traced_blocked = TRACED_BLOCKED_PROBE;
	else if (s->traced_blocked == TRACED_BLOCKED_NONE)
		s->traced_blocked = TRACED_BLOCKED_SOFTIRQ;
	ret = sim_advance(s, ev->ts_ns, err);
	if (ret)
		return ret;
	if (ev->type == EV_SOFTIRQ_ENTRY) {
		sim_balance_softirq(s, cpu, ev->ts_ns);
	} else {
		s->this_cpu = ev->cpu;
		sched_update_blocked(s->sched, cpu, ev->ts_ns);
		s->this_cpu = -1;
	}
	sim_flush_freq(s);
	return 0;
}

int sim_feed_block_early(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (s->work)
		return 0;
	/* a task that dies before its exit's group move showed: the move first (as at the switch) */
	if ((ret = to_point(s, ev, err)) || (ret = sim_exit_move_point(s, ev, err)))
		return ret;
	sim_note_event_clock(s, ev);
	s->this_cpu = ev->cpu;
	ret = sched_event(s->sched, ev, ev->ts_ns, err);
	s->this_cpu = -1;
	sim_flush_freq(s);
	return ret;
}

/*
 * cpu_idle: an idle-loop entry counts for schedutil's busy hold (sched_cpu_idle_enter); in
 * traced timing with the trace's idle states, the CPU's idle state for the power model.
 */
int sim_feed_idle(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	if (sim_check_cpu(s, (int)ev->power.cpu_id, ev, err))
		return GS_ETRACE;
	sim_balance_cpu_event(s, (int)ev->power.cpu_id);
	if (!s->work && ev->type == EV_CPU_IDLE && ev->power.state != PWR_EVENT_EXIT) {
		ret = sim_advance(s, ev->ts_ns, err);
		if (ret)
			return ret;
		if (sched_cpu_idle_enter(s->sched, (int)ev->power.cpu_id))
			sim_balance_tick_stopped(s, (int)ev->power.cpu_id);
	} else if (!s->work && ev->type == EV_CPU_IDLE) {
		sched_cpu_idle_exit(s->sched, (int)ev->power.cpu_id, ev->power.resched != 0);
	}
	if (s->work || !s->cfg.has_traced_idle)
		return 0;
	ret = sim_advance(s, ev->ts_ns, err);
	if (ret)
		return ret;
	sim_cluster_flush(s, s->cpu[ev->power.cpu_id].cluster);
	s->cpu[ev->power.cpu_id].traced_idle =
		ev->power.state == PWR_EVENT_EXIT ? -1 : (int)ev->power.state;
	s->w_idle_seen |= 1ull << ev->power.cpu_id;
	sim_observers_cpu_state(&s->obs, s, (int)ev->power.cpu_id);
	return 0;
}

/*
 * The rq clock of a switch or a wakeup, where the trace shows it. __schedule() reads the rq
 * clock first (update_rq_clock()), dequeues a sleeping task, picks the next one (after a newidle
 * balance on a CPU about to idle) and only then traces sched_switch; try_to_wake_up() updates
 * the target's clock, enqueues and only then traces sched_wakeup (kernel/sched/core.c, v4.19 to
 * 7.2). Where that dequeue or enqueue updated the root cfs_rq, schedutil's hook ran inside, and
 * the lab's probe on it (EV_GOV_HOOK, time=) gives that clock: on a slow guest tens of us before
 * the stamp, run time the replay would otherwise count. The pairing (tools/lab/clock-lead's):
 *   - a hook call claims the next sched_switch, sched_wakeup or sched_wakeup_new its CPU
 *     traces; a sched_waking, sched_migrate_task, hrtimer_expire_entry, softirq_entry,
 *     sched_process_exit or cpu_idle of that CPU first ends the claim (other work, another
 *     clock read: a CPU that idles between has finished the work the hook ran in, and a
 *     wakeup onto it, from another CPU or by its wakeup IPI, updates the clock again:
 *     try_to_wake_up() / sched_ttwu_pending(), kernel/sched/core.c, Debian 5.10 to 7.2);
 *   - a switch takes it when the call was outside interrupts (a tick's, a wakeup's read their
 *     own clock) and the switch is not from idle (a wakeup onto an idle CPU asks __schedule()
 *     to skip its clock update: the clock stays the wakeup's);
 *   - a wakeup takes it as its target CPU's rq clock, unless the wakeup was traced in a hard
 *     interrupt and the call outside one (the wakeup IPI, or the interrupt, read its own clock:
 *     wakeup_may_claim());
 *   - an exiting task's move (sim_exit_move_point) makes its calls at one clock, the move's:
 *     they claim nothing (the task's dying __schedule() reads the clock again);
 *   - the clock maps to trace time by rq_clock_offset_ns of the CPU it belongs to; sched_event()
 *     ignores one after the event's stamp.
 * A wakeup without such a call whose sched_waking the same CPU traced (the waker did the work:
 * a local wakeup, ttwu_runnable(), or a remote one under the target's rq lock) read the clock
 * in ttwu_queue() (or ttwu_runnable()) right after select_task_rq() and set_task_cpu(), before
 * the enqueue and its tracepoints: it is dated waking_clock_lag_us after the sched_waking (the
 * lab's median, tools/lab/clock-lead waking; under TCG the enqueue takes 40-190 us of guest
 * time before sched_wakeup). The other events that end a hook call's claim end it too, except
 * its sched_migrate_task (set_task_cpu()). A wakeup traced by its target (the wakeup IPI's
 * sched_ttwu_pending() read the clock there) keeps its stamp.
 * Other switches and wakeups keep their stamps less switch_clock_lead_us / wakeup_clock_lead_us.
 * Traced timing only (in work timing the replay moves the events itself).
 */
/* Whether the pending hook call of c can be the update of wakeup ev: a wakeup traced in a hard
 * interrupt (the wakeup IPI's sched_ttwu_pending(), or an interrupt's own try_to_wake_up() ->
 * ttwu_queue()) read the rq clock itself there (update_rq_clock(), Debian 5.10 core.c l.2591 /
 * l.2721, 6.12 l.3783 / l.3967), so a call made outside hard interrupts was another update's. */
static bool wakeup_may_claim(const struct sim_cpu *c, const struct event *ev)
{
	return !(ev->wake.irq & EV_IRQ_HARD) || (c->hook_irq & EV_IRQ_HARD);
}

/* The events of a CPU that end a hook call's claim: the claimants and the other work. */
static bool ends_hook_claim(enum event_type t)
{
	switch (t) {
	case EV_SWITCH:
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
	case EV_MIGRATE:
	case EV_HRTIMER_EXPIRE:
	case EV_SOFTIRQ_ENTRY:
	case EV_PROCESS_EXIT:
	case EV_CPU_IDLE:
		return true;
	default:
		return false;
	}
}

/*
 * Whether ev is the lab's probe on update_blocked_averages() of another CPU than the one that
 * traces it: a refresh of an idle CPU's blocked load (update_nohz_stats() from the newidle
 * balance up to v5.12, the idle-load balance, v5.13+'s nohz_run_idle_balance() in the idle
 * task). Its update calls schedutil's hook of that CPU's rq, from this CPU, at that rq's clock
 * (cpufreq_update_util(rq, 0), kernel/sched/fair.c, Debian 5.10 to 7.2): the calls that follow
 * the probe, until this CPU's next own event, are that rq's.
 */
static bool foreign_blocked_update(const struct event *ev)
{
	return ev->type == EV_BLOCKED_UPDATE && ev->blocked.cpu != ev->cpu;
}

/* How long before its switch a hook call that first showed TIF_NEED_RESCHED is taken as the
 * slice end's (slice_end_outside()) */
#define SLICE_END_GAP_NS 40000

/*
 * Whether the hook call that would claim switch ev was instead made by an update of the running
 * task outside __schedule(), whose update_curr() found its slice ended and asked for the
 * reschedule this switch carries out (kernel_profile.slice_resched: resched_curr(), v6.6 to
 * v6.12). A task's own sched_setaffinity() dequeues and enqueues it (__do_set_cpus_allowed(),
 * kernel/sched/core.c): the lab's fork-exit children, taskset, do it before their exec. The
 * switch comes at the task's next preemption point, its return to user mode, and reads the
 * clock again: a preempted task's __schedule() calls the hook only at a clock of its own
 * (put_prev_entity() and set_next_entity() after update_rq_clock()).
 * Not where a wakeup asked that __schedule() to skip its clock update (rq_clock_skip_update()):
 * it runs at the clock last read, the call's, which then stands. So the call keeps its claim
 * where the replay knows of such a request, and where the next task is an RT or DL one (prio
 * under 100), whose wakeup preempted the fair prev, from whichever CPU it came.
 * The signs, in the trace: the call is in task context, the first event of its CPU since the
 * last switch to show TIF_NEED_RESCHED (the wakeups' and hook calls' flags; a tick's own call,
 * in its interrupt, shows it first where a tick ends the slice), the switch's prev is still
 * runnable, and it comes SLICE_END_GAP_NS or more later. On the lab's 6.12 PELT recordings,
 * where the next task's set_next_entity() update shows the switch's own clock, 42 of the 49
 * such calls 40 us or more before their switch were not the switch's (its clock was later);
 * the 11 within 40 us all were.
 */
static bool slice_end_outside(const struct sim *s, const struct sim_cpu *c, const struct event *ev)
{
	return s->kp->slice_resched == SLICE_RESCHED_FULL && c->hook_resched_first &&
	       !switch_prev_sleeps(ev->sw.prev_state) && ev->sw.next_prio >= 100 &&
	       ev->ts_ns - c->hook_stamp >= SLICE_END_GAP_NS &&
	       !sched_clock_skip_pending(s->sched, ev->cpu);
}

u64 sim_traced_clock(const struct sim *s, int cpu, u64 rq_clock, u64 stamp)
{
	s64 t;

	if (!s->cfg.has_rq_clock_offset || cpu < 0 || cpu >= s->plat->nr_cpus)
		return stamp;
	t = (s64)rq_clock + s->cfg.rq_clock_offset_ns[cpu];
	return t > 0 && (u64)t <= stamp ? (u64)t : stamp;
}

/*
 * What the events of c say about the update they come from (sim_note_event_clock()); true
 * when ev says nothing more:
 * - a blocked-load refresh of another CPU makes the hook calls after it that CPU's
 *   (foreign_blocked_update());
 * - the first PELT or util_est event of c's own rq that c traces in task context since its
 *   last event that ends a hook call's claim came from inside the __schedule() whose switch
 *   comes next, after its clock read (its dequeue's or put_prev_entity()'s update,
 *   kernel/sched/core.c, fair.c, Debian 5.10 to 7.2): that switch, unless a traced clock
 *   dates it, is dated pelt_event_lead_us before it, not its stamp less the lead. The lab's
 *   PELT recordings print two to five such events inside a switch, 15 to 50 us each under
 *   TCG: time the guest spent after the clock read that a recording without them does not.
 *   A dying prev's switch keeps its own path (its exit's updates come first);
 * - the first root sched_util_est_cfs since then is an enqueue's util_est_enqueue(), the
 *   first update after try_to_wake_up() read the clock: a wakeup in the same context onto
 *   that rq is dated pelt_event_lead_us before it (a hook call of its own, or its
 *   sched_waking's lag, still dates it instead: sim_note_event_clock()).
 */
/* The rq clock of an update whose first PELT print is stamped at `print` (note_update_context()) */
static u64 pelt_print_clock(const struct sim *s, u64 print)
{
	return print > s->cfg.pelt_event_lead_ns ? print - s->cfg.pelt_event_lead_ns : 0;
}

static bool note_update_context(struct sim *s, struct sim_cpu *c, const struct event *ev)
{
	if (ev->type == EV_BLOCKED_UPDATE) {
		c->hook_foreign = foreign_blocked_update(ev);
		return true;
	}
	if (event_is_pelt(ev->type)) {
		if (!ev->util.irq && !c->pelt_first && (ev->util.cpu < 0 || ev->util.cpu == ev->cpu))
			c->pelt_first = ev->ts_ns;
		if (ev->type == EV_UTIL_EST_CFS && ev->util.path == EV_PATH_ROOT &&
		    !c->enqueue_first) {
			c->enqueue_first = ev->ts_ns;
			c->enqueue_irq = ev->util.irq;
			c->enqueue_rq = ev->util.cpu;
		}
		return true;
	}
	if (ev->type == EV_SWITCH && c->pelt_first && ev->sw.prev_pid > 0 &&
	    !(ev->sw.prev_state & TASK_STATE_EXIT))
		sched_anchor_switch_clock(s->sched, pelt_print_clock(s, c->pelt_first));
	if (ev->type == EV_GOV_HOOK && c->hook_foreign)
		return true;
	if ((ev->type == EV_WAKEUP || ev->type == EV_WAKEUP_NEW) && c->enqueue_first &&
	    c->enqueue_irq == ev->wake.irq && c->enqueue_rq == ev->wake.target_cpu)
		sched_set_event_clock(s->sched, pelt_print_clock(s, c->enqueue_first));
	if (ends_hook_claim(ev->type)) {
		c->hook_foreign = false;
		c->pelt_first = 0;
		c->enqueue_first = 0;
	}
	return false;
}

void sim_note_event_clock(struct sim *s, const struct event *ev)
{
	struct sim_cpu *c;
	int owner;
	s64 t;

	if (!s->clock_timing || ev->cpu < 0 || ev->cpu >= s->plat->nr_cpus)
		return;
	c = &s->cpu[ev->cpu];
	if (ev->type == EV_SWITCH && c->hooks_seen) {
		/* unless a hook call claims it, this __schedule()'s updates ended no PELT period
		 * since the CPU's last hook call (sched_bound_event_clock()) */
		sched_bound_event_clock(s->sched, c->hook_clock);
	} else if (ev->type == EV_GOV_HOOK) {
		t = (s64)ev->hook.time + s->cfg.rq_clock_offset_ns[ev->cpu];
		c->hook_clock_before = c->hook_clock;
		c->hook_clock = t > 0 ? (u64)t : 0;
	}
	if (note_update_context(s, c, ev))
		return;
	if (event_is_wake(ev->type) && ev->wake.resched)
		c->resched_shown = true;
	if (ev->type == EV_WAKING) {
		c->waking_pid = ev->wake.pid;
		c->waking_ts = ev->ts_ns;
	} else if (ev->type == EV_WAKEUP && c->waking_pid > 0 && ev->wake.pid == c->waking_pid &&
		   (!c->hook_pending || !wakeup_may_claim(c, ev))) {
		c->waking_pid = 0;
		sched_set_event_clock(s->sched, c->waking_ts + s->cfg.waking_clock_lag_ns);
		return;
	} else if (ends_hook_claim(ev->type) && ev->type != EV_MIGRATE) {
		c->waking_pid = 0;
	}
	if (ev->type == EV_GOV_HOOK) {
		c->hooks_seen = true;
		/* the exit move's calls (its dequeue's, detach's, attach's) were the move's: the
		 * task's dying switch reads a clock of its own (tests/golden/exit_move_final_run.sh) */
		if (c->moved_pid && ev->pid == c->moved_pid && !ev->hook.irq &&
		    ev->hook.time == c->moved_time) {
			c->hook_pending = false;
			return;
		}
		c->hook_pending = true;
		c->hook_irq = ev->hook.irq;
		c->hook_time = ev->hook.time;
		c->hook_stamp = ev->ts_ns;
		c->hook_resched_first = ev->hook.resched && !c->resched_shown && !c->hook_irq;
		if (ev->hook.resched)
			c->resched_shown = true;
		return;
	}
	if (ev->type == EV_SWITCH)
		c->resched_shown = false;
	if (!c->hook_pending || !ends_hook_claim(ev->type))
		return;
	c->hook_pending = false;
	if (ev->type == EV_SWITCH)
		owner = !c->hook_irq && ev->sw.prev_pid > 0 && !slice_end_outside(s, c, ev) ? ev->cpu
											    : -1;
	else if ((ev->type == EV_WAKEUP || ev->type == EV_WAKEUP_NEW) && wakeup_may_claim(c, ev))
		owner = ev->wake.target_cpu;
	else
		return;
	if (owner < 0 || owner >= s->plat->nr_cpus)
		return;
	if (owner != ev->cpu) /* another CPU's enqueue: not an update of this CPU's rq */
		c->hook_clock = c->hook_clock_before;
	t = (s64)c->hook_time + s->cfg.rq_clock_offset_ns[owner];
	if (t > 0) /* the claimant is the next event fed; nothing between reads the event clock */
		sched_set_event_clock(s->sched, (u64)t);
}

/*
 * Holds: where the trace shows an event before the moment the kernel acted on it, sim_feed()
 * holds the events from it until its CPU's next event that says when (traced timing):
 *
 * - The newidle order. __schedule() (kernel/sched/core.c, Debian 5.10 to 6.12) reads the rq
 *   clock, dequeues a prev that sleeps (deactivate_task(): its util_est leaves the root cfs_rq,
 *   it stops being runnable), then picks; with no task left to run, pick_next_task_fair() runs
 *   the newidle balance (sched_balance_newidle(), newidle_balance() before v6.10), whose
 *   update_blocked_averages() of the CPU calls cpufreq_update_util(), and which then pulls
 *   tasks from busier CPUs (sched_balance_rq(): detach_tasks() and attach_tasks(), each
 *   sched_migrate_task traced here, each attach a cpufreq call); only after the pick is
 *   sched_switch traced. The lab's probe on update_blocked_averages in task context, on its
 *   own CPU, is that balance. If its CPU's next event (schedutil's probes, cpu_frequency and
 *   PELT events apart, and the migrations of the tasks the balance pulls to it) is the
 *   sched_switch of a prev that sleeps or dies (try_to_block_task(): a special state is
 *   dequeued at once, v6.12+ never delayed), prev's dequeue is applied first, dated at the
 *   probe's stamp (the dequeue's clock is no later), and with it, from v6.12, the pick that
 *   found no runnable task before the balance (it dequeues the delayed ones): the balance
 *   and each pulled task's attach read the CPU without prev's util_est and runnable, and
 *   prev's dequeue sees none of the pulled tasks queued (whether it is eligible, or delayed).
 *   The switch stays where the trace has it (its copy marked TASK_STATE_BLOCK_EARLY only
 *   dequeues prev, in sched_event(); the switch itself then only puts prev,
 *   and picks next, perhaps a pulled task), and so does a dying prev's death
 *   (finish_task_switch(): task_dead_fair() takes its util off the cfs_rq after the balance).
 * - The newidle pull without the probe (7.2's newidle refresh,
 *   __sched_balance_update_blocked_averages() at __schedule()'s clock, is not probed; nor are
 *   most traces): a sched_migrate_task of a task to the CPU that traces it, followed on that
 *   CPU (the events above and further pulls apart) by the sched_switch of a prev that sleeps
 *   or dies, is such a pull, made after prev's dequeue: that dequeue is applied first, dated
 *   at the first pull's stamp, as above. (A wakeup that moves its task to the waker's CPU
 *   traces the migration too, and its sched_wakeup next: no dequeue moves.)
 * - The tick's and a refresh's clock. hrtimer_expire_entry of the tick (and of hrtick()) is
 *   traced when the timer fires, softirq_entry of SCHED_SOFTIRQ (and the probe on
 *   update_blocked_averages in it) when the softirq starts; sched_tick() and
 *   sched_balance_update_blocked_averages() read the rq clock after (update_rq_clock()), then
 *   call schedutil's hook with it (Debian 5.10 to 7.2). If the CPU's next event (as above) is
 *   the hook call, in an interrupt, at a clock between the stamps, the tick or the refresh is
 *   applied at that clock (rq_clock_traced, with rq_clock_offset_ns), after the events of
 *   other CPUs stamped before it; a hook call in task context is another update's.
 *
 * Then the held events are applied in time order. Differences: the dequeue's own clock is not
 * known, only bounded; beyond SIM_HOLD_MAX held events the holds end in trace order.
 */
enum { HOLD_NONE, HOLD_NEWIDLE, HOLD_TICK, HOLD_EXIT, HOLD_PULL };

/* Whether sim_feed() follows the exiting tasks whose move has not shown (sim_feed_exit). */
static bool holds_exits(const struct sim *s)
{
	return s->clock_timing && !s->work && s->cfg.sched_autogroup;
}

/*
 * Whether a wakeup of `wakee` onto `target`, made from `waker`, is enqueued by `waker` (its hook
 * calls then show there) rather than by the target's wakeup IPI: try_to_wake_up() ->
 * ttwu_queue_wakelist() -> ttwu_queue_cond() sends a wakeup onto another CPU of the same cache
 * through that CPU's wakelist when nothing is queued there, from v6.0
 * (kernel_profile.ttwu_wakelist_idle), and before only for a wakee still on its CPU
 * (WF_ON_CPU, Debian 5.10 core.c l.2683). A wakee the model has running on the target is such
 * a one: the trace shows its switch-out after the waking, but its __schedule() had dequeued it,
 * so the kernel's nr_running no longer counts it. Differences: the platform model has no cache
 * topology, so every CPU is taken to share the waker's last-level cache (the lab's guests do; on
 * a big.LITTLE phone a wakeup onto the other cluster always takes the wakelist); the kernel's
 * nr_running counts a v6.12+ delayed task, the model's does not.
 */
static bool waker_enqueues(const struct sim *s, s32 wakee, int target, int waker)
{
	const struct task *curr;
	unsigned int nr;

	if (target < 0 || target >= s->plat->nr_cpus || target == waker)
		return true;
	nr = sched_cpu_nr_running(s->sched, target);
	curr = sched_cpu_curr(s->sched, target);
	if (curr && curr->pid == wakee)
		return nr > 1;
	return !(s->kp && s->kp->ttwu_wakelist_idle) || nr;
}

/* sim_feed()'s view of those tasks: out of line, as most replays keep none. */
static __attribute__((noinline)) void hold_note_exit(struct sim *s, const struct event *ev)
{
	struct sim_hold_cpu *c;

	for (int cpu = 0; cpu < s->plat->nr_cpus; cpu++) {
		c = &s->hold.cpu[cpu];
		if (!c->exit_pid)
			continue;
		if ((ev->type == EV_WAKEUP || ev->type == EV_WAKEUP_NEW) &&
		    c->exit_woken == ev->wake.pid)
			c->exit_waking = c->exit_woken = 0;
		if (ev->type == EV_SWITCH && ev->sw.prev_pid == c->exit_pid &&
		    (ev->sw.prev_state & TASK_STATE_EXIT))
			c->exit_pid = 0;
	}
	if (ev->cpu < 0 || ev->cpu >= s->plat->nr_cpus)
		return;
	c = &s->hold.cpu[ev->cpu];
	if (ev->type == EV_PROCESS_EXIT && ev->proc.pid > 0) {
		c->exit_pid = ev->proc.pid;
		c->exit_waking = c->exit_woken = 0;
	} else if (ev->type == EV_WAKING && !ev->wake.irq && c->exit_pid && ev->pid == c->exit_pid) {
		/* target_cpu is the wakee's last CPU; a move elsewhere traces its migration next */
		c->exit_woken = ev->wake.pid;
		c->exit_waking = waker_enqueues(s, ev->wake.pid, ev->wake.target_cpu, ev->cpu)
				  ? ev->wake.pid
				  : 0;
	} else if (ev->type == EV_MIGRATE && c->exit_pid && c->exit_woken &&
		   ev->migrate.pid == c->exit_woken) {
		c->exit_waking = waker_enqueues(s, c->exit_woken, ev->migrate.dest_cpu, ev->cpu)
				  ? c->exit_woken
				  : 0;
	}
}

/* A newidle balance's pull: a task migrated to the CPU that traces it. */
static bool newidle_pull(const struct event *ev)
{
	return ev->type == EV_MIGRATE && ev->migrate.dest_cpu == ev->cpu;
}

/* The hold an event starts on its CPU. */
static int hold_kind(const struct sim *s, const struct event *ev)
{
	if (s->work || ev->cpu < 0 || ev->cpu >= s->plat->nr_cpus)
		return HOLD_NONE;
	if (ev->type == EV_GOV_HOOK && !ev->hook.irq && s->hold.cpu[ev->cpu].exit_pid &&
	    ev->pid == s->hold.cpu[ev->cpu].exit_pid && !s->hold.cpu[ev->cpu].exit_waking)
		return HOLD_EXIT;
	if (ev->type == EV_BLOCKED_UPDATE && ev->blocked.cpu == ev->cpu)
		return !ev->blocked.irq ? HOLD_NEWIDLE : s->clock_timing ? HOLD_TICK : HOLD_NONE;
	/* where the probe shows the newidle balance, a pull without it is not that balance's */
	if (newidle_pull(ev) &&
	    (s->traced_blocked != TRACED_BLOCKED_PROBE || s->kp->newidle_blocked_inner))
		return HOLD_PULL;
	if (!s->clock_timing)
		return HOLD_NONE;
	if (ev->type == EV_HRTIMER_EXPIRE)
		return ev->timer.sched_tick || ev->timer.hrtick ? HOLD_TICK : HOLD_NONE;
	return ev->type == EV_SOFTIRQ_ENTRY && ev->softirq.vec == SCHED_SOFTIRQ_VEC ? HOLD_TICK
										     : HOLD_NONE;
}

/* What a CPU traces inside a switch's balance, a tick or a refresh, around its hook call. */
static bool hold_inside(enum event_type t)
{
	switch (t) {
	case EV_GOV_HOOK:
	case EV_GOV_RAW_FREQ:
	case EV_GOV_IDLE_CALLS:
	case EV_CPU_FREQUENCY:
	case EV_PELT_CFS:
	case EV_PELT_RT:
	case EV_PELT_DL:
	case EV_PELT_IRQ:
	case EV_PELT_SE:
	case EV_UTIL_EST_CFS:
	case EV_UTIL_EST_SE:
		return true;
	default:
		return false;
	}
}

/* A switch out of a task that leaves its runqueue: it sleeps or dies (not preempted). */
static bool sleep_switch(const struct event *ev)
{
	return ev->type == EV_SWITCH && ev->sw.prev_pid > 0 &&
	       switch_prev_sleeps(ev->sw.prev_state);
}

/* Held event i (ev, just held) on a CPU whose hold it may decide; true while it still waits. */
static bool hold_decide(struct sim *s, struct sim_hold_cpu *c, int i)
{
	struct sim_held *h = &s->hold.ev[i];
	const struct event *ev = &h->ev;
	s64 t;

	if (c->kind == HOLD_EXIT) {
		const struct event *first = &s->hold.ev[c->at[0]].ev;

		if (ev->type == EV_GOV_HOOK && !ev->hook.irq && ev->pid == first->pid &&
		    ev->hook.time == first->hook.time) {
			s->cpu[ev->cpu].exit_move = true;
			s->cpu[ev->cpu].exit_move_time = first->hook.time;
			c->exit_pid = 0;
			return false;
		}
		return ev->type != EV_GOV_HOOK && hold_inside(ev->type);
	}
	if (c->kind == HOLD_NEWIDLE || c->kind == HOLD_PULL) {
		/* up to v5.12 the balance refreshes other idle CPUs' blocked load too, before the
		 * switch: load_balance() -> update_sd_lb_stats() -> update_nohz_stats(), or
		 * nohz_newidle_balance() (kernel/sched/fair.c, Debian 5.10.223 l.8699, l.10877) */
		if (hold_inside(ev->type) || newidle_pull(ev) ||
		    (foreign_blocked_update(ev) && !ev->blocked.irq))
			return true;
		if (sleep_switch(ev) && s->hold.n < SIM_HOLD_MAX) { /* prev's dequeue, ahead */
			struct sim_held *b = &s->hold.ev[s->hold.n++];

			*b = *h;
			b->ev.sw.prev_state |= TASK_STATE_BLOCK_EARLY;
			b->ev.ts_ns = s->hold.ev[c->at[0]].ev.ts_ns;
			b->order = s->hold.ev[c->at[0]].order - 1;
		}
		return false;
	}
	if (ev->type == EV_GOV_HOOK) {
		t = (s64)ev->hook.time + s->cfg.rq_clock_offset_ns[ev->cpu];
		if ((ev->hook.irq & (EV_IRQ_HARD | EV_IRQ_SOFT)) &&
		    t >= (s64)s->hold.ev[c->at[0]].ev.ts_ns && t <= (s64)ev->ts_ns)
			for (int k = 0; k < c->chain; k++)
				s->hold.ev[c->at[k]].ev.ts_ns = (u64)t;
		return false;
	}
	if (ev->type == EV_BLOCKED_UPDATE && ev->blocked.irq && ev->blocked.cpu == ev->cpu &&
	    c->chain == 1 && s->hold.ev[c->at[0]].ev.type == EV_SOFTIRQ_ENTRY) {
		c->at[c->chain++] = (unsigned char)i;
		return true;
	}
	return hold_inside(ev->type);
}

static int held_before(const struct sim_held *a, const struct sim_held *b)
{
	return a->ev.ts_ns != b->ev.ts_ns ? a->ev.ts_ns < b->ev.ts_ns : a->order < b->order;
}

int sim_feed_held(struct sim *s, struct gs_error *err)
{
	struct sim_hold *h = &s->hold;
	struct sim_held tmp;
	int i, j, n = h->n, ret = 0;

	for (i = 1; i < n; i++) { /* insertion sort: at most a few events move */
		tmp = h->ev[i];
		for (j = i; j > 0 && held_before(&tmp, &h->ev[j - 1]); j--)
			h->ev[j] = h->ev[j - 1];
		h->ev[j] = tmp;
	}
	h->n = 0;
	h->waiting = 0;
	for (i = 0; i < n && !ret; i++)
		ret = sim_feed_event(s, &h->ev[i].ev, err);
	return ret;
}

/* sim_feed() of an event that is held, or comes while some are: out of line, so that the
 * common event (nothing held) goes straight on to sim_feed_event(). */
static __attribute__((noinline)) int feed_holding(struct sim *s, const struct event *ev, int kind,
						  struct gs_error *err)
{
	struct sim_hold *h = &s->hold;
	int i, ret;
	struct sim_hold_cpu *c;
	u64 bit;

	if (h->n == SIM_HOLD_MAX && (ret = sim_feed_held(s, err)))
		return ret;
	i = h->n++;
	h->ev[i].ev = *ev;
	h->ev[i].order = 2 * (unsigned)i + 2; /* even: a moved switch goes just before one */
	bit = ev->cpu >= 0 && ev->cpu < GS_MAX_CPUS ? 1ull << ev->cpu : 0;
	if (h->waiting & bit) {
		c = &h->cpu[ev->cpu];
		if (!hold_decide(s, c, i))
			h->waiting &= ~bit;
		else
			kind = HOLD_NONE; /* part of the hold it waits on */
	}
	if (kind != HOLD_NONE && !(h->waiting & bit)) {
		c = &h->cpu[ev->cpu];
		c->kind = (unsigned char)kind;
		c->chain = 1;
		c->at[0] = (unsigned char)i;
		h->waiting |= bit;
	}
	return h->waiting ? 0 : sim_feed_held(s, err);
}

int sim_feed(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int kind;

	if (holds_exits(s))
		hold_note_exit(s, ev);
	kind = hold_kind(s, ev);
	if (!s->hold.n && kind == HOLD_NONE)
		return sim_feed_event(s, ev, err);
	return feed_holding(s, ev, kind, err);
}

/*
 * A dying task's task_dead_fair() (task_dead_irq_us). finish_task_switch() enables interrupts
 * (finish_lock_switch()) before it calls prev's task_dead() (kernel/sched/core.c, Debian 5.10
 * to 7.2): an interrupt pending at the dying switch runs first -- the tick, the SCHED softirq
 * on its way out and its blocked-load update, which still see the dead task's util
 * (remove_entity_load_avg() has not queued it). The trace does not show the call; the lab
 * measures how soon after a dying sched_switch such an interrupt is traced (task_dead_irq_us,
 * its facts). So: if the CPU's first event after the switch that says its context is an
 * interrupt's (the tick's hrtimer_expire_entry, softirq_entry, or a wakeup, blocked-load update
 * or hook call traced in one) within that time, the call waits for the CPU's next event in task
 * context (cpu_idle of the idle loop, a switch, a hook call outside interrupts); otherwise, or
 * once the time has passed (any CPU's event, or the loop's own updates), it is made then, which
 * is where the kernel's was for all the model can tell. Differences: an interrupt that came
 * just after the call, within the time, is taken as one before it; the wait ends at the latest
 * IRQ_CONTEXT_MAX_NS after the switch.
 */
/* The longest the model waits for a CPU's return to task context that the trace does not show
 * (a dying task's task_dead_fair(), a pick a balancer's softirq called for). */
#define IRQ_CONTEXT_MAX_NS 2000000ull

/* 1: ev on its CPU says it is in an interrupt, 0: in task context, -1: says nothing */
static int event_in_irq(const struct event *ev)
{
	const u32 *irq = event_irq_bits(ev); /* wakeups, hook calls, blocked-load updates */

	if (ev->type == EV_MIGRATE) /* its waker's context, or a balancer's: not counted */
		return -1;
	if (irq)
		return *irq != 0;
	switch (ev->type) {
	case EV_HRTIMER_EXPIRE:
	case EV_SOFTIRQ_ENTRY:
		return 1;
	case EV_SWITCH:
	case EV_CPU_IDLE:
	case EV_PROCESS_EXIT:
		return 0;
	default:
		return -1;
	}
}

/* The pick a balancer's move of a delayed task called for (sched_delayed_pick_mask()) comes at
 * its CPU's first event in task context since, before a switch there (whose own pick it is:
 * sched_event() clears it): an idle CPU's cpu_idle exit, most often, when the balancing softirq
 * ends. Where the trace shows none, at most IRQ_CONTEXT_MAX_NS after the move. */
void sim_delayed_pick_at_event(struct sim *s, const struct event *ev)
{
	u64 mask = sched_delayed_pick_mask(s->sched);
	int cpu = ev->cpu;

	if (cpu >= 0 && cpu < GS_MAX_CPUS && (mask & (1ull << cpu)) && ev->type != EV_SWITCH &&
	    event_in_irq(ev) == 0)
		sched_delayed_pick_point(s->sched, cpu, ev->ts_ns);
	for (mask = sched_delayed_pick_mask(s->sched); mask; mask &= mask - 1) {
		int c = __builtin_ctzll(mask);

		if (ev->ts_ns > sched_delayed_pick_since(s->sched, c) + IRQ_CONTEXT_MAX_NS)
			sched_delayed_pick_point(s->sched, c, ev->ts_ns);
	}
}

void sim_task_dead_noted(struct sim *s, int cpu, u64 now)
{
	if (!s->cfg.task_dead_irq_ns || !sched_task_dead_pending(s->sched, cpu))
		return;
	s->cpu[cpu].dead_at = now;
	s->cpu[cpu].dead_irq = false;
	s->dead_mask |= 1ull << cpu;
}

static void task_dead_apply(struct sim *s, int cpu)
{
	s->dead_mask &= ~(1ull << cpu);
	sched_task_dead_point(s->sched, cpu);
}

void sim_task_dead_at_time(struct sim *s, u64 t)
{
	for (u64 m = s->dead_mask; m; m &= m - 1) {
		int cpu = __builtin_ctzll(m);
		const struct sim_cpu *c = &s->cpu[cpu];

		if (t > c->dead_at + (c->dead_irq ? IRQ_CONTEXT_MAX_NS : s->cfg.task_dead_irq_ns))
			task_dead_apply(s, cpu);
	}
}

void sim_task_dead_at_event(struct sim *s, const struct event *ev)
{
	int cpu = ev->cpu;
	struct sim_cpu *c;
	int irq;

	if (cpu >= 0 && cpu < GS_MAX_CPUS && (s->dead_mask & (1ull << cpu)) &&
	    (irq = event_in_irq(ev)) >= 0) {
		/* task context: task_dead() has run; the first interrupt within the time: it waits */
		c = &s->cpu[cpu];
		if (!irq || (!c->dead_irq && ev->ts_ns > c->dead_at + s->cfg.task_dead_irq_ns))
			task_dead_apply(s, cpu);
		else
			c->dead_irq = true;
	}
	sim_task_dead_at_time(s, ev->ts_ns);
}
