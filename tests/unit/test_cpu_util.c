/*
 * test_cpu_util.c - the one utilization function schedutil and EAS share (src/sched/cpu_util.c):
 * v5.9 schedutil_cpu_util(cpu, util_cfs, max, type, p) (v5.15-v6.7 effective_cpu_util) and
 * v6.8+ effective_cpu_util(cpu, util_cfs, &min, &max), on hand-set runqueue signals.
 *
 * Every expected number is worked out in the comment above its assert from the kernel's
 * formula:
 *   v5.9:  FREQUENCY_UTIL with no uclamp in use and an RT task runnable -> max;
 *          irq >= max -> max;
 *          util = cfs + rt, clamped by the rq's uclamp pair for FREQUENCY_UTIL only
 *                 (an inverted pair gives its min);
 *          cfs + rt (clamped) + dl >= max -> max;
 *          ENERGY_UTIL adds dl util;
 *          util = util * (max - irq) / max + irq      (scale_irq_capacity, truncating);
 *          FREQUENCY_UTIL adds the DL bandwidth; at most max.
 *   v6.8:  irq >= scale -> min = max = scale, return scale;
 *          *min = max(irq + bw_dl, rq uclamp.min), scale when uclamp is unused and RT runnable;
 *          *max = min(scale, rq uclamp.max);
 *          util = cfs + rt + dl, >= scale -> scale; else irq-scaled as above, at most scale.
 * Does not check: where the callers get the signals from (test_schedutil.c checks schedutil's
 * reading through the governor interface, test_eas.c compute_energy on a snapshot).
 */
#include "testutil.h"

#include <limits.h>

#include "sched/cpu_util.h"

/* uclamp unused: the rq's clamps are their defaults, 0 and 1024. */
static struct cpu_util_rq rq_plain(void)
{
	return (struct cpu_util_rq){.uclamp_min = 0, .uclamp_max = 1024};
}

static void test_rt_runnable_asks_max(void **state)
{
	struct cpu_util_rq rq = rq_plain();
	(void)state;

	rq.util_rt = 50;
	rq.rt_runnable = true;
	/* no uclamp in use, RT runnable: FREQUENCY_UTIL is max, whatever max is */
	assert_int_equal(schedutil_cpu_util(&rq, 100, 1024, FREQUENCY_UTIL), 1024);
	assert_int_equal(schedutil_cpu_util(&rq, 100, 462, FREQUENCY_UTIL), 462);
	/* ENERGY_UTIL has no RT rule: 100 + 50 */
	assert_int_equal(schedutil_cpu_util(&rq, 100, 1024, ENERGY_UTIL), 150);
	/* uclamp in use: RT gets its boost through uclamp.min instead; rq min 0: 150 */
	rq.uclamp_used = true;
	assert_int_equal(schedutil_cpu_util(&rq, 100, 1024, FREQUENCY_UTIL), 150);
	/* not runnable, uclamp unused: cfs + rt = 150 */
	rq.uclamp_used = false;
	rq.rt_runnable = false;
	assert_int_equal(schedutil_cpu_util(&rq, 100, 1024, FREQUENCY_UTIL), 150);
}

