/* tune_plot.c - the figure of `govsim tune --plot` from plain arrays; see tune_plot.h. */
#include "report/tune_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

const char *report_metric_unit(const char *metric, const char *energy_unit)
{
	static const char *const times[] = {"latency_", "response_", "lateness_", "busy", "span",
					    "delay", "max_delay", "runtime", NULL};

	if (strncmp(metric, "energy", 6) == 0)
		return energy_unit;
	for (int i = 0; times[i]; i++)
		if (strncmp(metric, times[i], strlen(times[i])) == 0)
			return "s";
	if (strcmp(metric, "avg_power") == 0)
		return "W";
	if (strncmp(metric, "avg_freq", 8) == 0)
		return "kHz";
	if (strcmp(metric, "throughput") == 0)
		return "1/s";
	if (strcmp(metric, "stretch") == 0)
		return "ratio";
	return "count";
}

const char *report_vary_unit(const char *key, bool cgroup)
{
	static const char *const suffix[][2] = {
		{"_us", "us"}, {"_ms", "ms"}, {"_ns", "ns"}, {"_khz", "kHz"}, {"_pct", "%"}, {"hz", "Hz"},
	};

	if (cgroup)
		return "%";
	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if (ends_with(key, suffix[i][0]))
			return suffix[i][1];
	if (strstr(key, "uclamp") || strstr(key, "clamp") || strstr(key, "util"))
		return "0..1024";
	return "value";
}

/* Decades: the largest |value| at least 100 times the smallest non-zero one. */
static bool spans_decades(const double *y, size_t n, double limit)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i <= n; i++) {
		double v = i < n ? y[i] : limit;
		if (!isfinite(v) || v == 0)
			continue;
		lo = fmin(lo, fabs(v));
		hi = fmax(hi, fabs(v));
	}
	return isfinite(lo) && hi >= 100 * lo;
}

static int add_panel(struct plot *p, const struct report_tune_plot *t, int k)
{
	const struct report_tune_panel *tp = &t->panels[k];
	double lx[2] = {t->x[0], t->x[t->n - 1]}, ly[2] = {tp->limit, tp->limit};
	bool constraint = isfinite(tp->limit), legend = k == 0 || (k == 1 && !isfinite(t->panels[0].limit));
	int panel = plot_add_panel(p, PLOT_PANEL_XY, tp->title);

	if (panel < 0)
		return panel;
	plot_set_axis(p, panel, PLOT_AXIS_X, t->x_label, NAN, NAN, 0);
	plot_set_axis(p, panel, PLOT_AXIS_Y, tp->y_label, NAN, NAN, 0);
	plot_set_axis_log(p, panel, PLOT_AXIS_Y,
			  spans_decades(tp->y, t->n, constraint ? tp->limit : NAN));
	if (plot_add_series(p, panel, constraint ? "worst trace" : tp->title, PLOT_STEP,
			    constraint && !legend ? PLOT_F_NOLEGEND : 0, constraint ? 1 : 0, t->x,
			    tp->y, t->n) < 0)
		return GS_ENOMEM;
	if (constraint && plot_add_series(p, panel, "limit", PLOT_LINE,
					  PLOT_F_DASHED | (legend ? 0u : PLOT_F_NOLEGEND), 3, lx, ly,
					  2) < 0)
		return GS_ENOMEM;
	plot_set_axis(p, panel, PLOT_AXIS_Y2, "feasible (0 or 1)", 0, 1, 1);
	if (plot_add_series(p, panel, "feasible (every constraint, every trace)", PLOT_STEP,
			    PLOT_F_FILL | PLOT_F_RIGHT | PLOT_F_THIN | (k ? PLOT_F_NOLEGEND : 0u), 2,
			    t->x, t->feasible, t->n) < 0)
		return GS_ENOMEM;
	if (isfinite(t->answer_x))
		plot_add_xmark(p, panel, t->answer_x, t->answer_label ? t->answer_label : "answer");
	return 0;
}

struct plot *report_tune_plot(const struct report_tune_plot *t)
{
	struct plot *p;

	if (!t->n || t->nr_panels < 1 || t->nr_panels > PLOT_MAX_PANELS)
		return NULL;
	p = plot_new(t->title, t->subtitle);
	if (!p)
		return NULL;
	plot_set_size(p, 420 * t->nr_panels + 200, 520);
	for (int k = 0; k < t->nr_panels; k++)
		if (add_panel(p, t, k) < 0) {
			plot_free(p);
			return NULL;
		}
	return p;
}
