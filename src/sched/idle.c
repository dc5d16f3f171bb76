/*
 * idle.c - the idle loop as schedutil's busy hold sees it: the idle-entry count
 * (tick_nohz_get_idle_calls_cpu()) kept from the trace's cpu_idle events, after
 * kernel/sched/idle.c do_idle() / cpuidle_idle_call() and kernel/time/tick-sched.c
 * tick_nohz_idle_stop_tick() (Debian 5.10, 6.1, 6.12, 7.2). A switch to idle resets the
 * per-idle-period state (core.c rq_enter_idle()).
 */
#include "sched/sched_priv.h"

/*
 * An idle-loop iteration of an idle cpu (the trace's cpu_idle entry): do_idle() ->
 * cpuidle_idle_call() -> tick_nohz_idle_stop_tick(), which counts ts->idle_calls (the count
 * schedutil's busy hold compares; kernel/time/tick-sched.c, v5.10 to Debian 7.2). Without a
 * cpuidle driver, v6.1+ call it only when stop_tick (the last wakeup was the tick: got_tick)
 * or the tick is stopped already (idle_call_stop_or_retain_tick, kernel/sched/idle.c): the
 * first entry after a switch to idle keeps the tick and counts nothing, even after a tick
 * since the switch: do_idle()'s got_tick starts false, and a tick's mark is read only after
 * that first call returns (tick_nohz_idle_got_tick()), for the next entry. Differences:
 * can_stop_idle_tick()'s refusals (a softirq pending) are not in the trace; the tick counts as
 * stopped once stopped in this idle period (the kernel stops it only when the next timer is
 * more than a tick away).
 */
bool sched_cpu_idle_enter(struct sched *s, int cpu)
{
	struct rq *rq;
	bool stopped = false;

	if (cpu < 0 || cpu >= s->cfg.nr_cpus)
		return false;
	rq = &s->rq[cpu];
	rq->idle_traced = true;
	if (rq->curr)
		return false;
	if (s->idle_retain_tick && rq->idle_first_entry && !rq->idle_tick_stopped) {
		rq->idle_first_entry = false;
		return false;
	}
	rq->idle_first_entry = false;
	if (!s->idle_retain_tick || rq->got_idle_tick || rq->idle_tick_stopped) {
		rq->idle_calls++;
		stopped = !rq->idle_tick_stopped;
		rq->idle_tick_stopped = true;
	}
	rq->got_idle_tick = false;
	return stopped;
}

/*
 * An idle-loop exit that shows TIF_NEED_RESCHED: do_idle()'s loop ends (while
 * (!need_resched())), tick_nohz_idle_exit() restarts a stopped tick, and schedule_idle() runs.
 * Where it picks the idle task again (the task it was woken for ran elsewhere, or nothing was
 * queued) the trace shows no switch, and cpu_startup_entry() calls do_idle() afresh: got_tick
 * false, so its first entry keeps the tick and counts nothing (kernel/sched/idle.c do_idle(),
 * kernel/time/tick-sched.c tick_nohz_idle_exit(), Debian 6.12). A switch that follows makes
 * the same reset when the CPU next goes idle (core.c rq_enter_idle()).
 */
void sched_cpu_idle_exit(struct sched *s, int cpu, bool resched)
{
	struct rq *rq;

	if (!resched || cpu < 0 || cpu >= s->cfg.nr_cpus)
		return;
	rq = &s->rq[cpu];
	if (!rq->curr)
		idle_loop_restart(rq);
}

/* An idle CPU woken by an interrupt that queues no task (the idle-load balancer's IPI) goes
 * round the idle loop again: without the trace's cpu_idle entries, one more idle call. */
void sched_cpu_idle_reenter(struct sched *s, int cpu)
{
	if (cpu >= 0 && cpu < s->cfg.nr_cpus && !s->rq[cpu].curr && !s->rq[cpu].idle_traced)
		s->rq[cpu].idle_calls++;
}

/* tick_sched_timer() on an idle CPU sets ts->got_idle_tick (tick_nohz_idle_got_tick()), and
 * its sched_tick() reads the rq clock (update_rq_clock(), kernel/sched/core.c, Debian 5.10 to
 * 7.2) though the idle class has nothing to tick: a switch to a task woken onto the CPU before,
 * which skips its own clock update (rq_clock_skip_update()), is dated at the tick if the tick
 * came between. */
void sched_idle_tick(struct sched *s, int cpu, u64 now_ns)
{
	if (cpu < 0 || cpu >= s->cfg.nr_cpus || s->rq[cpu].curr)
		return;
	s->rq[cpu].got_idle_tick = true;
	update_rq_clock(&s->rq[cpu], now_ns);
}
