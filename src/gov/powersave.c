/*
 * powersave.c - the powersave governor (Linux v5.9 drivers/cpufreq/cpufreq_powersave.c):
 * policy->min, RELATION_L, set when the governor starts and again whenever the limits change.
 *
 * The governor starts before the trace does, so init puts the frequency in force at once
 * (pol->cur_khz); update() only re-targets when the limits moved since (cpufreq_gov_
 * powersave_limits), going through cpufreq_request_relation() and its switch latency.
 */
#include <stdlib.h>

#include "gov/tunables.h"

struct powersave_data {
	struct gov_env env;
};

static u32 powersave_target(const struct cpufreq_policy *pol)
{
	return cpufreq_resolve_relation(pol, pol->min_khz, CPUFREQ_RELATION_L);
}

static int powersave_init(struct cpufreq_policy *pol, const struct gov_env *env,
			    struct gov_param *params, int nr_params, void **data,
			    struct gs_error *err)
{
	struct powersave_data *d = calloc(1, sizeof(*d));

	if (!d)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	d->env = *env;
	pol->cur_khz = powersave_target(pol);
	*data = d;
	return 0;
}

static void powersave_update(struct cpufreq_policy *pol, void *data, int cpu, u64 now_ns,
			       unsigned int flags)
{
	u32 f = powersave_target(pol);

	(void)data;
	(void)cpu;

	if (cpufreq_next_khz(pol) != f)
		cpufreq_request_relation(pol, f, CPUFREQ_RELATION_L, now_ns);
	/* No evaluation is reported: the v5.9 governor installs no update_util hook, so the
	 * kernel never evaluates it at cpufreq_update_util() (this only keeps the limits). */
}

static void powersave_release(void *data)
{
	free(data);
}

const struct governor_ops powersave_gov = {
	.name = "powersave",
	.help = "always the lowest frequency allowed (scaling_min_freq); no tunables",
	.init = powersave_init,
	.update = powersave_update,
	.release = powersave_release,
};
