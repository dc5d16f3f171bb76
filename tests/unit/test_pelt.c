/*
 * test_pelt.c - the PELT arithmetic of src/sched/pelt.c (Linux v5.9 pelt.c / pelt.h).
 *
 * Checks:
 * - the generated runnable_avg_yN_inv[] equals the 32 values published in the v5.9
 *   sched-pelt.h (typed in here as the independent reference),
 *   LOAD_AVG_MAX is 47742 and LOAD_AVG_PERIOD 32;
 * - integer values derived by hand from the published table (decay_load, one full period,
 *   sub-period deltas, the 1024 ns remainder, decay to 0 after 2016 periods);
 * - always-running, run/sleep and sub-period sequences against a slow double-precision sum of
 *   the geometric series (y = 0.5^(1/32)), within the truncation error (<= 2 util units);
 * - update_rq_clock_pelt's capacity and frequency scaling, idle sync and the lost idle time.
 * Does not check: the update points of the scheduler model (test_sched.c) or util_est
 * (test_util_est.c).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pelt_tables.h"
#include "sched/pelt.h"

/* kernel/sched/sched-pelt.h (v5.9), as published. */
static const uint32_t published_yN_inv[32] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb,
	0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9,
	0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9,
	0xa2704302, 0x9ef5325f, 0x9b8d39b9, 0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a,
	0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

static void test_table_published(void **state)
{
	(void)state;
	assert_int_equal(GS_ARRAY_SIZE(runnable_avg_yN_inv), 32);
	for (int i = 0; i < 32; i++)
		assert_int_equal(runnable_avg_yN_inv[i], published_yN_inv[i]);
	assert_int_equal(LOAD_AVG_MAX, 47742);
	assert_int_equal(LOAD_AVG_PERIOD, 32);
	assert_int_equal(pelt_load_avg_max(), 47742);
}

/*
 * By hand from the table: (val * inv[n % 32]) >> 32 after val >>= n / 32.
 * decay_load(1024, 32): 1024 >> 1 = 512, then 512 * 0xffffffff >> 32 = 511 (not 512: the
 * table's y^0 is 1 - 2^-32, so every decay truncates one unit below the real value).
 */
static void test_decay_load_by_hand(void **state)
{
	(void)state;
	assert_int_equal(decay_load(1024, 32), 511);
	assert_int_equal(decay_load(1024, 0), 1023);
	assert_int_equal(decay_load(1024, 1), 1002);   /* 1024 * 0xfa83b2da >> 32 = 1002.06 */
	assert_int_equal(decay_load(47742, 1), 46718); /* LOAD_AVG_MAX y = 46718.99 */
	assert_int_equal(decay_load(1000, 64), 249);   /* 250 * (1 - 2^-32) */
	assert_int_equal(decay_load(0, 5), 0);
	assert_int_equal(decay_load(1ULL << 62, 2016), 0); /* >> 63 */
	assert_int_equal(decay_load(UINT64_MAX, 2017), 0); /* beyond 63 half-lives */
	assert_int_equal(decay_load(UINT64_MAX, 2016), 0);
}

/* decay_load against val * y^n in double, for every n in one run of 3 half-lives and more. */
static void test_decay_load_vs_double(void **state)
{
	double y = pow(0.5, 1.0 / 32);
	(void)state;
	for (u64 n = 0; n <= 200; n++) {
		u64 val = 47742ULL * 1024;
		double ref = (double)val * pow(y, (double)n);
		double got = (double)decay_load(val, n);

		assert_true(fabs(got - ref) <= 1.0 + ref * 1e-8);
	}
}

/* Segments for one period from a boundary: c1 = 1024 y = 1002, c2 = 47742 - 46718 - 1024 = 0. */
static void test_accumulate_by_hand(void **state)
{
	struct sched_avg sa;
	(void)state;

	assert_int_equal(__accumulate_pelt_segments(1, 1024, 0), 1002);
	/* p = 2: c1 = decay_load(1024, 2) = 1024 * 0xf5257d14 >> 32 = 980.5 -> 980,
	 * c2 = 47742 - decay_load(47742, 2) - 1024 = 47742 - 45717 - 1024 = 1001, c3 = 7 */
	assert_int_equal(decay_load(47742, 2), 45717);
	assert_int_equal(__accumulate_pelt_segments(2, 1024, 7), 980 + 1001 + 7);

	/* running exactly one period from a boundary: util_sum = 1002 << 10, avg = /46718 = 21 */
	memset(&sa, 0, sizeof(sa));
	assert_int_equal(___update_load_sum(1024 * 1024, &sa, 1, 1, 1, NULL), 1);
	assert_int_equal(sa.util_sum, 1002 * 1024);
	assert_int_equal(sa.load_sum, 1002);
	assert_int_equal(sa.runnable_sum, 1002 * 1024);
	assert_int_equal(sa.period_contrib, 0);
	___update_load_avg(&sa, 1024);
	assert_int_equal(sa.util_avg, 1026048 / 46718); /* 21 */
	assert_int_equal(sa.util_avg, 21);
	assert_int_equal(sa.load_avg, 1024 * 1002 / 46718); /* 21 */
	assert_int_equal(sa.runnable_avg, 21);
}

