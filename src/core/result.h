/*
 * result.h - everything one replay produces, as plain data: what the summary prints, what the
 * results database and the CSV files store (src/store/), and what reports read back.
 *
 * Caller-owned: run_result_init()/run_result_release() (the task and timeline arrays are heap).
 */
#ifndef GOVSIM_CORE_RESULT_H
#define GOVSIM_CORE_RESULT_H

#include "core/types.h"

struct run_policy_result {
	int policy;          /* first CPU of the policy: "policy named by its first CPU" */
	int cluster;         /* cluster index in the platform */
	int nr_opps;
	u32 freq_khz[GS_MAX_OPPS];
	double residency_s[GS_MAX_OPPS];
	u64 transitions;
	double avg_freq_khz; /* time-weighted over the span; NAN when nothing ran on the policy
			      * ("no activity": busy_s is 0) */
	double busy_s;       /* sum over the policy's CPUs of busy time */
	double overutilized_s; /* time with a CPU's util above its current capacity */
};

/* A distribution of durations in seconds (work/dist.h: p95 within 3.1 %, max exact). */
struct run_dist {
	double mean_s, p95_s, max_s;
};

/*
 * Activations (work timing): an activation runs from a wakeup of the task (the emulated wakeup
 * time: moved with its waker, or the trace's for an external one) to the end of the work before
 * its next sleep. latency = wakeup -> first run; response = wakeup -> that end; lateness = that
 * end, emulated minus traced (negative: ahead of the trace); throughput = completed activations
 * per second of the run's span.
 */
struct run_activity {
	u64 activations;
	struct run_dist latency, response, lateness;
	double throughput; /* per second of span_s */
};

struct run_task_result {
	s32 pid;
	char comm[TASK_COMM_LEN];
	double runtime_s;   /* emulated running time */
	double delay_s;     /* summed: how much later each slice finished than in the trace */
	double max_delay_s; /* worst slice */
	struct run_activity act; /* work timing */
	/* --placement eas: emulated running time per cluster, and migrations (wakeup placements
	 * to another CPU and misfit pulls) */
	double cluster_runtime_s[GS_MAX_CLUSTERS];
	u64 migrations;
};

/* One clamp policy action and what it did in the replay. */
struct run_action_result {
	char text[256];       /* normalised, as policy_action_format() */
	char origin[64];      /* file name or "--action", and the line */
	long line;
	double at_s;          /* trace-relative time it runs at */
	bool ran;             /* false: timed after the trace's end */
	bool selects_tasks;   /* setattr, attach: matched counts apply */
	u32 matched;          /* tasks selected at its time */
	u32 matched_later;    /* tasks first seen later it was applied to */
	u32 rejected;         /* setattr calls the kernel rejected (uclamp_validate) */
};

/* Actions that did not run, or matched no task, are warned about one by one up to this many of
 * each kind; the rest are summed up in one line (a policy of 100k lines that match nothing would
 * otherwise print 100k warnings). */
#define RUN_ACTIONS_LISTED 5

/* Whether action a is one of those warned about: not run (*late true), or matched no task. */
static inline bool run_action_unmatched(const struct run_action_result *a, bool *late)
{
	*late = !a->ran;
	return !a->ran || (a->selects_tasks && !a->matched && !a->matched_later);
}

/* --placement eas: task pid ran on cpu from start_s to end_s (since the replay start), one
 * slice from a switch-in to the next preemption or sleep, in the order they ended. */
struct run_place_slice {
	double start_s, end_s;
	s32 pid;
	int cpu;
};

/*
 * One row of the per-policy timeline stored for plots: the values in force from time_s until
 * the policy's next row. A policy has a row at the replay's start, at every change of its
 * emulated frequency (when it takes effect) and of its first CPU's traced frequency (each
 * cpu_frequency of the trace that changes it, at its trace time), and at the end of each util
 * bucket (1 ms, doubled as needed to keep at most 4096 of them).
 */
struct run_timeline_point {
	double time_s;       /* since the start of the replay */
	int policy;
	u32 freq_khz;        /* emulated, in force */
	u32 traced_khz;      /* from the trace; 0 before its first frequency of the policy */
	u32 util;            /* max util the governor saw over the policy's CPUs in the bucket */
	u32 capacity;        /* capacity at freq_khz of the policy's CPUs */
};

