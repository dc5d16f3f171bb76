/*
 * test_uclamp.c - uclamp (Linux v5.9 kernel/sched/core.c, sched.h) on its own.
 *
 * Checks: every static-key rule (setattr valid/invalid, sysctl changed/unchanged/invalid, cgroup
 * write even when unchanged, stays on, skipped vs done aggregation work, quiet dec of a task
 * enqueued while the key was off); bucket ids for 5 and 20 buckets against a double-precision
 * reference, including v5.9's out-of-range id 20 landing in the spare bucket; bucket max
 * aggregation; idle retention (MAX kept with UCLAMP_FLAG_IDLE, overwritten at the next inc, MIN
 * to 0) and v5.9's init flags 0; RT default min and its sysctl; effective values restricted by
 * the group (v5.9 rule) and the system default; capacity_from_percent; uclamp_rq_util_with.
 * Expected numbers are worked by hand in the comments, or by an obvious reference.
 * Does not check: the scheduler's calls of inc/dec (sched tests), policy files (test_policy.c).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/profile.h"
#include "uclamp/uclamp.h"

static struct uclamp_sys sys;

static int setup5(void **state)
{
	(void)state;
	uclamp_sys_init(&sys, 5);
	return 0;
}

/* A CFS task with clamps set by sched_setattr (turns the key on). */
static void task_with(struct uclamp_task *p, int min, int max)
{
	uclamp_task_init(&sys, p, false);
	assert_int_equal(uclamp_setattr(&sys, p, min, max, 1, NULL), 0);
}

/* ---- static key ---------------------------------------------------------------------------- */

static void test_key_off_at_boot(void **state)
{
	(void)state;
	assert_false(uclamp_is_used(&sys));
	assert_false(sys.stats.key_on);
	assert_int_equal(sys.uclamp_default[UCLAMP_MIN].value, 1024);
	assert_int_equal(sys.uclamp_default[UCLAMP_MAX].value, 1024);
	assert_int_equal(sys.groups[0].eff[UCLAMP_MIN].value, 1024);
	assert_int_equal(sys.groups[0].eff[UCLAMP_MAX].value, 1024);
	assert_int_equal(sys.nr_groups, 1);
	assert_string_equal(sys.groups[0].path, "/");
}

static void test_key_setattr(void **state)
{
	struct uclamp_task p;
	struct gs_error err;
	(void)state;

	uclamp_task_init(&sys, &p, false);
	gs_error_clear(&err);
	/* invalid: min > max; max > 1024 -> rejected, key stays off */
	assert_int_equal(uclamp_setattr(&sys, &p, 600, 500, 10, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "uclamp_min 600 > uclamp_max 500");
	assert_int_equal(uclamp_setattr(&sys, &p, -1, 2000, 10, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "uclamp_max 2000 out of range 0..1024");
	/* min alone above the current max (1024) */
	assert_int_equal(uclamp_setattr(&sys, &p, 1025, -1, 10, &err), GS_EPOLICY);
	assert_false(uclamp_is_used(&sys));
	assert_int_equal(sys.stats.setattr_rejected, 3);
	assert_int_equal(p.req[UCLAMP_MIN].value, 0);
	assert_false(p.req[UCLAMP_MIN].user_defined);

	/* valid -> on, stamped */
	assert_int_equal(uclamp_setattr(&sys, &p, 100, -1, 42, &err), 0);
	assert_true(uclamp_is_used(&sys));
	assert_true(sys.stats.key_on);
	assert_int_equal(sys.stats.key_on_at_ns, 42);
	assert_int_equal(p.req[UCLAMP_MIN].value, 100);
	assert_true(p.req[UCLAMP_MIN].user_defined);
	assert_false(p.req[UCLAMP_MAX].user_defined);

	/* v5.9 uclamp_validate: a clamp given alone is checked against the other current request */
	assert_int_equal(uclamp_setattr(&sys, &p, -1, 50, 43, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "uclamp_min 100 > uclamp_max 50");
	/* stays on, first stamp kept */
	assert_int_equal(sys.stats.key_on_at_ns, 42);
}

static void test_key_sysctl(void **state)
{
	struct gs_error err;
	(void)state;
	gs_error_clear(&err);

	/* unchanged values: key stays off */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN, 1024, 5, &err), 0);
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MAX, 1024, 5, &err), 0);
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 1024, 5, &err), 0);
	assert_false(uclamp_is_used(&sys));

	/* invalid: max 100 while min is still 1024 (min > max), > 1024: rejected and undone */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MAX, 100, 6, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "sched_util_clamp_min 1024 > sched_util_clamp_max 100");
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 1025, 6, &err),
			 GS_EPOLICY);
	assert_string_equal(err.msg, "sched_util_clamp_min_rt_default 1025 out of range 0..1024");
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MAX, 1025, 6, &err), GS_EPOLICY);
	assert_int_equal(sys.sysctl_util_clamp_max, 1024);
	assert_int_equal(sys.sysctl_util_clamp_min_rt_default, 1024);
	assert_int_equal(sys.uclamp_default[UCLAMP_MAX].value, 1024);
	assert_int_equal(sys.stats.sysctl_rejected, 3);
	assert_false(uclamp_is_used(&sys));

	/* changed: on, and the default and the root group follow */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN, 200, 7, &err), 0);
	assert_true(uclamp_is_used(&sys));
	assert_int_equal(sys.stats.key_on_at_ns, 7);
	assert_int_equal(sys.uclamp_default[UCLAMP_MIN].value, 200);
	assert_int_equal(sys.groups[0].req[UCLAMP_MIN].value, 200);
	assert_int_equal(sys.groups[0].eff[UCLAMP_MIN].value, 200);
	assert_int_equal(sys.groups[0].eff_changed, 1U << UCLAMP_MIN);

	/* now max 100 < min 200 is rejected; max 300 is fine */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MAX, 100, 8, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "sched_util_clamp_min 200 > sched_util_clamp_max 100");
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MAX, 300, 8, &err), 0);
	assert_int_equal(sys.uclamp_default[UCLAMP_MAX].value, 300);
	assert_int_equal(sys.stats.key_on_at_ns, 7);
}

