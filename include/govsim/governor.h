/*
 * govsim/governor.h - the public governor interface of govsim, ABI 1.3.
 *
 * Plain C (C99 or later), no other govsim header. A governor -- built in or a plugin loaded
 * with `govsim run --governor ./libmygov.so` -- is one `const struct govsim_governor` named
 * `govsim_governor` (GOVSIM_GOVERNOR_SYMBOL). govsim calls it at the kernel's
 * cpufreq_update_util() points with (cpu, time, flags); it reads the CPUs' signals and the policy
 * through the host calls of struct govsim_policy (the static inline helpers below), and asks for
 * a frequency with govsim_request_freq(). It never reads a clock and never prints.
 *
 * Versioning: GOVSIM_GOV_ABI_MAJOR changes when a struct below changes layout or a call changes
 * meaning; a plugin built for another major is refused at load. GOVSIM_GOV_ABI_MINOR grows
 * when something is added at the end of a struct (old plugins keep working); a plugin built
 * for a newer minor than the host is refused too. abi_major and abi_minor are the first two
 * members of struct govsim_governor in every version.
 *
 * Units: time in ns of trace time, frequencies in kHz, utilization and capacity on the
 * kernel's 1024 scale (GOVSIM_CAPACITY_SCALE).
 */
#ifndef GOVSIM_GOVERNOR_H
#define GOVSIM_GOVERNOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GOVSIM_GOV_ABI_MAJOR 1
#define GOVSIM_GOV_ABI_MINOR 3
/* The one symbol a plugin exports: const struct govsim_governor govsim_governor. */
#define GOVSIM_GOVERNOR_SYMBOL "govsim_governor"

/* SCHED_CAPACITY_SCALE */
#define GOVSIM_CAPACITY_SHIFT 10
#define GOVSIM_CAPACITY_SCALE (1L << GOVSIM_CAPACITY_SHIFT)
/* The flags of an update: SCHED_CPUFREQ_IOWAIT (a task woke up after waiting for IO). */
#define GOVSIM_UPDATE_IOWAIT (1U << 0)
/* The largest CPU number + 1 a platform may have. */
#define GOVSIM_MAX_CPUS 64

/* Error returns of init and of the tunable helpers. */
#define GOVSIM_OK     0
#define GOVSIM_EINVAL 1 /* a bad tunable: the message was set with govsim_error() */
#define GOVSIM_ENOMEM 2

/* The relations of __cpufreq_driver_target: L = lowest OPP >= target, else the highest;
 * H = highest <= target, else the lowest; C = the closest, a tie to the lower; LE (v6.1+
 * CPUFREQ_RELATION_LE, cpufreq_driver_resolve_freq with the policy's efficiencies) = L over the
 * OPPs the Energy Model does not flag inefficient, unless that OPP falls outside the policy's
 * [min, max] (then L); L when the policy has no efficiencies. */
enum govsim_relation {
	GOVSIM_RELATION_L = 0,
	GOVSIM_RELATION_H = 1,
	GOVSIM_RELATION_C = 2,
	GOVSIM_RELATION_LE = 3,
};

/* One CPU's signals at the time of the update (the kernel helpers' names). */
struct govsim_cpu_util {
	unsigned long util_avg;          /* rq->cfs.avg.util_avg */
	unsigned long util_est_enqueued; /* rq->cfs.avg.util_est.enqueued */
	unsigned long util_cfs;          /* cpu_util_cfs(): max(util_avg, util_est.enqueued) */
	unsigned long util_rt;           /* cpu_util_rt() */
	unsigned long util_dl;           /* cpu_util_dl() */
	unsigned long bw_dl;             /* cpu_bw_dl() */
	unsigned long util_irq;          /* cpu_util_irq(); 0 when the trace has no irq time */
	int rt_runnable;                 /* rt_rq_is_runnable() */
	unsigned long capacity;          /* arch_scale_cpu_capacity() */
	int busy;                        /* the CPU runs a task now */
	uint64_t idle_calls;             /* tick_nohz_get_idle_calls_cpu() */
	unsigned long runnable_avg;      /* rq->cfs.avg.runnable_avg (v6.6 cpu_util_cfs_boost) */
};

/* The rq's clamps (rq->uclamp[UCLAMP_MIN/MAX].value) and whether uclamp is in use at all
 * (the sched_uclamp_used static key); unused: 0 and 1024. */
struct govsim_rq_clamp {
	int used;
	unsigned int min;
	unsigned int max;
};

