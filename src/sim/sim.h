/*
 * sim.h - the one loop that owns time: it takes the trace's events in order, decides when each
 * happens in the emulation (the timing model), and drives the stages in order: scheduler model
 * (PELT, util_est) -> uclamp -> governor -> cpufreq core -> power accounting
 * (docs/architecture.md).
 *
 * Opaque handle: sim_new()/sim_free(). Feed events with sim_feed() in trace order, then
 * sim_finish() fills a struct run_result.
 */
#ifndef GOVSIM_SIM_SIM_H
#define GOVSIM_SIM_SIM_H

#include <stdio.h>

#include "core/error.h"
#include "core/event.h"
#include "gov/governor.h"
#include "kernel/profile.h"
#include "power/platform.h"
#include "power/power.h"
#include "core/result.h"
#include "sim/options.h"
#include "trace/cache.h"
#include "trace/reader.h"
#include "uclamp/policy.h"

enum sim_update_points { SIM_UPDATE_KERNEL, SIM_UPDATE_CONTEXT_SWITCH };

struct sim_config {
	/* The what-if settings (sim/options.h), as the replay settles them: opts.kernel is the
	 * profile in force, and a CSV util trace forces traced timing and util from the trace. */
	struct sim_opts opts;
	/* Derived by the replay from opts and the trace: */
	const struct governor *gov; /* opts.governor looked up */
	struct gov_param *params; /* the replay's copy of opts.params (opts.nr_params of them):
				   * the sim consumes its own keys (below), the governor the rest,
				   * each marking the ones it took as used */
	/* Replay tunables (--set; config.c's table, sim_param_key()): filled by
	 * sim_config_parse_params(), as are the ones further down that say so. */
	int hz;                         /* CONFIG_HZ, default 250 */
	bool has_switch_latency;        /* false: the platform's transition latency */
	u64 switch_latency_ns;
	u64 transition_ns;              /* the slow path's driver call (transition_us), 0 */
	u64 switch_clock_lead_ns;       /* switch_clock_lead_us: sched_config's, 0 */
	u64 sleep_clock_lead_ns;        /* sleep_clock_lead_us: sched_config's, 0 */
	/* pelt_event_lead_us: a switch (not a dying task's) without a hook call of its own whose
	 * __schedule() traced the kernel's PELT or util_est events (the lab's PELT recordings)
	 * read the rq clock that long before the first of them, and a wakeup without one that
	 * long before its enqueue's sched_util_est_cfs; 0 */
	u64 pelt_event_lead_ns;
	u64 wakeup_clock_lead_ns;       /* wakeup_clock_lead_us: sched_config's, 0 */
	u64 waking_clock_lag_ns;        /* waking_clock_lag_us: a wakeup its waker traced reads the
					 * clock that long after its sched_waking, 0 */
	u64 task_dead_irq_ns;           /* task_dead_irq_us: an interrupt a dying task's CPU
					 * traces that soon after its switch ran before its
					 * task_dead_fair() (kernel_points.c), 0: none did */
	enum sim_update_points update_points;
	u32 scaling_min_khz, scaling_max_khz; /* as written; 0 and CPUFREQ_NO_MAX_KHZ: not */
	int uclamp_buckets;
	/* the emulated kernel's costs: cgroup_depth, levels above every task's own
	 * group (nested cgroups); uclamp_task, CONFIG_UCLAMP_TASK (default 1; 0: no uclamp
	 * costs, and a policy may only attach) */
	int cgroup_depth;
	bool uclamp_task;
	/* freq_invariant: arch_scale_freq_invariant() (-1: the platform's); start_freq: the
	 * frequency each policy has when the governor starts (traced: the trace's first
	 * cpu_frequency of the policy, else its maximum; max: its scaling_max_freq, as a
	 * policy switched from the performance governor has -- the lab's recordings). */
	int freq_invariant;
	/* dvfs_possible_from_any_cpu: the cpufreq driver's (-1: the platform's) */
	int dvfs_any_cpu;
	/* kthread_traced: a slow path follows the traced governor kthread where the trace shows
	 * it (1, the default; cpufreq/kthread.h), or keeps the model's constants (0) */
	int kthread_traced;
	/* rq_clock_traced: a switch or wakeup takes the rq clock a traced call of schedutil's
	 * hook shows for it (1, the default; src/sim/kernel_points.c), or its stamp less the
	 * leads (0) */
	int rq_clock_traced;
	/* start_state: the lab's snapshot markers (EV_START_SE/CFS) seed tasks and runqueues */
	int start_state;
	/* rq_clock_offset_ns: trace time minus the kernel's rq clock, per CPU (one value for all,
	 * or one per CPU), where known: PELT periods fall where the kernel's do */
	bool has_rq_clock_offset;
	s64 rq_clock_offset_ns[GS_MAX_CPUS];
	enum sim_start_freq { SIM_START_TRACED = 0, SIM_START_MAX } start_freq;
	/* governor_start_ns: the trace time (ns) the governor starts at (sugov_start); before it
	 * no evaluation runs and each policy keeps its starting frequency (0: from the start).
	 * One value, or one per CPU (the CPUs of a policy that started later); governor_start_ns
	 * is then the earliest */
	u64 governor_start_ns;
	u64 governor_start_cpu_ns[GS_MAX_CPUS];
	/* Whose decisions the replay follows, settled here once. EMULATED (a what-if run): the
	 * emulation's own, with the EAS placement driver under --placement eas. KERNEL (govsim
	 * validate): the trace's placement as the kernel decided it (no placement driver; under
	 * --placement eas the emulated choice is only checked against it), and the validation
	 * observer records each frequency decision and scores busy time and energy under the
	 * kernel's traced frequencies. val_window_ns: the window a kernel decision and an
	 * emulated one match within (0: one rate-limit period of the policy: --set
	 * rate_limit_us, else the transition-latency default). */
	enum sim_decisions { SIM_DECISIONS_EMULATED = 0, SIM_DECISIONS_KERNEL } decisions;
	u64 val_window_ns;
	/* --placement eas: keep what ran where (run_result.slices, for the stored placement plot;
	 * one entry per time a task ran, so the run's memory grows with the trace) */
	bool placement_slices;
	/* Why opts.kernel was chosen (a line for the run's notes, may be NULL). */
	const char *kernel_note;
	/* From a pre-scan of the trace (sim_prescan): the first traced frequency per CPU (kHz;
	 * 0 unknown), and whether it has cpu_idle events (then, in traced timing, idle states
	 * come from them instead of the hindsight choice). */
	u32 initial_khz[GS_MAX_CPUS];
	bool has_traced_idle;
	/* The trace has the kernel's iowait requests (sugov_set_iowait_boost): each "doing iow
	 * boost" is an update with SCHED_CPUFREQ_IOWAIT of the CPU that traced it, and D-state
	 * sleeps are not taken for IO waits. */
	bool iowait_traced;
	/* sched_autogroup=0|1 (the lab's facts: config_SCHED_AUTOGROUP): exits move the task */
	int sched_autogroup;
	/* cpuidle_driver=0|1 (1; the lab's facts: cpuidle_driver = none gives 0) */
	int cpuidle_driver;
	/* delay_dequeue=0|1: the DELAY_DEQUEUE scheduler feature (-1: the profile's: on from
	 * v6.12) */
	int delay_dequeue;
};

