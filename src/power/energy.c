/* energy.c - see energy.h. */
#include "power/energy.h"

static inline double ns_to_s(u64 ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

double energy_cpu(const struct platform *p, enum power_model m, int cpu, const u64 *busy_ns_opp,
		  const u64 *idle_ns_state)
{
	const struct plat_cluster *pc = platform_cluster_of(p, cpu);
	double e = 0;

	for (int k = 0; k < pc->nr_opps; k++)
		e += power_cpu_busy(p, m, cpu, k) * ns_to_s(busy_ns_opp[k]);
	for (int k = 0; k < pc->nr_idle; k++)
		e += power_cpu_idle(p, m, cpu, k) * ns_to_s(idle_ns_state[k]);
	return e / 1000.0; /* mW x s -> J (costs: the model's unit x s / 1000) */
}

double energy_cluster_add(double acc, const struct platform *p, enum power_model m, int cluster,
			  const u64 *busy_ns_opp, const u64 *idle_ns_state)
{
	const struct plat_cluster *pc = &p->clusters[cluster];

	for (int k = 0; k < pc->nr_opps; k++)
		acc += power_cluster_busy(p, m, cluster, k) * ns_to_s(busy_ns_opp[k]) / 1000.0;
	for (int k = 0; k < pc->nr_idle; k++)
		acc += power_cluster_idle(p, m, cluster, k) * ns_to_s(idle_ns_state[k]) / 1000.0;
	return acc;
}
