/*
 * test_util_est.c - util_est_enqueue/util_est_dequeue (Linux v5.9 fair.c), src/sched/util_est.c.
 *
 * Checks, against real kernel output: the three consecutive dequeues of Dietmar Eggemann's
 * LKML ramp-down trace (traces/formats/juno_util_est_rampdown_*.txt) and the 50% task of
 * juno_util_est_dequeue_*.txt. The expected numbers are read from those files with a small
 * sscanf here (not through the trace reader): the task's util at each dequeue
 * (sched_pelt_se util=), the cfs_rq estimate before it (the sugov_get_util print), the cfs_rq
 * estimate after it (sched_util_est_cfs enqueued=) and the task's new estimate when the kernel
 * wrote one (sched_util_est_se enqueued= ewma=). Also hand-worked cases of the LSB flag, the
 * 1% margin, FASTUP, the capacity skip and migrations (task_sleep false).
 * The order of dequeue_task_fair()'s util_est steps each kernel profile selects, read from the
 * kernels' fair.c: util_est_dequeue() at the end through v5.10-early; util_est_dequeue() first
 * and util_est_update() at the end from v5.10.89 (the MSB-flag fixes) to v6.6; both first in
 * v6.12 (dequeue_task_fair l.7282); the update back after the PELT update in 7.2
 * (update_load_avg l.5889, UPDATE_UTIL_EST).
 * Does not check: where the scheduler model calls these (test_sched.c).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "sched/pelt.h"
#include "sched/util_est.h"

struct dequeue_case {
	unsigned long util;        /* sched_pelt_se util= (the task's util_avg at dequeue) */
	unsigned int cfs_before;   /* sugov_get_util rq->cfs.avg.util_est.enqueued= */
	unsigned int cfs_after;    /* sched_util_est_cfs enqueued= */
	bool written;              /* a sched_util_est_se line followed */
	unsigned int enqueued;     /* its enqueued= (raw, flag bit included) */
	unsigned int ewma;         /* its ewma= */
};

/* Parse one LKML excerpt: one case per sched_pelt_se line, in order. */
static int parse_cases(const char *path, struct dequeue_case *c, int max)
{
	char line[512];
	int n = -1;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p;

		if (line[0] == '#')
			continue;
		if (strstr(line, "sched_pelt_se:")) {
			assert_true(n + 1 < max);
			n++;
			memset(&c[n], 0, sizeof(c[n]));
			p = strstr(line, " util=");
			assert_non_null(p);
			assert_int_equal(sscanf(p, " util=%lu", &c[n].util), 1);
		} else if (n >= 0 && strstr(line, "sugov_get_util:")) {
			p = strstr(line, "util_est.enqueued=");
			assert_non_null(p);
			assert_int_equal(sscanf(p, "util_est.enqueued=%u", &c[n].cfs_before), 1);
		} else if (n >= 0 && strstr(line, "sched_util_est_cfs:")) {
			p = strstr(line, "enqueued=");
			assert_int_equal(sscanf(p, "enqueued=%u", &c[n].cfs_after), 1);
		} else if (n >= 0 && strstr(line, "sched_util_est_se:")) {
			p = strstr(line, "enqueued=");
			assert_int_equal(sscanf(p, "enqueued=%u ewma=%u", &c[n].enqueued, &c[n].ewma), 2);
			c[n].written = true;
		}
	}
	fclose(f);
	return n + 1;
}

/* One activation: enqueue on an empty cfs_rq, PELT moves to `util`, dequeue at sleep. */
static bool activation(struct sched_avg *p, struct sched_avg *cfs, unsigned long util)
{
	memset(cfs, 0, sizeof(*cfs));
	util_est_enqueue(cfs, p);
	p->util_avg = util;
	cfs_se_util_change(p); /* __update_load_avg_se crossed a period */
	return util_est_dequeue(cfs, p, true, 1024);
}

static void test_rampdown_lkml(void **state)
{
	struct dequeue_case c[8];
	struct sched_avg p, cfs;
	int n = parse_cases(
		test_path("traces/formats/juno_util_est_rampdown_2020-12-15_762eea44.txt"), c, 8);
	(void)state;

	assert_int_equal(n, 3);
	/*
	 * Before the first dequeue the cfs_rq held 249 = max(ewma, enqueued) | 1 of the task: any
	 * state with that maximum and an older PELT sample (flag clear) gives the same result
	 * below, because FASTUP replaces the EWMA by the larger new sample 283.
	 */
	memset(&p, 0, sizeof(p));
	p.util_est.enqueued = 248;
	p.util_est.ewma = 249;
	for (int i = 0; i < n; i++) {
		memset(&cfs, 0, sizeof(cfs));
		util_est_enqueue(&cfs, &p);
		assert_int_equal(cfs.util_est.enqueued, c[i].cfs_before);
		p.util_avg = c[i].util;
		cfs_se_util_change(&p);
		assert_int_equal(util_est_dequeue(&cfs, &p, true, 1024), c[i].written);
		assert_int_equal(cfs.util_est.enqueued, c[i].cfs_after);
		assert_true(c[i].written);
		assert_int_equal(p.util_est.enqueued, c[i].enqueued);
		assert_int_equal(p.util_est.ewma, c[i].ewma);
	}
	/* the brief's worked numbers, which the file gives: */
	assert_int_equal(c[1].util, 248);
	assert_int_equal(c[1].enqueued, 249); /* 248 | UTIL_AVG_UNCHANGED */
	assert_int_equal(c[1].ewma, 274);     /* ((283 << 2) - 34) >> 2 = 1098 >> 2 */
	assert_int_equal(c[2].util, 183);
	assert_int_equal(c[2].enqueued, 183);
	assert_int_equal(c[2].ewma, 251);     /* ((274 << 2) - 91) >> 2 = 1005 >> 2 */
	assert_int_equal(c[2].cfs_before, 275); /* max(274, 249) | 1 */
}