/* Defaults: sim_opts_init(), hz 250, switch latency from the platform, kernel update points,
 * 5 buckets. */
void sim_config_init(struct sim_config *cfg);

/* Take the replay's own keys out of cfg->params (marking them used). GS_EARG on a bad value. */
int sim_config_parse_params(struct sim_config *cfg, struct gs_error *err);
/* The replay's own --set key i (from 0, in the order help and errors list them) and, when help
 * is not NULL, its one-line help in *help; NULL past the last. */
const char *sim_param_key(size_t i, const char **help);

struct sim;

int sim_new(const struct sim_config *cfg, struct sim **out, struct gs_error *err);
/* The longest gap between two events the replay accepts: across a gap it simulates every tick
 * and blocked-average update (about 130 us of CPU per traced second), so this bounds a run's
 * time by its number of events. */
#define SIM_MAX_GAP_NS (3600ull * NSEC_PER_SEC)

/* One event, in trace order. GS_ETRACE for an event the platform cannot hold (CPU beyond it) or
 * one more than SIM_MAX_GAP_NS after the previous event. */
int sim_feed(struct sim *s, const struct event *ev, struct gs_error *err);
/* Run to the end (work timing: until all work is done) and fill *r (initialised by the caller). */
int sim_finish(struct sim *s, struct run_result *r, struct gs_error *err);
void sim_free(struct sim *s);

/* govsim validate: the trace's own signals against the emulated ones at the same instants
 * (--util-source emulated, traced timing), and the time-weighted share of time the emulated
 * OPP equals the traced one (cpu_frequency of the policy's first CPU), per policy, counted
 * from the policy's first traced frequency on (before it the trace says nothing). */