static void test_key_sysctl_rt_default_changed(void **state)
{
	(void)state;
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 0, 9, NULL), 0);
	assert_true(uclamp_is_used(&sys));
	assert_int_equal(sys.stats.key_on_at_ns, 9);
	/* the rt default alone does not touch the defaults or the root group */
	assert_int_equal(sys.uclamp_default[UCLAMP_MIN].value, 1024);
	assert_int_equal(sys.groups[0].req[UCLAMP_MIN].value, 1024);
}

static void test_key_cgroup_unchanged(void **state)
{
	struct gs_error err;
	int g;
	(void)state;

	gs_error_clear(&err);
	g = uclamp_group_get(&sys, "/a");
	assert_int_equal(g, 1);
	assert_false(uclamp_is_used(&sys)); /* creating a group is not a write */
	/* a parse failure does not turn it on */
	assert_int_equal(uclamp_group_write(&sys, g, UCLAMP_MAX, "abc", 3, &err), GS_EPOLICY);
	assert_false(uclamp_is_used(&sys));
	/* "max" equals the default 1024: unchanged, but the key flips on */
	assert_int_equal(uclamp_group_write(&sys, g, UCLAMP_MAX, "max", 11, &err), 0);
	assert_true(uclamp_is_used(&sys));
	assert_int_equal(sys.stats.key_on_at_ns, 11);
	assert_int_equal(sys.groups[g].eff[UCLAMP_MAX].value, 1024);
	assert_int_equal(sys.groups[g].eff_changed, 0);
}

static void test_key_gates_aggregation(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task a, b;
	(void)state;

	uclamp_rq_init(&rq);
	uclamp_task_init(&sys, &a, false);
	uclamp_task_init(&sys, &b, false);

	/* key off: no work at all, counted as skipped */
	uclamp_rq_inc(&sys, &rq, &a);
	assert_int_equal(sys.stats.agg_skipped, 1);
	assert_int_equal(sys.stats.agg_ops, 0);
	assert_false(a.eff[UCLAMP_MIN].active);
	for (int i = 0; i <= UCLAMP_BUCKETS_MAX; i++)
		assert_int_equal(rq.uc[UCLAMP_MIN].bucket[i].tasks, 0);

	/* the key flips while a is enqueued */
	assert_int_equal(uclamp_setattr(&sys, &b, 300, -1, 20, NULL), 0);
	uclamp_rq_inc(&sys, &rq, &b); /* 300 -> bucket 1 */
	assert_int_equal(sys.stats.agg_ops, 1);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].tasks, 1);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 300);

	/* dequeue a: it was never refcounted, returns quietly (b's bucket untouched) */
	uclamp_rq_dec(&sys, &rq, &a);
	assert_int_equal(sys.stats.agg_ops, 2);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[0].tasks, 0);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].tasks, 1);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 300);

	uclamp_rq_dec(&sys, &rq, &b);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].tasks, 0);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
	assert_int_equal(sys.stats.agg_skipped, 1);
	assert_int_equal(sys.stats.agg_ops, 3);
}

