/*
 * work.h - the closed-loop work timing model (README "Timing models and util sources").
 *
 * Work. Each traced running slice becomes work in capacity-invariant units (ns at capacity 1024
 * and max frequency): work = duration x capacity/1024 x f_traced/f_max, integrated piecewise
 * over the trace's frequency changes. An emulated CPU runs work at capacity/1024 x f/f_max.
 *
 * Causality. Every wakeup of a workload task gets a cause:
 *  - a task wakeup: emitted in the context of the workload task running on that CPU (its
 *    common pid), not in hard/soft irq or NMI context; sched_waking decides when the trace has
 *    it (the sched_wakeup that follows it replays with it), else sched_wakeup(_new) itself.
 *    Its emulated time is when the waker, in the emulation, has done the same work of that
 *    slice as it had done at the traced wakeup;
 *  - an external wakeup (from idle, irq context, a non-workload task such as sugov:N, or a task
 *    whose slice began before the trace): it keeps its traced time.
 * A task preempted in the trace (switched out R/R+) is ready again at the traced preemption, or
 * when its slice ends in the emulation if that is later: preemption points are the traced ones.
 * A task first seen switching in is ready at that traced time.
 *
 * Order. Each CPU runs the slices the trace ran on it; when it is free it starts, of the slices
 * whose task is ready (and whose earlier slices are done, wherever they ran), the one with the
 * earliest emulated ready time, ties in traced order. So a slower CPU stretches a ping-pong (the
 * wakee starts when the waker gets there), and a timer-driven task that no longer fits builds a
 * backlog that grows with time. Work in = work out per CPU.
 *
 * The layer buffers: it advances emulated time only as far as the trace read so far determines
 * it (an external wakeup cannot happen in the emulation before the trace has been read to its
 * time). Memory is bounded by the lag between the emulated and the traced timeline: when the
 * emulation runs slower than the trace, the slices read but not yet emulated are held.
 *
 * The replay loop is reached through struct work_host only: this layer knows nothing of it.
 */
#ifndef GOVSIM_WORK_WORK_H
#define GOVSIM_WORK_WORK_H

#include "core/error.h"
#include "core/event.h"
#include "power/platform.h"
#include "core/result.h"

struct strbuf;

/* What the layer needs of the replay loop. */
struct work_host {
	void *ctx;
	/* Apply a scheduling event (sched_switch, sched_wakeup*) at emulated time now. */
	int (*sched_event)(void *ctx, const struct event *ev, u64 now, struct gs_error *err);
	/* Run the loop's own work (ticks, frequency changes, actions) up to t. */
	int (*advance_to)(void *ctx, u64 t, struct gs_error *err);
	/* The time of the loop's next own work item; UINT64_MAX when none. */
	u64 (*next_internal_ns)(void *ctx);
	/* A cluster's emulated frequency in force, kHz. */
	u32 (*cluster_khz)(void *ctx, int cluster);
	/* --placement: the CPU a wakeup (sched_wakeup/_new of a workload task) puts its task on,
	 * decided at emulated time now (the loop already advanced to it) by a waker running on
	 * waker_cpu (-1: an external wakeup); -1 keeps the traced CPU. NULL: traced placement.
	 * The task's waiting slices, and those read later, then run on that CPU. */
	int (*place)(void *ctx, const struct event *ev, int waker_cpu, u64 now);
	/* --placement: a running task to move from CPU *src to the idle CPU *dst now (a misfit
	 * pull decided at a tick); false when none. May be NULL. */
	bool (*take_pull)(void *ctx, int *src, int *dst);
	/* Optional (NULL: nothing charged). The capacity-invariant work (ns at capacity 1024 and
	 * max frequency, may be negative) the replay adds for one enqueue of task pid (comm: its name; enqueue
	 * true: activate_task, charged to the waker's slice just before its wake point, or for
	 * an external wakeup at the start of the wakee's slice) or one dequeue (deactivate_task,
	 * at the end of the slice that sleeps), on cpu. A negative charge never takes a slice's
	 * work below what it showed at its last wake point (or 0). Asked as the trace is read. */
	double (*kernel_work)(void *ctx, s32 pid, const char *comm, int cpu, bool enqueue);
};

