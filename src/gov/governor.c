/*
 * governor.c - the governor registry and the tunable parsers behind govsim_tunable_uint()
 * (host.c). See governor.h and tunables.h; each governor names the v5.9 sysfs store whose
 * range it applies.
 */
#include "gov/governor.h"

#include "core/parse.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gov/dbs.h"
#include "gov/schedutil.h"
#include "gov/tunables.h"

/* The built-in governors, each written against include/govsim/governor.h. */
const struct governor schedutil_gov = GOVERNOR_ENTRY("schedutil", &schedutil_governor);
const struct governor performance_gov = GOVERNOR_ENTRY("performance", &performance_governor);
const struct governor powersave_gov = GOVERNOR_ENTRY("powersave", &powersave_governor);
const struct governor userspace_gov = GOVERNOR_ENTRY("userspace", &userspace_governor);
const struct governor ondemand_gov = GOVERNOR_ENTRY("ondemand", &ondemand_governor);
const struct governor conservative_gov = GOVERNOR_ENTRY("conservative", &conservative_governor);

const struct governor *const governor_table[] = {
	&schedutil_gov,
	&performance_gov,
	&powersave_gov,
	&userspace_gov,
	&ondemand_gov,
	&conservative_gov,
	NULL,
};

const char *governor_help(const struct governor *gov)
{
	return gov->pub && gov->pub->help ? gov->pub->help : "";
}

const struct governor *governor_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; governor_table[i]; i++)
		if (strcmp(governor_table[i]->name, name) == 0)
			return governor_table[i];
	return NULL;
}

bool governor_has_tunable(const struct governor *gov, const char *name)
{
	const struct govsim_tunable *t = gov->pub ? gov->pub->tunables : NULL;

	for (; t && t->name; t++)
		if (strcmp(t->name, name) == 0)
			return true;
	return false;
}

bool governor_is_path(const char *name)
{
	size_t n;

	if (!name)
		return false;
	n = strlen(name);
	return strchr(name, '/') || (n > 3 && strcmp(name + n - 3, ".so") == 0);
}

const char *gov_param_policy(const char *key, int *policy)
{
	const char *p = key + 6;
	int n = 0;

	if (strncmp(key, "policy", 6) != 0 || *p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		if (n < 100000) /* no CPU numbers past that: keep n from overflowing */
			n = n * 10 + (*p - '0');
	if (*p != '.' || !p[1])
		return NULL;
	*policy = n;
	return p + 1;
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
