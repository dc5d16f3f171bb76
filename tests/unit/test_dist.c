/*
 * test_dist.c - the bounded duration distribution (src/work/dist.c) against an exact reference.
 *
 * Checks: mean and max exact; the p95 of random samples (positive, negative, mixed, spanning
 * ns to minutes) within the stated 1/32 of the nearest-rank p95 computed exactly (GSL sort of
 * all samples); equal samples give their value exactly; an empty distribution gives zeros; a
 * distribution kept as the work layer keeps the run's (dist_note() per sample, the histograms of
 * the per-task distributions that dist_add() got summed with dist_merge_hist()) equals, counter
 * for counter, one that dist_add() got every sample.
 * Does not check memory (one fixed histogram per distribution, by construction), nor how the
 * replay feeds it (test_sim).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>

#include "work/dist.h"

#define N 20000

/* Nearest rank: the ceil(q n)-th smallest. */
static double exact_quantile(double *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);
	gsl_sort(v, 1, n);
	return v[rank ? rank - 1 : 0];
}

static void check_random(s64 lo, s64 hi, bool log_scale)
{
	static double v[N];
	struct dist d;
	u64 seed = 7;
	double sum = 0, max = -INFINITY, want, got;

	dist_init(&d);
	for (size_t i = 0; i < N; i++) {
		double u;
		s64 x;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		u = (double)(seed >> 11) / 9007199254740992.0;
		x = log_scale ? (s64)exp(log((double)lo) + u * (log((double)hi) - log((double)lo)))
			      : lo + (s64)(u * (double)(hi - lo));
		v[i] = (double)x;
		sum += (double)x;
		if (v[i] > max)
			max = v[i];
		assert_int_equal(dist_add(&d, x), 0);
	}
	want = exact_quantile(v, N, 0.95);
	got = dist_quantile_ns(&d, 0.95);
	if (fabs(got - want) > fabs(want) / 32 + 1)
		fail_msg("p95 %.1f, exact %.1f", got, want);
	assert_true(fabs(d.sum_ns / (double)d.n - sum / N) < 1e-6 * fabs(sum / N) + 1e-9);
	assert_true((double)d.max_ns == max);
	dist_release(&d);
}

static void test_p95_within_resolution(void **state)
{
	(void)state;
	check_random(1, 100000000000, true);   /* 1 ns .. 100 s */
	check_random(1000, 2000, false);       /* one octave */
	check_random(-5000000, 3000000, false); /* lateness: both signs */
	check_random(-900, -10, false);         /* all ahead of the trace */
	check_random(0, 15, false);             /* the exact buckets */
}

static void test_equal_and_empty(void **state)
{
	struct dist d;
	struct run_dist s;
	(void)state;

	dist_init(&d);
	dist_summary(&d, &s);
	assert_true(s.mean_s == 0 && s.p95_s == 0 && s.max_s == 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(dist_add(&d, 345967), 0);
	dist_summary(&d, &s);
	assert_true(s.mean_s == 345967e-9);
	assert_true(s.p95_s == 345967e-9);
	assert_true(s.max_s == 345967e-9);
	dist_release(&d);
	dist_release(NULL);
}

/* The run's distribution as the work layer keeps it (work_priv.h), against dist_add() of every
 * sample: samples spread over 5 "tasks" (one freed midway, merged then; the others merged at
 * the end), both signs, the exact buckets, the top bucket. */
static void test_merged_equals_added(void **state)
{
	struct dist all, run, task[5];
	u64 seed = 11;
	(void)state;

	dist_init(&all);
	dist_init(&run);
	assert_int_equal(dist_alloc(&run), 0);
	for (int k = 0; k < 5; k++)
		dist_init(&task[k]);
	for (int i = 0; i < 30000; i++) {
		s64 x;
		int k;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		k = (int)(seed >> 61) % 5;
		x = (s64)(seed >> 20) % 4000000 - 1000000; /* -1 ms .. 3 ms */
		if (i % 97 == 0)
			x = (s64)(i % 16);                 /* the exact buckets */
		if (i == 12345)
			x = (s64)1 << 50;                  /* the top bucket */
		assert_int_equal(dist_add(&all, x), 0);
		assert_int_equal(dist_add(&task[k], x), 0);
		dist_note(&run, x);
		if (i == 15000) { /* task 0 is freed: its histogram goes into the run's */
			dist_merge_hist(&run, &task[0]);
			dist_release(&task[0]);
			dist_init(&task[0]);
		}
	}
	for (int k = 0; k < 5; k++)
		dist_merge_hist(&run, &task[k]);
	assert_true(run.n == all.n && run.sum_ns == all.sum_ns);
	assert_true(run.min_ns == all.min_ns && run.max_ns == all.max_ns);
	assert_memory_equal(run.pos, all.pos, 2 * DIST_BUCKETS * sizeof(*all.pos));
	assert_true(dist_quantile_ns(&run, 0.95) == dist_quantile_ns(&all, 0.95));
	assert_true(dist_quantile_ns(&run, 0.5) == dist_quantile_ns(&all, 0.5));
	for (int k = 0; k < 5; k++)
		dist_release(&task[k]);
	dist_release(&run);
	dist_release(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p95_within_resolution),
		cmocka_unit_test(test_equal_and_empty),
		cmocka_unit_test(test_merged_equals_added),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