/* ---- buckets ------------------------------------------------------------------------------- */

/* Reference: delta = round(1024 / n), id = floor(v / delta), in doubles. */
static unsigned int ref_bucket_id(int n, unsigned int v)
{
	double delta = floor(1024.0 / n + 0.5);
	return (unsigned int)floor(v / delta);
}

/* p->sched_class->uclamp_enabled is checked inside uclamp_rq_inc/dec, after the key (v5.9
 * core.c): a DL task is counted as skipped while the key is off and touches no bucket once on. */
static void test_class_gate(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task dl, cfs;
	(void)state;

	uclamp_rq_init(&rq);
	uclamp_task_init(&sys, &dl, false);
	uclamp_task_init(&sys, &cfs, false);
	dl.class_enabled = false;
	uclamp_rq_inc(&sys, &rq, &dl);
	assert_int_equal(sys.stats.agg_skipped, 1);
	assert_int_equal(uclamp_setattr(&sys, &cfs, 600, -1, 20, NULL), 0); /* key on */
	uclamp_rq_inc(&sys, &rq, &dl);
	uclamp_rq_inc(&sys, &rq, &cfs);
	assert_int_equal(sys.stats.agg_ops, 1);
	assert_false(dl.eff[UCLAMP_MIN].active);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 600);
	for (int i = 0; i <= UCLAMP_BUCKETS_MAX; i++)
		assert_int_equal(rq.uc[UCLAMP_MAX].bucket[i].tasks, (unsigned int)i == uclamp_bucket_id(&sys, 1024));
	uclamp_rq_dec(&sys, &rq, &dl);
	uclamp_rq_dec(&sys, &rq, &cfs);
	assert_int_equal(sys.stats.agg_ops, 2);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
}

static void test_bucket_ids_5(void **state)
{
	(void)state;
	assert_int_equal(sys.bucket_delta, 205);
	/* buckets of 205: [0,204] [205,409] [410,614] [615,819] [820,1024] */
	assert_int_equal(uclamp_bucket_id(&sys, 0), 0);
	assert_int_equal(uclamp_bucket_id(&sys, 204), 0);
	assert_int_equal(uclamp_bucket_id(&sys, 205), 1);
	assert_int_equal(uclamp_bucket_id(&sys, 409), 1);
	assert_int_equal(uclamp_bucket_id(&sys, 410), 2);
	assert_int_equal(uclamp_bucket_id(&sys, 614), 2);
	assert_int_equal(uclamp_bucket_id(&sys, 615), 3);
	assert_int_equal(uclamp_bucket_id(&sys, 819), 3);
	assert_int_equal(uclamp_bucket_id(&sys, 820), 4);
	assert_int_equal(uclamp_bucket_id(&sys, 1024), 4);
	for (unsigned int v = 0; v <= 1024; v++)
		assert_int_equal(uclamp_bucket_id(&sys, v), ref_bucket_id(5, v));
}

static void test_bucket_ids_all_counts(void **state)
{
	(void)state;
	for (int n = UCLAMP_BUCKETS_DEFAULT; n <= UCLAMP_BUCKETS_MAX; n++) {
		uclamp_sys_init(&sys, n);
		assert_int_equal(sys.buckets, n);
		for (unsigned int v = 0; v <= 1024; v++) {
			unsigned int id = uclamp_bucket_id(&sys, v);

			assert_int_equal(id, ref_bucket_id(n, v));
			/* never beyond the one spare bucket */
			assert_true(id <= (unsigned int)n);
		}
	}
}

