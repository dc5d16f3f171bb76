/*
 * test_report_groups.c - the report's cross-run figures when the runs replay different traces
 * (src/report/report.c).
 *
 * Checks: runs of two traces whose energies differ a hundredfold, given interleaved
 * (A, B, A, B): the compare figure states each run relative to the first run of its own trace
 * (and platform), never across traces, as a percentage of that run so both groups show on one
 * axis (A: 0.4 J, 0.6 J -> 100, 150 "ref", "+50.0%"; B: 40 J, 20 J -> 100, 50 "ref",
 * "-50.0%"; delays likewise, worked by hand below); the energy figure gives each group a panel
 * of its own, so each has its own y scale and holds only its runs. One trace alone keeps the
 * absolute bars labelled against the first run.
 * Does not check: how the figures look, or the HTML page (tests/golden/report_groups.sh).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"
#include "report/report.h"

static struct run_task_result tasks[4][1];

/* run i: trace A (even i) or B (odd i); energy e (cluster0 3/4 of it, cluster1 1/4), delay d */
static void make_run(struct run_result *r, int i, double e, double d)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->trace, sizeof(r->trace), "traces/%s/trace.txt", i % 2 ? "big" : "small");
	snprintf(r->platform, sizeof(r->platform), "made-up");
	snprintf(r->governor, sizeof(r->governor), "schedutil");
	snprintf(r->power_unit, sizeof(r->power_unit), "J");
	r->span_s = 1.0;
	r->nr_clusters = 2;
	for (int c = 0; c < 2; c++) {
		r->pol[c].policy = c ? 4 : 0;
		r->pol[c].cluster = c;
	}
	r->energy_cluster[0] = 0.75 * e;
	r->energy_cluster[1] = 0.25 * e;
	r->energy_total = e;
	tasks[i][0] = (struct run_task_result){.pid = 10, .delay_s = d};
	snprintf(tasks[i][0].comm, sizeof(tasks[i][0].comm), "t");
	r->nr_tasks = 1;
	r->tasks = tasks[i];
}

static void make_runs(struct run_result runs[4])
{
	make_run(&runs[0], 0, 0.4, 2.0);  /* A */
	make_run(&runs[1], 1, 40.0, 0.2); /* B */
	make_run(&runs[2], 2, 0.6, 1.0);  /* A: +50 % energy, -50 % delay */
	make_run(&runs[3], 3, 20.0, 0.3); /* B: -50 % energy, +50 % delay */
}

static const struct plot_series *series_in(const struct plot *p, int panel, const char *name)
{
	for (size_t i = 0; i < plot_nr_series(p); i++) {
		const struct plot_series *s = plot_series_at(p, i);
		if (s->panel == panel && strncmp(s->name, name, strlen(name)) == 0)
			return s;
	}
	return NULL;
}

static void assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("got %.12g, want %.12g", got, want);
}

static void test_compare_relative_within_trace(void **state)
{
	struct run_result runs[4];
	s64 ids[4] = {1, 2, 3, 4};
	const struct plot_series *e, *d;
	struct plot *p;
	(void)state;

	make_runs(runs);
	p = report_compare_plot(runs, ids, 4);
	assert_non_null(p);
	assert_int_equal(plot_nr_series(p), 2);
	e = plot_series_at(p, 0);
	d = plot_series_at(p, 1);
	assert_int_equal(e->n, 4);
	/* shown A1, A3, B2, B4 */
	assert_near(e->y[0], 100);
	assert_near(e->y[1], 150); /* 0.6 / 0.4 */
	assert_near(e->y[2], 100);
	assert_near(e->y[3], 50); /* 20 / 40 */
	assert_string_equal(e->labels[0], "0.4 J (ref)");
	assert_string_equal(e->labels[1], "0.6 J (+50.0%)");
	assert_string_equal(e->labels[2], "40 J (ref)");
	assert_string_equal(e->labels[3], "20 J (-50.0%)");
	assert_near(d->y[1], 50);  /* 1.0 / 2.0 */
	assert_near(d->y[3], 150); /* 0.3 / 0.2 */
	assert_string_equal(d->labels[2], "0.2 s (ref)");
	assert_string_equal(d->labels[3], "0.3 s (+50.0%)");
	plot_free(p);

	/* one trace: absolute bars, relative labels against the first run */
	runs[1] = runs[2];
	p = report_compare_plot(runs, ids, 2);
	assert_non_null(p);
	e = plot_series_at(p, 0);
	assert_near(e->y[0], 0.4);
	assert_near(e->y[1], 0.6);
	assert_string_equal(e->labels[1], "0.6 J (+50.0%)");
	plot_free(p);
}

static void test_energy_panel_per_trace(void **state)
{
	struct run_result runs[4];
	s64 ids[4] = {1, 2, 3, 4};
	const struct plot_series *s;
	struct plot *p;
	(void)state;

	make_runs(runs);
	p = report_energy_plot(runs, ids, 4);
	assert_non_null(p);
	s = series_in(p, 0, "cluster0");
	assert_non_null(s);
	assert_int_equal(s->n, 2); /* A's runs only: 3/4 of 0.4 and of 0.6 */
	assert_near(s->y[0], 0.3);
	assert_near(s->y[1], 0.45);
	assert_string_equal(s->labels[1], "0.6 J");
	s = series_in(p, 1, "cluster1");
	assert_non_null(s);
	assert_int_equal(s->n, 2); /* B's: 1/4 of 40 and of 20 */
	assert_near(s->y[0], 10);
	assert_near(s->y[1], 5);
	assert_null(series_in(p, 2, "cluster0"));
	plot_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_relative_within_trace),
		cmocka_unit_test(test_energy_panel_per_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
