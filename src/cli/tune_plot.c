/*
 * tune_plot.c - `govsim tune --plot FILE`: the search's points as the plain arrays of
 * report/tune_plot.h (the objective and each constraint's worst trace against the varied
 * value, the feasible points, the answer), drawn to PNG or SVG by the name.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/tune_cli.h"
#include "power/power.h"
#include "report/tune_plot.h"

struct tune_arrays {
	double *x, *feasible, *y[PLOT_MAX_PANELS];
	char x_label[128], y_label[PLOT_MAX_PANELS][256];
};

static void arrays_free(struct tune_arrays *a)
{
	free(a->x);
	free(a->feasible);
	for (int k = 0; k < PLOT_MAX_PANELS; k++)
		free(a->y[k]);
}

/* The energy unit of the runs: J, or the platform's cost unit under --power-model costs. */
static const char *energy_unit(const struct tune_cli *t)
{
	return t->o.sim.power_model == POWER_MODEL_COSTS && t->o.plat.cost_unit[0]
		       ? t->o.plat.cost_unit
		       : "J";
}

/* A constraint's panel: the worst trace's change (% or a difference from its baseline) or
 * value, times in ms when not relative. */
static void constraint_panel(const struct tune_cli *t, int c, const size_t *order,
			     struct tune_arrays *a, struct report_tune_panel *tp, int k)
{
	const struct tune_constraint *con = &t->cons[c];
	bool time = tune_metric_is_time(&con->metric);
	double scale = !con->th.relative && time ? 1e3 : 1;
	const char *unit = time ? "ms" : report_metric_unit(con->metric.name, energy_unit(t));

	for (size_t i = 0; i < t->search.n; i++) {
		double change;
		tune_worst_trace(t, order[i], c, &change);
		a->y[k][i] = change * scale;
	}
	if (con->th.relative)
		snprintf(a->y_label[k], sizeof(a->y_label[k]), "%s (%% change%s)", con->metric.name,
			 con->has_base ? " from its baseline" : "");
	else
		snprintf(a->y_label[k], sizeof(a->y_label[k]), "%s (%s%s)", con->metric.name,
			 con->has_base ? "difference, " : "", unit);
	tp->title = con->text;
	tp->y_label = a->y_label[k];
	tp->y = a->y[k];
	tp->limit = con->th.value * scale;
}

static int draw(const struct tune_cli *t, const char *title, const char *sub, const char *path,
		struct gs_error *err)
{
	size_t *order = tune_sorted_points(t), len = strlen(path);
	struct report_tune_plot d = {.title = title, .subtitle = sub, .n = t->search.n};
	struct tune_arrays a = {0};
	char answer[320], v[256];
	struct plot *p = NULL;
	int rc = GS_ENOMEM;

	a.x = calloc(d.n + 1, sizeof(double));
	a.feasible = calloc(d.n + 1, sizeof(double));
	for (int k = 0; k < t->moff + t->nr_cons && k < PLOT_MAX_PANELS; k++)
		if (!(a.y[k] = calloc(d.n + 1, sizeof(double))))
			goto out;
	if (!order || !a.x || !a.feasible)
		goto out;
	for (size_t i = 0; i < d.n; i++) {
		a.x[i] = tune_vary_value(&t->vary[0], t->search.pts[order[i]].k[0]);
		a.feasible[i] = t->search.pts[order[i]].feasible;
	}
	snprintf(a.x_label, sizeof(a.x_label), "%s (%s)", t->vary[0].key,
		 report_vary_unit(t->vary[0].key, strncmp(t->vary[0].prefix, "cgroup", 6) == 0));
	d.x = a.x;
	d.feasible = a.feasible;
	d.x_label = a.x_label;
	if (t->moff) {
		for (size_t i = 0; i < d.n; i++)
			a.y[0][i] = t->search.pts[order[i]].objective;
		snprintf(a.y_label[0], sizeof(a.y_label[0]), "%s (%s)", t->objective.text,
			 report_metric_unit(t->objective.name, energy_unit(t)));
		d.panels[0] = (struct report_tune_panel){t->objective.text, a.y_label[0], a.y[0], NAN};
	}
	for (int c = 0; c < t->nr_cons; c++)
		constraint_panel(t, c, order, &a, &d.panels[t->moff + c], t->moff + c);
	d.nr_panels = t->moff + t->nr_cons;
	d.answer_x = NAN;
	if (t->search.best >= 0) {
		tune_point_text(t, &t->search.pts[t->search.best], v, sizeof(v));
		snprintf(answer, sizeof(answer), "%s: %s", t->search.feasible ? "answer" : "best, infeasible", v);
		d.answer_x = tune_vary_value(&t->vary[0], t->search.pts[t->search.best].k[0]);
		d.answer_label = answer;
	}
	if (!(p = report_tune_plot(&d)))
		goto out;
	if (len > 4 && strcmp(path + len - 4, ".svg") == 0)
		rc = plot_write_svg(p, path, err);
	else
		rc = plot_write_png(p, path, err);
out:
	if (rc == GS_ENOMEM && !err->code)
		gs_error_set(err, GS_ENOMEM, "out of memory");
	plot_free(p);
	free(order);
	arrays_free(&a);
	return rc < 0 ? rc : 0;
}

int tune_plot(const struct tune_cli *t, const char *path)
{
	char title[640], sub[1024];
	struct gs_error err;
	char v[256];

	gs_error_clear(&err);
	snprintf(title, sizeof(title), "govsim tune: %s %s",
		 !t->moff ? "the" : t->goal == TUNE_MAXIMIZE ? "the greatest" : "the least",
		 t->moff ? t->objective.text : t->goal == TUNE_FIND_SMALLEST ? "smallest value"
									  : "largest value");
	if (t->search.best >= 0)
		tune_point_text(t, &t->search.pts[t->search.best], v, sizeof(v));
	snprintf(sub, sizeof(sub), "%s; %s: %s", t->vary[0].text,
		 t->search.feasible ? "answer" : "none feasible, best found",
		 t->search.best >= 0 ? v : "-");
	if (draw(t, title, sub, path, &err))
		return cli_report(&err);
	return EXIT_OK;
}
