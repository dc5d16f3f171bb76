/*
 * test_power.c - the power model functions (power.h) over the built-in platforms.
 *
 * Checks: model names; busy and idle power per CPU and per cluster for em and costs against
 * the numbers of models/hikey960.sql's sources; active idle (-1) costing what WFI costs;
 * out-of-range arguments giving 0; the hindsight idle-state choice at and around each target
 * residency, and against a slow reference over a sweep of interval lengths; units; and em
 * energy from direct power x time integration (1 s busy at 2362 MHz on an A73 = 1.571 J).
 * Does not check: how the replay accounts busy and idle time (the sim's tests do).
 */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "power/power.h"

static struct platform hikey, juno;

static int setup(void **state)
{
	struct gs_error err = {0};
	(void)state;
	if (platform_load("hikey960", &hikey, &err) || platform_load("juno-r0", &juno, &err)) {
		print_error("%s\n", err.msg);
		return -1;
	}
	return 0;
}

static void test_names(void **state)
{
	enum power_model m = POWER_MODEL_WATTSON;

	(void)state;
	assert_true(power_model_from_name("em", &m));
	assert_int_equal(m, POWER_MODEL_EM);
	assert_true(power_model_from_name("costs", &m));
	assert_int_equal(m, POWER_MODEL_COSTS);
	assert_true(power_model_from_name("wattson", &m));
	assert_int_equal(m, POWER_MODEL_WATTSON);
	assert_false(power_model_from_name("EM", &m));
	assert_false(power_model_from_name("cost", &m));
	assert_false(power_model_from_name("", &m));
	assert_false(power_model_from_name(NULL, &m));
	assert_int_equal(m, POWER_MODEL_WATTSON); /* untouched by a refusal */
	assert_string_equal(power_model_name(POWER_MODEL_EM), "em");
	assert_string_equal(power_model_name(POWER_MODEL_COSTS), "costs");
	assert_string_equal(power_unit(&hikey, POWER_MODEL_EM), "mW");
	assert_string_equal(power_unit(&hikey, POWER_MODEL_COSTS), "bogo-mW (EAS v1, normalised)");
	assert_string_equal(power_unit(&juno, POWER_MODEL_COSTS), "mW (LISA nrg-model)");
}

static void test_em(void **state)
{
	(void)state;
	/* facts: A53 28 ... 245 mW, A73 243 ... 1571 mW; idle and cluster power 0. */
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, 0, 0), 28.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, 3, 4), 245.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, 4, 0), 243.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, 7, 4), 1571.0, 1e-6);
	assert_float_equal(power_cpu_busy(&juno, POWER_MODEL_EM, 3, 4), 119.0, 1e-6);
	assert_float_equal(power_cpu_busy(&juno, POWER_MODEL_EM, 2, 0), 160.0, 1e-6);
	for (int idx = -1; idx < 3; idx++) {
		assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_EM, 0, idx), 0.0, 1e-6);
		assert_float_equal(power_cluster_idle(&hikey, POWER_MODEL_EM, 1, idx), 0.0, 1e-6);
	}
	assert_float_equal(power_cluster_busy(&hikey, POWER_MODEL_EM, 1, 4), 0.0, 1e-6);
}

static void test_costs(void **state)
{
	(void)state;
	/* A53 core 133->87 ... 462->502, cluster 12 ... 144; A73 core 404 ... 2848, cluster 102 ... 433. */
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_COSTS, 2, 0), 87.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_COSTS, 2, 4), 502.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_COSTS, 5, 2), 1398.0, 1e-6);
	assert_float_equal(power_cluster_busy(&hikey, POWER_MODEL_COSTS, 0, 3), 67.0, 1e-6);
	assert_float_equal(power_cluster_busy(&hikey, POWER_MODEL_COSTS, 1, 4), 433.0, 1e-6);
	/* idle (WFI, cpu-sleep, cluster-sleep): A53 core 5, 0, 0; cluster 12, 12, 0; A73 18 / 102. */
	assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_COSTS, 1, 0), 5.0, 1e-6);
	assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_COSTS, 1, 1), 0.0, 1e-6);
	assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_COSTS, 6, 0), 18.0, 1e-6);
	assert_float_equal(power_cluster_idle(&hikey, POWER_MODEL_COSTS, 0, 1), 12.0, 1e-6);
	assert_float_equal(power_cluster_idle(&hikey, POWER_MODEL_COSTS, 0, 2), 0.0, 1e-6);
	assert_float_equal(power_cluster_idle(&hikey, POWER_MODEL_COSTS, 1, 0), 102.0, 1e-6);
	/* active idle costs what WFI costs */
	assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_COSTS, 6, -1), 18.0, 1e-6);
	assert_float_equal(power_cluster_idle(&hikey, POWER_MODEL_COSTS, 0, -1), 12.0, 1e-6);
	/* juno: the nrg-model has per-CPU power only, idle power 0 */
	assert_float_equal(power_cpu_busy(&juno, POWER_MODEL_COSTS, 1, 4), 583.0, 1e-6);
	assert_float_equal(power_cluster_busy(&juno, POWER_MODEL_COSTS, 1, 4), 0.0, 1e-6);
	assert_float_equal(power_cpu_idle(&juno, POWER_MODEL_COSTS, 0, 0), 0.0, 1e-6);
}

