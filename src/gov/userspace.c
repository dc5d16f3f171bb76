/*
 * userspace.c - the userspace governor (Linux v5.9 drivers/cpufreq/cpufreq_userspace.c): a
 * fixed frequency, `--set freq_khz=N` (the scaling_setspeed write), resolved RELATION_L.
 * Without freq_khz it keeps the frequency in force when it starts (cpufreq_userspace_policy_
 * start saves policy->cur as setspeed).
 *
 * As for performance, the start precedes the trace: init puts the frequency in force at once.
 * update() re-targets only when the limits moved (cpufreq_userspace_policy_limits: above max ->
 * max RELATION_H, below min -> min RELATION_L, else setspeed RELATION_L).
 */
#include <stdlib.h>

#include "gov/tunables.h"

struct userspace_data {
	struct gov_env env;
	u32 setspeed_khz;
};

static u32 userspace_target(const struct cpufreq_policy *pol, u32 setspeed,
			    enum cpufreq_relation *rel)
{
	if (pol->max_khz < setspeed) {
		*rel = CPUFREQ_RELATION_H;
		return cpufreq_resolve_relation(pol, pol->max_khz, *rel);
	}
	*rel = CPUFREQ_RELATION_L;
	if (pol->min_khz > setspeed)
		return cpufreq_resolve_relation(pol, pol->min_khz, *rel);
	return cpufreq_resolve_relation(pol, setspeed, *rel);
}

static int userspace_init(struct cpufreq_policy *pol, const struct gov_env *env,
			  struct gov_param *params, int nr_params, void **data,
			  struct gs_error *err)
{
	struct userspace_data *d;
	enum cpufreq_relation rel;
	u32 setspeed = pol->cur_khz;
	int ret;

	ret = gov_param_freq_khz(params, nr_params, &setspeed, err);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	d->env = *env;
	d->setspeed_khz = setspeed;
	pol->cur_khz = userspace_target(pol, setspeed, &rel);
	*data = d;
	return 0;
}

static void userspace_update(struct cpufreq_policy *pol, void *data, int cpu, u64 now_ns,
			     unsigned int flags)
{
	struct userspace_data *d = data;
	enum cpufreq_relation rel;
	u32 f = userspace_target(pol, d->setspeed_khz, &rel);

	if (cpufreq_next_khz(pol) != f)
		cpufreq_request_relation(pol, f, rel, now_ns);
	gov_report_fixed(&d->env, pol, cpu, now_ns, f);
}

static void userspace_release(void *data)
{
	free(data);
}

const struct governor_ops userspace_gov = {
	.name = "userspace",
	.help = "a fixed frequency: freq_khz=N (resolved to the lowest OPP >= N; default: the "
		"frequency in force at the start)",
	.init = userspace_init,
	.update = userspace_update,
	.release = userspace_release,
};
