/*
 * cpufreq_table.h - a platform cluster as the cpufreq core's OPP table: the bridge between the
 * power model and cpufreq/, which does not include power/. What
 * cpufreq-dt builds for a policy from the OPPs (v5.9 drivers/opp/cpu.c
 * dev_pm_opp_init_cpufreq_table(), drivers/cpufreq/cpufreq-dt.c cpufreq_init()).
 */
#ifndef GOVSIM_SIM_CPUFREQ_TABLE_H
#define GOVSIM_SIM_CPUFREQ_TABLE_H

#include "cpufreq/cpufreq.h"
#include "power/platform.h"

/* Each OPP's frequency, capacity and EM cost, the cluster's CPUs and transition latency. */
void cpufreq_table_from_cluster(const struct plat_cluster *cl, struct cpufreq_opp_table *tbl);

/* cpufreq_policy_init() on cl's table. */
void cpufreq_policy_init_cluster(struct cpufreq_policy *pol, int id, const struct plat_cluster *cl,
				 u32 initial_khz, u64 switch_latency_ns);

#endif
