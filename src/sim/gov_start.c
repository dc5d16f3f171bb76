/*
 * gov_start.c - what the replay says about a governor's start that the governor interface
 * cannot: the userspace governor's frequency, as Linux v5.9 drivers/cpufreq/cpufreq_userspace.c
 * sets it (src/gov/userspace.c runs it).
 *
 * - cpufreq_userspace_policy_start() saves policy->cur, the frequency the policy had, as
 *   setspeed: without `--set freq_khz` that is the trace's first frequency of the policy (the
 *   pre-scan's), or its maximum with `--set start_freq=max`; a trace that gives none leaves
 *   it unknown: refused, not guessed.
 * - A scaling_setspeed write (`--set freq_khz=N`) goes through cpufreq_set() to
 *   __cpufreq_driver_target(policy, N, CPUFREQ_RELATION_L) (drivers/cpufreq/cpufreq.c), which
 *   clamps N into [policy->min, policy->max] (clamp_val) and resolves it to the lowest OPP at
 *   or above it; cpufreq_userspace_policy_limits() does the same at the start. The run's notes
 *   say where the frequency in force is not the one asked for.
 */
#include "sim/sim_priv.h"

#include <stdlib.h>
#include <string.h>

#include "gov/governor.h"

static bool is_userspace(const struct sim_config *cfg)
{
	return cfg->gov && strcmp(cfg->gov->name, "userspace") == 0;
}

/* --set freq_khz=N: N, or 0 when not given (the governor's init checks the value). */
static u32 setspeed_param(const struct sim_config *cfg)
{
	for (int i = 0; i < cfg->opts.nr_params; i++)
		if (strcmp(cfg->params[i].key, "freq_khz") == 0)
			return (u32)strtoul(cfg->params[i].value, NULL, 10);
	return 0;
}

/* The trace's first frequency of any CPU of cluster c (the pre-scan's); 0 when it gives none. */
static u32 traced_initial_khz(const struct sim_config *cfg, const struct plat_cluster *pc)
{
	for (int i = 0; i < pc->nr_cpus; i++)
		if (cfg->initial_khz[pc->cpus[i]])
			return cfg->initial_khz[pc->cpus[i]];
	return 0;
}

int sim_gov_start_check(const struct sim_config *cfg, const struct plat_cluster *pc,
			struct gs_error *err)
{
	char cpus[32];

	if (!is_userspace(cfg) || setspeed_param(cfg) || cfg->start_freq == SIM_START_MAX ||
	    traced_initial_khz(cfg, pc))
		return 0;
	if (pc->nr_cpus > 1)
		snprintf(cpus, sizeof(cpus), "CPUs %d-%d", pc->cpus[0], pc->cpus[pc->nr_cpus - 1]);
	else
		snprintf(cpus, sizeof(cpus), "CPU %d", pc->cpus[0]);
	return gs_error_set(err, GS_EARG,
			    "--governor userspace keeps the frequency policy%d had, and the trace "
			    "gives none (no cpu_frequency of %s): set it with --set freq_khz=N",
			    pc->cpus[0], cpus);
}

void sim_gov_start_notes(const struct sim *s, struct run_result *r)
{
	const struct sim_config *cfg = &s->cfg;
	u32 asked = setspeed_param(cfg);

	if (!is_userspace(cfg))
		return;
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		const struct cpufreq_policy *pol = &s->cl[c].pol;
		int policy = s->cl[c].pc->cpus[0];
		u32 cur = s->emu_init_khz[c];

		if (!asked && cfg->start_freq == SIM_START_MAX) {
			run_result_note(r, "userspace: policy%d keeps its maximum %u kHz "
					   "(start_freq=max)", policy, cur);
		} else if (!asked) {
			u32 init = traced_initial_khz(cfg, s->cl[c].pc);
			if (init == cur)
				run_result_note(r, "userspace: policy%d keeps the trace's initial %u kHz",
						policy, init);
			else
				run_result_note(r,
						"userspace: policy%d keeps the trace's initial %u kHz, "
						"%u kHz in force (no OPP of %s)",
						policy, init, cur, s->plat->name);
		} else if (asked > pol->max_khz) {
			run_result_note(r,
					"userspace: freq_khz=%u is above policy%d's max %u kHz: "
					"clamped to %u kHz",
					asked, policy, pol->max_khz, cur);
		} else if (asked < pol->min_khz) {
			run_result_note(r,
					"userspace: freq_khz=%u is below policy%d's min %u kHz: "
					"clamped to %u kHz",
					asked, policy, pol->min_khz, cur);
		} else if (asked != cur) {
			run_result_note(r,
					"userspace: freq_khz=%u is no OPP of policy%d: %u kHz in force "
					"(the lowest OPP at or above it)",
					asked, policy, cur);
		}
	}
}