/*
 * The 50% task: the cfs_rq held 601 before the dequeue, the task's util is 597, and the
 * kernel wrote no new estimate. 601 = max(ewma, enqueued) | 1; with util 597, FASTUP would
 * have written for any ewma < 597, so the file says ewma is in 597..601, and then |597 - ewma|
 * < 10: the margin rule skipped the write. Both halves are checked.
 */
static void test_dequeue_within_margin_lkml(void **state)
{
	struct dequeue_case c[4];
	struct sched_avg p, cfs;
	int n = parse_cases(
		test_path("traces/formats/juno_util_est_dequeue_2020-12-14_f7eb8636.txt"), c, 4);
	(void)state;

	assert_int_equal(n, 1);
	assert_int_equal(c[0].util, 597);
	assert_int_equal(c[0].cfs_before, 601);
	assert_int_equal(c[0].cfs_after, 0);
	assert_false(c[0].written);

	for (unsigned int ewma = 597; ewma <= 601; ewma++) {
		struct util_est before;

		memset(&p, 0, sizeof(p));
		p.util_est.ewma = ewma;
		p.util_est.enqueued = ewma >= 600 ? 596 : 600; /* keep max | 1 == 601 */
		before = p.util_est;
		assert_false(activation(&p, &cfs, c[0].util));
		assert_int_equal(cfs.util_est.enqueued, 0);
		/* nothing written, not even enqueued (beyond the flag PELT cleared) */
		assert_int_equal(p.util_est.ewma, before.ewma);
		assert_int_equal(p.util_est.enqueued, before.enqueued & ~1u);
	}
	/* ewma 596 with enqueued 601: FASTUP writes (597 > 596), contradicting the file */
	memset(&p, 0, sizeof(p));
	p.util_est.ewma = 596;
	p.util_est.enqueued = 600;
	assert_true(activation(&p, &cfs, 597));
	assert_int_equal(p.util_est.ewma, 597);
}

static void test_hand_cases(void **state)
{
	struct sched_avg p, cfs;
	(void)state;

	/* within_margin: |x| < 10 */
	assert_true(within_margin(9, 10));
	assert_true(within_margin(-9, 10));
	assert_true(within_margin(0, 10));
	assert_false(within_margin(10, 10));
	assert_false(within_margin(-10, 10));

	/* a fresh task: estimate 0 | 1 = 1 on the cfs_rq; first sample 300 -> FASTUP 301/301 */
	memset(&p, 0, sizeof(p));
	memset(&cfs, 0, sizeof(cfs));
	util_est_enqueue(&cfs, &p);
	assert_int_equal(cfs.util_est.enqueued, 1);
	p.util_avg = 300;
	cfs_se_util_change(&p);
	assert_true(util_est_dequeue(&cfs, &p, true, 1024));
	assert_int_equal(cfs.util_est.enqueued, 0);
	assert_int_equal(p.util_est.enqueued, 301);
	assert_int_equal(p.util_est.ewma, 301);
	assert_int_equal(task_util_est(&p), 301);

	/* PELT not updated since (flag still set): nothing learnt even if util_avg changed */
	util_est_enqueue(&cfs, &p);
	p.util_avg = 100;
	assert_false(util_est_dequeue(&cfs, &p, true, 1024));
	assert_int_equal(p.util_est.ewma, 301);

	/* decrease: 101 after 301: diff -200, ewma = (1204 - 200) >> 2 = 251 */
	util_est_enqueue(&cfs, &p);
	cfs_se_util_change(&p);
	assert_true(util_est_dequeue(&cfs, &p, true, 1024));
	assert_int_equal(p.util_est.enqueued, 101);
	assert_int_equal(p.util_est.ewma, 251);

	/* migration (task_sleep false): the cfs_rq loses 251 | 1, the task keeps its estimate */
	memset(&cfs, 0, sizeof(cfs));
	cfs.util_est.enqueued = 400;
	cfs_se_util_change(&p);
	p.util_avg = 50;
	assert_false(util_est_dequeue(&cfs, &p, false, 1024));
	assert_int_equal(cfs.util_est.enqueued, 400 - 251);
	assert_int_equal(p.util_est.ewma, 251);

	/* the cfs_rq never goes below 0 */
	cfs.util_est.enqueued = 100;
	assert_false(util_est_dequeue(&cfs, &p, false, 1024));
	assert_int_equal(cfs.util_est.enqueued, 0);

	/* util_avg above the CPU's capacity (462): no decrease learnt */
	memset(&p, 0, sizeof(p));
	memset(&cfs, 0, sizeof(cfs));
	p.util_est.ewma = 1000;
	p.util_est.enqueued = 1000;
	p.util_avg = 470;
	assert_false(util_est_dequeue(&cfs, &p, true, 462));
	assert_int_equal(p.util_est.ewma, 1000);
	assert_int_equal(p.util_est.enqueued, 1000);
	/* on a 1024 CPU the same sample is learnt: 471 - 1000 = -529, (4000 - 529) >> 2 = 867 */
	assert_true(util_est_dequeue(&cfs, &p, true, 1024));
	assert_int_equal(p.util_est.enqueued, 471);
	assert_int_equal(p.util_est.ewma, 867);
}

