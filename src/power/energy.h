/*
 * energy.h - energy integration: power is piecewise constant between state
 * changes, so the energy of a CPU or a cluster is the sum over its states (busy at each OPP,
 * idle in each idle state) of the state's power (power.h, mW or the costs model's unit) times
 * the integer nanoseconds spent in it. Joules for em; for costs the model's unit x s / 1000.
 */
#ifndef GOVSIM_POWER_ENERGY_H
#define GOVSIM_POWER_ENERGY_H

#include "core/types.h"
#include "power/platform.h"
#include "power/power.h"

/* A CPU's own energy: busy_ns_opp[k] ns busy at its cluster's OPP k, idle_ns_state[i] ns in
 * idle state i. */
double energy_cpu(const struct platform *p, enum power_model m, int cpu, const u64 *busy_ns_opp,
		  const u64 *idle_ns_state);

/* acc plus the cluster's own energy (the cluster power on top of its CPUs'): busy_ns_opp[k] ns
 * with some CPU busy at OPP k, idle_ns_state[i] ns with all CPUs idle in state i. */
double energy_cluster_add(double acc, const struct platform *p, enum power_model m, int cluster,
			  const u64 *busy_ns_opp, const u64 *idle_ns_state);

#endif
