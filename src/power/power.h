/*
 * power.h - the power model: power of a CPU and of a cluster in each busy OPP and idle state.
 *
 * Pure functions over a loaded struct platform (power/platform.h); no I/O, no state. The replay
 * integrates them over time into energy (energy.h):
 *  - `em`: the v5.9 Energy Model. A busy CPU draws em_power_mw at its OPP (C * mV^2 * MHz / 1e9,
 *    or the model's given power); an idle CPU and the cluster itself draw nothing.
 *  - `costs`: EAS v1 sched-energy-costs. A busy CPU draws cost_cpu_busy at its OPP, an idle one
 *    cost_cpu_idle of its idle state; the cluster draws cost_cluster_busy at the cluster's OPP
 *    while any of its CPUs is busy and cost_cluster_idle of its idle state once all are idle.
 * Powers are in power_unit(): mW for em, the platform's cost_unit for costs. So energy is
 * power x seconds / 1000 in J for em (and in the cost unit x s / 1000 for costs).
 */
#ifndef GOVSIM_POWER_POWER_H
#define GOVSIM_POWER_POWER_H

#include "core/types.h"
#include "power/platform.h"

enum power_model {
	POWER_MODEL_EM,
	POWER_MODEL_COSTS,
	POWER_MODEL_WATTSON, /* Perfetto's Wattson curves: power/wattson.h integrates it, over the
			      * whole system state; the per-state functions below give 0 for it */
};

/* "em", "costs", "wattson" -> *out and true; anything else (or NULL): false, *out untouched. */
bool power_model_from_name(const char *name, enum power_model *out);

/* "em", "costs" or "wattson"; "?" for a value outside the enum. Static string. */
const char *power_model_name(enum power_model m);

/*
 * Busy power of one CPU at OPP index `opp` of its cluster: em -> em_power_mw; costs ->
 * cost_cpu_busy (0 when the platform has no costs). 0 for a CPU or OPP out of range.
 */
double power_cpu_busy(const struct platform *p, enum power_model m, int cpu, int opp);

/*
 * Idle power of one CPU in idle state `idle_idx` of its cluster. -1 is active idle (the CPU runs
 * nothing but entered no state): EAS v1 gives it the WFI entry, which LISA's 3-entry tables
 * fold into state 0, so -1 costs what state 0 costs. em -> 0.
 */
double power_cpu_idle(const struct platform *p, enum power_model m, int cpu, int idle_idx);

/*
 * Cluster-level power: busy while any CPU of the cluster is busy (at the cluster's OPP index
 * `opp`), idle state `idle_idx` otherwise (-1 as for power_cpu_idle). em -> 0.
 */
double power_cluster_busy(const struct platform *p, enum power_model m, int cluster, int opp);
double power_cluster_idle(const struct platform *p, enum power_model m, int cluster, int idle_idx);

/*
 * Hindsight idle choice for an idle interval of idle_ns: the deepest (highest index) state whose
 * target residency fits, i.e. target_residency_us * 1000 <= idle_ns. WFI, index 0, always fits.
 * Cluster-level states are candidates only when cluster_all_idle (every CPU of the cluster idle
 * for the whole interval). Returns 0 when the cluster has no idle states.
 */
int power_pick_idle_state(const struct plat_cluster *c, u64 idle_ns, bool cluster_all_idle);

/* The unit of every power above: "mW" for em and wattson, p->cost_unit for costs. Static or p's
 * storage. */
const char *power_unit(const struct platform *p, enum power_model m);

#endif
