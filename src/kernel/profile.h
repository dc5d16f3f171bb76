/*
 * profile.h - kernel profiles: which kernel's frequency-selection path the emulation follows.
 *
 * A profile is data: one row of a table of named behaviours and constants (PELT invariance,
 * util_est variant, uclamp presence and static key, schedutil's util function and headroom,
 * busy hold, relation, EM cost, ...), each cell citing the kernel file,
 * function, line and release it was read from (each stable tree). The model files ask
 * for a behaviour (`kp->util_est_fastup`), never for a version number; adding a profile is
 * adding a row to kernel_profiles[] in profile.c.
 *
 * Stages read the fields they need once, at set-up, into their own configuration: a profile
 * switch costs nothing per event.
 */
#ifndef GOVSIM_KERNEL_PROFILE_H
#define GOVSIM_KERNEL_PROFILE_H

#include <stddef.h>

#include "core/types.h"
#include "govsim/governor.h"

/* PELT: v4.19 scales each contribution by freq and CPU capacity at update time; v5.1+
 * scale time (clock_pelt) and keep lost idle time. */
enum pelt_invariance { PELT_CLOCK_PELT = 0, PELT_CONTRIB_SCALING };

/* Where util_est keeps UTIL_AVG_UNCHANGED: the LSB of enqueued (<= v5.9, 5.10-early) or
 * the MSB (late 5.10.y and later, with the dequeue split and the last_enqueued filter). */
enum util_est_flag { UTIL_EST_FLAG_LSB = 0, UTIL_EST_FLAG_MSB };

/* util_est_dequeue's filters before the EWMA update. */
enum util_est_margin {
	UTIL_EST_MARGIN_EWMA = 0,      /* |enqueued - ewma| < 1% -> skip (v4.19) */
	UTIL_EST_MARGIN_CAPACITY,      /* + skip when task_util > capacity_orig (v5.4 .. v5.9) */
	UTIL_EST_MARGIN_LAST_ENQUEUED, /* + write enqueued when only the ewma diff is small
					* (last_enqueued_diff filter, v5.10.89+) */
	UTIL_EST_MARGIN_UNIFIED,       /* v6.8+: one value (the ewma, reset on increase), the
					* 1% margin on ewma - dequeued, the capacity skip, and
					* no ewma update while dequeued + 1% < runnable_avg */
	UTIL_EST_MARGIN_UNIFIED_NO_CAPACITY, /* 7.2: the same without the capacity skip */
};

/* Where a sleeping task's util_est_update() reads its util: after dequeue_entity()'s PELT
 * update (the end of dequeue_task_fair, or inside update_load_avg with UPDATE_UTIL_EST in 7.2),
 * or before it (v6.12: dequeue_task_fair calls it ahead of dequeue_entities()). */
enum util_est_update_point { UTIL_EST_UPDATE_AFTER_PELT = 0, UTIL_EST_UPDATE_BEFORE_PELT };

/* uclamp's RT default boost: absent (no uclamp), hard-wired 1024, or the sysctl. */
enum uclamp_rt_default { UCLAMP_RT_NONE = 0, UCLAMP_RT_HARDWIRED, UCLAMP_RT_SYSCTL };

/* The function schedutil calls for a CPU's util (the algorithm is the same; the name and
 * whether it lives in schedutil or core.c change). */
enum sugov_util_fn {
	SUGOV_UTIL_SUGOV_GET_UTIL = 0,   /* v4.19: inside sugov_get_util */
	SUGOV_UTIL_SCHEDUTIL_CPU_UTIL,   /* v5.4 .. v5.10 */
	SUGOV_UTIL_EFFECTIVE_CPU_UTIL,   /* v5.15 .. v6.6 (core.c) */
};

/* The CFS util schedutil reads, where the headroom goes, the busy hold, the iowait boost's
 * units and the shared-policy aggregation: the public interface's enums (govsim/governor.h),
 * which the governors read through struct govsim_kernel. */

/* cpufreq_driver_resolve_freq's relation. */
enum cpufreq_resolve_relation { CPUFREQ_RESOLVE_L = 0, CPUFREQ_RESOLVE_LE };

/* Energy Model cost formula and units. */
enum em_cost {
	EM_COST_NONE = 0,  /* no EM in mainline v4.19 */
	EM_COST_MW,        /* cost = fmax * P / f, P in mW */
	EM_COST_MW_X1000,  /* em_scale_power: fmax * (P * 1000) / f on 64-bit */
	EM_COST_UW,        /* P in uW (C * mV^2 * MHz / 1e6), fmax * P / f */
};