/* One operating point of the policy's table (ascending frequency). */
struct govsim_opp {
	unsigned int khz;
	unsigned int capacity; /* of a CPU of the policy at this OPP */
};

/*
 * schedutil's behaviours that differ between kernels (the run's kernel profile, `govsim kernels
 * show NAME`). Value 0 of each is Linux v5.9's.
 */
/* The CFS util schedutil reads. */
enum govsim_sugov_cfs_input {
	GOVSIM_CFS_UTIL_EST = 0,        /* cpu_util_cfs(): max(util_avg, util_est.enqueued),
					 * uncapped (<= v5.15) */
	GOVSIM_CFS_UTIL_EST_CAPPED = 1, /* the same, min(.., capacity_orig) (v6.1) */
	GOVSIM_CFS_RUNNABLE_BOOST = 2,  /* cpu_util_cfs_boost(): max(util_avg, runnable_avg,
					 * util_est.enqueued), capped (v6.6) */
};
/* Where the 1.25 headroom is applied (the truncation point differs). */
enum govsim_sugov_headroom {
	GOVSIM_HEADROOM_MAP_UTIL_FREQ = 0, /* (f + f/4) * util / max (<= v5.10 map_util_freq) */
	GOVSIM_HEADROOM_MAP_UTIL_PERF = 1, /* f * (util + util/4) / max (v5.15+ map_util_perf) */
	GOVSIM_HEADROOM_EFFECTIVE_PERF = 2, /* v6.8+: the headroom on the actual util only,
					     * sugov_effective_cpu_perf(): max(min, min(util +
					     * util/4, max)) with min/max from effective_cpu_util()
					     * (bandwidth, uclamp, the RT boost); f * util / max
					     * after; not invariant: f = cur + cur/4 */
};
/* The busy hold of a single-CPU policy (sugov_cpu_is_busy: no lower frequency while the CPU
 * has not been idle since the last evaluation). */
enum govsim_sugov_busy_hold {
	GOVSIM_HOLD_GATED = 0,            /* busy = !need_freq_update && is_busy(), before
					   * get_next_freq; held: cached_raw_freq = 0 (<= v5.9) */
	GOVSIM_HOLD_UNGATED = 1,          /* busy = is_busy() before get_next_freq (4.19-early) */
	GOVSIM_HOLD_RESTORE = 2,          /* is_busy() after get_next_freq, no gate; held:
					   * cached_raw_freq restored (v5.10, v5.15) */
	GOVSIM_HOLD_NOT_CAPPED = 3,       /* + not when uclamp_rq_is_capped() (v6.1) */
	GOVSIM_HOLD_NOT_CAPPED_GATED = 4, /* + not while need_freq_update (v6.6) */
};
/* The iowait boost's units and floor. */
enum govsim_sugov_iowait_units {
	GOVSIM_IOWAIT_UTIL_128 = 0,  /* util, floor iowait_boost_min (IOWAIT_BOOST_MIN, v5.4+) */
	GOVSIM_IOWAIT_UTIL_FMIN = 1, /* util, floor 1024 * cpuinfo_min / cpuinfo_max (4.19-late) */
	GOVSIM_IOWAIT_KHZ = 2,       /* kHz from policy->min (4.19-early; govsim emulates it on
				      * the UTIL_FMIN floor) */
};
/* How a shared policy aggregates its CPUs. */
enum govsim_sugov_shared_agg {
	GOVSIM_SHARED_RATIO = 0, /* the CPU with the largest util/max (<= v6.5) */
	GOVSIM_SHARED_MAX = 1,   /* the plain max of util over the CPUs (v6.6) */
};

/*
 * The run's kernel profile (`--kernel`, default from the trace's release, else v5.9) as a
 * governor needs it. The host fills it once before init; it does not change during a run.
 *
 * ABI: extended in place within ABI 1.0 (1.0 was not released before the profiles came): the
 * sugov_* members, GOVSIM_RELATION_LE and govsim_cpu_util.runnable_avg are part of 1.0.
 */
