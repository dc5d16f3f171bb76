/*
 * config.c - the replay's configuration: defaults, and the replay's own --set keys (hz,
 * switch_latency_us, update_points, scaling_min/max_freq, uclamp_buckets, and the overhead
 * model's) taken out of the tunables.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <string.h>

#include "core/parse.h"
#include "cpufreq/cpufreq.h"
#include "uclamp/uclamp.h"

void sim_opts_init(struct sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->timing = SIM_TIMING_WORK;
	o->util_source = SIM_UTIL_EMULATED;
	o->power_model = POWER_MODEL_EM;
}

void sim_config_init(struct sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	sim_opts_init(&cfg->opts);
	cfg->hz = 250;
	cfg->update_points = SIM_UPDATE_KERNEL;
	cfg->uclamp_buckets = UCLAMP_BUCKETS_DEFAULT;
	cfg->scaling_max_khz = CPUFREQ_NO_MAX_KHZ;
	cfg->uclamp_task = true;
	cfg->freq_invariant = -1;
	cfg->kthread_traced = 1;
	cfg->rq_clock_traced = 1;
	cfg->dvfs_any_cpu = -1;
	cfg->cpuidle_driver = 1;
	cfg->placement_slices = true;
}

/*
 * The value of p, N or N0:N1:... (CPU by CPU), into v[0..n-1]: each an s64 (is_signed) or a
 * u64 (kept in the u64's bits); n, or GS_EARG. `want` says what a value is, for the message
 * ("expected ..., or ... per CPU"). An empty element (":5", "5::6", "5:") is refused, as the
 * facts file refuses it.
 */
static int parse_cpu_values(const struct gov_param *p, bool is_signed, const char *want,
			    u64 v[GS_MAX_CPUS], struct gs_error *err)
{
	char buf[32 * 24];
	char *tok, *next;
	int n = 0;

	if (strlen(p->value) >= sizeof(buf))
		return gs_error_set(err, GS_EARG, "--set %s: value too long", p->key);
	if (!p->value[0])
		return gs_error_set(err, GS_EARG, "--set %s='': expected ns", p->key);
	strcpy(buf, p->value);
	for (tok = buf; tok; tok = next, n++) {
		s64 sv;

		next = strchr(tok, ':');
		if (next)
			*next++ = '\0';
		if (!*tok)
			return gs_error_set(err, GS_EARG,
					    "--set %s='%s': value %d of the ':'-separated list is empty",
					    p->key, p->value, n + 1);
		if (n >= GS_MAX_CPUS ||
		    (is_signed ? gs_parse_s64(tok, &sv) : gs_parse_u64(tok, &v[n])) != 0)
			return gs_error_set(err, GS_EARG,
					    "--set %s='%s': %s separated by ':' (at most %d)", p->key,
					    p->value, want, GS_MAX_CPUS);
		if (is_signed)
			v[n] = (u64)sv;
	}
	return n;
}

/* governor_start_ns=N (every CPU) or N0:N1:... (CPU by CPU, the last repeats: a lab
 * recording's policies each start after their own switch). governor_start_ns is the earliest. */
static int parse_governor_start(struct sim_config *cfg, struct gov_param *p, struct gs_error *err)
{
	u64 v[GS_MAX_CPUS], first = UINT64_MAX;
	int n = parse_cpu_values(p, false, "expected a non-negative integer, or one per CPU", v,
				 err);

	if (n < 0)
		return n;
	for (int c = 0; c < GS_MAX_CPUS; c++) {
		cfg->governor_start_cpu_ns[c] = v[c < n ? c : n - 1];
		first = c < n && v[c] < first ? v[c] : first;
	}
	cfg->governor_start_ns = first;
	p->used = true;
	return 1;
}

/* rq_clock_offset_ns=N (every CPU) or N0:N1:... (CPU by CPU; the last repeats). */
static int parse_rq_clock_offset(struct sim_config *cfg, struct gov_param *p, struct gs_error *err)
{
	u64 v[GS_MAX_CPUS];
	int n = parse_cpu_values(p, true, "expected ns (may be negative), or ns per CPU", v, err);

	if (n < 0)
		return n;
	for (int c = 0; c < GS_MAX_CPUS; c++)
		cfg->rq_clock_offset_ns[c] = (s64)v[c < n ? c : n - 1];
	cfg->has_rq_clock_offset = true;
	p->used = true;
	return 1;
}

/* The field of the replay's 0|1 key `key` in cfg, or NULL when it is not one. */
static int *bool_param_field(struct sim_config *cfg, const char *key)
{
	if (strcmp(key, "freq_invariant") == 0)
		return &cfg->freq_invariant;
	if (strcmp(key, "dvfs_possible_from_any_cpu") == 0)
		return &cfg->dvfs_any_cpu;
	if (strcmp(key, "cpuidle_driver") == 0)
		return &cfg->cpuidle_driver;
	if (strcmp(key, "sched_autogroup") == 0)
		return &cfg->sched_autogroup;
	if (strcmp(key, "kthread_traced") == 0)
		return &cfg->kthread_traced;
	if (strcmp(key, "rq_clock_traced") == 0)
		return &cfg->rq_clock_traced;
	return NULL;
}