/* How a cfs_rq's PELT sums follow when averages are taken off it: a task's, queued as removed
 * after it left asleep or died (update_cfs_rq_load_avg()), or detached (detach_entity_load_avg(),
 * dequeue_load_avg()). The sums carry more than avg * divider between two period boundaries, so
 * the rules differ in the unit or two of util they keep. */
enum pelt_sum_sync {
	PELT_SUMS_SUBTRACT = 0, /* sum -= avg * divider (or the se's sum), floored at 0 (v5.9) */
	/* removal: load and runnable sums rebuilt as avg * divider, util subtracted then floored
	 * at util_avg * PELT_MIN_DIVIDER; detach: util and runnable sums rebuilt (Debian
	 * 5.10.223, 5.15.100: 1c35b07e6d39, v5.14, with 98b0d890220d (v5.17)'s util floor) */
	PELT_SUMS_RESYNC,
	/* every sum subtracted, then floored at avg * PELT_MIN_DIVIDER, compared as u32 (v5.17's
	 * "sched/pelt: Relax the sync of *_sum with *_avg"; Debian 6.1, 6.12) */
	PELT_SUMS_FLOORED,
	/* 7.2 __update_sa(): the same floor in the sum's own type, and at attach too */
	PELT_SUMS_FLOORED_TYPED,
};

/* EEVDF's DELAY_DEQUEUE (kernel/sched/fair.c): absent (to v6.6), as 6.12 (DELAY_ZERO at the
 * end of the delay, lag limit max(2 slices, a tick)), as 7.2 (the lag updated as the task is
 * delayed and capped at 0, limit the largest slice + a tick). */
enum eevdf_delay { EEVDF_DELAY_NONE = 0, EEVDF_DELAY_V6_12, EEVDF_DELAY_V7_2 };

/* What update_curr() asks when the running task's slice has ended (kernel/sched/fair.c): nothing
 * (CFS, to v6.1: check_preempt_tick() at the tick does), a reschedule (EEVDF, v6.6 to v6.12:
 * resched_curr(), TIF_NEED_RESCHED, traced 'N'), a lazy one (v6.13+: resched_curr_lazy(),
 * TIF_NEED_RESCHED_LAZY under the lazy preemption model, traced 'l'). Any update of the running
 * task's cfs_rq runs update_curr(): a dequeue and enqueue of it outside __schedule() too. */
enum slice_resched { SLICE_RESCHED_TICK = 0, SLICE_RESCHED_FULL, SLICE_RESCHED_LAZY };

/* The named behaviours, in `kernels show` order. */
enum kernel_behaviour {
	KB_PELT_INVARIANCE,
	KB_PELT_RUNNABLE,
	KB_PELT_RQ_SIGNALS,
	KB_UTIL_EST_FASTUP,
	KB_UTIL_EST_FLAG,
	KB_UTIL_EST_MARGIN,
	KB_UTIL_EST_SUB_BEFORE_PELT,
	KB_UTIL_EST_UPDATE_POINT,
	KB_POST_INIT_WEIGHT,
	KB_UCLAMP_PRESENT,
	KB_UCLAMP_STATIC_KEY,
	KB_UCLAMP_RT_DEFAULT,
	KB_UCLAMP_BUCKET_CLAMP,
	KB_UCLAMP_RQ_IDLE_INIT,
	KB_UCLAMP_TG_CLAMP,
	KB_UCLAMP_IDLE_SHORTCUT,
	KB_RT_BOOST_KEY_OFF,
	KB_BLOCKED_KICK,
	KB_SUGOV_UTIL_FN,
	KB_SUGOV_CFS_INPUT,
	KB_SUGOV_HEADROOM,
	KB_SUGOV_BUSY_HOLD,
	KB_SUGOV_LIMITS_CHANGED,
	KB_SUGOV_COMMIT_ON_NEED_UPDATE,
	KB_SUGOV_IOWAIT_UNITS,
	KB_SUGOV_IOWAIT_CLAMPED,
	KB_SUGOV_SHARED_AGG,
	KB_RATE_LIMIT_DEFAULT,
	KB_RESOLVE_RELATION,
	KB_EM_COST,
	KB_IDLE_RETAIN_TICK,
	KB_ILB_BLOCKED,
	KB_NEWIDLE_BLOCKED,
	KB_POST_INIT_ATTACH,
	KB_PELT_SUM_SYNC,
	KB_MIGRATE_DETACH,
	KB_DELAY_DEQUEUE,
	KB_UCLAMP_INC_ORDER,
	KB_FAIR_SERVER,
	KB_SETATTR_LOAD,
	KB_TTWU_WAKELIST,
	KB_SLICE_RESCHED,
	KB_MIGRATE_PELT_LAG,
	KB__COUNT
};

