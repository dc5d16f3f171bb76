/*
 * test_wattson.c - the `wattson` power model on the tensor (gs101) model: each step of Wattson's
 * formula chain (wattson.h) against a hand computation from the CSV rows it must use.
 *
 * Checks: one CPU busy 1 s at the top OPP is exactly its active mW x 1 s; static power counted once
 * per policy and only while a CPU of it is on (active or shallow idle); the 2D dependency and its
 * vote by power (and the default with nobody to vote); the deep-idle exit offset and its limit at
 * the CPU's previous change; hindsight idle states; hotplug as zero; a missing 2D pair reported
 * with its time. Each expected value is a sum of CSV numbers written out here, not a program's
 * output.
 * Does not check: the replay's wiring (tests/golden/run.sh) or the models' validation
 * (test_platform.c).
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "power/wattson.h"

#define S NSEC_PER_SEC
#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

static struct platform *tensor;

static int setup(void **state)
{
	struct gs_error err = {0};
	(void)state;
	tensor = malloc(sizeof(*tensor));
	if (!tensor || platform_load("tensor", tensor, &err))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(tensor);
	return 0;
}

/* mJ compared to a hand sum: equal within a few ulps of the sum */
static void assert_mj(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) + 1))
		fail_msg("energy %.12f mJ, expected %.12f mJ", got, want);
}

/* An accumulator from t=0 with the three policies at these frequencies. */
static struct wattson_acc *acc(u32 f0, u32 f4, u32 f6)
{
	struct gs_error err = {0};
	u32 khz[3] = {f0, f4, f6};
	struct wattson_acc *w = wattson_acc_new(tensor, 0, khz, &err);

	if (!w)
		fail_msg("%s", err.msg);
	return w;
}

static void finish(struct wattson_acc *w, u64 end, struct wattson_energy *e)
{
	struct gs_error err = {0};
	if (wattson_acc_finish(w, end, e, &err))
		fail_msg("%s", err.msg);
	wattson_acc_free(w);
}

/*
 * CPU 6 busy 1 s at 2802000: cpu_1d.csv "Tensor,6,2802000,0,1942.89,121.43,0" -> 1942.89 mJ,
 * exactly. Everything else sits in the deepest state (idle1 0 mW; no policy on, no static): the
 * little CPUs' 2D row (1803000, p6 2802000) "35.12,269.2,3.62,0,0" has idle1 0.
 */
static void test_one_cpu_top_opp(void **state)
{
	struct wattson_energy e;
	struct wattson_acc *w = acc(1803000, 400000, 2802000);
	(void)state;

	wattson_acc_state(w, 0, 6, WATTSON_ACTIVE);
	wattson_acc_idle_begin(w, 1 * S, 6);
	finish(w, 1 * S, &e);
	assert_true(e.cpu_mj[6] == 1942.89);
	assert_true(e.total_mj == 1942.89);
	for (int c = 0; c < 3; c++)
		assert_true(e.static_mj[c] == 0);
	assert_int_equal(e.missing_ns, 0);
	assert_int_equal(e.nr_miss, 0);
	assert_int_equal(e.span_ns, 1 * S);
}

/*
 * Static once per policy. Little cluster at 1803000, CPUs 0 and 1 active, CPU 2 in WFI (state 0,
 * shallow: on), CPU 3 in c2 (deepest); nobody of p4/p6 active, so the dependency is the default,
 * the smallest dep_freq of policy 0's rows: p4 400000, row "Tensor,0,1803000,4,400000,35.71,
 * 342.95,3.49,0,0". Over 1 s: 2 x 342.95 + 3.49 + 0 + 35.71 (static, once) = 725.10 mJ.
 * Then the same second with CPUs 0-2 in c2 too: nobody on, no static, all idle1 = 0.
 */
static void test_static_once_per_policy(void **state)
{
	struct wattson_energy e;
	struct wattson_acc *w = acc(1803000, 400000, 500000);
	(void)state;

	wattson_acc_state(w, 0, 0, WATTSON_ACTIVE);
	wattson_acc_state(w, 0, 1, WATTSON_ACTIVE);
	wattson_acc_state(w, 0, 2, 0);
	wattson_acc_state(w, 0, 3, 1);
	for (int cpu = 0; cpu < 3; cpu++)
		wattson_acc_state(w, 1 * S, cpu, 1);
	finish(w, 2 * S, &e);
	assert_mj(e.cpu_mj[0], 342.95);
	assert_mj(e.cpu_mj[1], 342.95);
	assert_mj(e.cpu_mj[2], 3.49);
	assert_mj(e.cpu_mj[3], 0);
	assert_mj(e.static_mj[0], 35.71);
	assert_mj(e.static_mj[1], 0);
	assert_mj(e.total_mj, 2 * 342.95 + 3.49 + 35.71);
	assert_int_equal(e.missing_ns, 0);
}

