/*
 * conservative.c - the conservative governor, following Linux v5.9
 * drivers/cpufreq/cpufreq_conservative.c on the shared core of dbs.c (cpufreq_governor.c).
 *
 * Every sampling period: above up_threshold the requested frequency goes up by freq_step
 * percent of policy->max (RELATION_H); below down_threshold, every sampling_down_factor
 * periods, it goes down by one step (RELATION_L). After a long idle time the request first
 * drops by one step per idle sampling period.
 *
 * Defaults (cs_init, cpufreq_dbs_governor_init): up_threshold 80, down_threshold 20,
 * freq_step 5, sampling_down_factor 1, sampling_rate = max(2 ticks, transition delay),
 * ignore_nice_load 0.
 *
 * Version note: v5.9 has "cpufreq: conservative: Take limits changes into account properly"
 * (the idle-period drop stops at policy->min, requested_freq is rewritten when out of the
 * limits) but not the 2023 change to the one-step decrease, which still compares with
 * freq_step alone ("requested_freq > freq_step"). Mirrored as such.
 *
 * Differences from v5.9 cpufreq_conservative.c, and why (the shared core's: see dbs.c):
 * - policy->cur reads policy->next_khz, the frequency last asked for (see dbs.c), both where
 *   requested_freq falls back after a limits change and where cs_start() takes it.
 * - ignore_nice_load is not a tunable (0): a trace carries no nice-time accounting.
 * - freq_step is clamped to 100 at init (store_freq_step's check) and read only then; the
 *   sysfs stores can change the kernel's while running.
 */
#include <limits.h>
#include <stdlib.h>

#include "gov/dbs.h"

#define DEF_FREQUENCY_UP_THRESHOLD   80
#define DEF_FREQUENCY_DOWN_THRESHOLD 20
#define DEF_FREQUENCY_STEP           5
#define DEF_SAMPLING_DOWN_FACTOR     1

struct cs_policy {
	struct dbs_policy dbs; /* first: the dbs core hands back this pointer */
	unsigned int down_skip;
	unsigned int requested_freq;
};

static unsigned int get_freq_step(const struct dbs_policy *d)
{
	unsigned int freq_step = (d->tun.freq_step * d->policy->max_khz) / 100;

	/* max freq cannot be less than 100, but who knows... */
	if (freq_step == 0)
		freq_step = DEF_FREQUENCY_STEP;
	return freq_step;
}

static unsigned int cs_dbs_update(struct dbs_policy *d, u64 time)
{
	struct cs_policy *cs = (struct cs_policy *)d;
	struct govsim_policy *policy = d->policy;
	unsigned int requested_freq = cs->requested_freq;
	unsigned int load = dbs_update(d, time);
	unsigned int freq_step;

	/* A user may set freq_step to 0 to pin the frequency. */
	if (d->tun.freq_step == 0)
		goto out;

	/* Out of the limits: they changed meanwhile, start again from the current frequency. */
	if (requested_freq > policy->max_khz || requested_freq < policy->min_khz) {
		requested_freq = policy->next_khz;
		cs->requested_freq = requested_freq;
	}

	freq_step = get_freq_step(d);

	/* One step down for each sampling period the CPUs spent idle. */
	if (d->idle_periods < UINT_MAX) {
		unsigned int freq_steps = d->idle_periods * freq_step;

		if (requested_freq > policy->min_khz + freq_steps)
			requested_freq -= freq_steps;
		else
			requested_freq = policy->min_khz;
		d->idle_periods = UINT_MAX;
	}

	if (load > d->tun.up_threshold) {
		cs->down_skip = 0;

		/* Already at full speed. */
		if (requested_freq == policy->max_khz)
			goto out;

		requested_freq += freq_step;
		if (requested_freq > policy->max_khz)
			requested_freq = policy->max_khz;

		dbs_driver_target(d, requested_freq, GOVSIM_RELATION_H, time);
		cs->requested_freq = requested_freq;
		goto out;
	}

	/* sampling_down_factor: only every n-th period may lower the frequency. */
	if (++cs->down_skip < d->tun.sampling_down_factor)
		goto out;
	cs->down_skip = 0;

	if (load < d->tun.down_threshold) {
		if (requested_freq == policy->min_khz)
			goto out;

		if (requested_freq > freq_step)
			requested_freq -= freq_step;
		else
			requested_freq = policy->min_khz;

		dbs_driver_target(d, requested_freq, GOVSIM_RELATION_L, time);
		cs->requested_freq = requested_freq;
	}

out:
	return d->tun.sampling_rate_us;
}

static void cs_start(struct dbs_policy *d)
{
	struct cs_policy *cs = (struct cs_policy *)d;

	cs->down_skip = 0;
	cs->requested_freq = d->policy->next_khz;
}

static int cs_init(struct govsim_policy *pol, void **data)
{
	struct cs_policy *cs = calloc(1, sizeof(*cs));
	struct dbs_policy *d;
	int ret;

	if (!cs)
		return GOVSIM_ENOMEM;
	d = &cs->dbs;
	dbs_policy_init(d, pol);
	d->tun.up_threshold = DEF_FREQUENCY_UP_THRESHOLD;
	d->tun.down_threshold = DEF_FREQUENCY_DOWN_THRESHOLD;
	d->tun.freq_step = DEF_FREQUENCY_STEP;
	d->tun.sampling_down_factor = DEF_SAMPLING_DOWN_FACTOR;
	ret = dbs_tunables_parse(pol, true, dbs_min_sampling_rate_us(pol->kernel->hz), &d->tun);
	if (ret) {
		free(cs);
		return ret;
	}
	d->gov_dbs_update = cs_dbs_update;
	d->gov_start = cs_start;
	*data = cs;
	return GOVSIM_OK;
}

static void cs_hook(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
		    unsigned int flags)
{
	struct cs_policy *cs = data;

	if (govsim_cpu_index(pol, cpu) < 0)
		return;
	dbs_update_util_handler(&cs->dbs, cpu, now_ns);
}

static void cs_release(struct govsim_policy *pol, void *data)
{
	free(data);
}

static const struct govsim_tunable cs_tunables[] = {
	{"up_threshold", "percent load above which it steps up (down_threshold+1..100, default 80)"},
	{"down_threshold", "percent load below which it steps down (1..up_threshold-1, default 20)"},
	{"freq_step", "step in percent of max (0 pins the frequency; above 100 is 100; default 5)"},
	{"sampling_rate", "µs between samples (>= 2 ticks, default max(2 ticks, transition "
			  "delay))"},
	{"sampling_down_factor", "periods between steps down (1..10, default 1)"},
	{NULL, NULL},
};

const struct govsim_governor conservative_governor = {
	GOVSIM_GOVERNOR_ABI,
	.tunables = cs_tunables,
	.name = "conservative",
	.help = "Linux v5.9 conservative: steps of freq_step=5 % of max when load > "
		"up_threshold=80 or < down_threshold=20; sampling_rate, sampling_down_factor=1",
	.init = cs_init,
	.update = cs_hook,
	.release = cs_release,
};
