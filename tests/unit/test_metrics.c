/*
 * test_metrics.c - the metrics runs are judged by and the thresholds on their change
 * (src/metrics/metrics.c), as compare and tune use them.
 *
 * Checks: the --fail-on / --subject-to threshold parser (accepted and refused forms) and the
 * crossing rule on both sides of each limit; the value of each kind of metric from hand-built
 * run results (sums and maxima over tasks, a policy's frequency in MHz, the closed-loop
 * figures, the kernel's own calls and time); which names are metrics (per-cluster and
 * per-policy numbers, metrics of tasks only). Does not check the tables compare prints.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics/metrics.h"

/* --- thresholds ---------------------------------------------------------------------------- */

static void test_threshold_parse(void **state)
{
	struct metric_threshold t;
	struct gs_error err = {0};
	static const char *const bad[] = {
		"energy", "energy>", ">2%", "energy>2%%", "energy>abc", "energy=2", "energy>2 x",
		"energy>nan", "energy>inf", "", "energy=>2", "ener-gy>2",
	};
	(void)state;

	assert_int_equal(metric_threshold_parse("energy>+2%", &t, &err), 0);
	assert_string_equal(t.metric, "energy");
	assert_int_equal(t.op, METRIC_GT);
	assert_float_equal(t.value, 2.0, 0);
	assert_true(t.relative);

	assert_int_equal(metric_threshold_parse("avg_freq_policy4<-10%", &t, &err), 0);
	assert_string_equal(t.metric, "avg_freq_policy4");
	assert_int_equal(t.op, METRIC_LT);
	assert_float_equal(t.value, -10.0, 0);
	assert_true(t.relative);

	assert_int_equal(metric_threshold_parse("transitions>+100", &t, &err), 0);
	assert_int_equal(t.op, METRIC_GT);
	assert_float_equal(t.value, 100.0, 0);
	assert_false(t.relative);

	assert_int_equal(metric_threshold_parse(" delay >= 5.5 % ", &t, &err), 0);
	assert_string_equal(t.metric, "delay");
	assert_int_equal(t.op, METRIC_GE);
	assert_float_equal(t.value, 5.5, 0);
	assert_true(t.relative);

	assert_int_equal(metric_threshold_parse("busy<=0.25", &t, &err), 0);
	assert_int_equal(t.op, METRIC_LE);
	assert_float_equal(t.value, 0.25, 0);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		gs_error_clear(&err);
		if (metric_threshold_parse(bad[i], &t, &err) != GS_EARG)
			fail_msg("'%s' was accepted", bad[i]);
		assert_non_null(strstr(err.msg, bad[i]));
	}
}

static void test_threshold_crossed(void **state)
{
	struct metric_threshold t;
	struct gs_error err = {0};
	(void)state;

	assert_int_equal(metric_threshold_parse("energy>+2%", &t, &err), 0);
	assert_true(metric_threshold_crossed(&t, 100, 102.5));   /* +2.5% */
	assert_false(metric_threshold_crossed(&t, 100, 102));    /* +2%: not above */
	assert_false(metric_threshold_crossed(&t, 100, 90));
	assert_true(metric_threshold_crossed(&t, -100, -97));    /* +3% of |base| */
	assert_false(metric_threshold_crossed(&t, 0, 0));
	assert_true(metric_threshold_crossed(&t, 0, 1));         /* +inf */
	assert_float_equal(metric_threshold_change(&t, 200, 230), 15.0, 1e-12);

	assert_int_equal(metric_threshold_parse("avg_freq_policy4<-10%", &t, &err), 0);
	assert_true(metric_threshold_crossed(&t, 1000, 899));
	assert_false(metric_threshold_crossed(&t, 1000, 900));
	assert_false(metric_threshold_crossed(&t, 1000, 1200));

	assert_int_equal(metric_threshold_parse("transitions>+100", &t, &err), 0);
	assert_true(metric_threshold_crossed(&t, 10, 111));
	assert_false(metric_threshold_crossed(&t, 10, 110));
	assert_float_equal(metric_threshold_change(&t, 10, 111), 101.0, 0);

	assert_int_equal(metric_threshold_parse("delay>=5%", &t, &err), 0);
	assert_true(metric_threshold_crossed(&t, 2, 2.1));       /* exactly +5% */
}