static void test_bucket_ids_20_spare(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task hi, lo;
	(void)state;

	uclamp_sys_init(&sys, 20);
	/* delta = round(51.2) = 51; 1024 / 51 = 20.08 -> 20, one past bucket 19 (no clamp in v5.9) */
	assert_int_equal(sys.bucket_delta, 51);
	assert_int_equal(uclamp_bucket_id(&sys, 1024), 20);
	assert_int_equal(uclamp_bucket_id(&sys, 1020), 20);
	assert_int_equal(uclamp_bucket_id(&sys, 1019), 19);
	assert_int_equal(uclamp_bucket_id(&sys, 51), 1);
	assert_int_equal(uclamp_bucket_id(&sys, 50), 0);

	uclamp_rq_init(&rq);
	task_with(&hi, 1024, -1);
	task_with(&lo, 1000, -1); /* 1000 / 51 = 19.6 -> 19 */
	uclamp_rq_inc(&sys, &rq, &hi);
	assert_int_equal(hi.eff[UCLAMP_MIN].bucket_id, 20);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[20].tasks, 1);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[20].value, 1024);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 1024);
	/* the spare bucket of MIN does not spill into MAX's state (the kernel's would) */
	assert_int_equal(rq.uc[UCLAMP_MAX].bucket[0].tasks, 0);

	uclamp_rq_inc(&sys, &rq, &lo);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[19].tasks, 1);
	/* hi leaves: the scan starts at bucket 19 and finds lo */
	uclamp_rq_dec(&sys, &rq, &hi);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[20].tasks, 0);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 1000);

	/* lo leaves too: uclamp_rq_max_value() scans buckets 19..0 only (never the spare), finds
	 * none: MIN 0, and MAX (both in the spare bucket 20) goes idle keeping 1024 */
	uclamp_rq_dec(&sys, &rq, &lo);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
	assert_int_equal(rq.uc[UCLAMP_MAX].bucket[20].tasks, 0);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 1024);
	assert_true(rq.flags & UCLAMP_FLAG_IDLE);
	uclamp_rq_inc(&sys, &rq, &hi);
	uclamp_rq_inc(&sys, &rq, &lo);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 1024);
	/* bucket 19 emptying below the rq value 1024 does not rescan */
	uclamp_rq_dec(&sys, &rq, &lo);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 1024);
	uclamp_rq_dec(&sys, &rq, &hi);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
}

static void test_bucket_aggregation(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task a, b, c;
	(void)state;

	uclamp_rq_init(&rq);
	task_with(&a, 300, -1); /* bucket 1 */
	task_with(&b, 350, -1); /* bucket 1 */
	task_with(&c, 700, -1); /* bucket 3 */

	uclamp_rq_inc(&sys, &rq, &a);
	uclamp_rq_inc(&sys, &rq, &b);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].tasks, 2);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].value, 350); /* same bucket: the max */
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 350);

	uclamp_rq_inc(&sys, &rq, &c);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 700);
	/* c leaves: rq value from the highest non-empty bucket */
	uclamp_rq_dec(&sys, &rq, &c);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 350);

	/* b leaves, a remains in the bucket: the bucket value is not lowered (over-boost) */
	uclamp_rq_dec(&sys, &rq, &b);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].tasks, 1);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].value, 350);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 350);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 100, NULL), 350);

	/* the bucket's first task resets its value: c (bucket 3) and b back */
	uclamp_rq_dec(&sys, &rq, &a);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
	uclamp_rq_inc(&sys, &rq, &a);
	assert_int_equal(rq.uc[UCLAMP_MIN].bucket[1].value, 300);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 300);
}

/* ---- idle retention ------------------------------------------------------------------------ */

static void test_idle_retention(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task d, l, s;
	(void)state;

	uclamp_rq_init(&rq);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 1024);
	assert_int_equal(rq.flags, 0); /* v5.9 (v6.14 starts idle) */

	task_with(&l, 100, 600);
	task_with(&s, -1, 300);
	uclamp_task_init(&sys, &d, false); /* {0, 1024} */

	/* v5.9 boot state: flags 0, so the first task's lower max does not overwrite 1024 */
	uclamp_rq_inc(&sys, &rq, &l);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 1024);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 100);
	/* and its dequeue does not rescan (bucket 600 < rq 1024): no idle flag either */
	uclamp_rq_dec(&sys, &rq, &l);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 1024);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
	assert_int_equal(rq.flags, 0);

	/* a default task empties bucket 4: MAX keeps its value with the idle flag, MIN drops */
	uclamp_rq_inc(&sys, &rq, &d);
	uclamp_rq_dec(&sys, &rq, &d);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 1024);
	assert_int_equal(rq.flags, UCLAMP_FLAG_IDLE);

	/* next inc overwrites: MAX 600 (a max-aggregation would keep 1024), MIN 100 */
	uclamp_rq_inc(&sys, &rq, &l);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 600);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 100);
	assert_int_equal(rq.flags, 0);

	/* l leaves: MAX keeps the last value 600 while idle, MIN to 0 */
	uclamp_rq_dec(&sys, &rq, &l);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 600);
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 0);
	assert_int_equal(rq.flags, UCLAMP_FLAG_IDLE);
	/* blocked utilisation stays capped while idle */
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 900, NULL), 600);

	/* overwrite with a lower value: 300 replaces 600 */
	uclamp_rq_inc(&sys, &rq, &s);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 300);
	assert_int_equal(rq.flags, 0);
	/* while busy, a higher max aggregates up */
	uclamp_rq_inc(&sys, &rq, &l);
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 600);
}

/* ---- RT default min ------------------------------------------------------------------------ */

