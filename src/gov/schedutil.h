/*
 * schedutil.h - the schedutil governor's state and steps (Linux v5.9
 * kernel/sched/cpufreq_schedutil.c), exposed so each step can be tested on its own. The
 * governor itself is `schedutil_governor`, written against the public interface
 * (include/govsim/governor.h) and the scheduler's utilization function (sched/cpu_util.h, a
 * header of plain C with no other govsim header); `schedutil_gov` (tunables.h) is it as the
 * replay sees it. Built with -DGOVSIM_SCHEDUTIL_PLUGIN, with sched/cpu_util.c, it is a plugin
 * (libschedutil.so).
 *
 * Kernel names are kept; `time` is the hook's
 * rq_clock in ns, never read from a clock.
 */
#ifndef GOVSIM_GOV_SCHEDUTIL_H
#define GOVSIM_GOV_SCHEDUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "govsim/governor.h"
#include "sched/cpu_util.h"

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;

/* IOWAIT_BOOST_MIN: SCHED_CAPACITY_SCALE / 8. */
#define IOWAIT_BOOST_MIN (GOVSIM_CAPACITY_SCALE / 8)
/* cached_raw_freq of a governor that ran before the trace: above any raw frequency
 * get_next_freq() computes (at most 1.25 x cpuinfo.max_freq plus the iowait boost's). */
#define SUGOV_RAW_FREQ_UNKNOWN 0xffffffffu

struct sugov_policy;

/* Per CPU of the policy (struct sugov_cpu). */
struct sugov_cpu {
	struct sugov_policy *sg_policy;
	int cpu;
	bool iowait_boost_pending;
	unsigned int iowait_boost;
	u64 last_update;
	unsigned long bw_dl; /* cpu_bw_dl at the last sugov_get_util (ignore_dl_rate_limit) */
	unsigned long max;   /* arch_scale_cpu_capacity at the last sugov_get_util */
	u64 saved_idle_calls; /* single-CPU policies: sugov_cpu_is_busy */
	unsigned int iowait_boost_min; /* IOWAIT_BOOST_MIN, or v4.19's sg_cpu->min */
};

/* The kernel profile's schedutil (`govsim kernels show`), read once by init from the
 * public struct govsim_kernel (the host fills it from the run's profile). All zero is v5.9. */
struct sugov_variant {
	enum govsim_sugov_cfs_input cfs_input;
	enum govsim_sugov_headroom headroom;
	enum govsim_sugov_busy_hold busy_hold;
	bool no_limits_changed;       /* 4.19-early: should_update while need_freq_update */
	bool commit_on_need_update;   /* v5.10+ sugov_update_next_freq */
	enum govsim_sugov_iowait_units iowait_units;
	bool iowait_clamped;          /* v5.15+: boost through uclamp_rq_util_with */
	enum govsim_sugov_shared_agg shared_agg;
};
/* v5.9 */
extern const struct sugov_variant sugov_variant_v5_9;
/* The variant of a profile as the public interface gives it (NULL: v5.9). */
void sugov_variant_from_profile(struct sugov_variant *v, const struct govsim_kernel *k);

/* Per policy (struct sugov_policy with its tunables). */
struct sugov_policy {
	struct govsim_policy *policy;
	struct sugov_variant v;
	/* tunables */
	unsigned int rate_limit_us; /* default cpufreq_policy_transition_delay_us() */
	/* Android's split rate limits (up_rate_limit_us, down_rate_limit_us): up_down is set
	 * when either is given; the plain rate limit is then the smaller of the two */
	bool up_down;
	s64 up_rate_delay_ns, down_rate_delay_ns;
	bool iowait_boost_enabled;  /* iowait_boost=1; off: SCHED_CPUFREQ_IOWAIT is ignored */
	u64 tick_nsec;              /* TICK_NSEC of the profile's CONFIG_HZ */
	/* state (sugov_start zeroes it) */
	u64 last_freq_update_time;
	s64 freq_update_delay_ns;
	unsigned int next_freq;
	unsigned int cached_raw_freq; /* SUGOV_RAW_FREQ_UNKNOWN: ran before the trace */
	unsigned int prev_cached_raw_freq; /* restored when the up/down limit holds next_freq */
	bool limits_changed;
	bool need_freq_update;
	int nr_cpus;
	struct sugov_cpu cpus[GOVSIM_MAX_CPUS]; /* in pol->tbl.cpus order */
	/* evaluations of the update in progress, for govsim_report() */
	int nr_evals;
	struct govsim_eval evals[GOVSIM_MAX_CPUS];
};

