/*
 * uclamp.h - utilization clamping, following Linux v5.9 kernel/sched/core.c and sched.h.
 *
 * Per-task requests and effective values (struct uclamp_se, as the kernel's), per-rq buckets
 * with max aggregation (struct uclamp_rq), the system defaults, cgroup (task group) limits, and
 * the `sched_uclamp_used` static key (uclamp_is_used()), which flips on at the first use of
 * uclamp and stays on. Kernel names are kept.
 *
 * Ownership: struct uclamp_sys is caller-owned (uclamp_sys_init/uclamp_sys_release); struct
 * uclamp_task is embedded in the scheduler model's task, struct uclamp_rq in its runqueue.
 */
#ifndef GOVSIM_UCLAMP_UCLAMP_H
#define GOVSIM_UCLAMP_UCLAMP_H

#include "core/error.h"
#include "core/types.h"
#include "kernel/profile.h"

enum uclamp_id { UCLAMP_MIN = 0, UCLAMP_MAX, UCLAMP_CNT };

#define UCLAMP_BUCKETS_DEFAULT 5  /* CONFIG_UCLAMP_BUCKETS_COUNT default */
#define UCLAMP_BUCKETS_MAX     20 /* Kconfig range 5..20 */
#define UCLAMP_FLAG_IDLE       0x01

/* The kernel's struct uclamp_se (value, bucket_id, active, user_defined). */
struct uclamp_se {
	unsigned int value;
	unsigned int bucket_id;
	bool active;
	bool user_defined;
};

struct uclamp_bucket {
	unsigned int value;
	unsigned long tasks;
};

struct uclamp_rq {
	unsigned int value;
	/* One more than UCLAMP_BUCKETS_MAX: v5.9 has no clamp of the bucket id (see
	 * uclamp_bucket_id()), 1024 / DELTA can index one past the last bucket. */
	struct uclamp_bucket bucket[UCLAMP_BUCKETS_MAX + 1];
};

/* Per runqueue: both clamp ids and the flags (UCLAMP_FLAG_IDLE). */
struct uclamp_rq_pair {
	struct uclamp_rq uc[UCLAMP_CNT];
	unsigned int flags;
};

/* Per task: requested (uclamp_req) and effective (uclamp) values, and its task group. */
struct uclamp_task {
	struct uclamp_se req[UCLAMP_CNT];
	struct uclamp_se eff[UCLAMP_CNT];
	int group; /* index in uclamp_sys.groups; 0 = root */
	bool is_rt; /* sched class rt (uclamp_enabled, RT default min applies) */
	/* sched_class->uclamp_enabled of the class the task is queued in (CFS and RT): set by the
	 * scheduler model at enqueue and left alone until the matching dequeue, so a class change
	 * while queued cannot unbalance the buckets. */
	bool class_enabled;
};

#define UCLAMP_MAX_GROUPS 64

/* A cgroup v2 task group with cpu.uclamp.min/max. */
struct uclamp_group {
	char path[128];      /* "/", "/top-app", "/top-app/fg" */
	int parent;          /* index; -1 for the root */
	struct uclamp_se req[UCLAMP_CNT]; /* requested (from percent) */
	struct uclamp_se eff[UCLAMP_CNT]; /* effective: min(req, parent eff), MIN <= MAX */
	/* bit (1 << id) set when the last cpu_util_update_eff() changed eff[id] of this group. The
	 * caller re-accounts the RUNNABLE tasks of such groups for that id
	 * (uclamp_update_active_tasks in v5.9). Cleared at the start of every update. */
	unsigned int eff_changed;
};

/* Counters for the report: how much clamp work ran, and how much the static key skipped. */
struct uclamp_stats {
	u64 agg_ops;     /* uclamp_rq_inc/dec calls that did aggregation work */
	u64 agg_skipped; /* calls that returned at once because the key was off */
	bool key_on;
	u64 key_on_at_ns; /* trace time the key flipped on; valid when key_on */
	/* user-interface calls the kernel rejected (-EINVAL) */
	u64 setattr_rejected; /* uclamp_setattr calls failing uclamp_validate */
	u64 sysctl_rejected;  /* uclamp_sysctl_write calls undone */
};

