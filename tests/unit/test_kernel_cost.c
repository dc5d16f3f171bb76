/*
 * test_kernel_cost.c - the kernel cost table (kernel/kernel_cost.h).
 *
 * Checks: operation names both ways; loading table kernel_costs with a platform model
 * (platform_load_sql: rows kept, a model without rows has no costs, bad rows refused naming the
 * row); the
 * capacity-invariant work of a row measured on a capacity-462 CPU; the cost of one enqueue and
 * one dequeue in each configuration, computed by hand from the kernel's v5.9 code path (no
 * uclamp: base + levels; key off: + the branch only; key on: + the branch + 2 clamp ids; no
 * static key: 2 clamp ids, no branch); the charged difference against a traced configuration
 * (0 when they are equal, negative when the emulated kernel does less); cost monotonic in the
 * cgroup depth 0..3; the time a cost takes scaling with frequency and capacity; and that a
 * configuration charged against itself, and no call of an op, is exactly +0.0 (not -0.0) of
 * work, whose time is +0.0 on any CPU: the replay's overhead accounting (sim/overhead.c)
 * skips those computations.
 * Does not check: the models' numbers (test_platform) or the replay's counts (test_overhead).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kernel_cost.h"
#include "power/platform.h"

/* tests/fixtures/platforms/minimal.sql: two CPUs of capacity 1024. */
static char *model_text(void)
{
	FILE *f = fopen(test_path("tests/fixtures/platforms/minimal.sql"), "rb");
	static char buf[8192];
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Costs on CPU 0 (capacity 1024: work = ns). */
static const char *rows_sql =
	"INSERT INTO kernel_costs VALUES ('activate_task', 500, 0, 't'), "
	"('deactivate_task', 600, 0, 't'), ('cgroup_level', 200, 0, 't'), "
	"('uclamp_rq_inc_id', 40, 0, 't'), ('uclamp_rq_dec_id', 30, 0, 't'), "
	"('uclamp_static_branch', 1, 0, 't'), ('cpufreq_update_util', 30, 1, 't');";

static int load(const char *extra, struct kcost *kc, struct gs_error *err)
{
	static struct platform p;
	char sql[16384];
	int ret;

	snprintf(sql, sizeof(sql), "%s\n%s", model_text(), extra);
	ret = platform_load_sql("k.sql", sql, &p, err);
	*kc = p.kcost;
	return ret;
}

static void load_good(struct kcost *kc)
{
	struct gs_error err = {0};

	if (load(rows_sql, kc, &err))
		fail_msg("%s", err.msg);
}

static void test_names(void **state)
{
	(void)state;
	for (int i = 0; i < KC__COUNT; i++)
		assert_int_equal(kcost_op_from_name(kcost_op_name((enum kcost_op)i)), i);
	assert_string_equal(kcost_op_name(KC_ACTIVATE), "activate_task");
	assert_string_equal(kcost_op_name(KC_UCLAMP_INC_ID), "uclamp_rq_inc_id");
	assert_null(kcost_op_name(KC__COUNT));
	assert_int_equal(kcost_op_from_name("enqueue_task"), -1);
	assert_int_equal(kcost_op_from_name(NULL), -1);
}

static void test_load(void **state)
{
	struct kcost kc;
	struct gs_error err = {0};
	(void)state;

	load_good(&kc);
	assert_true(kc.present);
	assert_true(kc.ns[KC_DEACTIVATE] == 600);
	assert_int_equal(kc.cpu[KC_UPDATE_UTIL], 1);
	assert_int_equal(kc.cpu[KC_GOV_EVAL], -1); /* no row */
	assert_true(kc.work_ns[KC_ACTIVATE] == 500);
	assert_true(kc.work_ns[KC_GOV_EVAL] == 0);
	/* measured on a capacity-512 CPU: half the capacity-invariant work; on 1024: all */
	kcost_set_capacity(&kc, (const u32[]){512, 1024});
	assert_true(kc.work_ns[KC_ACTIVATE] == 250);
	assert_true(kc.work_ns[KC_UPDATE_UTIL] == 30);

	assert_int_equal(load("", &kc, &err), 0);
	assert_false(kc.present);
	assert_true(kc.work_ns[KC_ACTIVATE] == 0);
}

static void expect_bad(const char *row, const char *msg)
{
	struct kcost kc;
	struct gs_error err = {0};
	char sql[1024];

	snprintf(sql, sizeof(sql), "INSERT INTO kernel_costs VALUES ('activate_task', 1, 0, 's'),"
		 " %s;", row);
	assert_int_equal(load(sql, &kc, &err), GS_EMODEL);
	if (!strstr(err.msg, msg))
		fail_msg("'%s' does not say '%s'", err.msg, msg);
	assert_false(kc.present);
}

static void test_bad_rows(void **state)
{
	(void)state;
	expect_bad("('enqueue_task', 1, 0, 's')",
		   "kernel_costs row operation='enqueue_task': unknown operation");
	expect_bad("('cgroup_level', -1, 0, 's')",
		   "kernel_costs row operation='cgroup_level': ns must be a number in 0..1e9");
	expect_bad("('cgroup_level', 'x', 0, 's')", "'cgroup_level': ns must be");
	expect_bad("('cgroup_level', 1, 2, 's')", "'cgroup_level': cpu must be an integer in 0..1");
	expect_bad("('cgroup_level', 1, 0, '')", "'cgroup_level': empty source");
	expect_bad("('activate_task', 1, 0, 's')", "'activate_task': given twice");
}

/* Hand computations in capacity-invariant ns (= the table's): activate 500, deactivate 600,
 * level 200, inc id 40, dec id 30, branch 1. */
static void test_sched_work(void **state)
{
	struct kcost kc;
	struct kcost_config none = {.uclamp = false}, off = {.uclamp = true, .static_key = true},
			    on = {.uclamp = true, .static_key = true, .key_on = true},
			    nokey = {.uclamp = true, .static_key = false};
	(void)state;

	load_good(&kc);
	assert_true(kcost_sched_work(&kc, &none, true) == 500);
	assert_true(kcost_sched_work(&kc, &none, false) == 600);
	assert_true(kcost_sched_work(&kc, &off, true) == 501);
	assert_true(kcost_sched_work(&kc, &on, true) == 500 + 1 + 2 * 40);
	assert_true(kcost_sched_work(&kc, &on, false) == 600 + 1 + 2 * 30);
	assert_true(kcost_sched_work(&kc, &nokey, true) == 500 + 2 * 40);
	/* key off charges nothing beyond the branch against a kernel without uclamp */
	assert_true(kcost_sched_delta(&kc, &off, &none, true) == 1);
	assert_true(kcost_sched_delta(&kc, &off, &none, false) == 1);
	assert_true(kcost_sched_delta(&kc, &off, &off, true) == 0);
	assert_true(kcost_sched_delta(&kc, &on, &off, true) == 80);
	assert_true(kcost_sched_delta(&kc, &off, &on, false) == -60);
	/* depth: 200 per level at every enqueue and dequeue */
	on.depth = 3;
	assert_true(kcost_sched_work(&kc, &on, true) == 500 + 3 * 200 + 1 + 80);
	assert_true(kcost_sched_delta(&kc, &on, &off, false) == 3 * 200 + 60);
}

/* Every configuration against itself, and zero calls of every op, with the table's costs and
 * with costs whose sums round: +0.0, and +0.0 ns on CPUs of any capacity at any frequency. */
static void test_same_config_zero(void **state)
{
	struct kcost kc;
	(void)state;

	load_good(&kc);
	for (int round = 0; round < 2; round++) {
		if (round)
			for (int i = 0; i < KC__COUNT; i++)
				kc.work_ns[i] = 0.1 + i / 3.0;
		for (int bits = 0; bits < 8; bits++) {
			struct kcost_config c = {.uclamp = bits & 1, .static_key = bits & 2,
						 .key_on = bits & 4};
			for (c.depth = 0; c.depth <= 5; c.depth++) {
				for (int enq = 0; enq < 2; enq++) {
					double d = kcost_sched_delta(&kc, &c, &c, enq);
					double t = kcost_time_ns(d, 462, 533000, 1844000);

					assert_true(d == 0 && !signbit(d));
					assert_true(t == 0 && !signbit(t));
					t = kcost_time_ns(d, 1024, 2362000, 2362000);
					assert_true(t == 0 && !signbit(t));
				}
			}
		}
		for (int i = 0; i < KC__COUNT; i++) {
			double t = kcost_time_ns((double)0 * kc.work_ns[i], 462, 533000, 1844000);

			assert_true(t == 0 && !signbit(t));
		}
	}
}

static void test_depth_monotonic(void **state)
{
	struct kcost kc;
	struct kcost_config c = {.uclamp = true, .static_key = true};
	double prev = -1;
	(void)state;

	load_good(&kc);
	for (int key = 0; key < 2; key++) {
		prev = -1;
		c.key_on = key;
		for (c.depth = 0; c.depth <= 3; c.depth++) {
			double w = kcost_sched_work(&kc, &c, true);
			assert_true(w > prev);
			prev = w;
		}
	}
}

/* 462 ns of work on a capacity-462 CPU at its max (1844 MHz) takes 1024 ns; at 999 MHz
 * 1024 x 1844 / 999 ns; on a capacity-1024 CPU at its max, 462 ns. */
static void test_time_scales(void **state)
{
	(void)state;
	assert_true(fabs(kcost_time_ns(462, 462, 1844000, 1844000) - 1024) < 1e-9);
	assert_true(fabs(kcost_time_ns(462, 462, 999000, 1844000) - 1024.0 * 1844 / 999) < 1e-9);
	assert_true(fabs(kcost_time_ns(462, 1024, 2362000, 2362000) - 462) < 1e-9);
	assert_true(kcost_time_ns(462, 0, 1, 1) == 0);
}

/* The memo answers what kcost_time_ns() answers, to the bit, for each fixed (work, capacity,
 * max) over a sequence of frequencies that repeat (its hits) and change (its misses), from its
 * zeroed start (khz 0) on; the work includes -0.0 and +0.0 (different bits, equal values). */
static void test_time_memo(void **state)
{
	static const double works[] = {0.0, -0.0, 462, 462.5, 1e-3, 3 * 462.5, 1e9};
	static const u32 caps[] = {0, 462, 1024};
	static const u32 khzs[] = {0, 533000, 999000, 1844000, 2362000};
	u32 x = 12345;
	(void)state;

	for (int wi = 0; wi < 7; wi++) {
		for (int ci = 0; ci < 3; ci++) {
			for (u32 max = 1844000; max <= 2362000; max += 518000) {
				struct kcost_time_memo m = {0};

				for (int i = 0; i < 500; i++) {
					double want, got;
					u32 khz;

					x = x * 1103515245u + 12345u; /* fixed LCG: same every run */
					khz = khzs[(x >> 16) % 5];
					want = kcost_time_ns(works[wi], caps[ci], khz, max);
					got = kcost_time_ns_memo(&m, works[wi], caps[ci], khz, max);
					assert_memory_equal(&want, &got, sizeof(want));
				}
			}
		}
	}
}

static void test_config_parse(void **state)
{
	struct kcost_config c;
	struct gs_error err = {0};
	(void)state;

	assert_int_equal(kcost_config_parse("uclamp=none", &c, &err), 0);
	assert_false(c.uclamp);
	assert_int_equal(c.depth, 0);
	assert_int_equal(kcost_config_parse("depth=3,uclamp=on", &c, &err), 0);
	assert_true(c.uclamp && c.static_key && c.key_on);
	assert_int_equal(c.depth, 3);
	assert_int_equal(kcost_config_parse("uclamp=always", &c, &err), 0);
	assert_true(c.uclamp && !c.static_key && !c.key_on);
	assert_int_equal(kcost_config_parse("depth=2", &c, &err), 0);
	assert_true(c.uclamp && c.static_key && !c.key_on); /* the default's uclamp=off */
	assert_int_equal(c.depth, 2);
	assert_int_equal(kcost_config_parse("uclamp=maybe", &c, &err), GS_EARG);
	assert_non_null(strstr(err.msg, "'uclamp=maybe'"));
	assert_int_equal(kcost_config_parse("depth=65", &c, &err), GS_EARG);
	assert_int_equal(kcost_config_parse("depth=1x", &c, &err), GS_EARG);
	assert_int_equal(kcost_config_parse("depth=", &c, &err), GS_EARG);
	assert_int_equal(kcost_config_parse("", &c, &err), GS_EARG);
	assert_int_equal(kcost_config_parse("uclamp=on,", &c, &err), GS_EARG);
	assert_int_equal(kcost_config_parse("depth=1,depth=2", &c, &err), GS_EARG);
	assert_non_null(strstr(err.msg, "given twice"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_sched_work),
		cmocka_unit_test(test_same_config_zero),
		cmocka_unit_test(test_depth_monotonic),
		cmocka_unit_test(test_time_scales),
		cmocka_unit_test(test_time_memo),
		cmocka_unit_test(test_config_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
