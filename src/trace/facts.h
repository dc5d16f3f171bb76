/*
 * facts.h - what a recording says about itself beside the trace: the `.facts` file the lab
 * (tools/lab/record) writes next to each trace, with what the trace cannot say -- the
 * platform model, whether the kernel is frequency invariant, the governor's starting state,
 * the rate limit, the fast-switch path, CONFIG_HZ. docs/lab.md describes the format:
 *
 *   # a comment
 *   key = value
 *
 * one key per line, unknown keys ignored (the lab writes more than the replay reads).
 *
 * The file of a trace is found by name: `DIR/NAME.facts` for `DIR/NAME.txt.gz`, `NAME.txt`,
 * `NAME.dat` (the trace's name without `.gz` and without its last extension).
 */
#ifndef GOVSIM_TRACE_FACTS_H
#define GOVSIM_TRACE_FACTS_H

#include <stdbool.h>

#include "core/error.h"

struct trace_facts {
	bool present;           /* a facts file was found and read */
	char path[4096];        /* its path */
	char platform[64];      /* platform = NAME ("" when absent) */
	char kernel_release[128]; /* kernel_release = uname -r */
	int freq_invariant;     /* freq_invariant = 0|1; -1 absent */
	int fast_switch;        /* fast_switch = 0|1 (the driver's fast_switch_possible); -1 */
	long rate_limit_us;     /* rate_limit_us = N (schedutil's, as read in the guest); -1 */
	long transition_us;     /* transition_us = N: the slow path's driver call, as measured
				 * in the trace (sugov:N's switch-in to its cpu_frequency); -1 */
	long switch_clock_lead_us; /* switch_clock_lead_us = N: how long before its sched_switch
				    * a __schedule() read its rq clock, the median the lab's
				    * probes showed, less a wakeup's (tools/lab/clock-lead); -1 */
	long sleep_clock_lead_us; /* sleep_clock_lead_us = N: the same for a switch whose prev
				   * sleeps and whose __schedule() called no hook, the median of the
				   * sleeping switches that did, less their call's probes
				   * (tools/lab/clock-lead sleep); -1 */
	long pelt_event_lead_us; /* pelt_event_lead_us = N: how long before the first PELT or
				  * util_est event a switch's __schedule() traced in task context
				  * it read the rq clock, the median of the switches whose hook call
				  * shows it (tools/lab/clock-lead pelt; a --pelt recording); -1 */
	long waking_clock_lag_us; /* waking_clock_lag_us = N: how long after its sched_waking a
				   * wakeup's try_to_wake_up() read the rq clock, the median the
				   * lab's probes showed (tools/lab/clock-lead waking); -1 */
	long task_dead_irq_us; /* task_dead_irq_us = N: an interrupt traced on a dying task's CPU
				* within N us of its switch ran before its task_dead() (the lab's
				* PELT recordings show it, tools/lab/dead-irq); -1 */
	int hz;                 /* config_HZ = N; 0 absent */
	int sched_autogroup;    /* config_SCHED_AUTOGROUP = y (1) or empty (0); -1 absent */
	int cpuidle_driver;     /* cpuidle_driver = none (0) or a driver's name (1); -1 absent */
	bool sugov_start;       /* governor_start = sugov_start: tracing was on before the
				 * governor was switched to schedutil, from performance (so every
				 * policy ran at its maximum until then) */
	char governor_start[512]; /* governor_start_ns = N or N0:N1:...: when the governor
				   * started (trace clock), on every CPU or CPU by CPU; "" */
	char rq_clock_offset[512]; /* rq_clock_offset_ns = N0:N1:...: trace time minus each
				    * CPU's rq clock, as the lab's probes showed it; "" */
	char policy[4096];      /* clamp_policy = FILE: the clamp settings the workload made
				 * in the kernel, as a govsim policy (a file beside the facts
				 * file); "" */
};

/*
 * The facts file beside `trace` into *f (zeroed first). 0 with f->present false when there is
 * none (or trace is "-"); 0 with f->present true when read; GS_ETRACE for a malformed file
 * ('file':line: what), GS_EIO when it cannot be read.
 */
int trace_facts_find(const char *trace, struct trace_facts *f, struct gs_error *err);

/* Parse facts text (for tests and the fuzz target); `label` names it in messages. */
int trace_facts_parse(const char *label, const char *text, struct trace_facts *f,
		      struct gs_error *err);

#endif