enum sim_val_signal {
	SIM_VAL_CPU_UTIL,          /* root cfs_rq util_avg: sched_pelt_cfs path=/, sched_load_* */
	SIM_VAL_CPU_UTIL_EST,      /* root cfs_rq util_est.enqueued: sched_util_est_cfs */
	SIM_VAL_CPU_UTIL_RT,       /* rq->avg_rt.util_avg: sched_pelt_rt */
	SIM_VAL_TASK_UTIL,         /* task util_avg: sched_pelt_se, sched_load_se, ..._avg_task;
				    * tasks born in the trace (sched_wakeup_new seen) */
	SIM_VAL_TASK_UTIL_EST,     /* task util_est.enqueued (flag masked): sched_util_est_se */
	SIM_VAL_TASK_UTIL_EST_EWMA,
	SIM_VAL_TASK_UTIL_PRE,     /* task util_avg of tasks alive before the trace: their
				    * history is missing, they start from zero sums */
	SIM_VAL_GOV_UTIL,          /* the util schedutil read at each of the kernel's own
				    * evaluations, from its raw frequency (the lab's probes) */
	SIM_VAL_CPU_RUNNABLE,      /* root cfs_rq runnable_avg: sched_pelt_cfs path=/ rbl_load,
				    * under a profile with runnable_avg (v5.7+) */
	SIM_VAL_CPU_LOAD,          /* root cfs_rq load_avg: sched_pelt_cfs path=/ load (the queued
				    * tasks' weight, a delayed one's too), nice-0 weights */
	SIM_VAL__COUNT
};

/*
 * One kernel frequency decision (a cpu_frequency of a policy's first CPU that changed its
 * frequency), with the emulation beside it. agree: the emulated OPP equals the kernel's at
 * some instant within window_ns of it; timing_err_ns: when the emulation entered that OPP,
 * relative to the kernel (negative: earlier; clipped to -window when it was there all along).
 * The eval_* fields are the emulation's last governor evaluation of the policy at or before
 * the decision (the CPU with the highest target).
 */
/*
 * Why a kernel decision found no emulated change to pair with (sim_val_finish_decisions):
 *   EARLY      the emulation was already at the kernel's new OPP: it changed more than a
 *              window before (or never left it)
 *   PATH       the emulation ran at another OPP than the kernel's before the decision: the paths
 *              had diverged (non-invariant schedutil scales the current frequency, so one
 *              difference carries on)
 *   NO_UPDATE  same OPP before, but no emulated evaluation within the window: the kernel decided
 *              at an update point the replay does not have (a tick, a blocked-load update)
 *   UTIL       same OPP before and an evaluation in the window, whose util gave another OPP
 */
enum sim_miss_cause { SIM_MISS_NONE = 0, SIM_MISS_EARLY, SIM_MISS_PATH, SIM_MISS_NO_UPDATE,
		      SIM_MISS_UTIL, SIM_MISS_LATE, SIM_MISS__COUNT };

struct sim_decision {
	u64 t_ns;
	int cluster;
	u32 kernel_khz, kernel_prev_khz;
	u32 emu_khz;           /* emulated OPP in force at t_ns */
	bool agree;            /* matched by an emulated change (timing_err_ns: its time - t_ns) */
	enum sim_miss_cause miss; /* when not */
	s64 timing_err_ns;
	bool has_eval;
	u64 eval_t_ns;
	bool eval_after; /* an emulated evaluation of the policy came within the window after t_ns */
	int eval_cpu;
	unsigned long util, max;
	unsigned int uclamp_min, uclamp_max;
	u32 target_khz;
};

/* An emulated change of a policy's frequency in force (validate's decisions). */
struct sim_emu_change {
	u64 t_ns;
	u32 khz;
	bool matched; /* paired with a kernel decision */
};

/* validate --placement eas: a traced wakeup where v5.9's choice from the emulated state differs
 * from the traced CPU, with find_energy_efficient_cpu's candidates (nr 0: it was not run, the
 * root domain was overutilized or there is no EM; the fallback chose). */
#define SIM_PLACE_DIS_MAX 4096
struct sim_place_dis {
	u64 t_ns;
	s32 pid;
	char comm[TASK_COMM_LEN];
	int prev, traced, emulated;
	bool overutilized;
	bool migrate; /* a traced sched_migrate_task (traced: its dest_cpu), not a wakeup */
	bool queued;  /* migrate: the task was runnable (a load balance move), not asleep */
	int nr;
	int cand_cpu[9];
	unsigned long cand_delta[9];
	unsigned long base_energy;
};

#define SIM_GOV_UTIL_NEAR 10                   /* ~1 % of capacity 1024 */
#define SIM_VAL_DIV_MAX 5                      /* first divergences kept per signal */