struct kernel_profile {
	const char *name;       /* "v5.9", "v5.4-early", ... */
	const char *tree;       /* the stable tree read for it */
	const char *summary;    /* one line for `kernels list` */
	/* PELT (src/sched/pelt.c) */
	enum pelt_invariance pelt_invariance;
	bool pelt_runnable_avg;        /* runnable_avg (h_nr_running) vs runnable_load_avg (weight) */
	bool pelt_thermal;             /* avg_thermal tracked (capacity only, not frequency) */
	enum pelt_sum_sync pelt_sum_sync;
	/* util_est (src/sched/util_est.c) */
	bool util_est_fastup;
	enum util_est_flag util_est_flag;
	enum util_est_margin util_est_margin;
	bool util_est_sub_before_pelt; /* cfs_rq subtraction before dequeue_entity's PELT update */
	enum util_est_update_point util_est_update_point;
	/* post_init_entity_util_avg() (src/sched/fair.c): a new task's util is
	 * cfs.util_avg * w / (cfs.load_avg + 1), capped; w is se->load.weight (1024 << 10 on
	 * 64-bit, so the cap nearly always wins) or, from the fix between v6.6 and v6.12,
	 * se_weight() (1024). */
	bool post_init_se_weight;
	/* Where a new fair task's averages join its cfs_rq. false (to v5.15):
	 * post_init_entity_util_avg() ends in attach_entity_cfs_rq() (the cfs_rq aged, a cpufreq
	 * kick where it decayed, the attach's kick), the util computed for every class. true
	 * (v6.1+): enqueue_entity()'s update_load_avg(DO_ATTACH) attaches it (one kick, after the
	 * task's util_est is enqueued), and a task of another class gets no util. */
	bool post_init_attach_enqueue;
	/* a queued task that migrates detaches inside dequeue_entity() (DO_DETACH), one cpufreq
	 * kick, instead of migrate_task_rq_fair()'s sync and detach (e1f078f50478, v6.1) */
	bool detach_in_dequeue;
	enum eevdf_delay eevdf_delay;
	/* uclamp (src/uclamp/uclamp.c) */
	bool uclamp_present;
	bool uclamp_static_key;        /* false: aggregation always runs, no RT-to-max shortcut */
	enum uclamp_rt_default uclamp_rt_default;
	bool uclamp_bucket_clamp;      /* uclamp_bucket_id = min(v / delta, BUCKETS - 1) */
	bool uclamp_rq_idle_init;      /* rq->uclamp_flags = UCLAMP_FLAG_IDLE at init */
	bool uclamp_tg_clamp;          /* uclamp_tg_restrict = clamp(req, tg_min, tg_max) */
	bool uclamp_idle_shortcut;     /* uclamp_rq_util_with skips an idle rq's values (p != NULL) */
	/* enqueue_task() counts the task's clamps in its rq only after the class's enqueue, so the
	 * cpufreq updates of that enqueue do not see them (v6.12 to v6.15: ENQUEUE_DELAYED's requeue
	 * must clear sched_delayed first); before and after, uclamp_rq_inc() comes first */
	bool uclamp_inc_after_enqueue;
	/* the fair class's deadline server (rq->fair_server, v6.12+): started at a CPU's first CFS
	 * enqueue, its bandwidth (50 ms every 1 s: 51 of 1024) is in the rq's running_bw, so
	 * schedutil's minimum, and its start kicks cpufreq (__add_running_bw()) */
	bool fair_server;
	/* scheduler kicks (src/sched/fair.c) */
	bool blocked_kick;             /* update_blocked_averages calls cpufreq_update_util */
	/* schedutil (src/gov/schedutil.c) */
	enum sugov_util_fn sugov_util_fn;
	enum govsim_sugov_cfs_input sugov_cfs_input;
	enum govsim_sugov_headroom sugov_headroom;
	enum govsim_sugov_busy_hold sugov_busy_hold;
	bool sugov_limits_changed;     /* false: should_update is true while need_freq_update */
	bool sugov_commit_on_need_update; /* commit an unchanged next_f while need_freq_update */
	enum govsim_sugov_iowait_units sugov_iowait_units;
	bool sugov_iowait_clamped;     /* boost = uclamp_rq_util_with(rq, boost, NULL) */
	enum govsim_sugov_shared_agg sugov_shared_agg;
	/* cpufreq core (src/cpufreq/cpufreq.c) */
	enum cpufreq_resolve_relation resolve_relation;
	bool rate_limit_1_5x;          /* default rate limit: latency x 1.5 (v6.9+), else x 1000
					* capped at 10 ms */
	/* The idle loop without a cpuidle driver keeps the tick (and does not count an idle entry
	 * for tick_nohz_get_idle_calls_cpu()) unless the last wakeup was the tick or the tick is
	 * stopped already: do_idle() -> cpuidle_idle_call(got_tick) (v6.1+); before, every
	 * iteration stopped it (counted). */
	bool idle_retain_tick;
	/* What an idle-load balancer's pass (_nohz_idle_balance()) refreshes. false (to v5.12):
	 * every pass, the kicked CPU itself last and unconditionally, the other idle CPUs of
	 * nohz.idle_cpus_mask with blocked load whatever the jiffy (update_nohz_stats(rq, true));
	 * a newly idle CPU's own pass not itself. true (v5.13+): only a NOHZ_STATS_KICK pass, each
	 * idle CPU of the mask with blocked load, the balancer included, at most once a jiffy. */
	bool ilb_stats_per_jiffy;
	/* Which function the newidle balance refreshes its CPU's blocked load with. false (to
	 * v6.12): update_blocked_averages() (sched_balance_update_blocked_averages() from v6.10),
	 * which reads the rq clock again. true (7.2): __sched_balance_update_blocked_averages(), at
	 * the clock __schedule() read; a probe of the outer function does not see it. */
	bool newidle_blocked_inner;
	/* A task that leaves the fair class by sched_setattr(): switched_from_fair() detaches its
	 * averages. true (7.2): sched_change_begin() detaches first and __setscheduler_params() ->
	 * set_load_weight(p, true) then reaches reweight_task_fair() while the class is still fair,
	 * whose reweight_entity() puts the task's load_avg back on the cfs_rq it left; false (to
	 * 6.12): the reweight comes first and the detach takes everything. */
	bool setattr_reweight_after_detach;
	/* ttwu_queue_cond(): a wakeup onto another CPU that shares the waker's cache goes through
	 * the target's wakelist (its wakeup IPI does the enqueue, there) when the target has nothing
	 * queued. true (v6.0+, "sched: Remove the limitation of WF_ON_CPU on wakelist if wakee cpu is
	 * idle"); false (to v5.15): only for a wakee still descheduling (WF_ON_CPU), else the waker
	 * enqueues it under the target's rq lock and calls the target's cpufreq hook itself. */
	bool ttwu_wakelist_idle;
	enum slice_resched slice_resched;
	/* migrate_task_rq_fair() for a waking task whose source CPU is idle: after the sync to the
	 * source cfs_rq's last update (remove_entity_load_avg()), migrate_se_pelt_lag() decays the
	 * task as blocked to an estimate of now, the source rq's PELT clock at its last idle clock
	 * update (clock_pelt_idle, _update_idle_rq_clock_pelt()) plus the time since
	 * (sched_clock_cpu() - clock_idle). true (v6.0+, "sched/fair: Decay task PELT values during
	 * wakeup migration"); false: the task keeps the values of that last update. */
	bool migrate_pelt_lag;
	/* Energy Model (reported; the power model uses the platform's own units) */
	enum em_cost em_cost;
	/* Where each behaviour comes from: "file function line version". */
	const char *src[KB__COUNT];
	/* Behaviours not emulated, or picked where the sources leave it uncertain: printed by
	 * `kernels show` (NULL: nothing to say). */
	const char *caveats;
};