static void test_uclamp_frequency_not_energy(void **state)
{
	struct cpu_util_rq rq = rq_plain();
	(void)state;

	rq.util_rt = 50;
	rq.uclamp_used = true;
	/* boost: clamp(100 + 50, 512, 1024) = 512 for the frequency, 150 for the energy */
	rq.uclamp_min = 512;
	assert_int_equal(schedutil_cpu_util(&rq, 100, 1024, FREQUENCY_UTIL), 512);
	assert_int_equal(schedutil_cpu_util(&rq, 100, 1024, ENERGY_UTIL), 150);
	/* cap: clamp(600 + 50, 0, 300) = 300; ENERGY_UTIL 650 */
	rq.uclamp_min = 0;
	rq.uclamp_max = 300;
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, FREQUENCY_UTIL), 300);
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, ENERGY_UTIL), 650);
	/* inverted pair (min 400 >= max 300): the min, 400 */
	rq.uclamp_min = 400;
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, FREQUENCY_UTIL), 400);
	/* the same values while uclamp is unused are not applied: 650 */
	rq.uclamp_used = false;
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, FREQUENCY_UTIL), 650);
	/* no rq clamps at all (a snapshot without them): [0, ULONG_MAX] leaves 650 */
	rq.uclamp_used = true;
	rq.uclamp_min = 0;
	rq.uclamp_max = ULONG_MAX;
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, FREQUENCY_UTIL), 650);
	/* clamped, then DL: min(650, 300) = 300, + dl 20 < 1024, FREQUENCY adds bw_dl 100: 400 */
	rq.uclamp_max = 300;
	rq.util_dl = 20;
	rq.bw_dl = 100;
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, FREQUENCY_UTIL), 400);
	/* ENERGY: 650 + 20 = 670 */
	assert_int_equal(schedutil_cpu_util(&rq, 600, 1024, ENERGY_UTIL), 670);
}

static void test_irq_scaling(void **state)
{
	struct cpu_util_rq rq = rq_plain();
	(void)state;

	/* 500 * (1024 - 256) / 1024 + 256 = 375 + 256 = 631 */
	rq.util_irq = 256;
	assert_int_equal(schedutil_cpu_util(&rq, 500, 1024, FREQUENCY_UTIL), 631);
	assert_int_equal(schedutil_cpu_util(&rq, 500, 1024, ENERGY_UTIL), 631);
	/* 100 * (462 - 100) / 462 = 36200 / 462 = 78 (78.35 truncated), + 100 = 178 */
	rq.util_irq = 100;
	assert_int_equal(schedutil_cpu_util(&rq, 100, 462, FREQUENCY_UTIL), 178);
	/* irq >= max: max, for both types */
	rq.util_irq = 462;
	assert_int_equal(schedutil_cpu_util(&rq, 0, 462, FREQUENCY_UTIL), 462);
	assert_int_equal(schedutil_cpu_util(&rq, 0, 462, ENERGY_UTIL), 462);
}

static void test_dl_added(void **state)
{
	struct cpu_util_rq rq = rq_plain();
	(void)state;

	/* FREQUENCY_UTIL adds the bandwidth (300 + 100), ENERGY_UTIL the util (300 + 80) */
	rq.util_dl = 80;
	rq.bw_dl = 100;
	assert_int_equal(schedutil_cpu_util(&rq, 300, 1024, FREQUENCY_UTIL), 400);
	assert_int_equal(schedutil_cpu_util(&rq, 300, 1024, ENERGY_UTIL), 380);
	/* 944 + 80 = 1024 >= max: saturated, max for both */
	assert_int_equal(schedutil_cpu_util(&rq, 944, 1024, FREQUENCY_UTIL), 1024);
	assert_int_equal(schedutil_cpu_util(&rq, 944, 1024, ENERGY_UTIL), 1024);
	/* 943 + 80 = 1023 < max; FREQUENCY: 943 + 100 = 1043, capped at 1024; ENERGY: 1023 */
	assert_int_equal(schedutil_cpu_util(&rq, 943, 1024, FREQUENCY_UTIL), 1024);
	assert_int_equal(schedutil_cpu_util(&rq, 943, 1024, ENERGY_UTIL), 1023);
	/* irq and DL together, cfs 300, dl 40, bw 50, irq 128:
	 * FREQUENCY: 300 * 896 / 1024 = 262 (262.5) + 128 = 390, + bw 50 = 440
	 * ENERGY:    340 * 896 / 1024 = 297 (297.5) + 128 = 425 */
	rq.util_dl = 40;
	rq.bw_dl = 50;
	rq.util_irq = 128;
	assert_int_equal(schedutil_cpu_util(&rq, 300, 1024, FREQUENCY_UTIL), 440);
	assert_int_equal(schedutil_cpu_util(&rq, 300, 1024, ENERGY_UTIL), 425);
}