static void test_rt_default_min(void **state)
{
	struct uclamp_task rt, rt_user, cfs;
	struct gs_error err;
	(void)state;

	gs_error_clear(&err);
	uclamp_task_init(&sys, &rt, true);
	uclamp_task_init(&sys, &rt_user, true);
	uclamp_task_init(&sys, &cfs, false);
	assert_int_equal(rt.req[UCLAMP_MIN].value, 1024);
	assert_false(rt.req[UCLAMP_MIN].user_defined);
	assert_int_equal(uclamp_eff_value(&sys, &rt, UCLAMP_MIN), 1024);
	assert_int_equal(cfs.req[UCLAMP_MIN].value, 0);
	assert_false(uclamp_is_used(&sys)); /* the RT default alone is not a use */

	/* v5.9 quirk: max alone below the RT default min is rejected */
	assert_int_equal(uclamp_setattr(&sys, &rt_user, -1, 512, 1, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "uclamp_min 1024 > uclamp_max 512");
	assert_int_equal(uclamp_setattr(&sys, &rt_user, 300, -1, 1, &err), 0);

	/* sysctl rt default 0 rewrites the RT tasks' requests unless user defined */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 0, 2, &err), 0);
	uclamp_sync_rt_default(&sys, &rt);
	uclamp_sync_rt_default(&sys, &rt_user);
	uclamp_sync_rt_default(&sys, &cfs);
	assert_int_equal(rt.req[UCLAMP_MIN].value, 0);
	assert_int_equal(rt_user.req[UCLAMP_MIN].value, 300);
	assert_int_equal(cfs.req[UCLAMP_MIN].value, 0);

	/* class changes: to RT takes the current default (now 200), back to CFS resets to 0 */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 200, 3, &err), 0);
	uclamp_task_set_rt(&sys, &cfs, true);
	assert_int_equal(cfs.req[UCLAMP_MIN].value, 200);
	uclamp_task_set_rt(&sys, &cfs, false);
	assert_int_equal(cfs.req[UCLAMP_MIN].value, 0);
	uclamp_task_set_rt(&sys, &rt_user, false);
	assert_int_equal(rt_user.req[UCLAMP_MIN].value, 300); /* user defined survives */

	/* the RT request is still restricted by the system default min */
	uclamp_task_init(&sys, &rt, true); /* req min 200 */
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN, 150, 4, &err), 0);
	assert_int_equal(uclamp_eff_value(&sys, &rt, UCLAMP_MIN), 150);
}

/* ---- effective values ---------------------------------------------------------------------- */

static void test_effective_group_v59(void **state)
{
	struct uclamp_task p;
	int a;
	(void)state;

	a = uclamp_group_get(&sys, "/a");
	/* new group: requests {0, 1024}, effective min(req, root eff {1024,1024}) = {0, 1024} */
	assert_int_equal(sys.groups[a].req[UCLAMP_MIN].value, 0);
	assert_int_equal(sys.groups[a].eff[UCLAMP_MIN].value, 0);
	assert_int_equal(sys.groups[a].eff[UCLAMP_MAX].value, 1024);
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MAX, "50", 1, NULL), 0);
	assert_int_equal(sys.groups[a].eff[UCLAMP_MAX].value, 512); /* 5000 * 1024 / 10000 */
	assert_int_equal(sys.groups[a].eff_changed, 1U << UCLAMP_MAX);

	/* not user defined -> the group's value, whatever the request */
	uclamp_task_init(&sys, &p, false);
	p.group = a;
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 512);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MIN), 0);
	/* user defined below the group's -> its own */
	assert_int_equal(uclamp_setattr(&sys, &p, -1, 300, 1, NULL), 0);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 300);
	/* user defined above -> the group's */
	assert_int_equal(uclamp_setattr(&sys, &p, -1, 700, 1, NULL), 0);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 512);
	/* v5.9 applies the same rule to MIN: a boost of 400 above the group's min 0 -> 0 */
	assert_int_equal(uclamp_setattr(&sys, &p, 400, -1, 1, NULL), 0);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MIN), 0);
	/* group min 50% = 512: user 400 <= 512 -> 400 */
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MIN, "50", 1, NULL), 0);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MIN), 400);
	/* and a task without a min of its own (0, not user defined) gets the group's 512 */
	struct uclamp_task q;
	uclamp_task_init(&sys, &q, false);
	q.group = a;
	assert_int_equal(uclamp_eff_value(&sys, &q, UCLAMP_MIN), 512);

	/* root tasks are not restricted by the group, only by the system default */
	p.group = 0;
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 700);
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MIN, 0, 2, NULL), 0);
	assert_int_equal(uclamp_sysctl_write(&sys, UCLAMP_SYSCTL_MAX, 600, 2, NULL), 0);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 600);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MIN), 0); /* 400 > default 0 */
	/* the sysctls reach the root group, and through it the children */
	assert_int_equal(sys.groups[0].eff[UCLAMP_MAX].value, 600);
	assert_int_equal(sys.groups[a].eff[UCLAMP_MAX].value, 512);
	assert_int_equal(sys.groups[a].eff[UCLAMP_MIN].value, 0); /* min(512, root eff min 0) */

	/* active: the back-annotated value wins until requeued */
	p.eff[UCLAMP_MAX].active = true;
	p.eff[UCLAMP_MAX].value = 77;
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 77);
	assert_int_equal(uclamp_eff_get(&sys, &p, UCLAMP_MAX).value, 600);
}

