/*
 * performance_powersave.c - the two fixed-frequency governors (Linux v5.9 drivers/cpufreq/
 * cpufreq_performance.c and cpufreq_powersave.c): performance holds policy->max with
 * RELATION_H, powersave policy->min with RELATION_L, each set when the governor starts and
 * again whenever the limits change. Written against the public interface alone (public_abi.h).
 *
 * Differences from the kernel files, and why:
 * - The kernel sets the frequency in the governor's ->limits() callback
 *   (cpufreq_gov_performance_limits / cpufreq_gov_powersave_limits, called by
 *   cpufreq_governor_limits() at start and on a limits change). The replay's governors have
 *   no limits callback: the governor starts before the trace does, so init puts the frequency
 *   in force at once (govsim_start_freq), and update() re-targets only when the limits moved
 *   since, going through govsim_request_freq() and its switch latency.
 * - update() reports no evaluation: the v5.9 governors install no update_util hook, so the
 *   kernel never evaluates them at cpufreq_update_util() (the hook here only keeps the limits).
 */
#include <stdbool.h>

#include "gov/public_abi.h"

/* What a fixed governor holds: a limit of the policy and the relation it resolves with. */
static unsigned int held_limit_khz(const struct govsim_policy *pol, bool max)
{
	return max ? pol->max_khz : pol->min_khz;
}

static enum govsim_relation held_limit_relation(bool max)
{
	return max ? GOVSIM_RELATION_H : GOVSIM_RELATION_L;
}

static void fixed_init(struct govsim_policy *pol, void **data, bool max)
{
	govsim_start_freq(pol, held_limit_khz(pol, max), held_limit_relation(max));
	*data = NULL;
}

static void fixed_update(struct govsim_policy *pol, uint64_t now_ns, bool max)
{
	unsigned int f =
		govsim_resolve_freq(pol, held_limit_khz(pol, max), held_limit_relation(max));

	if (pol->next_khz != f)
		govsim_request_freq(pol, f, held_limit_relation(max), now_ns);
}

static int performance_init(struct govsim_policy *pol, void **data)
{
	fixed_init(pol, data, true);
	return GOVSIM_OK;
}

static void performance_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			       unsigned int flags)
{
	(void)data;
	(void)cpu;
	(void)flags;
	fixed_update(pol, now_ns, true);
}

static int powersave_init(struct govsim_policy *pol, void **data)
{
	fixed_init(pol, data, false);
	return GOVSIM_OK;
}

static void powersave_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			     unsigned int flags)
{
	(void)data;
	(void)cpu;
	(void)flags;
	fixed_update(pol, now_ns, false);
}

const struct govsim_governor performance_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "performance",
	.help = "always the highest frequency allowed (scaling_max_freq); no tunables",
	.init = performance_init,
	.update = performance_update,
};

const struct govsim_governor powersave_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "powersave",
	.help = "always the lowest frequency allowed (scaling_min_freq); no tunables",
	.init = powersave_init,
	.update = powersave_update,
};
