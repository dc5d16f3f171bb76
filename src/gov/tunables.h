/*
 * tunables.h - parsing the governors' tunables from struct gov_param (--set KEY=VALUE), behind
 * the public interface's govsim_tunable_uint() (host.c; implemented in governor.c), and the
 * built-in governors in both forms.
 *
 * A governor takes only the keys it knows and marks them used; the replay's own keys
 * (switch_latency_us, hz, update_points, scaling_min_freq, scaling_max_freq, uclamp_buckets)
 * are never touched here. A key given twice: the last value wins, every copy is marked used.
 * Errors are GS_EARG with the key and value named: "'up_threshold=150': out of range (1..100)".
 */
#ifndef GOVSIM_GOV_TUNABLES_H
#define GOVSIM_GOV_TUNABLES_H

#include "gov/governor.h"

/* A per-policy key "policyN.NAME" (N decimal: the policy's first CPU): NAME, with N in
 * *policy; NULL for any other key. */
const char *gov_param_policy(const char *key, int *policy);

/* The last param named `key`, all of them marked used; NULL when absent. */
struct gov_param *gov_param_find(struct gov_param *params, int nr_params, const char *key);

/* `key` as a decimal unsigned integer in [lo, hi]. Absent: *out untouched, 0 returned. */
int gov_param_uint(struct gov_param *params, int nr_params, const char *key, unsigned int lo,
		   unsigned int hi, unsigned int *out, struct gs_error *err);

/* `key` as 0 or 1. Absent: *out untouched, 0 returned. */
int gov_param_bool(struct gov_param *params, int nr_params, const char *key, bool *out,
		   struct gs_error *err);

/* The governors (one file each, written against include/govsim/governor.h) as the replay
 * drives them (GOVERNOR_ENTRY in governor.c). performance, powersave and userspace choose their
 * frequency when they start, which precedes the trace (govsim_start_freq in init). Later limit
 * changes are followed at the next update(). ondemand and conservative start at the first
 * update() they see (dbs.h). Every governor reports each evaluation (govsim_report). */
extern const struct governor schedutil_gov;
extern const struct governor performance_gov;
extern const struct governor powersave_gov;
extern const struct governor userspace_gov;
extern const struct governor ondemand_gov;
extern const struct governor conservative_gov;

extern const struct govsim_governor performance_governor;
extern const struct govsim_governor powersave_governor;
extern const struct govsim_governor userspace_governor;

#endif