/* The field (ns) of the replay's key `key` given in us, at most 1 s, or NULL when it is not one. */
static u64 *us_param_field(struct sim_config *cfg, const char *key)
{
	if (strcmp(key, "switch_latency_us") == 0)
		return &cfg->switch_latency_ns;
	if (strcmp(key, "transition_us") == 0)
		return &cfg->transition_ns;
	if (strcmp(key, "switch_clock_lead_us") == 0)
		return &cfg->switch_clock_lead_ns;
	if (strcmp(key, "wakeup_clock_lead_us") == 0)
		return &cfg->wakeup_clock_lead_ns;
	return NULL;
}

/*
 * The replay's keys with a word, a mode or 0|1 for a value (update_points, start_freq,
 * bool_param_field's, rq_clock_offset_ns, governor_start_ns): 1 when p is one of them (marked
 * used), 0 when not, or GS_EARG on a bad value.
 */
static int parse_mode_param(struct sim_config *cfg, struct gov_param *p, struct gs_error *err)
{
	int *flag;

	if (strcmp(p->key, "update_points") == 0) {
		if (strcmp(p->value, "kernel") == 0)
			cfg->update_points = SIM_UPDATE_KERNEL;
		else if (strcmp(p->value, "context-switch") == 0)
			cfg->update_points = SIM_UPDATE_CONTEXT_SWITCH;
		else
			return gs_error_set(err, GS_EARG,
					    "--set update_points='%s': expected kernel or "
					    "context-switch",
					    p->value);
		p->used = true;
		return 1;
	}
	if (strcmp(p->key, "start_freq") == 0) {
		if (strcmp(p->value, "traced") == 0)
			cfg->start_freq = SIM_START_TRACED;
		else if (strcmp(p->value, "max") == 0)
			cfg->start_freq = SIM_START_MAX;
		else
			return gs_error_set(err, GS_EARG,
					    "--set start_freq='%s': expected traced or max",
					    p->value);
		p->used = true;
		return 1;
	}
	flag = bool_param_field(cfg, p->key);
	if (flag) {
		if (strcmp(p->value, "0") != 0 && strcmp(p->value, "1") != 0)
			return gs_error_set(err, GS_EARG, "--set %s='%s': expected 0 or 1", p->key,
					    p->value);
		*flag = p->value[0] == '1';
		p->used = true;
		return 1;
	}
	if (strcmp(p->key, "rq_clock_offset_ns") == 0)
		return parse_rq_clock_offset(cfg, p, err);
	if (strcmp(p->key, "governor_start_ns") == 0)
		return parse_governor_start(cfg, p, err);
	return 0;
}

int sim_config_parse_params(struct sim_config *cfg, struct gs_error *err)
{
	for (int i = 0; i < cfg->opts.nr_params; i++) {
		struct gov_param *p = &cfg->params[i];
		int mode = parse_mode_param(cfg, p, err);
		u64 v, *us;

		if (mode < 0)
			return mode;
		if (mode)
			continue;
		us = us_param_field(cfg, p->key);
		if (strcmp(p->key, "hz") != 0 && !us && strcmp(p->key, "scaling_min_freq") != 0 &&
		    strcmp(p->key, "scaling_max_freq") != 0 &&
		    strcmp(p->key, "uclamp_buckets") != 0 && !sim_ovh_is_param(p->key))
			continue;
		if (gs_parse_u64(p->value, &v) != 0)
			return gs_error_set(err, GS_EARG,
					    "--set %s='%s': not a non-negative integer", p->key,
					    p->value);
		if (strcmp(p->key, "hz") == 0) {
			if (v < 100 || v > 1000)
				return gs_error_set(
				    err, GS_EARG,
				    "--set hz=%" PRIu64 ": CONFIG_HZ must be 100..1000", v);
			cfg->hz = (int)v;
		} else if (us) {
			if (v > 1000000)
				return gs_error_set(err, GS_EARG,
						    "--set %s=%" PRIu64 ": more than 1 s", p->key,
						    v);
			*us = v * NSEC_PER_USEC;
			if (us == &cfg->switch_latency_ns)
				cfg->has_switch_latency = true;
		} else if (strcmp(p->key, "scaling_min_freq") == 0) {
			cfg->scaling_min_khz = (u32)gs_min_u64(v, UINT32_MAX);
		} else if (sim_ovh_is_param(p->key)) {
			if (sim_ovh_set_param(cfg, p->key, v, err))
				return GS_EARG;
		} else if (strcmp(p->key, "scaling_max_freq") == 0) {
			cfg->scaling_max_khz = (u32)gs_min_u64(v, UINT32_MAX);
		} else {
			if (v < 5 || v > UCLAMP_BUCKETS_MAX)
				return gs_error_set(err, GS_EARG,
						    "--set uclamp_buckets=%" PRIu64
						    ": CONFIG_UCLAMP_BUCKETS_COUNT must be 5..20",
						    v);
			cfg->uclamp_buckets = (int)v;
		}
		p->used = true;
	}
	return 0;
}