/*
 * The 2D vote by power. CPU 0 active at 1803000, CPU 4 active at 2253000 (1D 527.05 mW), CPU 6
 * active at 500000 (1D 87.31 mW): p4 draws more, so policy 0 depends on p4 at 2253000, row
 * "Tensor,0,1803000,4,2253000,35.07,295.24,3.23,0,0". Second 1: 295.24 + 527.05 + 87.31 + static
 * 35.07. At 1 s CPU 6 goes to 2802000 (1942.89 mW): p6 wins, row "Tensor,0,1803000,6,2802000,
 * 35.12,269.2,3.62,0,0". Second 2: 269.2 + 527.05 + 1942.89 + 35.12.
 */
static void test_2d_vote(void **state)
{
	struct wattson_energy e;
	struct wattson_out out;
	struct wattson_in in = {{1803000, 2253000, 500000}, {0}, 0};
	struct wattson_acc *w = acc(1803000, 2253000, 500000);
	(void)state;

	for (int cpu = 0; cpu < 8; cpu++)
		in.state[cpu] = cpu == 0 || cpu == 4 || cpu == 6 ? WATTSON_ACTIVE : 1;
	wattson_power(tensor, &in, &out);
	assert_int_equal(out.dep_cluster[0], 1);
	assert_int_equal(out.dep_khz[0], 2253000);
	assert_true(out.cpu_mw[0] == 295.24);
	assert_true(out.static_mw[0] == 35.07);

	wattson_acc_state(w, 0, 0, WATTSON_ACTIVE);
	wattson_acc_state(w, 0, 4, WATTSON_ACTIVE);
	wattson_acc_state(w, 0, 6, WATTSON_ACTIVE);
	wattson_acc_freq(w, 1 * S, 2, 2802000);
	finish(w, 2 * S, &e);
	assert_mj(e.cpu_mj[0], 295.24 + 269.2);
	assert_mj(e.cpu_mj[4], 2 * 527.05);
	assert_mj(e.cpu_mj[6], 87.31 + 1942.89);
	assert_mj(e.static_mj[0], 35.07 + 35.12);
	assert_mj(e.total_mj, 295.24 + 527.05 + 87.31 + 35.07 + 269.2 + 527.05 + 1942.89 + 35.12);
	assert_int_equal(e.missing_ns, 0);
}

/*
 * A missing pair of the sparse grid. Little cluster at 300000: its rows name only p4 400000,
 * p4 553000 and p6 500000. CPU 6 active at 2802000 wins the vote, (300000, p6 2802000) has no row:
 * CPU 0 (active) gets no value (0 mW, as Wattson's NULL) for the whole second, and the miss is
 * reported with its time; CPU 6 still counts 1942.89.
 */
static void test_missing_2d_pair(void **state)
{
	struct wattson_energy e;
	struct wattson_acc *w = acc(300000, 400000, 2802000);
	(void)state;

	wattson_acc_state(w, 0, 0, WATTSON_ACTIVE);
	wattson_acc_state(w, 0, 6, WATTSON_ACTIVE);
	finish(w, 1 * S, &e);
	assert_mj(e.cpu_mj[0], 0);
	assert_mj(e.total_mj, 1942.89);
	assert_int_equal(e.missing_ns, 1 * S);
	assert_int_equal(e.nr_miss, 1);
	assert_int_equal(e.miss[0].cluster, 0);
	assert_int_equal(e.miss[0].khz, 300000);
	assert_int_equal(e.miss[0].dep_cluster, 2);
	assert_int_equal(e.miss[0].dep_khz, 2802000);
	assert_int_equal(e.miss[0].ns, 1 * S);
}

/*
 * The deep-idle exit offset (Tensor: 200 us on CPUs 6 and 7, 0 elsewhere). CPU 6 in c2 from 0
 * (traced), active at 10 ms until 1.01 s at 2802000: the active period starts 200 us early, so it
 * lasts 1.0002 s: 1942.89 x 1.0002 mJ. CPU 5 the same with offset 0: exactly 527.05 x 1 s
 * (p4 at 2253000). CPU 7: c2 at 1 s, active at 1 s + 100 us: the offset stops at the previous
 * change (1 s), so c2 lasts 0 and CPU 7 is active from 1 s to 1.01 s: 1942.89 x 0.01.
 * The little cluster (1803000) stays in c2: with CPUs active elsewhere its idle1 is 0 either way.
 */
static void test_deep_idle_exit_offset(void **state)
{
	struct wattson_energy e;
	struct wattson_acc *w = acc(1803000, 2253000, 2802000);
	(void)state;

	wattson_acc_state(w, 0, 6, 1);
	wattson_acc_state(w, 0, 5, 1);
	wattson_acc_state(w, 10 * MS, 6, WATTSON_ACTIVE);
	wattson_acc_state(w, 10 * MS, 5, WATTSON_ACTIVE);
	wattson_acc_state(w, 1 * S, 7, 1);
	wattson_acc_state(w, 1 * S + 100 * US, 7, WATTSON_ACTIVE);
	wattson_acc_state(w, 1010 * MS, 6, 1);
	wattson_acc_state(w, 1010 * MS, 5, 1);
	wattson_acc_state(w, 1010 * MS, 7, 1);
	finish(w, 2 * S, &e);
	assert_mj(e.cpu_mj[6], 1942.89 * 1.0002);
	assert_mj(e.cpu_mj[5], 527.05);
	assert_mj(e.cpu_mj[7], 1942.89 * 0.01);
	assert_int_equal(e.offset_exits, 2);
}

