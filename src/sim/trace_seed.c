/*
 * trace_seed.c - where a replay takes its tasks' and runqueues' starting util from the trace
 * rather than from zero: --seed-util (the trace's own PELT events, src/sched/trace_start.c)
 * and the lab's snapshot markers (start_state).
 */
#include "sim/sim_priv.h"

#include "sched/sched.h"

/* --seed-util: a task's util events seed its signals (at the loop's time), and a root cfs_rq's
 * util before its CPU's first event seeds the CPU's blocked util (sched_event() takes what
 * seeds; in traced timing the loop goes to the event's time first). */
int sim_util_seed(struct sim *s, const struct event *ev, struct gs_error *err)
{
	int ret;

	switch (ev->type) {
	case EV_PELT_SE:
	case EV_LOAD_SE:
	case EV_UTIL_EST_SE:
	case EV_LOAD_AVG_TASK:
		return sched_event(s->sched, ev, s->now, err);
	case EV_PELT_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
		if (!s->work && (ret = sim_advance(s, ev->ts_ns, err)))
			return ret;
		return sched_event(s->sched, ev, s->now, err);
	default:
		return 0;
	}
}

/* The lab's snapshot of the kernel's PELT state (EV_START_SE, EV_START_CFS; start_state): a
 * task's last_update_time is on the kernel's PELT clock, which is the rq clock's here (the lab's
 * guests are not frequency invariant): the CPU's rq_clock_offset_ns puts it on the trace's
 * time; without an offset the snapshot is dated at its marker. */
int sim_feed_start_state(struct sim *s, const struct event *ev, struct gs_error *err)
{
	struct event e = *ev;
	int ret;

	if (!s->cfg.start_state || e.util.cpu < 0 || e.util.cpu >= s->plat->nr_cpus)
		return 0;
	if (!s->work && (ret = sim_advance(s, ev->ts_ns, err)))
		return ret;
	if (e.type == EV_START_SE)
		e.util.update_time = sim_traced_clock(s, e.util.cpu, e.util.update_time, ev->ts_ns);
	return sched_event(s->sched, &e, s->now, err);
}
