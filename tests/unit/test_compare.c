/*
 * test_compare.c - the statistics and thresholds of `govsim compare` (src/report/compare.c).
 *
 * Checks: the harmonic mean against hand-computed values; Welch's t, degrees of freedom and
 * p-value against a worked example and against an independent reference (Simpson integration
 * of the Student t density, written here from its formula, not from GSL), including the
 * published critical value t(0.975, 10) = 2.228139; the constant-sample limits (and that
 * compare makes no claim when neither side has spread); the printed change from a base of 0
 * (no inf); matching runs trace by trace in hand-built run results; selector errors (the
 * metrics and the --fail-on thresholds themselves: test_metrics.c). Does not check the table layout (the golden test compare.sh does)
 * nor reading runs from a database (the store's tests do).
 */
#include "testutil.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

/* --- a slow, obvious reference for the two-sided p-value ----------------------------------- */

static double t_density(double x, double nu)
{
	double lc = lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * log(nu * M_PI);
	return exp(lc - (nu + 1) / 2 * log1p(x * x / nu));
}

/* P(|T| >= t) = 1 - 2 * integral_0^t f, by composite Simpson with 20000 intervals. */
static double ref_p_two_sided(double t, double nu)
{
	const int n = 20000;
	double h = t / n, sum = t_density(0, nu) + t_density(t, nu);

	for (int i = 1; i < n; i++)
		sum += t_density(i * h, nu) * (i % 2 ? 4 : 2);
	return 1 - 2 * (sum * h / 3);
}

/* --- harmonic mean ------------------------------------------------------------------------- */

static void test_hmean(void **state)
{
	const double a[] = {1, 2, 4};       /* 3 / (1 + 1/2 + 1/4) = 12/7 */
	const double b[] = {5, 5, 5, 5};    /* 5 */
	const double c[] = {40, 60};        /* the classic: 2 / (1/40 + 1/60) = 48 */
	const double z[] = {1, 0, 2};
	const double neg[] = {1, -2};
	(void)state;

	assert_float_equal(compare_hmean(a, 3), 12.0 / 7.0, 1e-12);
	assert_float_equal(compare_hmean(b, 4), 5.0, 1e-12);
	assert_float_equal(compare_hmean(c, 2), 48.0, 1e-12);
	assert_true(isnan(compare_hmean(z, 3)));
	assert_true(isnan(compare_hmean(neg, 2)));
	assert_true(isnan(compare_hmean(a, 0)));
}

static void test_stats(void **state)
{
	const double x[] = {2, 4, 4, 4, 5, 5, 7, 9}; /* mean 5, sum of squares 32, s^2 = 32/7 */
	struct compare_stats st;
	struct gs_error err = {0};
	(void)state;

	assert_int_equal(compare_stats_of(x, 8, &st, &err), 0);
	assert_int_equal(st.n, 8);
	assert_float_equal(st.amean, 5.0, 1e-12);
	assert_float_equal(st.sd, sqrt(32.0 / 7.0), 1e-12);
	assert_int_equal(compare_stats_of(x, 1, &st, &err), 0);
	assert_float_equal(st.amean, 2.0, 1e-12);
	assert_true(isnan(st.sd));
	assert_int_equal(compare_stats_of(x, 0, &st, &err), GS_EARG);
}

/* --- Welch --------------------------------------------------------------------------------- */

static void test_welch_worked(void **state)
{
	/* a: mean 3, s^2 2.5; b: mean 6, s^2 10. se^2 = 2.5/5 + 10/5 = 2.5, t = 3/sqrt(2.5),
	 * df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 = 5.882352941... */
	const double a[] = {1, 2, 3, 4, 5};
	const double b[] = {2, 4, 6, 8, 10};
	struct compare_welch w;
	struct gs_error err = {0};
	(void)state;

	assert_int_equal(compare_welch(a, 5, b, 5, &w, &err), 0);
	assert_float_equal(w.t, 3.0 / sqrt(2.5), 1e-12);
	assert_float_equal(w.df, 6.25 / 1.0625, 1e-12);
	assert_float_equal(w.p, ref_p_two_sided(w.t, w.df), 1e-7);
	/* and the reverse direction: same p, opposite t */
	assert_int_equal(compare_welch(b, 5, a, 5, &w, &err), 0);
	assert_float_equal(w.t, -3.0 / sqrt(2.5), 1e-12);
	assert_float_equal(w.p, ref_p_two_sided(3.0 / sqrt(2.5), 6.25 / 1.0625), 1e-7);
}