struct uclamp_sys {
	int buckets;         /* UCLAMP_BUCKETS, 5..20 */
	unsigned int bucket_delta; /* DIV_ROUND_CLOSEST(1024, buckets) */
	bool key;            /* sched_uclamp_used */
	unsigned int sysctl_util_clamp_min;        /* default 1024 */
	unsigned int sysctl_util_clamp_max;        /* default 1024 */
	unsigned int sysctl_util_clamp_min_rt_default; /* default 1024 */
	struct uclamp_se uclamp_default[UCLAMP_CNT];
	int nr_groups;
	struct uclamp_group groups[UCLAMP_MAX_GROUPS];
	struct uclamp_stats stats;
	/* From the kernel profile (uclamp_sys_set_profile; all false: v5.9). */
	bool no_static_key;        /* 5.4-early: no sched_uclamp_used, aggregation always runs */
	bool rt_default_hardwired; /* <= v5.8: RT uclamp.min 1024, no sysctl */
	bool bucket_clamp;         /* uclamp_bucket_id = min(v / delta, BUCKETS - 1) */
	bool rq_idle_init;         /* init_uclamp_rq sets UCLAMP_FLAG_IDLE */
	bool tg_clamp;             /* uclamp_tg_restrict = clamp(req, tg_min, tg_max) */
	bool idle_shortcut;        /* with a task, an idle rq's clamps are ignored */
};

/* Kernel boot state (init_uclamp): key off, defaults 1024, root group {1024, 1024}. */
void uclamp_sys_init(struct uclamp_sys *sys, int buckets);
void uclamp_sys_release(struct uclamp_sys *sys);
/* Follow a kernel profile's uclamp (`govsim kernels show`), right after
 * uclamp_sys_init, before any task or rq exists. NULL: v5.9. A profile without the static key
 * starts with aggregation on (uclamp_is_used() true from the start, stats.key_on stays false:
 * no key ever flipped). A profile without uclamp at all is the caller's business (it installs
 * no hooks). */
void uclamp_sys_set_profile(struct uclamp_sys *sys, const struct kernel_profile *kp);
/* init_uclamp_rq under the profile: uclamp_rq_init, then UCLAMP_FLAG_IDLE where the profile
 * starts with it (5.4.286, v5.10.89+). */
void uclamp_rq_init_sys(const struct uclamp_sys *sys, struct uclamp_rq_pair *rq);

static inline bool uclamp_is_used(const struct uclamp_sys *sys)
{
	return sys->key;
}

/* init_uclamp_rq: MIN value 0, MAX value 1024, flags 0, buckets empty. */
void uclamp_rq_init(struct uclamp_rq_pair *rq);

/* A new task (init_task defaults {0, 1024}, then the RT default min for RT tasks:
 * __setscheduler_uclamp / uclamp_post_fork). */
void uclamp_task_init(const struct uclamp_sys *sys, struct uclamp_task *p, bool is_rt);

/* Class change seen in the trace (prio crossing 100): __setscheduler_uclamp semantics for
 * non-user-defined clamps. */
void uclamp_task_set_rt(const struct uclamp_sys *sys, struct uclamp_task *p, bool is_rt);

unsigned int uclamp_bucket_id(const struct uclamp_sys *sys, unsigned int clamp_value);
struct uclamp_se uclamp_tg_restrict(const struct uclamp_sys *sys, const struct uclamp_task *p,
				    enum uclamp_id id);
struct uclamp_se uclamp_eff_get(const struct uclamp_sys *sys, const struct uclamp_task *p,
				enum uclamp_id id);
unsigned int uclamp_eff_value(const struct uclamp_sys *sys, const struct uclamp_task *p,
			      enum uclamp_id id);

/* enqueue_task()/dequeue_task(): uclamp_rq_inc/dec as v5.9 kernel/sched/core.c, called for
 * every task before the class enqueue/dequeue. While the key is off they count agg_skipped and
 * return; a task whose queued class has no uclamp_enabled (p->class_enabled false: DL, idle)
 * is then left alone; otherwise the buckets are updated and agg_ops counted. */
void uclamp_rq_inc(struct uclamp_sys *sys, struct uclamp_rq_pair *rq, struct uclamp_task *p);
void uclamp_rq_dec(struct uclamp_sys *sys, struct uclamp_rq_pair *rq, struct uclamp_task *p);

/* v5.9 uclamp_rq_util_with(rq, util, p): util unchanged while the key is off; p may be NULL
 * (the schedutil path). With p, profiles with the idle shortcut (sys->idle_shortcut: v5.14
 * and the 5.10.y it was backported to, Debian 5.10.223 and later kernels) bound an idle rq
 * (UCLAMP_FLAG_IDLE) by p's clamps alone. */
unsigned long uclamp_rq_util_with(const struct uclamp_sys *sys, const struct uclamp_rq_pair *rq,
				  unsigned long util, const struct uclamp_task *p);

/* The bounds uclamp_rq_util_with() clamps to, whatever the key: the rq's values, each
 * max-aggregated with p's effective value when p is not NULL (p's alone on an idle rq under
 * the idle shortcut). */
void uclamp_rq_util_bounds(const struct uclamp_sys *sys, const struct uclamp_rq_pair *rq,
			   const struct uclamp_task *p, unsigned long *min_util,
			   unsigned long *max_util);

