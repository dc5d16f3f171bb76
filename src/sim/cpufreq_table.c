/* cpufreq_table.c - a platform cluster as the cpufreq core's OPP table; see cpufreq_table.h. */
#include "sim/cpufreq_table.h"

#include <string.h>

void cpufreq_table_from_cluster(const struct plat_cluster *cl, struct cpufreq_opp_table *tbl)
{
	memset(tbl, 0, sizeof(*tbl));
	tbl->nr_opps = cl->nr_opps;
	for (int i = 0; i < cl->nr_opps; i++) {
		tbl->opps[i].freq_khz = cl->opps[i].freq_khz;
		tbl->opps[i].capacity = cl->opps[i].capacity;
		tbl->opps[i].em_cost = cl->opps[i].em_cost;
	}
	tbl->nr_cpus = cl->nr_cpus;
	memcpy(tbl->cpus, cl->cpus, sizeof(tbl->cpus));
	tbl->transition_latency_ns = cl->transition_latency_ns;
}

void cpufreq_policy_init_cluster(struct cpufreq_policy *pol, int id, const struct plat_cluster *cl,
				 u32 initial_khz, u64 switch_latency_ns)
{
	struct cpufreq_opp_table tbl;

	cpufreq_table_from_cluster(cl, &tbl);
	cpufreq_policy_init(pol, id, &tbl, initial_khz, switch_latency_ns);
}