struct govsim_kernel {
	const char *release;             /* the profile's name: "v5.9", "v4.19-early", "v6.6" ... */
	int hz;                          /* CONFIG_HZ (TICK_NSEC = (1e9 + hz/2) / hz) */
	/* schedutil's frequency headroom ratio: next_freq ~ max_freq * num/den * util / max
	 * (5/4 in every profile; where it is applied: sugov_headroom). */
	unsigned int headroom_num;
	unsigned int headroom_den;
	/* How get_next_freq's target is resolved (cpufreq_driver_resolve_freq): L, or LE on v6.1+
	 * (RELATION_LE: the inefficient OPPs are skipped). */
	enum govsim_relation next_freq_relation;
	/* IOWAIT_BOOST_MIN: SCHED_CAPACITY_SCALE / 8 (the floor with GOVSIM_IOWAIT_UTIL_128). */
	unsigned int iowait_boost_min;
	/* schedutil's named behaviours (the enums above; `govsim kernels show` names them) */
	enum govsim_sugov_cfs_input sugov_cfs_input;
	enum govsim_sugov_headroom sugov_headroom;
	enum govsim_sugov_busy_hold sugov_busy_hold;
	/* 1: no sugov_policy->limits_changed: should_update_freq is true while need_freq_update
	 * (4.19-early); 0: limits_changed exists (v5.9). */
	int sugov_no_limits_changed;
	/* 1: sugov_update_next_freq commits even an unchanged next_freq while need_freq_update,
	 * and clears need_freq_update there instead of in get_next_freq (v5.10+); 0: v5.9. */
	int sugov_commit_on_need_update;
	enum govsim_sugov_iowait_units sugov_iowait_units;
	/* 1: the iowait boost goes through uclamp_rq_util_with(rq, boost, NULL) (v5.15+). */
	int sugov_iowait_clamped;
	enum govsim_sugov_shared_agg sugov_shared_agg;
};

/* One evaluation of one CPU, for --timeline and the run's metrics (govsim_report()). Fill
 * what the governor has; the rest 0. */
struct govsim_eval {
	uint64_t time_ns;
	int cpu;
	int policy;                   /* first CPU of the policy */
	struct govsim_cpu_util in;    /* what was read */
	unsigned int uclamp_min;      /* rq clamps used (0/1024 when none) */
	unsigned int uclamp_max;
	unsigned long util;           /* the value the governor used */
	unsigned int target_khz;      /* before resolution */
	unsigned int freq_khz;        /* filled by the host: the frequency in force afterwards */
};

/* A tunable a governor takes (--set NAME=VALUE), for `run --help --governor G`. */
struct govsim_tunable {
	const char *name;  /* NULL ends the list */
	const char *help;  /* one line: meaning, range and default */
};

struct govsim_host;

/*
 * One cpufreq policy (a cluster) as the governor sees it. govsim owns it; the governor may
 * keep the pointer from init until release. The frequencies below the line are refreshed by
 * the host before each call into the governor and after each request.
 */
struct govsim_policy {
	const struct govsim_host *host;
	void *host_data;                 /* the host's: do not touch */
	const struct govsim_kernel *kernel;
	int id;                          /* policy index */
	int nr_cpus;
	const int *cpus;                 /* ascending; cpus[0] names the policy */
	int nr_opps;
	const struct govsim_opp *opps;   /* ascending frequency */
	unsigned int cpuinfo_min_khz;
	unsigned int cpuinfo_max_khz;
	unsigned int transition_latency_ns; /* cpuinfo.transition_latency */
	unsigned int transition_delay_us;   /* cpufreq_policy_transition_delay_us() */
	uint64_t switch_latency_ns;      /* request -> in force; 0 = fast switch */
	int report;                      /* nonzero: govsim_report() is read (skip work if 0) */
	/* ---- refreshed by the host */
	unsigned int min_khz;            /* scaling_min_freq */
	unsigned int max_khz;            /* scaling_max_freq */
	unsigned int cur_khz;            /* the frequency in force */
	unsigned int next_khz;           /* cur_khz, or a pending request's once it lands */
	/* ---- ABI 1.1 */
	/* arch_scale_freq_invariant(): 1 when the kernel scales PELT by frequency (the util a
	 * governor reads is then frequency-invariant and get_next_freq scales
	 * cpuinfo.max_freq), 0 when it cannot (x86 without APERF/MPERF: util is the share of
	 * time busy at the current frequency, and get_next_freq scales policy->cur). */
	int freq_invariant;
	/* ---- ABI 1.2 */
	/* policy->dvfs_possible_from_any_cpu: 1 when the driver can change the frequency from any
	 * CPU (cpufreq-dt, scmi, qcom-cpufreq-hw, cppc), 0 when only from a CPU of the policy
	 * (acpi-cpufreq). */
	int dvfs_possible_from_any_cpu;
	/* Refreshed by the host before each update: the CPU whose code calls the hook, which is
	 * not the updated CPU when the scheduler works on a remote runqueue (a wakeup enqueued by
	 * the waker's CPU, wake_up_new_task, a load-balance detach); -1 when not known. */
	int this_cpu;
	/* ---- ABI 1.3 */
	/* 1 when the governor was running before the replay's first event (the trace shows no
	 * start of it): its state then is not what its start leaves, and cur_khz is the best
	 * knowledge of its last decision. 0 when the replay starts it at a known instant (a
	 * governor switch the trace recorded): start as the kernel's governor start does. */
	int running_before;
};