static void test_welch_critical_value(void **state)
{
	/* Equal sizes (6) and equal variances make df = 2(n - 1) = 10 exactly. x = {-1,-1,-1,1,1,1}
	 * has s^2 = 6/5; with b = x + d, t = d / sqrt(2 s^2 / 6). Choosing d so that t equals the
	 * table's t(0.975, 10) = 2.228139 gives p = 0.05. */
	const double tcrit = 2.228138852;
	double s2 = 6.0 / 5.0, d = tcrit * sqrt(2 * s2 / 6);
	double a[6] = {-1, -1, -1, 1, 1, 1}, b[6];
	struct compare_welch w;
	struct gs_error err = {0};
	(void)state;

	for (int i = 0; i < 6; i++)
		b[i] = a[i] + d;
	assert_int_equal(compare_welch(a, 6, b, 6, &w, &err), 0);
	assert_float_equal(w.df, 10.0, 1e-9);
	assert_float_equal(w.t, tcrit, 1e-9);
	assert_float_equal(w.p, 0.05, 1e-6);
}

static void test_welch_unequal(void **state)
{
	/* Unequal sizes and variances, checked against the reference integration only. */
	const double a[] = {19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0};
	const double b[] = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5,
			    20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3};
	double ma = 0, mb = 0, va = 0, vb = 0, t, df;
	struct compare_welch w;
	struct gs_error err = {0};
	(void)state;

	for (int i = 0; i < 10; i++)
		ma += a[i] / 10;
	for (int i = 0; i < 20; i++)
		mb += b[i] / 20;
	for (int i = 0; i < 10; i++)
		va += (a[i] - ma) * (a[i] - ma) / 9;
	for (int i = 0; i < 20; i++)
		vb += (b[i] - mb) * (b[i] - mb) / 19;
	t = (mb - ma) / sqrt(va / 10 + vb / 20);
	df = pow(va / 10 + vb / 20, 2) / (pow(va / 10, 2) / 9 + pow(vb / 20, 2) / 19);
	assert_int_equal(compare_welch(a, 10, b, 20, &w, &err), 0);
	assert_float_equal(w.t, t, 1e-10);
	assert_float_equal(w.df, df, 1e-9);
	assert_float_equal(w.p, ref_p_two_sided(fabs(t), df), 1e-7);
}

static void test_welch_limits(void **state)
{
	const double c1[] = {3, 3, 3}, c2[] = {3, 3}, c3[] = {4, 4};
	struct compare_welch w;
	struct gs_error err = {0};
	(void)state;

	assert_int_equal(compare_welch(c1, 3, c2, 2, &w, &err), 0);
	assert_float_equal(w.p, 1.0, 0);
	assert_int_equal(compare_welch(c1, 3, c3, 2, &w, &err), 0);
	assert_float_equal(w.p, 0.0, 0);
	assert_true(isinf(w.t) && w.t > 0);
	assert_int_equal(compare_welch(c1, 1, c3, 2, &w, &err), GS_EARG);
}

/* --- comparing hand-built runs ------------------------------------------------------------- */

static void fake_run(struct run_result *r, const char *sha, double energy, double freq_khz)
{
	run_result_init(r);
	snprintf(r->platform, sizeof(r->platform), "juno-r0");
	snprintf(r->power_model, sizeof(r->power_model), "em");
	snprintf(r->power_unit, sizeof(r->power_unit), "J");
	snprintf(r->trace_sha256, sizeof(r->trace_sha256), "%s", sha);
	r->span_s = 2.0;
	r->nr_clusters = 2;
	r->energy_cluster[0] = energy / 4;
	r->energy_cluster[1] = energy * 3 / 4;
	r->energy_total = energy;
	r->pol[0].policy = 0;
	r->pol[0].avg_freq_khz = freq_khz;
	r->pol[0].transitions = 10;
	r->pol[0].busy_s = 0.5;
	r->pol[1].policy = 1;
	r->pol[1].avg_freq_khz = 2 * freq_khz;
	r->pol[1].transitions = 5;
	r->pol[1].busy_s = 0.25;
}

/* A relative change from a base of 0 has no finite value: NAN, printed as "new", never inf. */
static void test_printed_change(void **state)
{
	(void)state;
	assert_float_equal(compare_printed_change(1.0, 2.0), 100.0, 1e-12);
	assert_float_equal(compare_printed_change(-2.0, -1.0), 50.0, 1e-12);
	assert_float_equal(compare_printed_change(0.0, 0.0), 0.0, 0);
	assert_true(isnan(compare_printed_change(0.0, 0.615)));
	assert_true(isnan(compare_printed_change(0.0, -1.0)));
	/* the threshold rule keeps the limit: 0 -> x crosses any '>+N%' */
	assert_true(isinf(metric_relative_change(0.0, 0.615)));
}