/* util within [min_util, max_util]. Max-aggregating different tasks' clamps can invert the
 * pair (min_util >= max_util): then the boost wins, min_util. */
static inline unsigned long uclamp_clamp_util(unsigned long util, unsigned long min_util,
					      unsigned long max_util)
{
	if (min_util >= max_util)
		return min_util;
	if (util < min_util)
		return min_util;
	if (util > max_util)
		return max_util;
	return util;
}

/*
 * The three user interfaces, with the kernel's validation and effect on the static key.
 * `now_ns` stamps the moment the key flips on. Each returns 0 or GS_EPOLICY with a reason in
 * err (no file:line: the policy parser adds it).
 */
/* sched_setattr(SCHED_FLAG_UTIL_CLAMP_MIN/MAX): min/max < 0 means "not given". The caller
 * dequeues/enqueues a queued task around it (uclamp_rq_dec/inc) as the kernel does. */
int uclamp_setattr(struct uclamp_sys *sys, struct uclamp_task *p, int min, int max, u64 now_ns,
		   struct gs_error *err);
/* Validation of a setattr alone (uclamp_validate), no effect: for parsing policies up front. */
int uclamp_validate(int min, int max, struct gs_error *err);

enum uclamp_sysctl {
	UCLAMP_SYSCTL_MIN,        /* sched_util_clamp_min */
	UCLAMP_SYSCTL_MAX,        /* sched_util_clamp_max */
	UCLAMP_SYSCTL_MIN_RT_DEFAULT, /* sched_util_clamp_min_rt_default */
};
/* sysctl_sched_uclamp_handler: the key flips on only if the value changes; an invalid write
 * (min > max, > 1024) is rejected and undone. RT default changes rewrite the requested min of
 * RT tasks that are not user-defined: the caller iterates its tasks with uclamp_sync_rt_default. */
int uclamp_sysctl_write(struct uclamp_sys *sys, enum uclamp_sysctl which, unsigned int value,
			u64 now_ns, struct gs_error *err);
void uclamp_sync_rt_default(const struct uclamp_sys *sys, struct uclamp_task *p);

/* cgroup v2: find or create a group by path (parents created as needed); -1 if full. */
int uclamp_group_get(struct uclamp_sys *sys, const char *path);
/* cpu.uclamp.min / cpu.uclamp.max write: `text` is a percent with up to 2 decimals or "max".
 * The key flips on even when the value is unchanged. Recomputes effective values of the
 * subtree (cpu_util_update_eff); the caller re-accounts runnable tasks (uclamp_update_active). */
int uclamp_group_write(struct uclamp_sys *sys, int group, enum uclamp_id id, const char *text,
		       u64 now_ns, struct gs_error *err);
/* capacity_from_percent: "max" -> 1024, "12.34" -> DIV_ROUND_CLOSEST(1234 << 10, 10000). */
int uclamp_capacity_from_percent(const char *text, unsigned int *out);

/* ---- re-accounting, validation, and the names of groups and sysctls ---- */

/* uclamp_update_active(p, clamp_id) v5.9: if p's clamp `id` is refcounted on rq (eff[id].active),
 * uclamp_rq_dec_id then uclamp_rq_inc_id, so a changed group or default takes effect on a
 * RUNNABLE task at once. Like v5.9 it does not clear UCLAMP_FLAG_IDLE (that fix is later). */
void uclamp_update_active(struct uclamp_sys *sys, struct uclamp_rq_pair *rq, struct uclamp_task *p,
			  enum uclamp_id id);

/* uclamp_validate(p, attr) v5.9, the first half of uclamp_setattr(): a clamp not given is
 * checked with the task's current request as the other bound; on success the key flips on.
 * The kernel runs it before dequeueing the task, so a caller re-accounting a queued task calls
 * this, then dequeues, uclamp_setattr(), enqueues. */
int uclamp_setattr_validate(struct uclamp_sys *sys, const struct uclamp_task *p, int min, int max,
			    u64 now_ns, struct gs_error *err);

/* The group index for an existing path, or -1 (no creation). */
int uclamp_group_find(const struct uclamp_sys *sys, const char *path);
/* Whether `path` is a well-formed cgroup path: "/" or "/a/b" (no empty component, no trailing
 * '/', shorter than uclamp_group.path). */
bool uclamp_group_path_valid(const char *path);

/* The procfs name of a sysctl ("sched_util_clamp_min"); from_name: false if unknown. */
const char *uclamp_sysctl_name(enum uclamp_sysctl which);
bool uclamp_sysctl_from_name(const char *name, enum uclamp_sysctl *out);

/* The cgroup file name of a clamp id: "cpu.uclamp.min" / "cpu.uclamp.max". */
const char *uclamp_group_file_name(enum uclamp_id id);

#endif