/* A util sample where the emulation differs from the trace: the trace event's source line
 * and time, its CPU and task (-1: none), the two values. */
struct sim_val_div {
	u64 line;
	u64 t_ns;
	s32 cpu;
	s32 pid;
	u64 traced;
	u64 emulated;
};
#define SIM_GOV_PAIR_NS (200 * NSEC_PER_USEC) /* a kernel and an emulated evaluation pair */

/* A departure of the emulation's util from the kernel's at the kernel's own evaluations (the
 * lab's probes): at least SIM_GOV_DEPART_MIN paired evaluations of one policy in a row whose
 * util differs by more than SIM_GOV_UTIL_NEAR. Its first evaluation (the kernel's probe line
 * and time, the policy's first CPU, the kernel's and the emulation's util there), how many in
 * a row, the time of the last and the largest |error| among them. */
#define SIM_GOV_DEPART_MIN 3
struct sim_gov_departure {
	u64 line;
	u64 t_ns, last_ns;
	s32 cpu;
	u32 evals;
	u64 kernel, emulated;
	u64 max_abs;
};

struct sim_validation {
	/* the kernel's own evaluations (the lab's probes), and how many had no emulated
	 * evaluation of their CPU within SIM_GOV_PAIR_NS (the others are SIM_VAL_GOV_UTIL) */
	u64 gov_evals;
	u64 gov_unmatched;
	u64 gov_within; /* paired ones whose util differs by at most SIM_GOV_UTIL_NEAR */
	/* the departures, in the order they ended (heap; sim_validation_release frees them) */
	struct sim_gov_departure *depart;
	size_t nr_depart;
	/* paired ones of single-CPU policies where the idle_calls probe gives the kernel's busy
	 * hold state (the idle-entry count unchanged since the CPU's last evaluation), and those
	 * where the replay's count says the same */
	u64 gov_busy_compared, gov_busy_agree;
	u64 n[SIM_VAL__COUNT];
	double sum_abs[SIM_VAL__COUNT];
	u64 max_abs[SIM_VAL__COUNT];
	u64 exact[SIM_VAL__COUNT]; /* samples whose |error| is 0 */
	u64 near[SIM_VAL__COUNT];  /* ... at most SIM_GOV_UTIL_NEAR */
	/* the first SIM_VAL_DIV_MAX samples of each signal with a nonzero error, in trace order
	 * (none for SIM_VAL_GOV_UTIL) */
	struct sim_val_div div[SIM_VAL__COUNT][SIM_VAL_DIV_MAX];
	u32 nr_div[SIM_VAL__COUNT];
	u64 opp_match_ns[GS_MAX_CLUSTERS];
	u64 opp_known_ns[GS_MAX_CLUSTERS];
	u32 foreign_khz[GS_MAX_CLUSTERS]; /* a traced frequency that is no OPP of the platform */
	/* the same, counted only while a CPU of the policy runs a task */
	u64 busy_match_ns[GS_MAX_CLUSTERS];
	u64 busy_known_ns[GS_MAX_CLUSTERS];
	/* busy CPU time x em power of the OPP (mW x ns), at the emulated and at the traced
	 * frequency, over the time the traced one is known */
	double energy_emul_mwns[GS_MAX_CLUSTERS];
	double energy_traced_mwns[GS_MAX_CLUSTERS];
	/*
	 * Decisions, per policy: a kernel decision is a cpu_frequency of the policy's first CPU
	 * that changes its frequency, an emulated one a change of the emulated frequency in
	 * force. They are paired one to one (sim_val_finish_decisions): a kernel decision is
	 * matched by an emulated change to the same OPP at most window_ns before or after it.
	 * decisions_agree/decisions is the recall, emu_matched/nr_emu_chg (below) the precision.
	 */
	u64 window_ns[GS_MAX_CLUSTERS];
	u64 decisions[GS_MAX_CLUSTERS];
	u64 decisions_agree[GS_MAX_CLUSTERS];
	u64 emu_matched[GS_MAX_CLUSTERS];
	u64 misses[GS_MAX_CLUSTERS][SIM_MISS__COUNT]; /* unmatched kernel decisions by cause */
	double sum_abs_timing_ns[GS_MAX_CLUSTERS]; /* over the agreeing decisions */
	/* the kernel's own cpu_frequency events (markers not counted), per policy */
	u64 kernel_freq_events[GS_MAX_CLUSTERS];
	/* every decision, in trace order (heap; sim_validation_release frees it) */
	struct sim_decision *dec;
	size_t nr_dec;
	/* every emulated change, per policy, in time order, and whether a kernel decision took
	 * it (heap; sim_validation_release frees them) */
	struct sim_emu_change *emu_chg[GS_MAX_CLUSTERS];
	size_t nr_emu_chg[GS_MAX_CLUSTERS];
	bool markers_only[GS_MAX_CLUSTERS]; /* its only traced frequencies were devlib markers
					     * (no kernel decision to score) */
	/* validate --placement eas: traced wakeups of sleeping CFS tasks, per cluster of the
	 * traced CPU, and how many the emulation placed on that CPU; the first
	 * SIM_PLACE_DIS_MAX disagreements (heap) */
	u64 place_n[GS_MAX_CLUSTERS], place_agree[GS_MAX_CLUSTERS];
	/* the same for traced sched_migrate_task of CFS tasks, per cluster of the dest CPU */
	u64 mig_n[GS_MAX_CLUSTERS], mig_agree[GS_MAX_CLUSTERS];
	struct sim_place_dis *pdis;
	size_t nr_pdis;
};