static void test_compare_runs(void **state)
{
	struct run_result base[3], nw[3];
	struct compare_table *t = malloc(sizeof(*t));
	const struct compare_metric *m;
	struct gs_error err = {0};
	(void)state;

	assert_non_null(t);
	fake_run(&base[0], "aa", 1.0, 500000);
	fake_run(&base[1], "bb", 2.0, 600000);
	fake_run(&base[2], "cc", 9.0, 700000); /* trace only in base: left out */
	fake_run(&nw[0], "aa", 1.5, 550000);
	fake_run(&nw[1], "bb", 2.5, 650000);
	fake_run(&nw[2], "dd", 7.0, 800000);   /* trace only in new: left out */

	assert_int_equal(compare_runs(base, 3, nw, 3, 0.95, t, &err), 0);
	assert_int_equal(t->nr_traces, 2);
	assert_int_equal(t->nr_base, 2);
	assert_int_equal(t->nr_new, 2);
	assert_int_equal(t->base_dropped, 1);
	assert_int_equal(t->new_dropped, 1);

	m = compare_find_metric(t, "energy");
	assert_non_null(m);
	assert_string_equal(m->unit, "J");
	assert_float_equal(m->base.amean, 1.5, 1e-12);
	assert_float_equal(m->new.amean, 2.0, 1e-12);
	assert_float_equal(m->base.hmean, 2.0 / (1.0 + 0.5), 1e-12);
	assert_float_equal(m->change_pct, 100.0 / 3.0, 1e-9);
	assert_true(m->tested);
	/* equal spreads (sd 0.7071 each), means 0.5 apart: t = 0.5 / sqrt(0.5/2 + 0.5/2) */
	assert_float_equal(m->welch.t, 0.5 / sqrt(0.5), 1e-12);
	assert_float_equal(m->welch.df, 2.0, 1e-12);
	assert_false(m->significant);

	m = compare_find_metric(t, "energy_cluster1");
	assert_non_null(m);
	assert_float_equal(m->base.amean, 1.5 * 3 / 4, 1e-12);
	m = compare_find_metric(t, "avg_power");
	assert_string_equal(m->unit, "W");
	assert_float_equal(m->new.amean, 1.0, 1e-12);
	m = compare_find_metric(t, "avg_freq_policy1");
	assert_string_equal(m->unit, "MHz");
	assert_float_equal(m->base.amean, 1100.0, 1e-9);
	m = compare_find_metric(t, "transitions");
	assert_float_equal(m->base.amean, 15.0, 0);
	/* identical in every run of both sides: no change, no spread, so no test (and no '*') */
	assert_float_equal(m->change_pct, 0.0, 0);
	assert_true(m->no_spread);
	assert_false(m->tested);
	assert_false(m->significant);
	m = compare_find_metric(t, "busy");
	assert_float_equal(m->base.amean, 0.75, 1e-12);
	assert_null(compare_find_metric(t, "energy_cluster2"));
	assert_null(compare_find_metric(t, "nonsense"));

	/* repeats of one trace per side, each side constant, the means apart: nothing to test
	 * the difference against (Welch's limit would say p = 0): no claim */
	{
		struct run_result rb[2], rn[2];
		fake_run(&rb[0], "aa", 1.0, 500000);
		fake_run(&rb[1], "aa", 1.0, 500000);
		fake_run(&rn[0], "aa", 1.5, 500000);
		fake_run(&rn[1], "aa", 1.5, 500000);
		assert_int_equal(compare_runs(rb, 2, rn, 2, 0.95, t, &err), 0);
		m = compare_find_metric(t, "energy");
		assert_true(m->no_spread);
		assert_false(m->tested);
		assert_false(m->significant);
		assert_float_equal(m->change_pct, 50.0, 1e-12);
		for (int i = 0; i < 2; i++) {
			run_result_release(&rb[i]);
			run_result_release(&rn[i]);
		}
	}

	/* one run per side: no test */
	assert_int_equal(compare_runs(base, 1, nw, 1, 0.95, t, &err), 0);
	m = compare_find_metric(t, "energy");
	assert_false(m->tested);
	assert_false(m->significant);
	assert_float_equal(m->change_pct, 50.0, 1e-12);

	/* em against wattson (both joules): the same energy estimated twice, compared */
	snprintf(nw[0].power_model, sizeof(nw[0].power_model), "wattson");
	snprintf(nw[1].power_model, sizeof(nw[1].power_model), "wattson");
	assert_int_equal(compare_runs(base, 2, nw, 2, 0.95, t, &err), 0);
	assert_float_equal(compare_find_metric(t, "energy")->new.amean, 2.0, 1e-12);
	/* a model in its own units (costs) is not */
	snprintf(nw[1].power_model, sizeof(nw[1].power_model), "costs");
	snprintf(nw[1].power_unit, sizeof(nw[1].power_unit), "bogo-mJ");
	assert_int_equal(compare_runs(base, 2, nw, 2, 0.95, t, &err), GS_EINPUT);
	assert_non_null(strstr(err.msg, "different units"));
	snprintf(nw[1].power_model, sizeof(nw[1].power_model), "em");
	snprintf(nw[1].power_unit, sizeof(nw[1].power_unit), "J");

	/* nothing in common, other platform, bad confidence */
	assert_int_equal(compare_runs(&base[2], 1, &nw[2], 1, 0.95, t, &err), GS_EINPUT);
	snprintf(nw[0].platform, sizeof(nw[0].platform), "hikey960");
	assert_int_equal(compare_runs(base, 2, nw, 2, 0.95, t, &err), GS_EINPUT);
	assert_int_equal(compare_runs(base, 2, base, 2, 1.0, t, &err), GS_EARG);

	for (int i = 0; i < 3; i++) {
		run_result_release(&base[i]);
		run_result_release(&nw[i]);
	}
	free(t);
}