/*
 * Hindsight idle states (no traced state): an idle gap shorter than c2's 3500 us target residency
 * is WFI (idle0 121.43 mW at 2802000 on CPU 6), a longer one c2 (0 mW); the offset follows only the
 * deep one. CPU 6: active 0-1 s, idle 1 s-1.001 s (1 ms: WFI), active to 2 s, idle 2 s-2.01 s
 * (10 ms: c2), active to 3 s (starting 200 us early), idle to the end 4 s (c2).
 * CPU 6 = 1942.89 x (1 + 1 + 0.99 + 0.0002 - 0.001) + 121.43 x 0.001 mJ. Policy 6's static is 0.
 * While CPU 6 is active the little cluster (in c2) looks its 2D row up with dep p6 2802000 (row
 * exists at 1803000): idle1 0.
 */
static void test_hindsight_idle(void **state)
{
	struct wattson_energy e;
	struct wattson_acc *w = acc(1803000, 400000, 2802000);
	(void)state;

	wattson_acc_state(w, 0, 6, WATTSON_ACTIVE);
	wattson_acc_idle_begin(w, 1 * S, 6);
	wattson_acc_state(w, 1001 * MS, 6, WATTSON_ACTIVE);
	wattson_acc_idle_begin(w, 2 * S, 6);
	wattson_acc_state(w, 2010 * MS, 6, WATTSON_ACTIVE);
	wattson_acc_idle_begin(w, 3 * S, 6);
	finish(w, 4 * S, &e);
	assert_mj(e.cpu_mj[6], 1942.89 * (1 + 0.999 + 0.9902) + 121.43 * 0.001);
	assert_int_equal(e.offset_exits, 1);
	assert_int_equal(e.missing_ns, 0);
}

/*
 * Hotplug (and suspend) is zero: CPU 4 off draws nothing and does not keep policy 4 on; CPU 0 off
 * does not keep policy 0 on (no static) while CPU 1 in c2 is deepest too.
 */
static void test_off_is_zero(void **state)
{
	struct wattson_out out;
	struct wattson_in in = {{1803000, 2253000, 2802000}, {0}, 0};
	(void)state;

	for (int cpu = 0; cpu < 8; cpu++)
		in.state[cpu] = 1;
	in.state[0] = WATTSON_OFF;
	in.state[4] = WATTSON_OFF;
	in.state[5] = WATTSON_ACTIVE;
	wattson_power(tensor, &in, &out);
	assert_true(out.cpu_mw[4] == 0);
	assert_true(out.cpu_mw[0] == 0);
	assert_true(out.static_mw[0] == 0);
	assert_true(out.cpu_mw[5] == 527.05);
	assert_true(out.total_mw == 527.05);
}

/*
 * A 1D policy with its own static power: SM8750 CPU 0 busy 1 s at 3532800, cpu_1d.csv
 * "SM8750,0,3532800,224.19,1032.5,37.31,0": 1032.5 + 224.19 (static, policy 0 on) = 1256.69 mJ;
 * policy 6 (CPUs 6-7) stays in the deepest state: no static.
 */
static void test_1d_static(void **state)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p));
	struct wattson_energy e;
	struct wattson_acc *w;
	u32 khz[2] = {3532800, 4377600};
	(void)state;

	assert_non_null(p);
	if (platform_load("sm8750", p, &err))
		fail_msg("%s", err.msg);
	w = wattson_acc_new(p, 0, khz, &err);
	assert_non_null(w);
	wattson_acc_state(w, 0, 0, WATTSON_ACTIVE);
	finish(w, 1 * S, &e);
	assert_mj(e.cpu_mj[0], 1032.5);
	assert_mj(e.static_mj[0], 224.19);
	assert_mj(e.static_mj[1], 0);
	assert_mj(e.total_mj, 1256.69);
	free(p);
}

/* A platform without curves has no wattson model: a clear error, not zeros. */
static void test_no_curves(void **state)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p));
	u32 khz[2] = {533000, 903000};
	(void)state;

	assert_non_null(p);
	if (platform_load("hikey960", p, &err))
		fail_msg("%s", err.msg);
	assert_null(wattson_acc_new(p, 0, khz, &err));
	assert_int_equal(err.code, GS_EMODEL);
	assert_non_null(strstr(err.msg, "'hikey960' has no wattson curves"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cpu_top_opp),
		cmocka_unit_test(test_static_once_per_policy),
		cmocka_unit_test(test_2d_vote),
		cmocka_unit_test(test_missing_2d_pair),
		cmocka_unit_test(test_deep_idle_exit_offset),
		cmocka_unit_test(test_hindsight_idle),
		cmocka_unit_test(test_off_is_zero),
		cmocka_unit_test(test_1d_static),
		cmocka_unit_test(test_no_curves),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
