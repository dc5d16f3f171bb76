/*
 * tune_plot.h - the figure of `govsim tune --plot`: the objective and each constraint against
 * the varied value, from plain arrays (the search itself is src/tune/).
 *
 * One XY panel per entry of panels[]: the values at the points evaluated (a step each, in
 * value order), a constraint's limit as a dashed line, the feasible values shaded on a right
 * axis (0 or 1), and the answer as a dashed vertical line labelled in every panel. A panel whose
 * values (with its limit) span two decades or more, e.g. a +20 % limit under +23,821 %, gets a
 * symmetric log y axis (plot_set_axis_log), so the limit stays visible. Axis labels carry
 * their units (report_metric_unit, report_vary_unit).
 */
#ifndef GOVSIM_REPORT_TUNE_PLOT_H
#define GOVSIM_REPORT_TUNE_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/plot.h"

struct report_tune_panel {
	const char *title;   /* the objective or the constraint as written */
	const char *y_label; /* with its unit: "energy (J)", "response_p95 (% change from base)" */
	const double *y;     /* n values, in x order; NAN: none */
	double limit;        /* a constraint's limit in y's unit; NAN for the objective */
};

struct report_tune_plot {
	const char *title, *subtitle;
	const char *x_label;     /* the varied key with its unit */
	size_t n;                /* points, in increasing x */
	const double *x, *feasible; /* feasible[i]: 1 or 0 */
	int nr_panels;           /* 1..PLOT_MAX_PANELS */
	struct report_tune_panel panels[PLOT_MAX_PANELS];
	double answer_x;         /* NAN: no answer to mark */
	const char *answer_label;
};

/* The figure, PLOT_WIDTH wide per 3 panels (420 px a panel + 200); NULL when out of memory or
 * for no point or panel. */
struct plot *report_tune_plot(const struct report_tune_plot *t);

/* The unit of a tune metric's value: "J" (energy, energy_clusterN: `energy_unit`, the runs'),
 * "s" (times), "W", "kHz" (avg_freq_policyN), "1/s" (throughput), "ratio" (stretch), "count". */
const char *report_metric_unit(const char *metric, const char *energy_unit);

/* The unit of a varied value: from the key's suffix (_us, _ms, _ns, _khz, _pct), "%" for a
 * cgroup's cpu.uclamp.*, "0..1024" for a clamp or util, else "value". */
const char *report_vary_unit(const char *key, bool cgroup);

#endif