static void test_out_of_range(void **state)
{
	(void)state;
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, 8, 0), 0.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, -1, 0), 0.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_EM, 0, 5), 0.0, 1e-6);
	assert_float_equal(power_cpu_busy(&hikey, POWER_MODEL_COSTS, 0, -1), 0.0, 1e-6);
	assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_COSTS, 0, 3), 0.0, 1e-6);
	assert_float_equal(power_cpu_idle(&hikey, POWER_MODEL_COSTS, 0, -2), 0.0, 1e-6);
	assert_float_equal(power_cluster_busy(&hikey, POWER_MODEL_COSTS, 2, 0), 0.0, 1e-6);
	assert_float_equal(power_cluster_idle(&hikey, POWER_MODEL_COSTS, -1, 0), 0.0, 1e-6);
}

static void test_pick_idle_worked(void **state)
{
	/* A53: WFI 1 us, cpu-sleep-0 1500 us, cluster-sleep-0 3500 us (cluster level). */
	const struct plat_cluster *c = &hikey.clusters[0];
	(void)state;
	assert_int_equal(power_pick_idle_state(c, 0, false), 0);
	assert_int_equal(power_pick_idle_state(c, 0, true), 0);
	assert_int_equal(power_pick_idle_state(c, 1499999, false), 0);
	assert_int_equal(power_pick_idle_state(c, 1500000, false), 1);
	assert_int_equal(power_pick_idle_state(c, 3499999, true), 1);
	assert_int_equal(power_pick_idle_state(c, 3500000, true), 2);
	assert_int_equal(power_pick_idle_state(c, 3500000, false), 1); /* cluster state needs all idle */
	assert_int_equal(power_pick_idle_state(c, 10 * NSEC_PER_SEC, false), 1);
	assert_int_equal(power_pick_idle_state(c, 10 * NSEC_PER_SEC, true), 2);
}

static void test_pick_idle_reference(void **state)
{
	/* Slow reference: of the states that fit, the one with the highest index; WFI always. */
	(void)state;
	for (int k = 0; k < 2; k++) {
		const struct platform *p = k ? &juno : &hikey;
		for (int ci = 0; ci < p->nr_clusters; ci++) {
			const struct plat_cluster *c = &p->clusters[ci];
			for (u64 ns = 0; ns < 5000000; ns += 7919) {
				for (int all = 0; all < 2; all++) {
					int want = 0;
					for (int i = 0; i < c->nr_idle; i++) {
						double need_ns = c->idle[i].target_residency_us * 1e3;
						if ((double)ns >= need_ns &&
						    (all || !c->idle[i].cluster_level))
							want = i;
					}
					assert_int_equal(power_pick_idle_state(c, ns, all), want);
				}
			}
		}
	}
}

static void test_em_energy_integration(void **state)
{
	/* 1 s busy at 2362000 kHz on an A73 (cpu 4), em: 1571 mW x 1 s = 1.571 J; by 1 ms steps. */
	int opp = plat_cluster_opp_index(&hikey.clusters[1], 2362000);
	double joules = 0;
	(void)state;
	assert_int_equal(opp, 4);
	for (int ms = 0; ms < 1000; ms++)
		joules += power_cpu_busy(&hikey, POWER_MODEL_EM, 4, opp) * 1e-3 / 1000.0;
	assert_float_equal(joules, 1.571, 1e-6);
	assert_true(fabs(joules - 1.571) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_em),
		cmocka_unit_test(test_costs),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_pick_idle_worked),
		cmocka_unit_test(test_pick_idle_reference),
		cmocka_unit_test(test_em_energy_integration),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