/* The reference profile (Linux v5.9) and the table, NULL-terminated. */
#define KERNEL_PROFILE_DEFAULT "v5.9"
extern const struct kernel_profile *const kernel_profiles[];

/* By exact name ("v5.9"); also "5.9" without the v. NULL when unknown. */
const struct kernel_profile *kernel_profile_find(const char *name);
const struct kernel_profile *kernel_profile_default(void);

/*
 * The profile for a kernel release string (uname -r: "4.19.0-07801-gf317706",
 * "5.10.157-android13-4-..."): the profile of the same major.minor, early or late by the
 * stable sublevel where the table has both, else the nearest release in release order (ties
 * go to the older profile). *why gets a one-line reason ("trace records 4.19.0-...; nearest
 * profile v4.19-early"). NULL when the string holds no version.
 */
const struct kernel_profile *kernel_profile_for_release(const char *release, char *why,
							size_t why_size);

/*
 * A LISA trace bundle's kernel release: the `release:` line of the `kernel:` block of the
 * plat_info.yml beside the trace (devlib's KernelVersion). true and buf filled, or false when
 * there is no such file or line. Reads only that file.
 */
bool kernel_release_from_plat_info(const char *trace_path, char *buf, size_t size);

/* The behaviour's name ("pelt_invariance"), its one-line meaning, and this profile's value
 * as text ("contrib_scaling"), for `kernels show`. */
const char *kernel_behaviour_name(enum kernel_behaviour b);
const char *kernel_behaviour_what(enum kernel_behaviour b);
const char *kernel_profile_value(const struct kernel_profile *kp, enum kernel_behaviour b);

#endif
