/*
 * tune_plot.c - `govsim tune --plot FILE`: one panel for the objective and one per constraint,
 * each against the varied value (the points evaluated, in value order, a step each: a
 * staircase holds between them), with the feasible values
 * shaded (a filled step on the right axis: 1 from a feasible point to the next point evaluated)
 * and each constraint's limit as a dashed line. Drawn by report/plot.h (cairo), PNG or SVG.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/tune_cli.h"
#include "report/plot.h"

struct tune_series {
	size_t n;
	double *x, *feasible, *y;
};

/* The shading of the feasible values and its axis, in panel `panel`. */
static int add_feasible(struct plot *p, int panel, const struct tune_series *s, bool legend)
{
	plot_set_axis(p, panel, PLOT_AXIS_Y2, "feasible", 0, 1, 1);
	return plot_add_series(p, panel, "feasible (every constraint, every trace)", PLOT_STEP,
			       PLOT_F_FILL | PLOT_F_RIGHT | PLOT_F_THIN |
				       (legend ? 0u : PLOT_F_NOLEGEND),
			       2, s->x, s->feasible, s->n);
}

static int objective_panel(struct plot *p, const struct tune_cli *t, struct tune_series *s,
			   const size_t *order)
{
	int panel = plot_add_panel(p, PLOT_PANEL_XY, t->objective.text);

	if (panel < 0)
		return panel;
	for (size_t i = 0; i < s->n; i++)
		s->y[i] = t->search.pts[order[i]].objective;
	plot_set_axis(p, panel, PLOT_AXIS_X, t->vary[0].key, NAN, NAN, 0);
	plot_set_axis(p, panel, PLOT_AXIS_Y, t->objective.text, NAN, NAN, 0);
	if (plot_add_series(p, panel, t->objective.text, PLOT_STEP, 0, 0, s->x, s->y, s->n) < 0)
		return GS_ENOMEM;
	return add_feasible(p, panel, s, true);
}

static int constraint_panel(struct plot *p, const struct tune_cli *t, int c,
			    struct tune_series *s, const size_t *order, bool legend)
{
	const struct tune_constraint *con = &t->cons[c];
	double scale = !con->th.relative && tune_metric_is_time(&con->metric) ? 1e3 : 1;
	double lx[2] = {s->x[0], s->x[s->n - 1]}, ly[2];
	char axis[512];
	int panel = plot_add_panel(p, PLOT_PANEL_XY, con->text);

	if (panel < 0)
		return panel;
	for (size_t i = 0; i < s->n; i++) {
		double change;
		tune_worst_trace(t, order[i], c, &change);
		s->y[i] = change * scale;
	}
	ly[0] = ly[1] = con->th.value * scale;
	snprintf(axis, sizeof(axis), "%s (%s)", con->metric.name,
		 con->th.relative ? "% change" : scale != 1 ? "ms" : "value");
	plot_set_axis(p, panel, PLOT_AXIS_X, t->vary[0].key, NAN, NAN, 0);
	plot_set_axis(p, panel, PLOT_AXIS_Y, axis, NAN, NAN, 0);
	if (plot_add_series(p, panel, "worst trace", PLOT_STEP, legend ? 0u : PLOT_F_NOLEGEND, 1,
			    s->x, s->y, s->n) < 0 ||
	    plot_add_series(p, panel, "limit", PLOT_LINE,
			    PLOT_F_DASHED | (legend ? 0u : PLOT_F_NOLEGEND), 3, lx, ly, 2) < 0)
		return GS_ENOMEM;
	return add_feasible(p, panel, s, legend && !t->moff);
}

static int draw(struct plot *p, const struct tune_cli *t, const char *path, struct gs_error *err)
{
	size_t *order = tune_sorted_points(t);
	struct tune_series s = {.n = t->search.n};
	size_t len = strlen(path);
	int rc = GS_ENOMEM;

	s.x = calloc(s.n + 1, sizeof(double));
	s.y = calloc(s.n + 1, sizeof(double));
	s.feasible = calloc(s.n + 1, sizeof(double));
	if (!order || !s.x || !s.y || !s.feasible)
		goto out;
	for (size_t i = 0; i < s.n; i++) {
		s.x[i] = tune_vary_value(&t->vary[0], t->search.pts[order[i]].k[0]);
		s.feasible[i] = t->search.pts[order[i]].feasible;
	}
	plot_set_size(p, 420 * (t->moff + t->nr_cons) + 200, 520);
	if (t->moff && (rc = objective_panel(p, t, &s, order)) < 0)
		goto out;
	for (int c = 0; c < t->nr_cons; c++)
		if ((rc = constraint_panel(p, t, c, &s, order, c == 0)) < 0)
			goto out;
	if (len > 4 && strcmp(path + len - 4, ".svg") == 0)
		rc = plot_write_svg(p, path, err);
	else
		rc = plot_write_png(p, path, err);
out:
	if (rc == GS_ENOMEM && !err->code)
		gs_error_set(err, GS_ENOMEM, "out of memory");
	free(order);
	free(s.x);
	free(s.y);
	free(s.feasible);
	return rc < 0 ? rc : 0;
}

int tune_plot(const struct tune_cli *t, const char *path)
{
	char title[640], sub[1024];
	struct gs_error err;
	struct plot *p;
	char v[256];

	gs_error_clear(&err);
	snprintf(title, sizeof(title), "govsim tune: %s %s", t->moff ? "the least" : "the",
		 t->moff ? t->objective.text : t->goal == TUNE_FIND_SMALLEST ? "smallest value"
									  : "largest value");
	if (t->search.best >= 0)
		tune_point_text(t, &t->search.pts[t->search.best], v, sizeof(v));
	snprintf(sub, sizeof(sub), "%s; %s: %s", t->vary[0].text,
		 t->search.feasible ? "answer" : "none feasible, best found",
		 t->search.best >= 0 ? v : "-");
	p = plot_new(title, sub);
	if (!p)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	if (draw(p, t, path, &err)) {
		plot_free(p);
		return cli_report(&err);
	}
	plot_free(p);
	return EXIT_OK;
}
