/* event.c - event type names; see event.h. */
#include "core/event.h"

#include <string.h>

static const char *const event_names[EV__COUNT] = {
#define GS_EVENT_NAME(name, str) [EV_##name] = str,
	GS_EVENT_TYPES(GS_EVENT_NAME)
#undef GS_EVENT_NAME
};

const char *event_type_name(enum event_type type)
{
	if ((unsigned)type >= EV__COUNT)
		return "?";
	return event_names[type];
}

int event_type_from_name(const char *name, size_t len)
{
	for (int i = 0; i < EV__COUNT; i++) {
		if (i == EV_FREQ_MARKER || i == EV_CSV_UTIL)
			continue; /* not tracepoints of their own */
		if (strlen(event_names[i]) == len && memcmp(event_names[i], name, len) == 0)
			return i;
	}
	return -1;
}

static bool comm_eq(const char *a, const char *b)
{
	return strncmp(a, b, TASK_COMM_LEN) == 0;
}

bool event_same(const struct event *a, const struct event *b)
{
	if (a->ts_ns != b->ts_ns || a->cpu != b->cpu || a->pid != b->pid || a->type != b->type)
		return false;
	switch (a->type) {
	case EV_SWITCH:
		return comm_eq(a->sw.prev_comm, b->sw.prev_comm) && a->sw.prev_pid == b->sw.prev_pid &&
		       a->sw.prev_prio == b->sw.prev_prio && a->sw.prev_state == b->sw.prev_state &&
		       comm_eq(a->sw.next_comm, b->sw.next_comm) && a->sw.next_pid == b->sw.next_pid &&
		       a->sw.next_prio == b->sw.next_prio;
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		return comm_eq(a->wake.comm, b->wake.comm) && a->wake.pid == b->wake.pid &&
		       a->wake.prio == b->wake.prio && a->wake.target_cpu == b->wake.target_cpu &&
		       a->wake.irq == b->wake.irq && a->wake.resched == b->wake.resched;
	case EV_MIGRATE:
		return comm_eq(a->migrate.comm, b->migrate.comm) && a->migrate.pid == b->migrate.pid &&
		       a->migrate.prio == b->migrate.prio &&
		       a->migrate.orig_cpu == b->migrate.orig_cpu &&
		       a->migrate.dest_cpu == b->migrate.dest_cpu;
	case EV_IOWAIT_BOOST:
		return a->iowait.boost == b->iowait.boost;
	case EV_HRTIMER_EXPIRE:
		return a->timer.sched_tick == b->timer.sched_tick &&
		       a->timer.hrtick == b->timer.hrtick;
	case EV_SOFTIRQ_ENTRY:
		return a->softirq.vec == b->softirq.vec;
	case EV_BLOCKED_UPDATE:
		return a->blocked.cpu == b->blocked.cpu && a->blocked.irq == b->blocked.irq;
	case EV_GOV_RAW_FREQ:
		return a->raw.khz == b->raw.khz;
	case EV_GOV_HOOK:
		return a->hook.time == b->hook.time && a->hook.irq == b->hook.irq;
	case EV_GOV_IDLE_CALLS:
		return a->idle_calls.calls == b->idle_calls.calls;
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
	case EV_FREQ_MARKER:
		return a->power.state == b->power.state && a->power.cpu_id == b->power.cpu_id;
	default:
		return a->util.cpu == b->util.cpu && a->util.pid == b->util.pid &&
		       comm_eq(a->util.comm, b->util.comm) && a->util.path == b->util.path &&
		       a->util.irq == b->util.irq &&
		       a->util.load == b->util.load && a->util.runnable == b->util.runnable &&
		       a->util.util == b->util.util && a->util.update_time == b->util.update_time &&
		       a->util.util_est_enqueued == b->util.util_est_enqueued &&
		       a->util.util_est_ewma == b->util.util_est_ewma &&
		       a->util.util_rt == b->util.util_rt && a->util.util_dl == b->util.util_dl &&
		       a->util.uclamp_min == b->util.uclamp_min &&
		       a->util.uclamp_max == b->util.uclamp_max &&
		       a->util.freq_khz == b->util.freq_khz && a->util.idle_state == b->util.idle_state;
	}
}
