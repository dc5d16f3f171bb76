/*
 * policy.h - clamp policy files: what a user does to uclamp during a replay, one action a line.
 *
 *   # comment                     (from a '#' at the start of a word to the end of the line)
 *   [at SECONDS] setattr comm=GLOB|pid=N [uclamp_min=0..1024] [uclamp_max=0..1024]
 *   [at SECONDS] sysctl sched_util_clamp_min|sched_util_clamp_max|sched_util_clamp_min_rt_default VALUE
 *   [at SECONDS] cgroup PATH cpu.uclamp.min|cpu.uclamp.max PERCENT|max
 *   [at SECONDS] cgroup PATH
 *   [at SECONDS] attach comm=GLOB|pid=N PATH
 *   [at SECONDS] affinity comm=GLOB|pid=N CPULIST       (e.g. 0-3,6: sched_setaffinity)
 *
 * e.g. `at 0.5 setattr comm=surfaceflinger uclamp_min=512`. GLOB is fnmatch(3) on the task's
 * comm. PERCENT has up to 2 decimals (more are rounded, as the kernel does).
 *
 * Semantics:
 * - Time. `at SECONDS` is relative to the trace's first event (decimal seconds, up to 9
 *   decimals). Without it the action runs before the first event. Actions run in (time, order
 *   given) order: lines without `at` first, then by time; equal times keep file order, and
 *   files/--action lines keep the order they were parsed in.
 * - setattr is sched_setattr(SCHED_FLAG_UTIL_CLAMP_MIN/MAX) on every matching task that exists
 *   at its time, AND on every matching task first seen later in the trace (it was alive, just
 *   not yet seen): see policy_apply_new_task(). A clamp not given keeps the task's request.
 * - comm= selects by the name a task has when the action runs, and a task renamed later (rt-app
 *   and thread pools name their threads after they start) is selected when an event first
 *   shows the new name: the setattr and attach actions that select the new name and did not
 *   select the old one are applied then (policy_apply_renamed_task()). An action never undoes
 *   itself when a name stops matching: the kernel keeps a task's clamps and group.
 * - sysctl writes /proc/sys/kernel/<name>; cgroup writes a cgroup v2 file, creating the group
 *   (and its parents) if needed; `cgroup PATH` alone only creates it (mkdir -p: no write, so
 *   the static key stays off; an existing group is kept). attach moves matching tasks, now and
 *   first seen later, into a group that must exist by then ("/" is the root group): an attach
 *   to a group no earlier action (in run order) created is refused at parse time, as writing
 *   to a missing cgroup.procs is ENOENT in the kernel.
 * - affinity pins matching tasks to CPULIST from its time on (the last matching line wins). It
 *   acts only where the replay places tasks itself (run --placement eas); a traced placement
 *   keeps every slice on its traced CPU.
 * - Static key (v5.9 kernel/sched/core.c): a setattr turns uclamp on only when a
 *   sched_setattr() with a clamp passes uclamp_validate() for a real task: at the action's time
 *   for the tasks known then, or when a matching task is first seen later. A setattr that
 *   matches no task (a pid absent from the trace is -ESRCH from find_process_by_pid(), a comm
 *   nothing matches makes no call), or is rejected for every task it matches, leaves the key
 *   as it was. A setattr without uclamp_min=/uclamp_max= is a sched_setattr() without
 *   SCHED_FLAG_UTIL_CLAMP: valid, and uclamp_validate() is never called. A sysctl write that
 *   changes a value, and any cgroup write, turn uclamp on at the action's time (see uclamp.h).
 *
 * Validation. Everything the kernel would reject and that can be decided from the text is an
 * error at PARSE time (GS_EPOLICY, "'file':line: why"): unknown words, bad numbers, values out
 * of range, setattr with uclamp_min > uclamp_max, bad cgroup paths, a
 * write to the root cgroup's files, sysctl sequences that make min > max and attach to a group
 * that does not exist yet (the sysctl values and groups are simulated in run order; the
 * offending action is reported). A caller parses
 * every file and line first and simulates nothing if one fails. What depends on a task's state
 * is decided at run time: sched_setattr with one clamp is checked against the task's other,
 * current request (an RT task's default min 1024 with `uclamp_max=512` alone is -EINVAL in
 * v5.9); policy_apply() reports such rejections after applying the action to the other tasks.
 *
 * Ownership: struct policy is caller-owned (policy_init/policy_release); it owns its actions.
 */
