/*
 * kthread.h - the slow path timed by the traced governor kthread. A driver without fast switch
 * (acpi-cpufreq on a policy shared the "all" way, cpufreq-dt) changes frequency from the
 * sugov:N kthread: schedutil's request queues an irq_work, which wakes the kthread, which
 * reads next_freq and calls the driver (kernel/sched/cpufreq_schedutil.c sugov_irq_work(),
 * sugov_work(); Debian 5.10 to 7.2). When the kthread wakes and how long its driver call takes
 * are the machine's: on the lab's guests they run from 50 us to over 60 ms. A trace that shows
 * the kthread (its sched_waking, its switches, the cpu_frequency it emits when a call ends)
 * says both, so the replay follows it instead of a constant latency:
 *
 * - A request when nothing is pending attaches to the traced kthread if it is awake or wakes
 *   within CPUFREQ_KTHREAD_ATTACH_NS; the emulated kthread then reads next_freq when the traced
 *   one runs (or, if it is running, when its call in progress ends: the queued work runs
 *   next), and its call ends when the traced call ends.
 * - A request during an attached call queues the next call, which starts at the traced end
 *   and ends at the next traced end, as long as the traced kthread goes on running.
 * - A traced run that ends with no call end changed nothing: where the newest request is the
 *   frequency in force, the attached call ends with it.
 * - Otherwise (no traced wakeup, or the traced kthread sleeps with no call ended) the model's
 *   constants: the run at request + switch_latency_ns, the call transition_ns long, the change
 *   no earlier than when the replay learnt there was no traced one.
 */
#ifndef GOVSIM_CPUFREQ_KTHREAD_H
#define GOVSIM_CPUFREQ_KTHREAD_H

#include "core/types.h"

struct cpufreq_policy;

/* How long after a request the traced kthread's wakeup still counts as the wakeup that
 * request made (irq_work to sched_waking takes tens of us on the lab's guests). */
#define CPUFREQ_KTHREAD_ATTACH_NS 1000000ull

enum cpufreq_kthread_state {
	CPUFREQ_KTHREAD_ASLEEP,
	CPUFREQ_KTHREAD_WOKEN,   /* sched_waking seen, not running yet */
	CPUFREQ_KTHREAD_RUNNING, /* switched in; a call runs from the switch or the last end */
};

struct cpufreq_kthread {
	bool traced; /* the replay follows the traced kthread of this policy */
	enum cpufreq_kthread_state state;
	bool attached;   /* the pending run or call follows the traced kthread */
	bool waiting;    /* a request waits for the traced wakeup until pending_at_ns */
	u64 fallback_ns; /* waiting: when the model's kthread would have run */
	u64 call_from_ns;
	u64 calls_traced, calls_model; /* emulated driver calls timed each way */
};

/* The traced kthread's sched_waking, switch in, driver call end (its cpu_frequency for the
 * policy's first CPU) and the end of its run (a switch out to an interruptible sleep: a switch
 * out in D is the driver call waiting, as scpi-cpufreq's on Juno does, and the run goes on), at
 * now_ns. cpufreq_kthread_call_end() returns true when the policy's cur_khz changed. */
void cpufreq_kthread_woken(struct cpufreq_policy *pol, u64 now_ns);
void cpufreq_kthread_run(struct cpufreq_policy *pol, u64 now_ns);
bool cpufreq_kthread_call_end(struct cpufreq_policy *pol, u64 now_ns);
void cpufreq_kthread_sleep(struct cpufreq_policy *pol, u64 now_ns);

/* cpufreq.c's side: a request with nothing pending, and the pending work due at now_ns. */
void cpufreq_kthread_request(struct cpufreq_policy *pol, u64 now_ns);
bool cpufreq_kthread_apply_pending(struct cpufreq_policy *pol, u64 now_ns);

#endif
