/*
 * performance.c - the performance governor (Linux v5.9 drivers/cpufreq/cpufreq_performance.c):
 * policy->max, RELATION_H, set when the governor starts and again whenever the limits change.
 *
 * The governor starts before the trace does, so init puts the frequency in force at once
 * (pol->cur_khz); update() only re-targets when the limits moved since (cpufreq_gov_
 * performance_limits), going through cpufreq_request_relation() and its switch latency.
 */
#include <stdlib.h>

#include "gov/tunables.h"

struct performance_data {
	struct gov_env env;
};

static u32 performance_target(const struct cpufreq_policy *pol)
{
	return cpufreq_resolve_relation(pol, pol->max_khz, CPUFREQ_RELATION_H);
}

static int performance_init(struct cpufreq_policy *pol, const struct gov_env *env,
			    struct gov_param *params, int nr_params, void **data,
			    struct gs_error *err)
{
	struct performance_data *d = calloc(1, sizeof(*d));

	if (!d)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	d->env = *env;
	pol->cur_khz = performance_target(pol);
	*data = d;
	return 0;
}

static void performance_update(struct cpufreq_policy *pol, void *data, int cpu, u64 now_ns,
			       unsigned int flags)
{
	u32 f = performance_target(pol);

	(void)data;
	(void)cpu;

	if (cpufreq_next_khz(pol) != f)
		cpufreq_request_relation(pol, f, CPUFREQ_RELATION_H, now_ns);
	/* No evaluation is reported: the v5.9 governor installs no update_util hook, so the
	 * kernel never evaluates it at cpufreq_update_util() (this only keeps the limits). */
}

static void performance_release(void *data)
{
	free(data);
}

const struct governor_ops performance_gov = {
	.name = "performance",
	.help = "always the highest frequency allowed (scaling_max_freq); no tunables",
	.init = performance_init,
	.update = performance_update,
	.release = performance_release,
};