#ifndef GOVSIM_UCLAMP_POLICY_H
#define GOVSIM_UCLAMP_POLICY_H

#include "core/error.h"
#include "core/strbuf.h"
#include "core/types.h"
#include "uclamp/uclamp.h"

enum policy_op { POLICY_SETATTR, POLICY_SYSCTL, POLICY_CGROUP, POLICY_ATTACH, POLICY_AFFINITY };

#define POLICY_GLOB_MAX 64

struct policy_action {
	bool has_at;
	double at_s;            /* trace-relative seconds as given; 0 without `at` */
	u64 at_ns;              /* the same, exactly, in ns */
	enum policy_op op;
	/* setattr, attach: which tasks */
	bool by_pid;
	s32 pid;
	char comm_glob[POLICY_GLOB_MAX];
	/* affinity: the allowed CPUs, bit c for CPU c */
	u64 cpus;
	/* setattr: requested clamps, -1 when not given */
	int uclamp_min, uclamp_max;
	/* sysctl */
	enum uclamp_sysctl sysctl;
	unsigned int value;
	/* cgroup, attach: the group; cgroup: which file and the value, or create_only (mkdir,
	 * clamp_id/percent/util unset) */
	char path[128];
	bool create_only;
	enum uclamp_id clamp_id;
	char percent[32];       /* as written: "12.34" or "max" */
	unsigned int util;      /* capacity_from_percent(percent) */
	/* where it came from, for messages */
	char origin[256];       /* file name, or "--action" */
	long line;
	char text[256];         /* the line, trimmed, without its comment */
};

struct policy {
	struct policy_action *actions; /* in run order: (time, order parsed) */
	size_t n, alloc;
	int defer_check; /* > 0 while a file is parsed: its sequence is checked once, whole */
};

void policy_init(struct policy *p);
/* Frees the actions; accepts NULL. The struct can be reused after policy_init(). */
void policy_release(struct policy *p);

/* Parse a policy file ("-" is stdin) and add its actions. On error returns GS_EPOLICY (or GS_EIO
 * if unreadable, GS_ENOMEM) with "'path':line: why" in err; actions of the lines before the bad
 * one stay added, and the caller is expected to give up. A line is at most 4096 bytes, a file
 * at most 1000000 lines (docs/limits.md). */
int policy_parse_file(struct policy *p, const char *path, struct gs_error *err);
/* Parse one line (a --action option: origin "--action", lineno its 1-based index). Blank and
 * comment-only lines add nothing and return 0. On error nothing is added. */
int policy_parse_line(struct policy *p, const char *line, const char *origin, long lineno,
		      struct gs_error *err);

/* Whether a setattr/attach action selects the task (pid equal, or fnmatch of the comm). */
bool policy_match(const struct policy_action *a, s32 pid, const char *comm);

/*
 * What policy_apply() needs from the scheduler model that owns the tasks:
 * - for_each_task(ctx, fn, arg) calls fn(arg, uc, pid, comm) for every task known now.
 * - requeue(ctx, pid, phase): if the task is queued, phase 0 dequeues it (uclamp_rq_dec before
 *   the class dequeue) and phase 1 enqueues it back (uclamp_rq_inc before the class enqueue),
 *   as __sched_setscheduler() and sched_move_task() do. Nothing if it is not queued.
 * - update_active(ctx, pid, clamp_mask): uclamp_update_active(sys, task's rq, uc, id) for each
 *   id with (1 << id) in clamp_mask (a group's effective value changed). May be NULL: requeue
 *   phases 0 and 1 are used instead (coarser than v5.9).
 * These may be called from inside fn; for_each_task must tolerate that.
 */
