/*
 * performance.c - the performance governor (Linux v5.9 drivers/cpufreq/cpufreq_performance.c):
 * policy->max, RELATION_H, set when the governor starts and again whenever the limits change.
 * Written against the public interface alone (pubgov.h).
 *
 * The governor starts before the trace does, so init puts the frequency in force at once
 * (govsim_start_freq); update() only re-targets when the limits moved since (cpufreq_gov_
 * performance_limits), going through govsim_request_freq() and its switch latency.
 */
#include "gov/pubgov.h"

static unsigned int performance_target(const struct govsim_policy *pol)
{
	return govsim_resolve_freq(pol, pol->max_khz, GOVSIM_RELATION_H);
}

static int performance_init(struct govsim_policy *pol, void **data)
{
	govsim_start_freq(pol, pol->max_khz, GOVSIM_RELATION_H);
	*data = NULL;
	return GOVSIM_OK;
}

static void performance_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			       unsigned int flags)
{
	unsigned int f = performance_target(pol);

	(void)data;
	(void)cpu;
	if (pol->next_khz != f)
		govsim_request_freq(pol, f, GOVSIM_RELATION_H, now_ns);
	/* No evaluation is reported: the v5.9 governor installs no update_util hook, so the
	 * kernel never evaluates it at cpufreq_update_util() (this only keeps the limits). */
}

const struct govsim_governor performance_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "performance",
	.help = "always the highest frequency allowed (scaling_max_freq); no tunables",
	.init = performance_init,
	.update = performance_update,
};