/*
 * The kernel's own overhead, per operation of the platform's kernel cost table in
 * the order of kernel/kernel_cost.h's enum kcost_op (kcost_op_name() names them): the calls the
 * emulated kernel made (cgroup_level: levels walked; uclamp_rq_*_id: clamp ids aggregated) and
 * the CPU time they took at the emulated frequency. charged_s: what the replay added to the
 * traced work (emulated minus traced configuration; work timing only; may be negative).
 */
#define RUN_KERNEL_OPS 9
/* "activate_task", "deactivate_task", "cgroup_level", "uclamp_rq_inc_id", "uclamp_rq_dec_id",
 * "uclamp_static_branch", "cpufreq_update_util", "governor_eval", "freq_switch" */
extern const char *const run_kernel_op_names[RUN_KERNEL_OPS];
#define RUN_DEPTH_SLOTS 8 /* enqueues + dequeues at cgroup depth 0..6, the last: 7 and deeper */
struct run_overhead {
	bool costed; /* the platform has a cost table: else every time is 0 */
	u64 calls[RUN_KERNEL_OPS];
	double time_s[RUN_KERNEL_OPS];
	double total_s, charged_s;
	u64 sched_by_depth[RUN_DEPTH_SLOTS];
};

struct run_result {
	/* inputs */
	char label[128];
	char trace[1024];
	char trace_sha256[65];
	char platform[64];
	char governor[32];
	char governor_path[1024];   /* a plugin's file (resolved); "" when built in */
	char governor_sha256[65];   /* the plugin file's SHA-256; "" when built in */
	char timing[16];      /* "traced" | "work" */
	char util_source[16]; /* "emulated" | "trace" */
	char power_model[16]; /* "em" | "costs" */
	char power_unit[48];  /* "J" for em; the costs model's own unit otherwise */
	char policy[4096];    /* the clamp policy actions, one per line, as given */
	char params[1024];    /* "key=value ..." tunables in force */
	char kernel[16];      /* "v5.9" */
	char govsim_version[32];
	char notes[1400];      /* assumptions the run made, e.g. "no cpu_frequency: assumed max" */
	char placement[8];     /* "traced" | "eas" */
	double rd_overutilized_s;  /* --placement eas: time the root domain was overutilized */
	u64 placement_wakeups;     /* wakeups placed by the emulation */
	u64 placement_migrations;  /* of which to another CPU, plus misfit pulls */
	u64 misfit_pulls;
	/* span and size */
	double start_s;       /* trace time of the replay start */
	double span_s;        /* replayed span: to the later of the trace's last event and the end
			       * of the last emulated work */
	double traced_span_s; /* the trace's span: start to its last event (of any type) */
	double stretch;       /* span_s / traced_span_s (1 when the trace has no span) */
	u64 events;
	/* energy: joules for em; for costs the model's unit x seconds / 1000, as mW x s -> J */
	int nr_cpus;
	int nr_clusters;
	double energy_cpu[GS_MAX_CPUS];
	double energy_cluster[GS_MAX_CLUSTERS]; /* the cluster's CPUs plus its own cluster power */
	double energy_total;
	struct run_policy_result pol[GS_MAX_CLUSTERS];
	/* uclamp */
	bool key_on;
	double key_on_at_s;   /* trace-relative; valid when key_on */
	u64 agg_ops, agg_skipped;
	double clamped_up_s, clamped_down_s;
	int nr_actions;       /* the clamp policy's actions (heap), in run order */
	struct run_action_result *actions;
	/* work timing: work per CPU in capacity-invariant seconds (time at capacity 1024 and max
	 * frequency), traced in and emulated out; equal when the replay is complete */
	double work_in_s[GS_MAX_CPUS];
	double work_out_s[GS_MAX_CPUS];
	struct run_overhead ovh;
	/* activations of all tasks together (work timing) */
	struct run_activity act_total;
	/* tasks (heap) */
	int nr_tasks;
	u64 peak_task_states; /* the most task states the scheduler model held at once: a task's
			       * is freed when it dies (memory grows with this, not with pids) */
	u64 peak_work_tasks;  /* work timing: the most tasks its layer held at once (a dead task's
			       * entry is reused once its last slice is emulated) */
	struct run_task_result *tasks;
	/* timeline (heap) */
	size_t nr_timeline;
	struct run_timeline_point *timeline;
	/* --placement eas: what ran where (heap), for report's placement plot */
	size_t nr_slices;
	struct run_place_slice *slices;
};

void run_result_init(struct run_result *r);
void run_result_release(struct run_result *r);

/* Append a note to r->notes ("; " between notes); silently cut when full. */
void run_result_note(struct run_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