struct work;

/* warmup_ns: activations woken, and slice delays ending, within this long after the first
 * event (--warmup-ms) are not measured; 0 for all. */
int work_new(const struct work_host *host, const struct platform *plat, u64 warmup_ns,
	     struct work **out, struct gs_error *err);
void work_free(struct work *w);
/* From now on ask fn for the kernel's work of each enqueue and dequeue read (struct
 * work_host.kernel_work, with the host's ctx; NULL: ask nothing, as when the host gives none).
 * For a host whose answers are all 0 until some point of the replay (the emulated kernel's
 * configuration is the traced one until an action changes it): it gives fn from that point,
 * and the events read before it pay no call. */
void work_set_kernel_work(struct work *w,
			  double (*fn)(void *ctx, s32 pid, const char *comm, int cpu, bool enqueue));

/* A scheduling event from the trace (switch, waking, wakeup, wakeup_new, migrate), in order. */
int work_feed(struct work *w, const struct event *ev, struct gs_error *err);
/* The trace's frequency of a CPU changed at trace time t (cpu_frequency or devlib marker). */
void work_traced_freq(struct work *w, int cpu, u32 khz, u64 t);
/* The emulated frequency of a cluster changed at emulated time now. */
void work_freq_changed(struct work *w, int cluster, u64 now);
/* The trace ended: finish every slice. */
int work_finish(struct work *w, struct gs_error *err);
/* Work in and out per CPU so far (capacity-invariant ns). */
void work_totals(const struct work *w, int cpu, double *in, double *out);
/* The kernel overhead charged per CPU so far (capacity-invariant ns): added to slices as the
 * trace is read (in) and run by the emulated CPU (out); equal when the replay is complete. */
void work_kernel_totals(const struct work *w, int cpu, double *in, double *out);
/* The emulated time the last work ended (0 before any). */
u64 work_end_ns(const struct work *w);

/* A task's measurements: summed and worst slice delay (emulated minus traced end of each
 * slice, when later), and its activations (throughput left 0: the caller knows the span).
 * Returns false for a task the layer never saw. */
bool work_task_result(const struct work *w, s32 pid, double *delay_s, double *max_delay_s,
		      struct run_activity *act);
/*
 * The scheduler model frees a task that died (sched_hooks.task_exit), from within the
 * sched_event() of its last switch-out: when that is the switch-out this layer is replaying,
 * the task's measurements as work_task_result() gives them, and true; its entry is then
 * reused, so memory does not grow with the pids that die. False otherwise (the caller keeps the
 * task; its measurements are read by pid at the end).
 */
bool work_task_exit(struct work *w, s32 pid, double *delay_s, double *max_delay_s,
		    struct run_activity *act);
/* The sched_switch events that disagreed with the trace read before them (work.c: a prev that
 * is not the task the CPU runs, a next whose slice is open on another CPU). */
u64 work_disagreements(const struct work *w);
/* The most tasks the layer held at once (a dead task's entry reused counts once). */
u64 work_peak_tasks(const struct work *w);
/*
 * A note on the tasks whose backlog grows (a timer-driven task, at least 90 % of whose
 * activations began at an external wakeup, whose work no longer fits its
 * period): at least 10 activations, the lateness rose from one activation to the next at least
 * 9 times in 10 and by more than 1 ms from the first to the last. Appended to sb: nothing
 * when none; names at most 3 tasks. 0, or GS_ENOMEM.
 */
int work_backlog_note(const struct work *w, struct strbuf *sb);

/* All tasks' activations together. */
void work_total_activity(const struct work *w, struct run_activity *act);

#endif
