/*
 * test_platform_plot.c - `govsim platforms plot`: the series drawn for a model, read back from the
 * figure and held against the model's numbers computed by hand.
 *
 * Checks: on tensor, policy 6's active curve ends at (2802 MHz, 1942.89 mW) (cpu_1d.csv); policy
 * 0's default-dependency curve starts at its row with the smallest dep_freq, (300000, p4 400000)
 * active 21.84; the 2D family has one line per dependency (14 p4 + 17 p6 frequencies = 31); the
 * efficiency points are power / capacity at the OPP (1942.89 / 1024, em 2030 / 1024); a model
 * without curves draws its em power. Does not check: pixels (test_plot.c covers drawing).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/platform_plot.h"

static const struct plot_series *find(const struct plot *pl, int panel, const char *name)
{
	for (size_t i = 0; i < plot_nr_series(pl); i++) {
		const struct plot_series *s = plot_series_at(pl, i);
		if (s->panel == panel && strcmp(s->name, name) == 0)
			return s;
	}
	fail_msg("no series '%s' in panel %d", name, panel);
	return NULL;
}

static struct platform *load(const char *name)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p));

	assert_non_null(p);
	if (platform_load(name, p, &err))
		fail_msg("%s", err.msg);
	return p;
}

static void test_tensor(void **state)
{
	struct platform *p = load("tensor");
	struct plot *pl = platform_plot_new(p);
	const struct plot_series *s;
	int family = 0;
	(void)state;

	assert_non_null(pl);
	s = find(pl, 0, "policy6 active");
	assert_int_equal(s->n, 17);
	assert_true(s->x[16] == 2802.0);
	assert_true(s->y[16] == 1942.89);
	s = find(pl, 0, "policy0 active (default dep)");
	assert_true(s->x[0] == 300.0);
	assert_true(s->y[0] == 21.84);
	s = find(pl, 0, "policy0 static");
	assert_true(s->y[0] == 3.73);
	for (size_t i = 0; i < plot_nr_series(pl); i++)
		family += strcmp(plot_series_at(pl, i)->name, "2D family") == 0;
	assert_int_equal(family, 31);
	s = find(pl, 1, "policy6 wattson");
	assert_true(s->x[16] == 1024.0);
	assert_true(s->y[16] == 1942.89 / 1024.0);
	s = find(pl, 1, "policy6 em");
	assert_true(s->y[16] == 2030.0 / 1024.0);
	plot_free(pl);
	free(p);
}

static void test_without_curves(void **state)
{
	struct platform *p = load("hikey960");
	struct plot *pl = platform_plot_new(p);
	const struct plot_series *s;
	(void)state;

	assert_non_null(pl);
	/* hikey960 A73 at 2362000, 1100 mV: 550 * 1100^2 * 2362 / 1e9 = 1571 mW */
	s = find(pl, 0, "policy4 em");
	assert_true(s->y[4] == 1571.0);
	assert_int_equal(plot_nr_series(pl), 4); /* em power and em efficiency per cluster */
	plot_free(pl);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tensor),
		cmocka_unit_test(test_without_curves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