/* Below one period: no decay, contrib = delta, no averages; below 1024 ns: nothing at all. */
static void test_sub_period(void **state)
{
	struct sched_avg sa;
	(void)state;

	memset(&sa, 0, sizeof(sa));
	assert_int_equal(___update_load_sum(1023, &sa, 1, 1, 1, NULL), 0);
	assert_int_equal(sa.last_update_time, 0);
	assert_int_equal(sa.util_sum, 0);

	/* 3071 ns = 2 units + 1023 ns: the remainder is carried */
	assert_int_equal(___update_load_sum(3071, &sa, 1, 1, 1, NULL), 0);
	assert_int_equal(sa.last_update_time, 2048);
	assert_int_equal(sa.util_sum, 2 * 1024);
	assert_int_equal(sa.period_contrib, 2);

	/* up to 500 units: 498 more, still inside the first period, util_avg untouched */
	assert_int_equal(___update_load_sum(500 * 1024, &sa, 1, 1, 1, NULL), 0);
	assert_int_equal(sa.util_sum, 500 * 1024);
	assert_int_equal(sa.load_sum, 500);
	assert_int_equal(sa.period_contrib, 500);
	assert_int_equal(sa.util_avg, 0);

	/* idle across the boundary to 1524 units: decayed once, nothing added, 500 in period */
	assert_int_equal(___update_load_sum(1524 * 1024, &sa, 0, 0, 0, NULL), 1);
	assert_int_equal(sa.util_sum, (u32)decay_load(500 * 1024, 1));
	assert_int_equal(sa.period_contrib, 500);

	/* time going backwards: last_update_time follows, nothing accumulated */
	assert_int_equal(___update_load_sum(1000, &sa, 1, 1, 1, NULL), 0);
	assert_int_equal(sa.last_update_time, 1000);
}

/* ---- slow reference: the geometric series in double ---------------------------------------- */

/*
 * Time in 1024 ns units from 0; running(u) says whether unit u was running. At time T (units)
 * the current period is K = T / 1024 and a unit of period k weighs y^(K - k) (the current,
 * incomplete period is not decayed), so
 *   sum(T) = 1024 \Sum_{u < T, running(u)} y^(K - u/1024)
 * and the average divides by the most the sum could be with infinite history,
 *   max(T) = 1024 (T % 1024 + 1024 y / (1 - y)).
 */
struct ref {
	double y;
	double sum;        /* in util_sum units (contrib << 10) */
	u64 t;             /* units */
};

static void ref_advance(struct ref *r, u64 t_to, int running)
{
	for (; r->t < t_to; r->t++) {
		if (running)
			r->sum += 1024;
		if ((r->t + 1) % 1024 == 0)
			r->sum *= r->y; /* this unit closed its period: a boundary crossed */
	}
}

static double ref_avg(const struct ref *r)
{
	double max = 1024.0 * ((double)(r->t % 1024) + 1024.0 * r->y / (1.0 - r->y));

	return r->sum / max * 1024.0;
}

/* Drive the kernel signal and the reference through (time, state) steps in units. */
static void run_pattern(const u64 *t_units, const int *running, size_t n, int *max_err)
{
	struct sched_avg sa;
	struct ref r = { .y = pow(0.5, 1.0 / 32) };
	int state_now = 0;

	memset(&sa, 0, sizeof(sa));
	*max_err = 0;
	for (size_t i = 0; i < n; i++) {
		int decayed;

		ref_advance(&r, t_units[i], state_now);
		decayed = ___update_load_sum(t_units[i] * 1024, &sa, (unsigned long)state_now,
					     (unsigned long)state_now, state_now, NULL);
		/* the sums always agree to the truncation of the decays */
		assert_true(fabs((double)sa.util_sum - r.sum) <= 2048.0 + r.sum * 2e-3);
		if (decayed) {
			int err;

			___update_load_avg(&sa, 1024);
			err = abs((int)sa.util_avg - (int)lround(ref_avg(&r)));
			if (err > *max_err)
				*max_err = err;
			/* load = runnable = running here: runnable_sum is util_sum (same << 10
			 * scale); load_sum decays unscaled, so it truncates differently by <= 1 */
			assert_int_equal(sa.runnable_avg, sa.util_avg);
			assert_true(abs((int)sa.load_avg - (int)sa.util_avg) <= 1);
		}
		state_now = running[i];
	}
}