/* A policy with no activity has no average frequency (NAN): compare leaves
 * that run's value out, and drops the row when no run of a side has one. */
static void test_compare_leaves_out_idle_policy(void **state)
{
	struct run_result base[2], nw[2];
	struct compare_table *t = malloc(sizeof(*t));
	const struct compare_metric *m;
	struct gs_error err = {0};
	(void)state;

	assert_non_null(t);
	fake_run(&base[0], "aa", 1.0, 500000);
	fake_run(&base[1], "bb", 2.0, 600000);
	fake_run(&nw[0], "aa", 1.5, 550000);
	fake_run(&nw[1], "bb", 2.5, 650000);
	base[1].pol[0].avg_freq_khz = NAN; /* policy0 idle in one base run */
	for (int i = 0; i < 2; i++) {
		base[i].pol[1].avg_freq_khz = NAN; /* policy1 idle everywhere */
		nw[i].pol[1].avg_freq_khz = NAN;
	}
	assert_int_equal(compare_runs(base, 2, nw, 2, 0.95, t, &err), 0);
	m = compare_find_metric(t, "avg_freq_policy0");
	assert_non_null(m);
	assert_int_equal(m->base.n, 1);
	assert_float_equal(m->base.amean, 500.0, 1e-12);
	assert_int_equal(m->new.n, 2);
	assert_float_equal(m->new.amean, 600.0, 1e-12);
	assert_null(compare_find_metric(t, "avg_freq_policy1"));
	assert_non_null(compare_find_metric(t, "transitions")); /* the rows after it remain */
	free(t);
}

static void test_select_errors(void **state)
{
	struct run_result *runs;
	size_t n;
	struct gs_error err = {0};
	(void)state;

	/* an unknown key is a tunable term now; the missing database is the error here */
	assert_int_equal(compare_select("colour=red", "x.db", NULL, &runs, &n, &err), GS_EINPUT); /* a missing database is bad input (exit 3) */
	assert_non_null(strstr(err.msg, "'x.db'"));
	assert_int_equal(compare_select("label", "x.db", NULL, &runs, &n, &err), GS_EARG);
	assert_int_equal(compare_select("run=abc", "x.db", NULL, &runs, &n, &err), GS_EARG);
	assert_int_equal(compare_select("label=a,,run=1", "x.db", NULL, &runs, &n, &err), GS_EARG);
	assert_int_equal(compare_select("label=a", NULL, NULL, &runs, &n, &err), GS_EARG);
	assert_non_null(strstr(err.msg, "no database"));
	assert_int_equal(compare_select("db=/nonexistent/x.db", NULL, NULL, &runs, &n, &err), GS_EINPUT); /* exit 3 */
	assert_null(runs);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmean),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_welch_worked),
		cmocka_unit_test(test_welch_critical_value),
		cmocka_unit_test(test_welch_unequal),
		cmocka_unit_test(test_welch_limits),
		cmocka_unit_test(test_printed_change),
		cmocka_unit_test(test_compare_runs),
		cmocka_unit_test(test_compare_leaves_out_idle_policy),
		cmocka_unit_test(test_select_errors),
	};
	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
