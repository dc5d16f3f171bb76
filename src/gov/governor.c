/*
 * governor.c - the governor registry and the tunable parsers every governor shares.
 * See governor.h and tunables.h. Ranges follow the v5.9 sysfs stores of
 * kernel/sched/cpufreq_schedutil.c, drivers/cpufreq/cpufreq_governor.c, cpufreq_ondemand.c and
 * cpufreq_conservative.c.
 */
#include "gov/governor.h"

#include "core/parse.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gov/schedutil.h"
#include "gov/tunables.h"

const struct governor_ops schedutil_gov =
	GOV_PUB_OPS("schedutil", SCHEDUTIL_HELP, &schedutil_governor);

const struct governor_ops *const governor_table[] = {
	&schedutil_gov,
	&performance_gov,
	&powersave_gov,
	&userspace_gov,
	&ondemand_gov,
	&conservative_gov,
	NULL,
};

const struct governor_ops *governor_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; governor_table[i]; i++)
		if (strcmp(governor_table[i]->name, name) == 0)
			return governor_table[i];
	return NULL;
}

bool governor_is_path(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	return strchr(name, '/') || (n > 3 && strcmp(name + n - 3, ".so") == 0);
}

struct gov_param *gov_param_find(struct gov_param *params, int nr_params, const char *key)
{
	struct gov_param *last = NULL;

	for (int i = 0; i < nr_params; i++) {
		if (params[i].key && strcmp(params[i].key, key) == 0) {
			params[i].used = true;
			last = &params[i];
		}
	}
	return last;
}

/* A plain decimal unsigned integer that fits an unsigned int: no sign, no spaces, no suffix. */
static bool parse_uint(const char *s, unsigned int *out)
{
	u64 v;

	if (gs_parse_u64(s, &v) != 0 || v > UINT_MAX)
		return false;
	*out = (unsigned int)v;
	return true;
}

int gov_param_uint(struct gov_param *params, int nr_params, const char *key, unsigned int lo,
		   unsigned int hi, unsigned int *out, struct gs_error *err)
{
	struct gov_param *p = gov_param_find(params, nr_params, key);
	unsigned int v;

	if (!p)
		return 0;
	if (!parse_uint(p->value, &v))
		return gs_error_set(err, GS_EARG, "'%s=%s': not an unsigned integer", key,
				    p->value ? p->value : "");
	if (v < lo || v > hi)
		return gs_error_set(err, GS_EARG, "'%s=%s': out of range (%u..%u)", key, p->value,
				    lo, hi);
	*out = v;
	return 0;
}

int gov_param_bool(struct gov_param *params, int nr_params, const char *key, bool *out,
		   struct gs_error *err)
{
	unsigned int v = *out;
	int ret = gov_param_uint(params, nr_params, key, 0, 1, &v, err);

	if (ret)
		return ret;
	*out = v != 0;
	return 0;
}

int gov_param_rate_limit_us(struct gov_param *params, int nr_params, unsigned int *out,
			    struct gs_error *err)
{
	/* rate_limit_us_store: any value kstrtouint accepts. */
	return gov_param_uint(params, nr_params, "rate_limit_us", 0, UINT_MAX, out, err);
}

int gov_param_iowait_boost(struct gov_param *params, int nr_params, bool *out,
			   struct gs_error *err)
{
	return gov_param_bool(params, nr_params, "iowait_boost", out, err);
}

int gov_param_freq_khz(struct gov_param *params, int nr_params, u32 *out, struct gs_error *err)
{
	unsigned int v = *out;
	int ret = gov_param_uint(params, nr_params, "freq_khz", 1, UINT_MAX, &v, err);

	if (ret)
		return ret;
	*out = v;
	return 0;
}

int gov_param_dbs(struct gov_param *params, int nr_params, bool conservative,
		  unsigned int min_sampling_rate_us, struct dbs_tunables *t, struct gs_error *err)
{
	int ret;

	/* store_sampling_rate: below CPUFREQ_DBS_MIN_SAMPLING_INTERVAL is -EINVAL. */
	ret = gov_param_uint(params, nr_params, "sampling_rate", min_sampling_rate_us, UINT_MAX,
			     &t->sampling_rate_us, err);
	if (ret)
		return ret;
	/* MIN_FREQUENCY_UP_THRESHOLD 1 .. MAX_FREQUENCY_UP_THRESHOLD 100 (ondemand); conservative
	 * accepts up to 100 above down_threshold, checked below once both are known. */
	ret = gov_param_uint(params, nr_params, "up_threshold", 1, 100, &t->up_threshold, err);
	if (ret)
		return ret;
	/* MAX_SAMPLING_DOWN_FACTOR: 100000 in ondemand, 10 in conservative. */
	ret = gov_param_uint(params, nr_params, "sampling_down_factor", 1,
			     conservative ? 10 : 100000, &t->sampling_down_factor, err);
	if (ret)
		return ret;
	if (!conservative)
		return 0;
	/* store_down_threshold: "cannot be lower than 1 otherwise freq will not fall". */
	ret = gov_param_uint(params, nr_params, "down_threshold", 1, 100, &t->down_threshold, err);
	if (ret)
		return ret;
	if (t->down_threshold >= t->up_threshold)
		return gs_error_set(err, GS_EARG,
				    "'down_threshold=%u': must be below up_threshold (%u)",
				    t->down_threshold, t->up_threshold);
	ret = gov_param_uint(params, nr_params, "freq_step", 0, UINT_MAX, &t->freq_step, err);
	if (ret)
		return ret;
	if (t->freq_step > 100)
		t->freq_step = 100;
	return 0;
}

void gov_report_fixed(const struct gov_env *env, const struct cpufreq_policy *pol, int cpu,
		      u64 now_ns, u32 target_khz)
{
	struct gov_eval e = {0};

	if (!env->on_eval)
		return;
	e.time_ns = now_ns;
	e.cpu = cpu;
	e.policy = gov_policy_cpu(pol);
	if (env->cpu_util)
		env->cpu_util(env->ctx, cpu, &e.in);
	e.uclamp_min = 0;
	e.uclamp_max = SCHED_CAPACITY_SCALE;
	e.util = 0;
	e.target_khz = target_khz;
	e.freq_khz = pol->cur_khz;
	env->on_eval(env->ctx, &e);
}