/* map_util_freq (include/linux/sched/cpufreq.h v5.9): (freq + freq/4) * util / cap. */
static inline unsigned long map_util_freq(unsigned long util, unsigned long freq,
					  unsigned long cap)
{
	return (freq + (freq >> 2)) * util / cap;
}

/* v5.15+ (include/linux/sched/cpufreq.h l.26-35): the headroom moves to util, so the
 * truncation point differs: map_util_perf(util) = util + util/4, then freq * util / cap. */
static inline unsigned long map_util_perf(unsigned long util)
{
	return util + (util >> 2);
}

static inline unsigned long sugov_map_util_freq(const struct sugov_variant *v, unsigned long util,
						unsigned long freq, unsigned long cap)
{
	/* v6.8+: util already carries the headroom (sugov_effective_cpu_perf) */
	if (v->headroom == GOVSIM_HEADROOM_EFFECTIVE_PERF)
		return freq * util / cap;
	if (v->headroom == GOVSIM_HEADROOM_MAP_UTIL_PERF)
		return freq * map_util_perf(util) / cap;
	return map_util_freq(util, freq, cap);
}

/* What schedutil_cpu_util() and effective_cpu_util() read of cpu's runqueue: the signals of
 * *cu (govsim_cpu_util()) and the rq clamps of cpu in pol (govsim_rq_clamp(); pol NULL: uclamp
 * unused, 0 and 1024). */
void sugov_cpu_rq(const struct govsim_policy *pol, int cpu, const struct govsim_cpu_util *cu,
		  struct cpu_util_rq *rq);

/* sugov_get_util: read the CPU through govsim_cpu_util (into *cu), save max and bw_dl in
 * sg_cpu, return schedutil_cpu_util(FREQUENCY_UTIL) of the profile's CFS input. A capacity of
 * 0 is taken as 1024. */
unsigned long sugov_get_util(struct sugov_cpu *sg_cpu, struct govsim_cpu_util *cu);

/* v6.8+ sugov_effective_cpu_perf(): the headroom on the actual util, kept in [min, max]
 * (min wins): max(min, min(actual + actual/4, max)). */
static inline unsigned long sugov_effective_cpu_perf(unsigned long actual, unsigned long min,
						     unsigned long max)
{
	actual = map_util_perf(actual);
	if (actual < max)
		max = actual;
	return min > max ? min : max;
}

/*
 * The reference frequency get_next_freq() scales: cpuinfo.max_freq when the kernel is
 * frequency invariant; otherwise policy->cur, with a 25% margin from v6.8
 * (get_capacity_ref_freq(): "select a higher frequency than the current one before the CPU is
 * fully busy"). x86 has no arch_scale_freq_ref(), so it is 0 there and not used.
 */
unsigned long sugov_ref_freq(const struct sugov_policy *sg_policy);

bool sugov_should_update_freq(struct sugov_policy *sg_policy, u64 time);
bool sugov_update_next_freq(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq);
/* The slow path (switch_latency_ns > 0) hands next_freq to govsim_request_freq(); the fast path
 * does the same, in force at once. Both only when sugov_update_next_freq() says it changed. */
void sugov_deferred_update(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq);
void sugov_fast_switch(struct sugov_policy *sg_policy, u64 time, unsigned int next_freq);

unsigned int get_next_freq(struct sugov_policy *sg_policy, unsigned long util,
			   unsigned long max);

bool sugov_iowait_reset(struct sugov_cpu *sg_cpu, u64 time, bool set_iowait_boost);
void sugov_iowait_boost(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags);
unsigned long sugov_iowait_apply(struct sugov_cpu *sg_cpu, u64 time, unsigned long util,
				 unsigned long max);

unsigned int sugov_next_freq_shared(struct sugov_cpu *sg_cpu, u64 time);
void sugov_update_shared(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags);
void sugov_update_single(struct sugov_cpu *sg_cpu, u64 time, unsigned int flags);

/* The governor through the public interface. */
#define SCHEDUTIL_HELP                                                                         \
	"Linux v5.9 schedutil: frequency from PELT util with uclamp; rate_limit_us=N "         \
	"(default from the transition latency), up_rate_limit_us=N, down_rate_limit_us=N "   \
	"(Android's split limits), iowait_boost=0|1 (default 0)"
extern const struct govsim_governor schedutil_governor;

#endif