static void test_metric_delay(void **state)
{
	struct run_result r;
	struct run_task_result tasks[2] = {
		{.pid = 1, .delay_s = 0.25, .max_delay_s = 0.125},
		{.pid = 2, .delay_s = 0.5, .max_delay_s = 0.375},
	};
	(void)state;

	run_result_init(&r);
	r.nr_clusters = 2;
	r.pol[0].policy = 0;
	r.pol[0].avg_freq_khz = 1000;
	r.pol[1].policy = 1;
	r.nr_tasks = 2;
	r.tasks = tasks;
	assert_float_equal(metric_value(&r, "delay"), 0.75, 0);
	assert_float_equal(metric_value(&r, "max_delay"), 0.375, 0);
	assert_float_equal(metric_value(&r, "avg_freq_policy0"), 1.0, 0);
	assert_true(isnan(metric_value(&r, "avg_freq_policy3")));
	assert_true(isnan(metric_value(&r, "energy_cluster9")));
	r.nr_tasks = 0;
	r.tasks = NULL;
	run_result_release(&r);
}

/* The closed-loop metrics by name, from the run's totals. */
static void test_metric_activity(void **state)
{
	struct run_result r;
	(void)state;

	run_result_init(&r);
	r.span_s = 2.5;
	r.stretch = 1.25;
	r.act_total.activations = 40;
	r.act_total.throughput = 16;
	r.act_total.latency = (struct run_dist){0.001, 0.002, 0.003};
	r.act_total.response = (struct run_dist){0.004, 0.005, 0.006};
	r.act_total.lateness = (struct run_dist){-0.007, 0.008, 0.009};
	assert_float_equal(metric_value(&r, "span"), 2.5, 0);
	assert_float_equal(metric_value(&r, "stretch"), 1.25, 0);
	assert_float_equal(metric_value(&r, "activations"), 40, 0);
	assert_float_equal(metric_value(&r, "throughput"), 16, 0);
	assert_float_equal(metric_value(&r, "latency_mean"), 0.001, 0);
	assert_float_equal(metric_value(&r, "latency_max"), 0.003, 0);
	assert_float_equal(metric_value(&r, "response_p95"), 0.005, 0);
	assert_float_equal(metric_value(&r, "lateness_mean"), -0.007, 0);
	assert_float_equal(metric_value(&r, "lateness_max"), 0.009, 0);
	assert_true(isnan(metric_value(&r, "response_p99")));
	run_result_release(&r);
}

/* The kernel's own figures: calls of the operations by name, time in ms. */
static void test_metric_kernel(void **state)
{
	struct run_result r;
	(void)state;

	run_result_init(&r);
	/* core/result.h: run_kernel_op_names[6] is cpufreq_update_util, [7] governor_eval */
	assert_string_equal(run_kernel_op_names[6], "cpufreq_update_util");
	assert_string_equal(run_kernel_op_names[7], "governor_eval");
	r.ovh.calls[6] = 1234;
	r.ovh.calls[7] = 56;
	r.ovh.total_s = 0.0025;
	r.ovh.charged_s = -0.0005;
	r.agg_ops = 78;
	assert_float_equal(metric_value(&r, "update_calls"), 1234, 0);
	assert_float_equal(metric_value(&r, "governor_evals"), 56, 0);
	assert_float_equal(metric_value(&r, "kernel_overhead"), 2.5, 1e-12);
	assert_float_equal(metric_value(&r, "kernel_charged"), -0.5, 1e-12);
	assert_float_equal(metric_value(&r, "uclamp_aggregations"), 78, 0);
	run_result_release(&r);
}

static void test_metric_find(void **state)
{
	char unit[64];
	(void)state;

	assert_string_equal(metric_find("energy")->name, "energy");
	assert_string_equal(metric_find("energy_cluster12")->name, "energy_cluster");
	assert_string_equal(metric_find("avg_freq_policy4")->name, "avg_freq_policy");
	assert_null(metric_find("energy_cluster"));
	assert_null(metric_find("energy_clusterx"));
	assert_null(metric_find("no_such"));
	assert_true(metric_find("kernel_charged")->work_only);
	assert_true(metric_find("response_p95")->of_tasks);
	assert_false(metric_find("kernel_overhead")->of_tasks);
	assert_true(metric_find("runtime")->tasks_only);
	assert_true(isnan(metric_value(&(struct run_result){0}, "runtime")));
	metric_unit(metric_find("avg_power"), "J", unit, sizeof(unit));
	assert_string_equal(unit, "W");
	metric_unit(metric_find("avg_power"), "mW", unit, sizeof(unit));
	assert_string_equal(unit, "mW/s");
	metric_unit(metric_find("energy_cluster0"), "mW", unit, sizeof(unit));
	assert_string_equal(unit, "mW");
	assert_string_equal(metric_op_text(METRIC_LE), "<=");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold_parse),
		cmocka_unit_test(test_threshold_crossed),
		cmocka_unit_test(test_metric_delay),
		cmocka_unit_test(test_metric_activity),
		cmocka_unit_test(test_metric_kernel),
		cmocka_unit_test(test_metric_find),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
