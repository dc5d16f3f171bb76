/*
 * powersave.c - the powersave governor (Linux v5.9 drivers/cpufreq/cpufreq_powersave.c):
 * policy->min, RELATION_L, set when the governor starts and again whenever the limits change.
 * Written against the public interface alone (pubgov.h).
 *
 * The governor starts before the trace does, so init puts the frequency in force at once
 * (govsim_start_freq); update() only re-targets when the limits moved since (cpufreq_gov_
 * powersave_limits), going through govsim_request_freq() and its switch latency.
 */
#include "gov/pubgov.h"

static unsigned int powersave_target(const struct govsim_policy *pol)
{
	return govsim_resolve_freq(pol, pol->min_khz, GOVSIM_RELATION_L);
}

static int powersave_init(struct govsim_policy *pol, void **data)
{
	govsim_start_freq(pol, pol->min_khz, GOVSIM_RELATION_L);
	*data = NULL;
	return GOVSIM_OK;
}

static void powersave_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			     unsigned int flags)
{
	unsigned int f = powersave_target(pol);

	(void)data;
	(void)cpu;
	if (pol->next_khz != f)
		govsim_request_freq(pol, f, GOVSIM_RELATION_L, now_ns);
	/* No evaluation is reported: the v5.9 governor installs no update_util hook, so the
	 * kernel never evaluates it at cpufreq_update_util() (this only keeps the limits). */
}

const struct govsim_governor powersave_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "powersave",
	.help = "always the lowest frequency allowed (scaling_min_freq); no tunables",
	.init = powersave_init,
	.update = powersave_update,
};
