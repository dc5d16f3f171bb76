/*
 * test_platform_hikey.c - the built-in HiKey (Hi6220) model, models/hikey.sql, against numbers
 * worked by hand from its sources:
 * - the DT (arch/arm64/boot/dts/hisilicon/hi6220.dtsi): OPPs 208/432/729/960/1200 MHz at
 *   1.04/1.04/1.09/1.18/1.33 V, dynamic-power-coefficient 311, one opp-shared table and one clock
 *   for all 8 CPUs, no capacity-dmips-mhz, clock-latency-ns 500000, CPU_SLEEP 700/250/1000 us,
 *   CLUSTER_SLEEP 1000/700 (wakeup 1500)/2700 us;
 * - the v5.9 rules: em power = C x mV^2 x MHz / 1e9 truncated (drivers/opp/of.c _get_power),
 *   cpuidle exit latency = wakeup-latency-us if given, else entry + exit (dt_idle_states.c).
 * The em powers below are the products written out, not values read back from govsim.
 * Does not check: the em formula itself (test_platform) or the cost table's use (test_overhead).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "power/platform.h"

static struct platform *load_hikey(void)
{
	struct gs_error err = {0};
	struct platform *p = malloc(sizeof(*p));

	assert_non_null(p);
	if (platform_load("hikey", p, &err))
		fail_msg("%s", err.msg);
	return p;
}

static void test_one_policy_of_eight(void **state)
{
	struct platform *p = load_hikey();
	(void)state;

	assert_string_equal(p->name, "hikey");
	assert_int_equal(p->nr_cpus, 8);
	assert_int_equal(p->nr_clusters, 1);
	assert_int_equal(p->clusters[0].nr_cpus, 8);
	for (int cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(p->cpus[cpu].cluster, 0);
		assert_int_equal(p->cpus[cpu].capacity, 1024);
	}
	assert_int_equal(p->clusters[0].transition_latency_ns, 500000);
	assert_int_equal(p->clusters[0].dyn_power_coeff, 311);
	assert_false(p->has_costs);
	free(p);
}

static void test_em_power_by_hand(void **state)
{
	/*
	 * 311 x 1040^2 x 208  = 69 966 540 800 -> 69 mW
	 * 311 x 1040^2 x 432  = 145 315 123 200 -> 145 mW
	 * 311 x 1090^2 x 729  = 269 364 843 900 -> 269 mW
	 * 311 x 1180^2 x 960  = 415 714 944 000 -> 415 mW
	 * 311 x 1330^2 x 1200 = 660 153 480 000 -> 660 mW
	 */
	static const u32 khz[] = {208000, 432000, 729000, 960000, 1200000};
	static const u32 uv[] = {1040000, 1040000, 1090000, 1180000, 1330000};
	static const u32 mw[] = {69, 145, 269, 415, 660};
	/* capacity at OPP: 1024 x ((khz << 10) / 1200000) >> 10 */
	static const u32 cap[] = {177, 368, 622, 819, 1024};
	struct platform *p = load_hikey();
	const struct plat_cluster *c = &p->clusters[0];
	(void)state;

	assert_int_equal(c->nr_opps, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(c->opps[i].freq_khz, khz[i]);
		assert_int_equal(c->opps[i].volt_uv, uv[i]);
		assert_int_equal(c->opps[i].em_power_mw, mw[i]);
		assert_int_equal(c->opps[i].capacity, cap[i]);
	}
	free(p);
}

static void test_idle_states(void **state)
{
	struct platform *p = load_hikey();
	const struct plat_cluster *c = &p->clusters[0];
	(void)state;

	assert_int_equal(c->nr_idle, 3);
	assert_string_equal(c->idle[0].name, "WFI");
	assert_int_equal(c->idle[0].exit_latency_us, 1);
	assert_int_equal(c->idle[1].exit_latency_us, 700 + 250); /* no wakeup-latency-us */
	assert_int_equal(c->idle[1].target_residency_us, 1000);
	assert_false(c->idle[1].cluster_level);
	assert_int_equal(c->idle[2].exit_latency_us, 1500); /* wakeup-latency-us */
	assert_int_equal(c->idle[2].target_residency_us, 2700);
	assert_true(c->idle[2].cluster_level);
	free(p);
}

/* The cost table as models/hikey.sql states it (seed 003's derivation), on CPU 0. */
static void test_kernel_costs(void **state)
{
	struct platform *p = load_hikey();
	(void)state;

	assert_true(p->kcost.present);
	assert_true(p->kcost.ns[KC_CGROUP_LEVEL] == 597.50);
	assert_true(p->kcost.ns[KC_UCLAMP_INC_ID] == 184.65);
	assert_true(p->kcost.ns[KC_UCLAMP_DEC_ID] == 172.09);
	assert_true(p->kcost.ns[KC_UCLAMP_BRANCH] == 145.70);
	for (int i = 0; i < KC__COUNT; i++)
		assert_int_equal(p->kcost.cpu[i], 0);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_policy_of_eight),
		cmocka_unit_test(test_em_power_by_hand),
		cmocka_unit_test(test_idle_states),
		cmocka_unit_test(test_kernel_costs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
