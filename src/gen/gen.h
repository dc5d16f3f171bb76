/*
 * gen.h - deterministic synthetic workloads written as kernel ftrace text.
 *
 * The output is what /sys/kernel/tracing/trace prints with the irq-info column (v5.9
 * trace_print_context layout): a "# tracer: nop" header with "#P:<cpus>", one
 * cpu_frequency_devlib marker per CPU at its max frequency, then sched_waking and sched_wakeup
 * (in the waker's context: a timer's in hardirq context, flags "dnh4"; a pipe writer's in its
 * own task context), sched_switch (prev_state letters) and cpu_idle lines in time order,
 * microsecond timestamps. Same options and seed, same bytes: the PRNG is splitmix64, never
 * rand().
 *
 * Workloads:
 * - GEN_PERIODIC: rt-app-like periodic tasks (gen_task), each pinned to a CPU, run `duty` of
 *   each period (+-10% jitter), for `count` activations.
 * - GEN_PIPE: a two-task pipe ping-pong (perf bench sched pipe) on two CPUs (0 and 1 unless
 *   given), or on one (taskset 1: the sleeper switches straight to the woken side): each side
 *   runs a few us, wakes the other and sleeps, alternately in S and D; `count` round trips.
 * - GEN_MIX: per CPU one RT task (prio 89) and two CFS tasks (prio 120, nice 0 / 5).
 * Scheduling per CPU: the highest-priority runnable task runs (lower prio value first, FIFO
 * among equals); a woken task of higher priority preempts (prev_state R+).
 * With size_lines > 0 activations are unlimited and the trace stops after about that many lines
 * (a periodic workload without tasks then uses 4 tasks per CPU).
 */
#ifndef GOVSIM_GEN_GEN_H
#define GOVSIM_GEN_GEN_H

#include <stdio.h>

#include "core/error.h"
#include "core/types.h"

enum gen_workload {
	GEN_PERIODIC,
	GEN_PIPE,
	GEN_MIX,
};

/* "periodic", "pipe", "mix" -> workload; -1 if unknown. */
int gen_workload_from_name(const char *name);

#define GEN_MAX_PHASES 8

struct gen_task {
	char name[TASK_COMM_LEN];
	u32 period_us;
	double duty; /* 0 < duty <= 1 */
	int cpu;
	int prio;    /* < 100 RT, else CFS */
	u32 count;   /* activations; 0 = unlimited (size mode) */
	/* rt-app-like phases: the duty changes after phase_count[k] activations (the last phase
	 * runs to the end); nr_phases 0 = one phase at `duty` */
	int nr_phases;
	double phase_duty[GEN_MAX_PHASES];
	u32 phase_count[GEN_MAX_PHASES];
};

#define GEN_MAX_TASKS 256

struct gen_opts {
	enum gen_workload workload;
	u64 prng_seed;               /* --seed: the splitmix64 state it starts from */
	int nr_cpus;                 /* 1..GS_MAX_CPUS */
	u32 max_khz[GS_MAX_CPUS];    /* the initial frequency marker of each CPU */
	u64 size_lines;              /* 0: workload length from counts */
	u32 count;                   /* activations for tasks/pipe rounds without their own; 0 = default */
	int nr_pipe_cpus;            /* pipe: 1 or 2 CPUs in pipe_cpus; 0 = CPUs 0 and 1 */
	int pipe_cpus[2];
	int nr_tasks;                /* periodic: the --task specs */
	struct gen_task tasks[GEN_MAX_TASKS];
};

/* Defaults: periodic, seed 1, 8 CPUs at 2000000 kHz, no tasks. */
void gen_opts_init(struct gen_opts *o);

/*
 * Parse one task spec "name=t0,period_ms=16,duty=0.5,cpu=4,prio=120,count=100" (also
 * period_us=; phases=DUTYxCOUNT/DUTYxCOUNT/... instead of duty and count, e.g.
 * phases=0.5x50/0.25x50/0.0625x50 for an rt-app ramp-down) into o->tasks. Returns 0 or GS_EARG
 * with the message in err.
 */
int gen_parse_task(struct gen_opts *o, const char *spec, struct gs_error *err);

/* Write the trace. Returns 0, GS_EARG for inconsistent options, or GS_EIO ("write error:
 * REASON") as soon as a write to out failed (a full disk does not keep it writing). */
int gen_write(FILE *out, const struct gen_opts *o, u64 *lines_written, struct gs_error *err);

#endif
