/*
 * dbs.h - what ondemand and conservative share: the "demand based switching" core of Linux v5.9
 * drivers/cpufreq/cpufreq_governor.c (dbs_update, dbs_update_util_handler, the sample delay).
 *
 * Load is measured from idle time: govsim_cpu_idle_ns() stands for get_cpu_idle_time() (idle
 * including iowait: io_is_busy is 0 on arm64). Times are kept in µs as the kernel does.
 * Written against the public interface alone (public_abi.h), as ondemand.c and conservative.c.
 *
 * The work item of the kernel (irq_work -> kworker -> gov_dbs_update) runs at once at the hook
 * here; the frequency it asks for takes effect after the cpufreq core's switch latency.
 * The governor starts at the first hook it sees: that hook takes the idle-time baseline, and
 * the first sample is one sampling period later.
 */
#ifndef GOVSIM_GOV_DBS_H
#define GOVSIM_GOV_DBS_H

#include "gov/public_abi.h"

/*
 * The tunables (v5.9 cpufreq_governor.c, cpufreq_ondemand.c, cpufreq_conservative.c sysfs
 * stores). The caller fills the defaults, then dbs_tunables_parse() applies the keys with the
 * kernel's ranges:
 *   sampling_rate        >= min_sampling_rate_us (2 ticks, CPUFREQ_DBS_MIN_SAMPLING_INTERVAL)
 *   up_threshold         ondemand 1..100; conservative down_threshold < x <= 100
 *   sampling_down_factor ondemand 1..100000; conservative 1..10
 *   down_threshold       conservative only: 1..100 and < up_threshold
 *   freq_step            conservative only: an unsigned int, values above 100 taken as 100
 *                        (store_freq_step clamps rather than rejects)
 */
struct dbs_tunables {
	unsigned int sampling_rate_us;
	unsigned int up_threshold;
	unsigned int sampling_down_factor;
	unsigned int down_threshold; /* conservative */
	unsigned int freq_step;      /* conservative: percent of policy max */
};

int dbs_tunables_parse(struct govsim_policy *pol, bool conservative,
		       unsigned int min_sampling_rate_us, struct dbs_tunables *t);

struct dbs_cpu {
	int cpu;
	u64 prev_update_time; /* µs */
	u64 prev_cpu_idle;    /* µs */
	unsigned int prev_load;
	unsigned int load;    /* the load dbs_update found last (for on_eval) */
	struct govsim_cpu_util in;
};

struct dbs_policy {
	struct govsim_policy *policy;
	struct dbs_tunables tun;
	unsigned int rate_mult;    /* ondemand: sampling_down_factor while at max */
	unsigned int idle_periods; /* UINT_MAX: none */
	u64 last_sample_time;      /* ns */
	u64 sample_delay_ns;
	bool started;
	int nr_cpus;
	struct dbs_cpu cpus[GOVSIM_MAX_CPUS];
	/* The governor's gov_dbs_update: evaluates and returns the next delay in µs. */
	unsigned int (*gov_dbs_update)(struct dbs_policy *d, u64 time);
	/* Governor start (cs_start / od_start): at the first hook. */
	void (*gov_start)(struct dbs_policy *d);
	u32 last_target_khz; /* the last frequency asked for (for on_eval) */
};

/* CPUFREQ_DBS_MIN_SAMPLING_INTERVAL in µs: two ticks. */
unsigned int dbs_min_sampling_rate_us(int hz);

/* Fill the common part: sampling_rate = max(2 ticks, cpufreq_policy_transition_delay_us). */
void dbs_policy_init(struct dbs_policy *d, struct govsim_policy *pol);

/* dbs_update: the highest load (percent) over the policy's CPUs since the last call; sets
 * idle_periods when a CPU was idle for more than two sampling periods. */
unsigned int dbs_update(struct dbs_policy *d, u64 time);

/* dbs_update_util_handler: the cpufreq_update_util hook. After each sample it reports every
 * CPU of the policy (govsim_report) with util = that CPU's load in PERCENT (0..100, what these
 * governors use; not the 1024 scale), target_khz = the last frequency asked for (before
 * resolution; the frequency planned when nothing was asked), clamps 0/1024. */
void dbs_update_util_handler(struct dbs_policy *d, int cpu, u64 time);

/* __cpufreq_driver_target from the governor's work: nothing when the resolved frequency is the
 * one the policy runs at (or will, once a pending request lands), else govsim_request_freq. */
void dbs_driver_target(struct dbs_policy *d, u32 target_khz, enum govsim_relation rel,
		       u64 time);

extern const struct govsim_governor ondemand_governor;
extern const struct govsim_governor conservative_governor;

#endif