/*
 * v6.8+'s one util_est value (UTIL_EST_MARGIN_UNIFIED, 6.12) against 7.2's, which drops the
 * capacity skip (util_est_update, kernel/sched/fair.c l.4994 Debian 6.12.95, l.5768 7.2.13).
 * On a 462-capacity CPU, ewma 600 and a dequeue at util 500 (runnable 500): 6.12 learns
 * nothing (500 > 462); 7.2 takes the sample: diff 100, (2400 - 100) >> 2 = 575.
 */
static void test_unified_capacity_skip(void **state)
{
	struct util_est_cfg v6_12 = {.flag = 0x80000000U, .margin = UTIL_EST_MARGIN_UNIFIED,
				     .dequeue_order = UTIL_EST_ORDER_SUB_UPDATE_PELT};
	struct util_est_cfg v7_2 = v6_12;
	struct sched_avg p;
	(void)state;

	v7_2.margin = UTIL_EST_MARGIN_UNIFIED_NO_CAPACITY;
	memset(&p, 0, sizeof(p));
	p.util_est.ewma = 600;
	p.util_est.enqueued = 600;
	p.util_avg = 500;
	p.runnable_avg = 500;
	assert_false(util_est_update(&v6_12, &p, true, 462));
	assert_int_equal(p.util_est.ewma, 600);
	assert_true(util_est_update(&v7_2, &p, true, 462));
	assert_int_equal(p.util_est.ewma, 575);
	assert_int_equal(p.util_est.enqueued, 575 | 0x80000000U);
	/* on a 1024 CPU 6.12 takes it too */
	p.util_est.ewma = 600;
	p.util_est.enqueued = 600;
	assert_true(util_est_update(&v6_12, &p, true, 1024));
	assert_int_equal(p.util_est.ewma, 575);
}

/* The dequeue order of each profile, as the kernels' fair.c have it (header); no profile, v5.9. */
static void test_dequeue_order_per_profile(void **state)
{
	static const struct {
		const char *profile;
		enum util_est_dequeue_order order;
	} want[] = {
		{"v4.19", UTIL_EST_ORDER_PELT_SUB_UPDATE},
		{"v5.4", UTIL_EST_ORDER_PELT_SUB_UPDATE},
		{"v5.9", UTIL_EST_ORDER_PELT_SUB_UPDATE},
		{"v5.10-early", UTIL_EST_ORDER_PELT_SUB_UPDATE},
		{"v5.10", UTIL_EST_ORDER_SUB_PELT_UPDATE},
		{"v5.15", UTIL_EST_ORDER_SUB_PELT_UPDATE},
		{"v6.1", UTIL_EST_ORDER_SUB_PELT_UPDATE},
		{"v6.6", UTIL_EST_ORDER_SUB_PELT_UPDATE},
		{"v6.12", UTIL_EST_ORDER_SUB_UPDATE_PELT},
		{"v7.2", UTIL_EST_ORDER_SUB_PELT_UPDATE},
	};
	struct util_est_cfg cfg;
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct kernel_profile *kp = kernel_profile_find(want[i].profile);

		assert_non_null(kp);
		util_est_cfg_from_profile(&cfg, kp);
		if (cfg.dequeue_order != want[i].order)
			fail_msg("%s: dequeue order %d, want %d", want[i].profile,
				 (int)cfg.dequeue_order, (int)want[i].order);
	}
	util_est_cfg_from_profile(&cfg, NULL);
	assert_int_equal(cfg.dequeue_order, UTIL_EST_ORDER_PELT_SUB_UPDATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rampdown_lkml),
		cmocka_unit_test(test_dequeue_within_margin_lkml),
		cmocka_unit_test(test_hand_cases),
		cmocka_unit_test(test_unified_capacity_skip),
		cmocka_unit_test(test_dequeue_order_per_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