#define MAX_STEPS 4096

static void test_always_running_vs_reference(void **state)
{
	static u64 t[MAX_STEPS];
	static int run[MAX_STEPS];
	size_t n = 0;
	int err;
	(void)state;

	/* updates at irregular sub-period points for 400 periods, always running */
	for (u64 u = 0; u < 400 * 1024; u += 377) {
		t[n] = u;
		run[n++] = 1;
	}
	run_pattern(t, run, n, &err);
	assert_true(err <= 2);
}

static void test_run_sleep_vs_reference(void **state)
{
	static u64 t[MAX_STEPS];
	static int run[MAX_STEPS];
	size_t n = 0;
	int err;
	(void)state;

	/* 4 ms run / 12 ms sleep (3906 / 11719 units), with "ticks" every 3906 units while
	 * running, 60 cycles; then 8/8 ms; updates also at a few sub-period points */
	u64 u = 0;
	for (int c = 0; c < 60; c++) {
		t[n] = u, run[n++] = 1;
		t[n] = u + 1000, run[n++] = 1;
		t[n] = u + 3906, run[n++] = 0;
		u += 3906 + 11719;
	}
	for (int c = 0; c < 60; c++) {
		t[n] = u, run[n++] = 1;
		t[n] = u + 3906, run[n++] = 1;
		t[n] = u + 7812, run[n++] = 0;
		t[n] = u + 7812 + 100, run[n++] = 0;
		u += 2 * 7812;
	}
	t[n] = u, run[n++] = 0;
	run_pattern(t, run, n, &err);
	assert_true(err <= 2);
}

/* Running to saturation, then idle for more than 2016 periods: exactly 0. */
static void test_long_idle_decays_to_zero(void **state)
{
	struct sched_avg sa;
	(void)state;

	memset(&sa, 0, sizeof(sa));
	assert_int_equal(___update_load_sum(300ULL * 1024 * 1024, &sa, 1, 1, 1, NULL), 1);
	___update_load_avg(&sa, 1024);
	assert_true(sa.util_avg >= 1022 && sa.util_avg <= 1024);
	assert_int_equal(___update_load_sum((300ULL + 2017) * 1024 * 1024, &sa, 0, 0, 0, NULL), 1);
	___update_load_avg(&sa, 1024);
	assert_int_equal(sa.util_sum, 0);
	assert_int_equal(sa.util_avg, 0);
	assert_int_equal(sa.load_sum, 0);
}

/* clock_pelt: 1 ms busy at capacity 462: 1e6 * 462 >> 10 = 451171; at half frequency too:
 * 451171 * 512 >> 10 = 225585; idle syncs; lost idle time when util_sum was at its max. */
static void test_clock_pelt(void **state)
{
	struct pelt_clock pc = { 0 };
	u32 max_sum = ((47742 - 1024) << 10) - 47742; /* 47791490 */
	(void)state;

	assert_int_equal(max_sum, 47791490);
	pc.clock_task = 1000000;
	update_rq_clock_pelt(&pc, 1000000, false, 462, 1024);
	assert_int_equal(pc.clock_pelt, 451171);
	pc.clock_task = 2000000;
	update_rq_clock_pelt(&pc, 1000000, false, 462, 512);
	assert_int_equal(pc.clock_pelt, 451171 + 225585);

	/* not saturated: no lost idle time */
	update_idle_rq_clock_pelt(&pc, max_sum - 1);
	assert_int_equal(pc.lost_idle_time, 0);
	/* saturated: the gap clock_task - clock_pelt is lost */
	update_idle_rq_clock_pelt(&pc, max_sum);
	assert_int_equal(pc.lost_idle_time, 2000000 - 676756);
	assert_int_equal(rq_clock_pelt(&pc), 676756 - (2000000 - 676756));

	/* idle: sync to the task clock, whatever the delta */
	pc.clock_task = 3000000;
	update_rq_clock_pelt(&pc, 1000000, true, 462, 512);
	assert_int_equal(pc.clock_pelt, 3000000);
	assert_int_equal(rq_clock_pelt(&pc), 3000000 - 1323244);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_published),
		cmocka_unit_test(test_decay_load_by_hand),
		cmocka_unit_test(test_decay_load_vs_double),
		cmocka_unit_test(test_accumulate_by_hand),
		cmocka_unit_test(test_sub_period),
		cmocka_unit_test(test_always_running_vs_reference),
		cmocka_unit_test(test_run_sleep_vs_reference),
		cmocka_unit_test(test_long_idle_decays_to_zero),
		cmocka_unit_test(test_clock_pelt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
