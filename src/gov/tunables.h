/*
 * tunables.h - parsing the governors' tunables from struct gov_param (--set KEY=VALUE), shared
 * by every governor (implemented in governor.c), and the per-governor ops each file defines.
 *
 * A governor takes only the keys it knows and marks them used; the replay's own keys
 * (switch_latency_us, hz, update_points, scaling_min_freq, scaling_max_freq, uclamp_buckets)
 * are never touched here. A key given twice: the last value wins, every copy is marked used.
 * Errors are GS_EARG with the key and value named: "'up_threshold=150': out of range (1..100)".
 */
#ifndef GOVSIM_GOV_TUNABLES_H
#define GOVSIM_GOV_TUNABLES_H

#include "gov/governor.h"

/* The last param named `key`, all of them marked used; NULL when absent. */
struct gov_param *gov_param_find(struct gov_param *params, int nr_params, const char *key);

/* `key` as a decimal unsigned integer in [lo, hi]. Absent: *out untouched, 0 returned. */
int gov_param_uint(struct gov_param *params, int nr_params, const char *key, unsigned int lo,
		   unsigned int hi, unsigned int *out, struct gs_error *err);

/* `key` as 0 or 1. Absent: *out untouched, 0 returned. */
int gov_param_bool(struct gov_param *params, int nr_params, const char *key, bool *out,
		   struct gs_error *err);

/* schedutil: rate_limit_us (any unsigned int, as the sysfs store) and iowait_boost (0|1). */
int gov_param_rate_limit_us(struct gov_param *params, int nr_params, unsigned int *out,
			    struct gs_error *err);
int gov_param_iowait_boost(struct gov_param *params, int nr_params, bool *out,
			   struct gs_error *err);
/* userspace: freq_khz (kHz, > 0; resolved RELATION_L by the governor). */
int gov_param_freq_khz(struct gov_param *params, int nr_params, u32 *out, struct gs_error *err);

/*
 * ondemand / conservative (v5.9 cpufreq_governor.c, cpufreq_ondemand.c,
 * cpufreq_conservative.c sysfs stores). The caller fills the defaults, then this applies the
 * keys with the kernel's ranges:
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

int gov_param_dbs(struct gov_param *params, int nr_params, bool conservative,
		  unsigned int min_sampling_rate_us, struct dbs_tunables *t, struct gs_error *err);

/* The governors (one file each). performance, powersave and userspace choose their frequency
 * when they start, which precedes the trace: their init sets pol->cur_khz directly (the
 * replay reads cur_khz after init). Later limit changes are followed at the next update()
 * through cpufreq_request_relation(). ondemand and conservative start at the first update()
 * they see (dbs.h). Every governor calls env->on_eval at each evaluation; see each file for
 * what it puts in struct gov_eval. */
extern const struct governor_ops schedutil_gov;
extern const struct governor_ops performance_gov;
extern const struct governor_ops powersave_gov;
extern const struct governor_ops userspace_gov;
extern const struct governor_ops ondemand_gov;
extern const struct governor_ops conservative_gov;

/* TICK_NSEC for CONFIG_HZ (env->hz; 0 taken as 250): (NSEC_PER_SEC + HZ/2) / HZ. */
static inline u64 gov_tick_nsec(int hz)
{
	if (hz <= 0)
		hz = 250;
	return (NSEC_PER_SEC + (u64)hz / 2) / (u64)hz;
}

/* For governors that do not read utilization (performance, powersave, userspace): report one
 * evaluation of `cpu` to env->on_eval (if set) with `in` read through env->cpu_util, clamps
 * 0/1024, util 0, target_khz as given and freq_khz = pol->cur_khz. */
void gov_report_fixed(const struct gov_env *env, const struct cpufreq_policy *pol, int cpu,
		      u64 now_ns, u32 target_khz);

/* The first CPU of a policy (its name) and the index of `cpu` in pol->cl->cpus (-1 if not in). */
static inline int gov_policy_cpu(const struct cpufreq_policy *pol)
{
	return pol->cl->cpus[0];
}

static inline int gov_cpu_index(const struct cpufreq_policy *pol, int cpu)
{
	for (int i = 0; i < pol->cl->nr_cpus; i++)
		if (pol->cl->cpus[i] == cpu)
			return i;
	return -1;
}

#endif