/* What govsim offers; use the govsim_* helpers below rather than calling these directly. A
 * call about a CPU that is not one of the policy's, or with a NULL pointer, is answered with
 * nothing (zeroed signals, no clamps, util unchanged, 0, GOVSIM_EINVAL; a report is dropped). */
struct govsim_host {
	unsigned int abi_major;
	unsigned int abi_minor;
	void (*cpu_util)(const struct govsim_policy *pol, int cpu, struct govsim_cpu_util *out);
	unsigned long (*cpu_bw_dl)(const struct govsim_policy *pol, int cpu);
	void (*rq_clamp)(const struct govsim_policy *pol, int cpu, struct govsim_rq_clamp *out);
	unsigned long (*uclamp_rq_util_with)(const struct govsim_policy *pol, int cpu,
					     unsigned long util);
	uint64_t (*cpu_idle_ns)(const struct govsim_policy *pol, int cpu, uint64_t now_ns);
	unsigned int (*resolve_freq)(const struct govsim_policy *pol, unsigned int khz,
				     enum govsim_relation rel);
	int (*request_freq)(struct govsim_policy *pol, unsigned int khz, enum govsim_relation rel,
			    uint64_t now_ns);
	void (*start_freq)(struct govsim_policy *pol, unsigned int khz, enum govsim_relation rel);
	void (*report)(struct govsim_policy *pol, const struct govsim_eval *e);
	const char *(*tunable)(struct govsim_policy *pol, const char *name);
	int (*tunable_uint)(struct govsim_policy *pol, const char *name, unsigned int lo,
			    unsigned int hi, unsigned int *out);
	int (*error)(struct govsim_policy *pol, const char *fmt, ...)
#if defined(__GNUC__)
		__attribute__((format(printf, 2, 3)))
#endif
		;
};

/* What a governor is. Define it as
 *   const struct govsim_governor govsim_governor = { GOVSIM_GOVERNOR_ABI, .name = ..., };
 */
struct govsim_governor {
	unsigned int abi_major;          /* GOVSIM_GOV_ABI_MAJOR it was built with */
	unsigned int abi_minor;          /* GOVSIM_GOV_ABI_MINOR it was built with */
	const char *name;                /* what results record, e.g. "proportional" */
	const char *help;                /* one line, for --help */
	const struct govsim_tunable *tunables; /* may be NULL */
	/* Allocate per-policy data into *data and take the tunables (govsim_tunable*). Returns
	 * GOVSIM_OK, GOVSIM_EINVAL (after govsim_error()) or GOVSIM_ENOMEM. */
	int (*init)(struct govsim_policy *pol, void **data);
	/* The cpufreq_update_util() hook for `cpu` of this policy (flags: GOVSIM_UPDATE_*). */
	void (*update)(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
		       unsigned int flags);
	void (*release)(struct govsim_policy *pol, void *data);
};

#define GOVSIM_GOVERNOR_ABI .abi_major = GOVSIM_GOV_ABI_MAJOR, .abi_minor = GOVSIM_GOV_ABI_MINOR

/* ---- reading -------------------------------------------------------------------------------- */

/* The CPU's signals now (a capacity of 0 means 1024). */
static inline void govsim_cpu_util(const struct govsim_policy *pol, int cpu,
				   struct govsim_cpu_util *out)
{
	pol->host->cpu_util(pol, cpu, out);
}

/* govsim_cpu_util()'s bw_dl alone (cheaper). */
static inline unsigned long govsim_cpu_bw_dl(const struct govsim_policy *pol, int cpu)
{
	return pol->host->cpu_bw_dl(pol, cpu);
}

static inline void govsim_rq_clamp(const struct govsim_policy *pol, int cpu,
				   struct govsim_rq_clamp *out)
{
	pol->host->rq_clamp(pol, cpu, out);
}

/* uclamp_rq_util_with(rq, util, NULL) of the kernel profile: util within the rq's clamps
 * (unchanged while uclamp is unused). */
