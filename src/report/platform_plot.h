/*
 * platform_plot.h - the picture of a platform model people draw when they choose clamp values:
 * power against frequency per policy, and energy per unit of work at each OPP across clusters.
 *
 * Panel 0, "power vs frequency": x the OPP frequency (MHz), y mW. Per policy: with Wattson curves,
 * one CPU's active power (solid), idle0 power (dashed) and the policy's static power (thin); a 2D
 * policy draws its active power at the default dependency (the smallest dep_freq, solid) and one
 * thin line per dependency frequency (the family, not in the legend). Without curves, the em power.
 * Panel 1, "efficiency": x the capacity at the OPP (the uclamp scale, 0..1024), y the power per
 * unit of capacity, mW / capacity = energy per unit of work: Wattson active (at the default
 * dependency for 2D policies) solid, the em power dashed; one line per cluster, so clusters can
 * be compared where their capacities overlap.
 */
#ifndef GOVSIM_REPORT_PLATFORM_PLOT_H
#define GOVSIM_REPORT_PLATFORM_PLOT_H

#include "power/platform.h"
#include "report/plot.h"

/* The figure for platform p; NULL when out of memory. Free with plot_free(). */
struct plot *platform_plot_new(const struct platform *p);

#endif