struct policy_ops {
	void *ctx;
	void (*for_each_task)(void *ctx,
			      void (*fn)(void *arg, struct uclamp_task *uc, s32 pid, const char *comm),
			      void *arg);
	void (*requeue)(void *ctx, s32 pid, int phase);
	void (*update_active)(void *ctx, s32 pid, unsigned int clamp_mask);
};

/* What one action did over a replay: filled by policy_apply() and policy_apply_new_task(),
 * zeroed by the caller. */
struct policy_action_stats {
	bool ran;             /* its time came within the trace (policy_apply() was called) */
	size_t matched;       /* tasks it selected at its time (setattr, attach) */
	size_t matched_later; /* tasks first seen later that it was applied to */
	size_t rejected;      /* of those, setattr calls uclamp_validate() rejected */
};

/* The trace-relative time an action runs at, ns (0 for actions without `at`: they run before
 * the first event, ahead of any `at 0`). */
static inline u64 policy_action_time_ns(const struct policy_action *a)
{
	return a->has_at ? a->at_ns : 0;
}

/*
 * Apply one action at now_ns (the trace time used to stamp the static key). Returns 0; or
 * GS_EPOLICY with "'origin':line: ..." in err when the kernel rejected it for some tasks
 * (setattr against a task's current request, see above); the action was still applied to the
 * other tasks and the state is consistent, so a caller may report it as a warning and go on.
 * A setattr that matches no task leaves the key alone (see "Static key" above). st, when not
 * NULL, gets the action's counts added (ran, matched, rejected).
 */
int policy_apply(struct uclamp_sys *sys, const struct policy_action *a, u64 now_ns,
		 const struct policy_ops *ops, struct policy_action_stats *st, struct gs_error *err);

/*
 * A task first seen in the trace, just after uclamp_task_init(): apply the setattr and attach
 * actions that match it and whose time is <= upto_ns (trace-relative), in run order, each a
 * sched_setattr() on this task at now_ns (the time stamped on the static key, in the same
 * clock as policy_apply()'s). The task is not queued yet, so nothing is re-accounted. Kernel
 * rejections are counted in sys->stats.setattr_rejected. st, when not NULL, is an array of
 * p->n counters, one per action: matched_later and rejected are added to.
 */
/* The CPUs `affinity` lines allow the task at trace-relative upto_ns (the last matching line
 * run by then); 0 when none pins it (every CPU). */
u64 policy_affinity(const struct policy *p, u64 upto_ns, s32 pid, const char *comm);

void policy_apply_new_task(struct uclamp_sys *sys, const struct policy *p, u64 upto_ns,
			   u64 now_ns, struct uclamp_task *uc, s32 pid, const char *comm,
			   struct policy_action_stats *st);

/*
 * A started task renamed (prctl(PR_SET_NAME) or exec; p->comm is comm now): the setattr and
 * attach actions run by upto_ns whose comm= selects the new name and not old_comm are applied
 * now, in run order, as policy_apply() would have at their time; ops->requeue brackets each
 * change (the task may be running or queued). A pid= action selected the task already.
 */
void policy_apply_renamed_task(struct uclamp_sys *sys, const struct policy *p, u64 upto_ns,
			       u64 now_ns, struct uclamp_task *uc, s32 pid, const char *old_comm,
			       const char *comm, const struct policy_ops *ops,
			       struct policy_action_stats *st);

/* The policy as text, one normalised action per line in run order ("at 0.5 setattr
 * comm=surfaceflinger uclamp_min=512\n"), for the results database, appended to sb; 0, or
 * GS_ENOMEM (strbuf_error()). */
int policy_format(const struct policy *p, struct strbuf *sb);

/* One action, normalised, without a newline, appended to sb; 0, or GS_ENOMEM. */
int policy_action_format(const struct policy_action *a, struct strbuf *sb);

#endif