static void test_group_tree(void **state)
{
	int a, b, c;
	(void)state;

	b = uclamp_group_get(&sys, "/a/b"); /* creates /a first */
	a = uclamp_group_find(&sys, "/a");
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(sys.groups[b].parent, a);
	assert_int_equal(uclamp_group_get(&sys, "/a/b"), b);
	assert_int_equal(uclamp_group_get(&sys, "a/b"), -1);
	assert_int_equal(uclamp_group_get(&sys, "/a//b"), -1);
	assert_int_equal(uclamp_group_get(&sys, "/a/"), -1);

	/* /a max 50% (512), /a/b max 80% (819.2 -> 819): capped by the parent */
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MAX, "50", 1, NULL), 0);
	assert_int_equal(uclamp_group_write(&sys, b, UCLAMP_MAX, "80", 1, NULL), 0);
	assert_int_equal(sys.groups[b].req[UCLAMP_MAX].value, 819);
	assert_int_equal(sys.groups[b].eff[UCLAMP_MAX].value, 512);
	/* /a/b min 60% (614.4 -> 614) capped by the parent's min 0 */
	assert_int_equal(uclamp_group_write(&sys, b, UCLAMP_MIN, "60", 1, NULL), 0);
	assert_int_equal(sys.groups[b].eff[UCLAMP_MIN].value, 0);
	/* /a min 100%: eff min(1024, own max 512) = 512; the child follows: min(614, 512) = 512 */
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MIN, "100", 1, NULL), 0);
	assert_int_equal(sys.groups[a].eff[UCLAMP_MIN].value, 512);
	assert_int_equal(sys.groups[b].eff[UCLAMP_MIN].value, 512);
	assert_int_equal(sys.groups[a].eff_changed, 1U << UCLAMP_MIN);
	assert_int_equal(sys.groups[b].eff_changed, 1U << UCLAMP_MIN);

	/* v5.9 cpu_uclamp_write does not check min <= max: the effective min is capped */
	c = uclamp_group_get(&sys, "/c");
	assert_int_equal(uclamp_group_write(&sys, c, UCLAMP_MIN, "80", 1, NULL), 0);
	assert_int_equal(uclamp_group_write(&sys, c, UCLAMP_MAX, "20", 1, NULL), 0);
	assert_int_equal(sys.groups[c].req[UCLAMP_MIN].value, 819);
	assert_int_equal(sys.groups[c].eff[UCLAMP_MIN].value, 205); /* 20% = 204.8 -> 205 */
	assert_int_equal(sys.groups[c].eff[UCLAMP_MAX].value, 205);
	/* other subtrees untouched by that write */
	assert_int_equal(sys.groups[a].eff_changed, 0);

	/* the root's files do not exist */
	struct gs_error err;
	gs_error_clear(&err);
	assert_int_equal(uclamp_group_write(&sys, 0, UCLAMP_MIN, "10", 1, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "'/': cpu.uclamp.min does not exist on the root cgroup");
}

static void test_group_limit(void **state)
{
	char path[32];
	(void)state;
	for (int i = 1; i < UCLAMP_MAX_GROUPS; i++) {
		snprintf(path, sizeof(path), "/g%d", i);
		assert_int_equal(uclamp_group_get(&sys, path), i);
	}
	assert_int_equal(uclamp_group_get(&sys, "/one-too-many"), -1);
	assert_int_equal(sys.nr_groups, UCLAMP_MAX_GROUPS);
}

