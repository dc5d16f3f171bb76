/*
 * timeline.h - what a replay reports as it goes, as plain rows, and the sink interface that
 * receives them.
 *
 * The loop (src/sim) builds each row once, where it happens: a governor evaluation of one CPU,
 * a task event, a traced frequency of a policy. Every output is a sink of these rows: the
 * --timeline and --task-timeline CSVs (src/sim/sim.c writes them from the same rows) and
 * `--perfetto OUT` (src/output/perfetto_write.c). Times are the trace clock's (ns) with the
 * replay's trace-relative time beside them.
 */
#ifndef GOVSIM_CORE_TIMELINE_H
#define GOVSIM_CORE_TIMELINE_H

#include "core/types.h"

/* One governor evaluation of one CPU: a row of --timeline. */
struct tl_eval {
	u64 ts_ns;  /* trace clock */
	u64 rel_ns; /* since the replay's first event */
	int cpu;
	int policy; /* first CPU of the policy */
	unsigned long util_cfs, util_est_cfs, util_rt, util_dl; /* what the governor read */
	unsigned int uclamp_min, uclamp_max;                    /* the rq's clamps */
	unsigned long util; /* the value the governor used (clamped by the rq's clamps) */
	u32 target_khz;     /* before resolution to an OPP */
	u32 freq_khz;       /* the OPP in force after the decision */
};

/* Task events, as src/sched/sched.h's enum sched_task_event. */
enum tl_task_event {
	TL_TASK_WAKEUP,
	TL_TASK_SWITCH_IN,
	TL_TASK_TICK,
	TL_TASK_PREEMPT, /* switched out runnable */
	TL_TASK_SLEEP,   /* switched out sleeping */
	TL_TASK_MIGRATE,
	TL_TASK_DELAY_END, /* a delayed task dequeued at last (EEVDF, v6.12+) */
};

/* One task event in the emulation: a row of --task-timeline. */
struct tl_task {
	u64 ts_ns, rel_ns;
	s32 pid;
	const char *comm;
	int cpu;
	enum tl_task_event event;
	const char *event_name; /* "switch_in", ... as --task-timeline writes it */
	unsigned long util_avg;
	unsigned int util_est_enqueued, util_est_ewma;
	bool eevdf;    /* the profile models EEVDF's delayed dequeue: vlag_ns and delayed hold */
	long long vlag_ns;
	bool delayed;
};

/* A sink of a replay's rows. Any callback may be NULL. */
struct tl_sink {
	void *ctx;
	void (*eval)(void *ctx, const struct tl_eval *e);
	void (*task)(void *ctx, const struct tl_task *t);
	/* the trace's frequency of a policy (its first CPU's cpu_frequency), kHz */
	void (*traced_freq)(void *ctx, u64 ts_ns, int policy, u32 khz);
};

#endif
