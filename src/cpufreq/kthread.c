/*
 * kthread.c - the slow path timed by the traced governor kthread (see kthread.h for the rules).
 * The pending run and call are cpufreq.c's (pending, pending_khz, in_call, requeued,
 * call_khz); here they wait for the traced kthread instead of a constant: pending_at_ns is
 * UINT64_MAX while the traced kthread decides when the next step comes.
 */
#include "cpufreq/cpufreq.h"

#define AWAIT_TRACE UINT64_MAX

/* sugov_work(): the kthread reads next_freq and calls the driver; the call ends at the traced
 * end (attached) or transition_ns on (the model). */
static void call_start(struct cpufreq_policy *pol, u64 from_ns, bool attached)
{
	struct cpufreq_kthread *k = &pol->kth;

	pol->in_call = true;
	pol->requeued = false;
	pol->call_khz = pol->pending_khz;
	k->attached = attached;
	k->waiting = false;
	k->call_from_ns = from_ns;
	pol->pending_at_ns = attached ? AWAIT_TRACE : from_ns + pol->transition_ns;
	if (attached)
		k->calls_traced++;
	else
		k->calls_model++;
}

/* The call's end: its frequency in force (a frequency equal to cur changes nothing); a request
 * made meanwhile is the next run, due now. Returns true when cur_khz changed. */
static bool call_end(struct cpufreq_policy *pol)
{
	u32 old = pol->cur_khz;

	pol->cur_khz = pol->call_khz;
	pol->in_call = false;
	pol->pending = pol->requeued;
	pol->requeued = false;
	return pol->cur_khz != old;
}

void cpufreq_kthread_request(struct cpufreq_policy *pol, u64 now_ns)
{
	struct cpufreq_kthread *k = &pol->kth;

	k->attached = k->state != CPUFREQ_KTHREAD_ASLEEP;
	k->waiting = !k->attached;
	if (k->attached) {
		pol->pending_at_ns = AWAIT_TRACE;
		return;
	}
	k->fallback_ns = now_ns + pol->switch_latency_ns;
	pol->pending_at_ns = now_ns + CPUFREQ_KTHREAD_ATTACH_NS;
}

bool cpufreq_kthread_apply_pending(struct cpufreq_policy *pol, u64 now_ns)
{
	struct cpufreq_kthread *k = &pol->kth;
	bool changed = false;

	while (pol->pending && pol->pending_at_ns <= now_ns) {
		if (pol->in_call) {
			changed |= call_end(pol);
			continue; /* a requeued run is due at the end's time */
		}
		/* no traced wakeup came (waiting), or a run queued behind a model call */
		call_start(pol, k->waiting ? k->fallback_ns : pol->pending_at_ns, false);
	}
	return changed;
}

void cpufreq_kthread_woken(struct cpufreq_policy *pol, u64 now_ns)
{
	struct cpufreq_kthread *k = &pol->kth;

	(void)now_ns;
	if (k->state != CPUFREQ_KTHREAD_ASLEEP)
		return;
	k->state = CPUFREQ_KTHREAD_WOKEN;
	if (pol->pending && k->waiting) {
		k->waiting = false;
		k->attached = true;
		pol->pending_at_ns = AWAIT_TRACE;
	}
}

void cpufreq_kthread_run(struct cpufreq_policy *pol, u64 now_ns)
{
	struct cpufreq_kthread *k = &pol->kth;

	if (k->state == CPUFREQ_KTHREAD_RUNNING)
		return; /* back from a sleep inside its driver call */
	k->state = CPUFREQ_KTHREAD_RUNNING;
	/* a run attached to this wakeup, or one waiting for a wakeup the trace did not show */
	if (pol->pending && !pol->in_call && (k->attached || k->waiting))
		call_start(pol, now_ns, true);
}

bool cpufreq_kthread_call_end(struct cpufreq_policy *pol, u64 now_ns)
{
	struct cpufreq_kthread *k = &pol->kth;
	bool changed = false;

	k->state = CPUFREQ_KTHREAD_RUNNING;
	if (!pol->pending || !k->attached)
		return false;
	if (pol->in_call)
		changed = call_end(pol);
	/* the work queued meanwhile (a request during the call, or one made while the traced
	 * kthread ran) runs now, in the same kthread run */
	if (pol->pending)
		call_start(pol, now_ns, true);
	return changed;
}

void cpufreq_kthread_sleep(struct cpufreq_policy *pol, u64 now_ns)
{
	struct cpufreq_kthread *k = &pol->kth;

	k->state = CPUFREQ_KTHREAD_ASLEEP;
	if (!pol->pending || !k->attached)
		return;
	k->attached = false;
	if (!pol->in_call) {
		/* a request made in the traced run's last moments (often by the kthread's own
		 * switch): its irq_work wakes the kthread again once interrupts are back on */
		cpufreq_kthread_request(pol, now_ns);
		return;
	}
	/* the traced kthread ended its run without ending the attached call: its own call found
	 * the frequency in force. Where the newest request is that frequency, that is what it
	 * read (the work a request queued runs after the call before it, reading next_freq then):
	 * the call ends with the run, changing nothing. Otherwise the model's call. */
	if ((pol->requeued ? pol->pending_khz : pol->call_khz) == pol->cur_khz) {
		pol->in_call = false;
		pol->pending = false;
		pol->requeued = false;
		return;
	}
	u64 end = k->call_from_ns + pol->transition_ns;

	pol->pending_at_ns = end > now_ns ? end : now_ns;
	k->calls_traced--;
	k->calls_model++;
}