static void test_update_active(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task p;
	int a;
	(void)state;

	a = uclamp_group_get(&sys, "/a");
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MAX, "max", 1, NULL), 0);
	uclamp_rq_init(&rq);
	uclamp_task_init(&sys, &p, false);
	p.group = a;
	uclamp_rq_inc(&sys, &rq, &p);
	assert_int_equal(p.eff[UCLAMP_MAX].value, 1024);
	assert_int_equal(rq.uc[UCLAMP_MAX].bucket[4].tasks, 1);

	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MAX, "25", 2, NULL), 0); /* 256 */
	/* lazy until re-accounted */
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 1024);
	uclamp_update_active(&sys, &rq, &p, UCLAMP_MAX);
	assert_int_equal(uclamp_eff_value(&sys, &p, UCLAMP_MAX), 256);
	assert_int_equal(rq.uc[UCLAMP_MAX].bucket[4].tasks, 0);
	assert_int_equal(rq.uc[UCLAMP_MAX].bucket[1].tasks, 1);
	/* bucket 4 emptied as the only task: idle value then overwrite to 256 */
	assert_int_equal(rq.uc[UCLAMP_MAX].value, 256);
	/* v5.9 does not clear the idle flag here */
	assert_true(rq.flags & UCLAMP_FLAG_IDLE);

	/* not enqueued: nothing to do */
	uclamp_rq_dec(&sys, &rq, &p);
	uclamp_update_active(&sys, &rq, &p, UCLAMP_MAX);
	assert_int_equal(rq.uc[UCLAMP_MAX].bucket[1].tasks, 0);
}

/* ---- capacity_from_percent ----------------------------------------------------------------- */

static void test_capacity_from_percent(void **state)
{
	static const char *const ok[] = {"0", "0.04", "0.05", "1", "12.34", "12.345", "33.33",
					 "50", "50.", "99.99", "100", "100.00", " 7.5 "};
	static const char *const bad[] = {"100.01", "101", "-1", "-0.5", "abc", "12abc", ".5",
					  "", "1e2", "+5", "maxx", "1.2.3", "12 3"};
	unsigned int v;
	(void)state;

	assert_int_equal(uclamp_capacity_from_percent("50", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(uclamp_capacity_from_percent("12.34", &v), 0);
	assert_int_equal(v, 126); /* 1234 * 1024 / 10000 = 126.36 */
	assert_int_equal(uclamp_capacity_from_percent("max", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(uclamp_capacity_from_percent("100", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(uclamp_capacity_from_percent("0.05", &v), 0);
	assert_int_equal(v, 1); /* 5 * 1024 / 10000 = 0.512 -> 1 */
	assert_int_equal(uclamp_capacity_from_percent("0.04", &v), 0);
	assert_int_equal(v, 0); /* 0.4096 -> 0 */
	assert_int_equal(uclamp_capacity_from_percent("100.01", &v), GS_EPOLICY);

	/* reference: percent rounded to 2 decimals, then round(x * 1024 / 100), in doubles */
	for (size_t i = 0; i < GS_ARRAY_SIZE(ok); i++) {
		double pct = floor(atof(ok[i]) * 100.0 + 0.5) / 100.0;
		unsigned int want = (unsigned int)floor(pct * 1024.0 / 100.0 + 0.5);

		assert_int_equal(uclamp_capacity_from_percent(ok[i], &v), 0);
		assert_int_equal(v, want);
	}
	for (size_t i = 0; i < GS_ARRAY_SIZE(bad); i++)
		assert_int_equal(uclamp_capacity_from_percent(bad[i], &v), GS_EPOLICY);
}

static void test_group_write_messages(void **state)
{
	struct gs_error err;
	int a;
	(void)state;
	gs_error_clear(&err);
	a = uclamp_group_get(&sys, "/a");
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MIN, "100.01", 1, &err), GS_EPOLICY);
	assert_string_equal(err.msg, "'100.01': percent out of range 0..100");
	assert_int_equal(uclamp_group_write(&sys, a, UCLAMP_MIN, "x", 1, &err), GS_EPOLICY);
	assert_string_equal(err.msg,
			    "'x': not a percent (want 0..100 with up to 2 decimals, or max)");
	assert_false(uclamp_is_used(&sys));
}

/* ---- uclamp_rq_util_with ------------------------------------------------------------------- */

static void test_rq_util_with(void **state)
{
	struct uclamp_rq_pair rq;
	struct uclamp_task p;
	(void)state;

	uclamp_rq_init(&rq);
	rq.uc[UCLAMP_MIN].value = 300;
	rq.uc[UCLAMP_MAX].value = 600;

	/* key off: unchanged, whatever the rq says */
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 100, NULL), 100);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 900, NULL), 900);

	uclamp_task_init(&sys, &p, false);
	assert_int_equal(uclamp_setattr(&sys, &p, 800, -1, 1, NULL), 0); /* key on */
	/* clamp(util, 300, 600) */
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 100, NULL), 300);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 400, NULL), 400);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 900, NULL), 600);
	/* with p: max(rq, p): min 800, max max(600, 1024) = 1024 */
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 100, &p), 800);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 900, &p), 900);
	/* min >= max -> min */
	rq.uc[UCLAMP_MIN].value = 700;
	rq.uc[UCLAMP_MAX].value = 500;
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 100, NULL), 700);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 1000, NULL), 700);
	rq.uc[UCLAMP_MIN].value = 500;
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 1000, NULL), 500);
	/* no idle shortcut in v5.9: an idle rq's retained max still applies with p */
	rq.flags = UCLAMP_FLAG_IDLE;
	rq.uc[UCLAMP_MIN].value = 0;
	rq.uc[UCLAMP_MAX].value = 900;
	assert_int_equal(uclamp_setattr(&sys, &p, 0, 200, 1, NULL), 0);
	assert_int_equal(uclamp_rq_util_with(&sys, &rq, 1000, &p), 900);
}