static inline unsigned long govsim_uclamp_rq_util_with(const struct govsim_policy *pol, int cpu,
						       unsigned long util)
{
	return pol->host->uclamp_rq_util_with(pol, cpu, util);
}

/* Cumulative idle time of the CPU up to now_ns (get_cpu_idle_time). */
static inline uint64_t govsim_cpu_idle_ns(const struct govsim_policy *pol, int cpu,
					  uint64_t now_ns)
{
	return pol->host->cpu_idle_ns(pol, cpu, now_ns);
}

/* The index of cpu in pol->cpus, -1 when not in this policy. */
static inline int govsim_cpu_index(const struct govsim_policy *pol, int cpu)
{
	for (int i = 0; i < pol->nr_cpus; i++)
		if (pol->cpus[i] == cpu)
			return i;
	return -1;
}

/*
 * cpufreq_this_cpu_can_update() (include/linux/cpufreq.h, v4.14 to 7.2): whether the hook may
 * act at all. Governors return from an update that fails it (schedutil's
 * sugov_should_update_freq(), dbs_update_util_handler()), because a driver that cannot switch
 * from another CPU would be asked to. (A plugin built for ABI 1.2 is refused by an older host,
 * so both fields are always filled in when it runs.)
 */
static inline int govsim_this_cpu_can_update(const struct govsim_policy *pol)
{
	return pol->dvfs_possible_from_any_cpu || pol->this_cpu < 0 ||
	       govsim_cpu_index(pol, pol->this_cpu) >= 0;
}

/* TICK_NSEC of the profile's CONFIG_HZ. */
static inline uint64_t govsim_tick_nsec(const struct govsim_policy *pol)
{
	uint64_t hz = pol->kernel->hz > 0 ? (uint64_t)pol->kernel->hz : 250;

	return (1000000000ULL + hz / 2) / hz;
}

/* ---- frequency ------------------------------------------------------------------------------ */

/* The OPP a request for khz would get: clamped to [min_khz, max_khz], then by rel. */
static inline unsigned int govsim_resolve_freq(const struct govsim_policy *pol, unsigned int khz,
					       enum govsim_relation rel)
{
	return pol->host->resolve_freq(pol, khz, rel);
}

/* __cpufreq_driver_target(khz, rel) at now_ns: in force at once with a fast switch, else after
 * switch_latency_ns (a newer request while one waits replaces its frequency). Returns nonzero
 * when cur_khz changed now. */
static inline int govsim_request_freq(struct govsim_policy *pol, unsigned int khz,
				      enum govsim_relation rel, uint64_t now_ns)
{
	return pol->host->request_freq(pol, khz, rel, now_ns);
}

/* From init only: the frequency in force when the governor starts (before the trace). */
static inline void govsim_start_freq(struct govsim_policy *pol, unsigned int khz,
				     enum govsim_relation rel)
{
	pol->host->start_freq(pol, khz, rel);
}

/* One evaluation (freq_khz is filled by the host). Report after requesting. */
static inline void govsim_report(struct govsim_policy *pol, const struct govsim_eval *e)
{
	pol->host->report(pol, e);
}

/* ---- tunables (from init only) ---------------------------------------------------------------- */

/* The value of --set name=VALUE (the last one given), NULL when absent; --set
 * policyN.name=VALUE, for the policy whose first CPU is N, wins over it. Every key the
 * governor does not ask for is an error ("unknown tunable") once init returns. */
static inline const char *govsim_tunable(struct govsim_policy *pol, const char *name)
{
	return pol->host->tunable(pol, name);
}

/* name as a decimal unsigned integer in [lo, hi] into *out (untouched when absent). Returns
 * GOVSIM_OK or GOVSIM_EINVAL with the message set ("'name=value': out of range (lo..hi)"). */
static inline int govsim_tunable_uint(struct govsim_policy *pol, const char *name,
				      unsigned int lo, unsigned int hi, unsigned int *out)
{
	return pol->host->tunable_uint(pol, name, lo, hi, out);
}

/* name as 0 or 1. */
static inline int govsim_tunable_bool(struct govsim_policy *pol, const char *name, int *out)
{
	unsigned int v = *out ? 1U : 0U;
	int ret = pol->host->tunable_uint(pol, name, 0, 1, &v);

	if (ret == GOVSIM_OK)
		*out = v != 0;
	return ret;
}

/* Set the message of a failing init; returns GOVSIM_EINVAL. */
#define govsim_error(pol, ...) ((pol)->host->error((pol), __VA_ARGS__))

#ifdef __cplusplus
}
#endif

#endif
