/*
 * userspace.c - the userspace governor (Linux v5.9 drivers/cpufreq/cpufreq_userspace.c): a
 * fixed frequency, `--set freq_khz=N` (the scaling_setspeed write), resolved RELATION_L.
 * Without freq_khz it keeps the frequency in force when it starts (cpufreq_userspace_policy_
 * start saves policy->cur as setspeed). Written against the public interface alone (public_abi.h);
 * what the run's notes say about its start (and the refusal of a policy whose frequency the
 * trace does not give) is the replay's: src/sim/gov_start.c.
 *
 * As for performance, the start precedes the trace: init puts the frequency in force at once.
 * update() re-targets only when the limits moved (cpufreq_userspace_policy_limits: above max ->
 * max RELATION_H, below min -> min RELATION_L, else setspeed RELATION_L).
 *
 * Differences from v5.9 cpufreq_userspace.c, and why:
 * - setspeed is written once, by `--set freq_khz=N` before the replay: the kernel's
 *   scaling_setspeed store (cpufreq_set) can change it at any time; a trace cannot.
 * - The governor starts before the trace, so init puts the frequency in force at once
 *   (govsim_start_freq) instead of going through the switch latency.
 * - update() runs at every cpufreq_update_util() point, which the kernel's userspace governor
 *   does not hook: it only re-applies the limits (which do not change during a replay) and
 *   reports one --timeline row (gov_report_no_util); no decision differs from the kernel's.
 */
#include <stdlib.h>

#include "gov/public_abi.h"

struct userspace_data {
	u32 setspeed_khz;
};

static unsigned int userspace_target(const struct govsim_policy *pol, u32 setspeed,
				     enum govsim_relation *rel)
{
	if (pol->max_khz < setspeed) {
		*rel = GOVSIM_RELATION_H;
		return govsim_resolve_freq(pol, pol->max_khz, *rel);
	}
	*rel = GOVSIM_RELATION_L;
	if (pol->min_khz > setspeed)
		return govsim_resolve_freq(pol, pol->min_khz, *rel);
	return govsim_resolve_freq(pol, setspeed, *rel);
}

static int userspace_init(struct govsim_policy *pol, void **data)
{
	struct userspace_data *d;
	enum govsim_relation rel = GOVSIM_RELATION_L;
	unsigned int setspeed = pol->cur_khz;
	int ret;

	/* freq_khz: kHz, > 0 */
	ret = govsim_tunable_uint(pol, "freq_khz", 1, UINT32_MAX, &setspeed);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d)
		return GOVSIM_ENOMEM;
	d->setspeed_khz = setspeed;
	govsim_start_freq(pol, userspace_target(pol, setspeed, &rel), rel);
	*data = d;
	return GOVSIM_OK;
}

static void userspace_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
			     unsigned int flags)
{
	struct userspace_data *d = data;
	enum govsim_relation rel;
	unsigned int f = userspace_target(pol, d->setspeed_khz, &rel);

	if (pol->next_khz != f)
		govsim_request_freq(pol, f, rel, now_ns);
	gov_report_no_util(pol, cpu, now_ns, f);
}

static void userspace_release(struct govsim_policy *pol, void *data)
{
	free(data);
}

static const struct govsim_tunable userspace_tunables[] = {
	{"freq_khz", "kHz, clamped to [min, max] and resolved to the lowest OPP >= N (default: "
		     "the frequency in force at the start, the trace's first of the policy)"},
	{NULL, NULL},
};

const struct govsim_governor userspace_governor = {
	GOVSIM_GOVERNOR_ABI,
	.name = "userspace",
	.help = "a fixed frequency: freq_khz=N (clamped to [min, max], resolved to the lowest OPP "
		">= N; default: the frequency in force at the start, the trace's first of the policy)",
	.tunables = userspace_tunables,
	.init = userspace_init,
	.update = userspace_update,
	.release = userspace_release,
};