/* Free what a struct sim_validation owns (from sim_take_validation); accepts NULL. */
void sim_validation_release(struct sim_validation *v);

const struct sim_validation *sim_get_validation(const struct sim *s);
/* Move the validation figures out of s (after sim_finish): *out owns the decision list. */
void sim_take_validation(struct sim *s, struct sim_validation *out);

/* The trace's iowait requests replayed so far (sim_config.iowait_traced). */
u64 sim_iowait_requests(const struct sim *s);
/* Cluster c's slow-path driver calls timed by its traced governor kthread, and by the model's
 * constants (switch_latency_us, transition_us); both 0 when the replay never followed one.
 * Returns the policy's first CPU (its kthread is sugov:CPU), -1 past the last cluster. */
int sim_kthread_calls(const struct sim *s, int c, u64 *traced, u64 *model);

/* What each policy action did (cfg.policy->actions[i] -> [i]); NULL without a policy. */
const struct policy_action_stats *sim_get_action_stats(const struct sim *s);

/* What a pre-scan saw of the trace's CPUs against a platform's. */
struct sim_fit {
	int max_cpu;   /* the highest CPU any event names (on, woken to, migrated to); -1: none */
	u64 cpus_seen; /* the CPUs (< 64) events name, a bit each */
	/* the first event naming a CPU the platform does not have (over_cpu -1: none) */
	int over_cpu;
	u64 over_line;
	enum event_type over_type;
	/* the first platform cluster whose CPUs the trace ran at different frequencies at once
	 * (after its frequency events settled), -1 when none; split_khz[cpu] are the frequencies
	 * of that cluster's CPUs then (0: not known yet) */
	int split_cluster;
	u32 split_khz[GS_MAX_CPUS];
	/* sugov_set_iowait_boost events: the kernel's own iowait requests ("doing iow boost")
	 * and the updates without one ("skipping iow boost") */
	u64 iowait_events;
};

/* Pre-scan: the first traced frequency of each CPU (cpu_frequency or devlib marker), whether
 * the trace has cpu_idle events, and *fit against plat, reading at most max_events events of
 * the file and stopping once CPUs 0..plat->nr_cpus-1 all have a frequency (and, with
 * need_idle, idle was seen) and at least 20000 events were read. The events come from `cache`
 * when not NULL (path is then not opened), else from the file. Leaves 0 / false / -1 where
 * none was found; never fails (the real pass reports errors). */
int sim_prescan(const char *path, const struct trace_cache *cache, const struct reader_opts *opts,
		u64 max_events, const struct platform *plat, bool need_idle,
		u32 initial_khz[GS_MAX_CPUS], bool *has_idle, struct sim_fit *fit,
		struct gs_error *err);

/* cpu_info.c: notes where the trace's cpu_info (capacities, OPPs) disagrees with plat (the
 * platform's values in parentheses); 0, or GS_ENOMEM */
int sim_cpu_info_notes(const struct platform *plat, const struct trace_stats *st,
			struct run_result *r);

/* cpu_info.c: for a platform whose capacities are marked assumed (struct plat_cpu
 * capacity_assumed), a copy in *own (the caller frees it; NULL when nothing changes) with the
 * capacities of the trace's cpu_info in their place, where the trace gives one per cluster, and
 * its OPP capacities recomputed; note says what was done (or why not). 0 or GS_ENOMEM. */
int sim_cpu_info_override(const struct platform *plat, const struct trace_stats *st,
			  struct platform **own, char *note, size_t size);
/* The reader's statistics once its first event is read (a Perfetto trace's cpu_info). */
int sim_trace_cpu_info(const char *file, const struct reader_opts *ropts,
		       struct trace_stats *out, struct gs_error *err);

#endif