/*
 * The idle shortcut of uclamp_rq_util_with(rq, util, p) (kernel/sched/sched.h, Debian 5.10 and
 * 6.1; eenv_pd_max_util() in Debian 6.12 and 7.2 keeps it for the max): with a task, an idle rq
 * (UCLAMP_FLAG_IDLE) contributes nothing, since the task's enqueue will reset the retained max;
 * the task's own clamps bound the util. v5.9 max-aggregates the retained max (test above).
 */
static void test_rq_util_with_idle_shortcut(void **state)
{
	static const char *const with[] = {"v5.10", "v6.1", "v6.6", "v6.12", "v7.2"};
	struct uclamp_rq_pair rq;
	struct uclamp_task p;
	(void)state;

	for (size_t i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
		const struct kernel_profile *kp = kernel_profile_find(with[i]);

		assert_non_null(kp);
		uclamp_sys_release(&sys);
		uclamp_sys_init(&sys, 5);
		uclamp_sys_set_profile(&sys, kp);
		uclamp_rq_init_sys(&sys, &rq);
		uclamp_task_init(&sys, &p, false);
		assert_int_equal(uclamp_setattr(&sys, &p, 100, 200, 1, NULL), 0); /* key on */
		/* an idle rq that kept a max of 900: clamp(1000, 100, 200) */
		rq.flags = UCLAMP_FLAG_IDLE;
		rq.uc[UCLAMP_MIN].value = 0;
		rq.uc[UCLAMP_MAX].value = 900;
		assert_int_equal(uclamp_rq_util_with(&sys, &rq, 1000, &p), 200);
		assert_int_equal(uclamp_rq_util_with(&sys, &rq, 50, &p), 100);
		/* without a task, the idle rq's retained max still caps (schedutil's path) */
		assert_int_equal(uclamp_rq_util_with(&sys, &rq, 1000, NULL), 900);
		/* a busy rq max-aggregates as before: max(900, 200) */
		rq.flags = 0;
		assert_int_equal(uclamp_rq_util_with(&sys, &rq, 1000, &p), 900);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_key_off_at_boot, setup5),
		cmocka_unit_test_setup(test_key_setattr, setup5),
		cmocka_unit_test_setup(test_key_sysctl, setup5),
		cmocka_unit_test_setup(test_key_sysctl_rt_default_changed, setup5),
		cmocka_unit_test_setup(test_key_cgroup_unchanged, setup5),
		cmocka_unit_test_setup(test_key_gates_aggregation, setup5),
		cmocka_unit_test_setup(test_class_gate, setup5),
		cmocka_unit_test_setup(test_bucket_ids_5, setup5),
		cmocka_unit_test_setup(test_bucket_ids_all_counts, setup5),
		cmocka_unit_test_setup(test_bucket_ids_20_spare, setup5),
		cmocka_unit_test_setup(test_bucket_aggregation, setup5),
		cmocka_unit_test_setup(test_idle_retention, setup5),
		cmocka_unit_test_setup(test_rt_default_min, setup5),
		cmocka_unit_test_setup(test_effective_group_v59, setup5),
		cmocka_unit_test_setup(test_group_tree, setup5),
		cmocka_unit_test_setup(test_group_limit, setup5),
		cmocka_unit_test_setup(test_update_active, setup5),
		cmocka_unit_test_setup(test_capacity_from_percent, setup5),
		cmocka_unit_test_setup(test_group_write_messages, setup5),
		cmocka_unit_test_setup(test_rq_util_with, setup5),
		cmocka_unit_test_setup(test_rq_util_with_idle_shortcut, setup5),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
