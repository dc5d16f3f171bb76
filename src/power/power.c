/*
 * power.c - power per CPU and cluster in each state; see power.h.
 *
 * The em model is the v5.9 Energy Model (kernel/power/energy_model.c, include/linux/energy_model.h)
 * as a power per busy CPU; the costs model is EAS v1 sched-energy-costs (Android 4.x kernels,
 * LISA's transcription: busy power per OPP and idle power per state, CPU and cluster level).
 *
 * Differences of the em model from the v5.9 Energy Model, and why:
 * - The kernel's EM is an estimate for EAS (em_cpu_energy(): ps->cost * sum_util / scale_cpu at
 *   the OPP max_util maps to), never a meter. Here each em_perf_state's power is the power of a
 *   busy CPU at that OPP, integrated over the time the CPU ran there (energy.c): the replay
 *   knows the busy time per OPP, which em_cpu_energy() approximates from util.
 * - The v5.9 EM has no idle power and no cluster (shared) power: under em, idle time and the
 *   cluster cost nothing (power_cpu_idle, power_cluster_* return 0). The costs model has both.
 * - The power values are the platform's (its SQL file under models/): a
 *   dynamic-power-coefficient gives the DT callback's C * mV^2 * MHz / 1e9 mW (drivers/opp/of.c
 *   _get_power, computed when the platform is loaded); without one, the model's own table.
 * - power_pick_idle_state() is a hindsight choice (the deepest state whose target residency
 *   fits the idle interval, cluster states only when the whole cluster is idle), standing for
 *   the cpuidle governor's prediction when the trace has no cpu_idle events.
 */
#include "power/power.h"

#include <string.h>

bool power_model_from_name(const char *name, enum power_model *out)
{
	static const enum power_model models[] = {POWER_MODEL_EM, POWER_MODEL_COSTS,
						  POWER_MODEL_WATTSON};

	for (size_t i = 0; name && i < GS_ARRAY_SIZE(models); i++)
		if (strcmp(name, power_model_name(models[i])) == 0) {
			*out = models[i];
			return true;
		}
	return false;
}

const char *power_model_name(enum power_model m)
{
	switch (m) {
	case POWER_MODEL_EM:
		return "em";
	case POWER_MODEL_COSTS:
		return "costs";
	case POWER_MODEL_WATTSON:
		return "wattson";
	}
	return "?";
}

static const struct plat_cluster *cluster_at(const struct platform *p, int cluster)
{
	if (cluster < 0 || cluster >= p->nr_clusters)
		return NULL;
	return &p->clusters[cluster];
}

static const struct plat_cluster *cluster_of_cpu(const struct platform *p, int cpu)
{
	if (cpu < 0 || cpu >= p->nr_cpus)
		return NULL;
	return cluster_at(p, p->cpus[cpu].cluster);
}

static const struct plat_opp *opp_at(const struct plat_cluster *c, int opp)
{
	if (!c || opp < 0 || opp >= c->nr_opps)
		return NULL;
	return &c->opps[opp];
}

/* Active idle (-1) is charged as WFI (state 0); see power.h. */
static const struct plat_idle_state *idle_at(const struct plat_cluster *c, int idx)
{
	if (idx == -1)
		idx = 0;
	if (!c || idx < 0 || idx >= c->nr_idle)
		return NULL;
	return &c->idle[idx];
}

double power_cpu_busy(const struct platform *p, enum power_model m, int cpu, int opp)
{
	const struct plat_opp *o = opp_at(cluster_of_cpu(p, cpu), opp);

	if (!o || m == POWER_MODEL_WATTSON)
		return 0;
	return m == POWER_MODEL_EM ? o->em_power_mw : o->cost_cpu_busy;
}

double power_cpu_idle(const struct platform *p, enum power_model m, int cpu, int idle_idx)
{
	const struct plat_idle_state *s = idle_at(cluster_of_cpu(p, cpu), idle_idx);

	if (!s || m != POWER_MODEL_COSTS)
		return 0;
	return s->cost_cpu_idle;
}

double power_cluster_busy(const struct platform *p, enum power_model m, int cluster, int opp)
{
	const struct plat_opp *o = opp_at(cluster_at(p, cluster), opp);

	if (!o || m != POWER_MODEL_COSTS)
		return 0;
	return o->cost_cluster_busy;
}

double power_cluster_idle(const struct platform *p, enum power_model m, int cluster, int idle_idx)
{
	const struct plat_idle_state *s = idle_at(cluster_at(p, cluster), idle_idx);

	if (!s || m != POWER_MODEL_COSTS)
		return 0;
	return s->cost_cluster_idle;
}

int power_pick_idle_state(const struct plat_cluster *c, u64 idle_ns, bool cluster_all_idle)
{
	int best = 0;

	for (int i = 1; i < c->nr_idle; i++) {
		const struct plat_idle_state *s = &c->idle[i];
		if (s->cluster_level && !cluster_all_idle)
			continue;
		if ((u64)s->target_residency_us * NSEC_PER_USEC <= idle_ns)
			best = i;
	}
	return best;
}

const char *power_unit(const struct platform *p, enum power_model m)
{
	return m == POWER_MODEL_COSTS ? p->cost_unit : "mW";
}