static void test_v6_8_min_max(void **state)
{
	struct cpu_util_rq rq = rq_plain();
	unsigned long lo = 1, hi = 1;
	(void)state;

	/* uclamp unused, RT runnable: min = scale; max = min(1024, 1024); util 200 + 100 = 300 */
	rq.util_rt = 100;
	rq.rt_runnable = true;
	assert_int_equal(effective_cpu_util(&rq, 200, 1024, &lo, &hi), 300);
	assert_int_equal(lo, 1024);
	assert_int_equal(hi, 1024);
	/* a LITTLE CPU: min = scale 462, max = min(462, 1024) = 462 */
	assert_int_equal(effective_cpu_util(&rq, 200, 462, &lo, &hi), 300);
	assert_int_equal(lo, 462);
	assert_int_equal(hi, 462);
	/* uclamp in use (no RT rule), rq min 300 max 600, bw_dl 50, irq 128, dl 20:
	 * min = max(128 + 50, 300) = 300; max = min(1024, 600) = 600;
	 * util = 200 + 100 + 20 = 320 -> 320 * 896 / 1024 = 280 + 128 = 408 */
	rq.uclamp_used = true;
	rq.uclamp_min = 300;
	rq.uclamp_max = 600;
	rq.bw_dl = 50;
	rq.util_irq = 128;
	rq.util_dl = 20;
	assert_int_equal(effective_cpu_util(&rq, 200, 1024, &lo, &hi), 408);
	assert_int_equal(lo, 300);
	assert_int_equal(hi, 600);
	/* rq min 100: the DL bandwidth with the irq pressure wins, 128 + 50 = 178 */
	rq.uclamp_min = 100;
	assert_int_equal(effective_cpu_util(&rq, 200, 1024, &lo, &hi), 408);
	assert_int_equal(lo, 178);
	/* util 1000 + 100 + 20 >= 1024: scale, the band still set */
	assert_int_equal(effective_cpu_util(&rq, 1000, 1024, &lo, &hi), 1024);
	assert_int_equal(lo, 178);
	assert_int_equal(hi, 600);
	/* irq >= scale: everything is the scale */
	rq.util_irq = 462;
	assert_int_equal(effective_cpu_util(&rq, 0, 462, &lo, &hi), 462);
	assert_int_equal(lo, 462);
	assert_int_equal(hi, 462);
}

/* uclamp_rq_is_capped() (kernel/sched/sched.h, Debian 6.1 to 7.2): rq max below 1024 and
 * cpu_util_cfs (at most the capacity) + cpu_util_rt at or above it. */
static void test_uclamp_rq_is_capped(void **state)
{
	(void)state;
	/* 200 + 100 = 300 >= 300: capped; 199 + 100 = 299 < 300: not */
	assert_true(uclamp_rq_is_capped(200, 100, 1024, 300));
	assert_false(uclamp_rq_is_capped(199, 100, 1024, 300));
	/* max 1024 (uclamp not in use, or no cap): never capped, even at full util */
	assert_false(uclamp_rq_is_capped(1024, 1024, 1024, 1024));
	/* max 0 (a uclamp_max of 0 held while idle): capped at util 0 */
	assert_true(uclamp_rq_is_capped(0, 0, 1024, 0));
	/* cfs 900 on a CPU of capacity 446 counts as 446: 446 + 0 < 450, not capped */
	assert_false(uclamp_rq_is_capped(900, 0, 446, 450));
	assert_true(uclamp_rq_is_capped(900, 4, 446, 450));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rt_runnable_asks_max),
		cmocka_unit_test(test_uclamp_frequency_not_energy),
		cmocka_unit_test(test_irq_scaling),
		cmocka_unit_test(test_dl_added),
		cmocka_unit_test(test_v6_8_min_max),
		cmocka_unit_test(test_uclamp_rq_is_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
