/*
 * report.h - the figures of stored runs (`govsim report`), as PNG and SVG files drawn by
 * plot.h, and one self-contained HTML page with those figures and the summary tables.
 *
 * Figures, each written as NAME.png and NAME.svg into the output directory:
 *   run<N>_timeline_policy<P>  per run N and cpufreq policy P (named by its first CPU): the
 *                              emulated frequency (and the traced one when the trace has
 *                              cpu_frequency events), in MHz on the left axis; the utilization
 *                              the governor saw and the capacity at the emulated frequency on
 *                              the right axis (0..1024); time since the replay start in s
 *   run<N>_residency           per run: one panel per policy (the first PLOT_MAX_PANELS),
 *                              time at each OPP in s, with the share of the span above each
 *                              bar
 *   energy                     energy per cluster, stacked, one bar per run, total above it;
 *                              runs of several traces (or platforms) in a panel per group,
 *                              each with its own y scale
 *   compare                    only with two runs or more: energy and total task delay per
 *                              run, each labelled relative to the first run of its trace and
 *                              platform ("+12.3%"); with several groups the bars are percent
 *                              of that run, so each group has its own scale
 *   index.html                 with REPORT_HTML: every PNG embedded as base64 and the tables
 *                              (runs, energy, residency, policy figures, delay, uclamp)
 * The report reads only run_results (from the store); it never replays anything.
 */
#ifndef GOVSIM_REPORT_REPORT_H
#define GOVSIM_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "core/types.h"
#include "report/plot.h"
#include "core/result.h"

/* report_write() flags */
#define REPORT_HTML 0x1u /* also index.html */

/*
 * The figures as plots (plot_free() them); NULL when out of memory. `pol` is an index into
 * r->pol (0 .. r->nr_clusters - 1). runs[i] was stored as run ids[i]. The compare plot needs
 * n >= 2 (NULL otherwise).
 */
struct plot *report_timeline_plot(const struct run_result *r, s64 run_id, int pol);
struct plot *report_residency_plot(const struct run_result *r, s64 run_id);
/* --placement eas runs (run_result.slices): the per-CPU placement timeline (placement_plot.c);
 * NULL without slices or out of memory. */
struct plot *report_placement_plot(const struct run_result *r, s64 run_id);
struct plot *report_energy_plot(const struct run_result *runs, const s64 *ids, size_t n);
struct plot *report_compare_plot(const struct run_result *runs, const s64 *ids, size_t n);

/*
 * "+12.3%" for x against ref ("ref" when is_ref, "n/a" when ref is 0 or not finite), in buf.
 * Returns buf.
 */
char *report_relative(char *buf, size_t size, double x, double ref, bool is_ref);

/*
 * Write every figure of runs[0..n-1] (stored as ids[]) into `dir` (created if missing), as
 * PNG and SVG, and index.html with REPORT_HTML. `source` (may be NULL) names the database in
 * the page. *nr_files (may be NULL) counts the files written. GS_EIO / GS_ENOMEM on failure,
 * with the file in err; GS_EARG when n is 0.
 */
int report_write(const struct run_result *runs, const s64 *ids, size_t n, const char *dir,
		 unsigned flags, const char *source, size_t *nr_files, struct gs_error *err);

/*
 * The HTML page alone, written to out; the figures are read from `dir` (the PNG files
 * report_write() wrote) and embedded as data: URIs. Returns 0 or GS_EIO / GS_ENOMEM.
 */
int report_html(FILE *out, const struct run_result *runs, const s64 *ids, size_t n,
		const char *dir, const char *source, struct gs_error *err);

#endif
