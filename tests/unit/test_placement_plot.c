/*
 * test_placement_plot.c - report's per-CPU placement timeline (src/report/placement_plot.c)
 * from a hand-made run_result.
 *
 * Checks, by hand from the slices given: one series per task (by runtime: light 18 ms before
 * hog 10 ms), named comm-pid; each series draws exactly its slices as segments (two finite
 * points each, a NAN gap between slices: 3 + 1 = 4 segments for 4 slices) on its CPU's row, at
 * the slices' times; light's migration 4 -> 0 is a change of row; beyond the palette's
 * PLOT_PALETTE_SIZE - 1 tasks the ones of least runtime share "other tasks"; no slices: no plot;
 * the PNG is written at 1200 x 600 px; slices of microseconds in a run of seconds are still
 * blocks at least 3 px long and high.
 * Does not check: how it looks (reviewed by eye).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/plot.h"
#include "report/report.h"

static struct run_place_slice slices4[] = {
	{0.000, 0.010, 1, 4},
	{0.005, 0.015, 2, 5},
	{0.016, 0.020, 1, 0},
	{0.021, 0.025, 1, 0},
};

static void make_run(struct run_result *r, struct run_task_result *tasks, int nr_tasks,
		     struct run_place_slice *sl, size_t n)
{
	run_result_init(r);
	r->nr_cpus = 8;
	r->span_s = 0.03;
	r->tasks = tasks;
	r->nr_tasks = nr_tasks;
	r->slices = sl;
	r->nr_slices = n;
}

static size_t segments(const struct plot_series *s)
{
	size_t n = 0;
	for (size_t i = 0; i + 1 < s->n; i++)
		n += isfinite(s->y[i]) && isfinite(s->y[i + 1]);
	return n;
}

static void test_slices_are_segments(void **state)
{
	struct run_task_result tasks[2] = {{.pid = 1, .comm = "light"}, {.pid = 2, .comm = "hog"}};
	struct run_result r;
	struct plot *pl;
	const struct plot_series *light, *hog;
	(void)state;

	make_run(&r, tasks, 2, slices4, 4);
	pl = report_placement_plot(&r, 7);
	assert_non_null(pl);
	assert_int_equal(plot_nr_series(pl), 2);
	light = plot_series_at(pl, 0);
	hog = plot_series_at(pl, 1);
	assert_string_equal(light->name, "light-1");
	assert_string_equal(hog->name, "hog-2");
	assert_int_equal(segments(light), 3);
	assert_int_equal(segments(hog), 1);
	assert_int_equal(segments(light) + segments(hog), 4); /* = the number of slices */
	/* light: CPU4 from 0 to 10 ms, then (migrated) CPU0 16-20 ms and 21-25 ms */
	assert_int_equal(light->n, 9);
	assert_true(light->y[0] == 4 && light->y[1] == 4 && isnan(light->y[2]));
	assert_true(light->y[3] == 0 && light->y[4] == 0 && light->y[6] == 0);
	assert_true(light->x[0] == 0.000 && light->x[1] == 0.010);
	assert_true(light->x[3] == 0.016 && light->x[4] == 0.020);
	assert_true(hog->y[0] == 5 && hog->x[0] == 0.005 && hog->x[1] == 0.015);
	plot_free(pl);
}

/* Slices of 20 us in a 2-s run are 0.01 px long at 1200 px: each is still drawn as a block at
 * least 3 px long and 3 px high (the named tasks' and the others'), one per slice. */
static void test_segments_visible(void **state)
{
	struct run_task_result tasks[12];
	struct run_place_slice sl[24];
	struct plot_layout l;
	struct run_result r;
	struct plot *pl;
	(void)state;

	for (int i = 0; i < 12; i++) {
		tasks[i] = (struct run_task_result){.pid = i + 1};
		snprintf(tasks[i].comm, sizeof(tasks[i].comm), "t%d", i);
	}
	for (int i = 0; i < 24; i++)
		sl[i] = (struct run_place_slice){0.08 * i, 0.08 * i + 20e-6, i % 12 + 1, i % 8};
	make_run(&r, tasks, 12, sl, 24);
	r.span_s = 2.0;
	pl = report_placement_plot(&r, 1);
	assert_non_null(pl);
	assert_int_equal(plot_get_layout(pl, &l), 0);
	assert_int_equal(l.nr_segments, 24);
	assert_true(l.min_segment_w >= 3);
	assert_true(l.min_segment_h >= 3);
	plot_free(pl);
}

static void test_other_tasks(void **state)
{
	/* PLOT_PALETTE_SIZE + 1 tasks, task k runs (k + 1) ms on CPU k % 8: the two shortest
	 * (pids 0 and 1) share "other tasks" */
	enum { N = PLOT_PALETTE_SIZE + 1 };
	struct run_place_slice sl[N];
	struct run_task_result tasks[N];
	struct run_result r;
	struct plot *pl;
	const struct plot_series *other;
	(void)state;

	memset(tasks, 0, sizeof(tasks));
	for (int k = 0; k < N; k++) {
		sl[k] = (struct run_place_slice){0.001 * k, 0.001 * k + 0.001 * (k + 1), k, k % 8};
		tasks[k].pid = k;
		snprintf(tasks[k].comm, sizeof(tasks[k].comm), "t%d", k);
	}
	make_run(&r, tasks, N, sl, N);
	pl = report_placement_plot(&r, 1);
	assert_non_null(pl);
	assert_int_equal(plot_nr_series(pl), PLOT_PALETTE_SIZE);
	assert_string_equal(plot_series_at(pl, 0)->name, "t10-10"); /* the longest first */
	other = plot_series_at(pl, PLOT_PALETTE_SIZE - 1);
	assert_string_equal(other->name, "other tasks");
	assert_int_equal(segments(other), 2);
	assert_true(other->y[0] == 0 && other->y[3] == 1);
	plot_free(pl);
}

static void test_png_and_none(void **state)
{
	struct run_task_result tasks[2] = {{.pid = 1, .comm = "light"}, {.pid = 2, .comm = "hog"}};
	struct run_result r;
	struct plot *pl;
	struct gs_error err;
	char path[4096];
	FILE *f;
	unsigned char h[24];
	int fd;
	(void)state;

	snprintf(path, sizeof(path), "%s/placement-plot-XXXXXX", test_tmpdir());
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	make_run(&r, tasks, 2, slices4, 0);
	assert_null(report_placement_plot(&r, 1)); /* no slices (traced placement) */
	make_run(&r, tasks, 2, slices4, 4);
	pl = report_placement_plot(&r, 1);
	gs_error_clear(&err);
	assert_int_equal(plot_write_png(pl, path, &err), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(h, 1, sizeof(h), f), sizeof(h));
	fclose(f);
	unlink(path);
	assert_memory_equal(h + 1, "PNG", 3);
	assert_memory_equal(h + 12, "IHDR", 4);
	assert_int_equal((h[16] << 24 | h[17] << 16 | h[18] << 8 | h[19]), 1200);
	assert_int_equal((h[20] << 24 | h[21] << 16 | h[22] << 8 | h[23]), 600);
	plot_free(pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slices_are_segments),
		cmocka_unit_test(test_other_tasks),
		cmocka_unit_test(test_segments_visible),
		cmocka_unit_test(test_png_and_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
