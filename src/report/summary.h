/*
 * summary.h - the 80-column text summary of a run, in the plain style kernel developers paste
 * into a mailing-list reply: one block per cpufreq policy (OPP residency with a bar, average
 * frequency, transitions, busy time), energy per cluster and in total, task delay, and the
 * uclamp static key and clamping figures.
 */
#ifndef GOVSIM_REPORT_SUMMARY_H
#define GOVSIM_REPORT_SUMMARY_H

#include <stdio.h>

#include "core/result.h"

/* Governor efficiency against the baselines (govsim run --baselines): where the run's energy
 * and (work timing) response p95 fall between powersave (0%) and performance (100%); a
 * baseline whose two ends are equal is named degenerate instead. */
struct summary_baselines {
	bool present;
	double powersave_energy, performance_energy;
	double powersave_delay_s, performance_delay_s;
	double powersave_response_p95_s, performance_response_p95_s; /* work timing */
};

/* Write the summary of r to out. `baselines` may be NULL. */
void report_summary(FILE *out, const struct run_result *r, const struct summary_baselines *b);

/* Total delay over the run's tasks, and the worst slice with its task (NULL when none). */
double report_total_delay(const struct run_result *r, const struct run_task_result **worst);

/* Position of x between lo (0%) and hi (100%); NAN when lo == hi. */
double report_position(double x, double lo, double hi);

#endif
