/*
 * ondemand.c - the ondemand governor, following Linux v5.9 drivers/cpufreq/cpufreq_ondemand.c
 * on the shared core of dbs.c (cpufreq_governor.c).
 *
 * Every sampling period: the highest load of the policy's CPUs (percent of time not idle).
 * Above up_threshold it goes to policy->max (RELATION_H) and, when coming from below, stretches
 * the next period by sampling_down_factor; otherwise it picks the frequency proportional to
 * the load, freq_next = min_f + load * (max_f - min_f) / 100 over the cpuinfo range, resolved
 * to the closest OPP (RELATION_C).
 *
 * Defaults (od_init, cpufreq_dbs_governor_init): up_threshold 95 -- v5.9 uses
 * MICRO_FREQUENCY_UP_THRESHOLD (95) when idle micro accounting works, which it does on any
 * NO_HZ kernel such as arm64's, and DEF_FREQUENCY_UP_THRESHOLD (80) only without it;
 * sampling_rate = max(2 ticks, transition delay) (10000 µs on Hikey960);
 * sampling_down_factor 1; powersave_bias 0 (not a tunable here, so the freq_lo/sub-sample
 * path of powersave_bias never runs); ignore_nice_load 0; io_is_busy 0 (iowait is idle).
 *
 * Differences from v5.9 cpufreq_ondemand.c, and why (the shared core's: see dbs.c):
 * - powersave_bias, ignore_nice_load and io_is_busy are not tunables (their defaults, 0): a
 *   trace carries no nice-time or iowait accounting to feed them. So od_dbs_update() never
 *   takes the OD_SUB_SAMPLE / freq_lo path and dbs_freq_increase() never calls
 *   powersave_bias_target().
 * - policy->cur reads policy->next_khz, the frequency last asked for (see dbs.c: the kernel's
 *   __cpufreq_driver_target is synchronous, the replay's request waits for the switch latency).
 * - up_threshold defaults to MICRO_FREQUENCY_UP_THRESHOLD: od_init's get_cpu_idle_time_us()
 *   check succeeds on any NO_HZ kernel (arm64's), and the replay always has micro accounting.
 */
#include <stdlib.h>

#include "gov/dbs.h"

#define MICRO_FREQUENCY_UP_THRESHOLD 95
#define DEF_SAMPLING_DOWN_FACTOR     1

/* dbs_freq_increase with powersave_bias 0. */
static void dbs_freq_increase(struct dbs_policy *d, u32 freq, u64 time)
{
	if (d->policy->next_khz == d->policy->max_khz)
		return;
	dbs_driver_target(d, freq, GOVSIM_RELATION_H, time);
}

static void od_update(struct dbs_policy *d, u64 time)
{
	struct govsim_policy *policy = d->policy;
	unsigned int load = dbs_update(d, time);

	if (load > d->tun.up_threshold) {
		/* Switching to max speed: apply sampling_down_factor. */
		if (policy->next_khz < policy->max_khz)
			d->rate_mult = d->tun.sampling_down_factor;
		dbs_freq_increase(d, policy->max_khz, time);
	} else {
		unsigned int freq_next, min_f, max_f;

		min_f = policy->cpuinfo_min_khz;
		max_f = policy->cpuinfo_max_khz;
		freq_next = min_f + load * (max_f - min_f) / 100;

		/* No longer fully busy: reset rate_mult. */
		d->rate_mult = 1;
		dbs_driver_target(d, freq_next, GOVSIM_RELATION_C, time);
	}
}

static unsigned int od_dbs_update(struct dbs_policy *d, u64 time)
{
	od_update(d, time);
	return d->tun.sampling_rate_us * d->rate_mult;
}

static int od_init(struct govsim_policy *pol, void **data)
{
	struct dbs_policy *d = calloc(1, sizeof(*d));
	int ret;

	if (!d)
		return GOVSIM_ENOMEM;
	dbs_policy_init(d, pol);
	d->tun.up_threshold = MICRO_FREQUENCY_UP_THRESHOLD;
	d->tun.sampling_down_factor = DEF_SAMPLING_DOWN_FACTOR;
	ret = dbs_tunables_parse(pol, false, dbs_min_sampling_rate_us(pol->kernel->hz), &d->tun);
	if (ret) {
		free(d);
		return ret;
	}
	d->gov_dbs_update = od_dbs_update;
	*data = d;
	return GOVSIM_OK;
}

static void od_hook(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
		    unsigned int flags)
{
	if (govsim_cpu_index(pol, cpu) < 0)
		return;
	dbs_update_util_handler(data, cpu, now_ns);
}

static void od_release(struct govsim_policy *pol, void *data)
{
	free(data);
}

static const struct govsim_tunable od_tunables[] = {
	{"up_threshold", "percent load above which it goes to max (1..100, default 95)"},
	{"sampling_rate", "µs between samples (>= 2 ticks, default max(2 ticks, transition "
			  "delay))"},
	{"sampling_down_factor", "periods at max before lowering (1..100000, default 1)"},
	{NULL, NULL},
};

const struct govsim_governor ondemand_governor = {
	GOVSIM_GOVERNOR_ABI,
	.tunables = od_tunables,
	.name = "ondemand",
	.help = "Linux v5.9 ondemand: load from idle time every sampling period; up_threshold=95, "
		"sampling_rate=max(2 ticks, transition delay) us, sampling_down_factor=1",
	.init = od_init,
	.update = od_hook,
	.release = od_release,
};
