/*
 * test_pelt_sums.c - how a cfs_rq's PELT sums follow when averages leave it (src/sched/fair.c,
 * enum pelt_sum_sync in src/kernel/profile.h), one case per kernel rule, every expected number
 * worked by hand below from the kernel's own lines:
 * - v5.9 update_cfs_rq_load_avg(), detach_entity_load_avg(): sub_positive(&sum, r * divider)
 *   (or the se's sum), nothing more;
 * - Debian 5.10.223 fair.c l.3654-3693 (and 5.15.100): at a removal the load and runnable sums
 *   are rebuilt, sum = avg * divider, and util's is subtracted, then floored at
 *   util_avg * PELT_MIN_DIVIDER; at a detach (l.3778-3790) util's and runnable's are rebuilt
 *   and the load's (dequeue_load_avg()) only subtracted;
 * - Debian 6.1 l.4017-4061 / 6.12 l.4691-4735 and l.3777, l.4817: every sum subtracted, then
 *   max_t(u32, sum, avg * PELT_MIN_DIVIDER), which cuts both sides to 32 bits;
 * - 7.2 __update_sa() l.4746: the same floor in the sum's own type (no cut of a u64 sum).
 * PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024 = 46718; with period_contrib 500 the divider is 47218.
 * Each case is set up with `now` at the cfs_rq's last update, so no period decays and the sums
 * are exactly what the rule leaves.
 */
#include "testutil.h"

#include <string.h>

#include "kernel/profile.h"
#include "sched/pelt.h"
#include "sched/sched.h"
#include "sched/sched_priv.h"

#define NOW 1048576000ULL /* a multiple of 1024 ns */
#define PC 500            /* period_contrib: divider 47218 */

/* A cfs_rq whose sums sit below avg * divider (period_contrib grew since its averages were
 * computed while nothing ran: the case the kernel's floor is for). */
static void cfs_state(struct sched_avg *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->last_update_time = NOW;
	sa->period_contrib = PC;
	sa->util_avg = 300;
	sa->util_sum = 14100000;     /* 300 * 47218 = 14165400 */
	sa->runnable_avg = 320;
	sa->runnable_sum = 15096760; /* 320 * 47218 = 15109760 */
	sa->load_avg = 600;
	sa->load_sum = 28320800;     /* 600 * 47218 = 28330800 */
}

/* The cfs_rq of cfs_state() with one removal queued. */
static void cfs_removing(struct cfs_rq *cfs, unsigned long util, unsigned long runnable,
			 unsigned long load)
{
	memset(cfs, 0, sizeof(*cfs));
	cfs_state(&cfs->avg);
	cfs->removed.nr = 1;
	cfs->removed.util_avg = util;
	cfs->removed.runnable_avg = runnable;
	cfs->removed.load_avg = load;
}

struct removal_want {
	enum pelt_sum_sync rule;
	u32 util_sum;
	u64 runnable_sum;
	u64 load_sum;
};

/*
 * Removed: util 298, runnable 300, load 590, divider 47218. The averages become 2, 20 and 10.
 * Subtracted: util 14100000 - 298 * 47218 (14070964) = 29036; runnable 15096760 - 14165400 =
 * 931360; load 28320800 - 27858620 = 462180. Floors: 2 * 46718 = 93436, 20 * 46718 = 934360,
 * 10 * 46718 = 467180, all three binding. Rebuilt: runnable 20 * 47218 = 944360, load
 * 10 * 47218 = 472180.
 */
static void test_removal(void **state)
{
	static const struct removal_want want[] = {
		{PELT_SUMS_SUBTRACT, 29036, 931360, 462180},
		{PELT_SUMS_RESYNC, 93436, 944360, 472180},
		{PELT_SUMS_FLOORED, 93436, 934360, 467180},
		{PELT_SUMS_FLOORED_TYPED, 93436, 934360, 467180},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct pelt_variant pv = {.sum_sync = want[i].rule};
		struct cfs_rq cfs;

		cfs_removing(&cfs, 298, 300, 590);
		assert_int_equal(update_cfs_rq_load_avg(NOW, &cfs, &pv), 1);
		assert_int_equal(cfs.avg.util_avg, 2);
		assert_int_equal(cfs.avg.runnable_avg, 20);
		assert_int_equal(cfs.avg.load_avg, 10);
		assert_int_equal(cfs.avg.util_sum, want[i].util_sum);
		assert_int_equal(cfs.avg.runnable_sum, want[i].runnable_sum);
		assert_int_equal(cfs.avg.load_sum, want[i].load_sum);
		assert_int_equal(cfs.removed.nr, 0);
	}
}

/*
 * A load_avg whose floor passes 32 bits: 100000 * 46718 = 4671800000. The sum left after the
 * removal, 4600000000, is below it. 6.1/6.12's max_t(u32, ...) compares and stores
 * 4600000000 mod 2^32 = 305032704 against 4671800000 mod 2^32 = 376832704: 376832704. 7.2's
 * max_t(u64, ...) keeps 4671800000.
 */
static void test_removal_u32_cut(void **state)
{
	static const struct {
		enum pelt_sum_sync rule;
		u64 load_sum;
	} want[] = {{PELT_SUMS_FLOORED, 376832704ULL}, {PELT_SUMS_FLOORED_TYPED, 4671800000ULL}};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct pelt_variant pv = {.sum_sync = want[i].rule};
		struct cfs_rq cfs;

		cfs_removing(&cfs, 0, 0, 1);
		cfs.avg.load_avg = 100001;
		cfs.avg.load_sum = 4600000000ULL + 47218ULL; /* less one avg * divider */
		update_cfs_rq_load_avg(NOW, &cfs, &pv);
		assert_int_equal(cfs.avg.load_avg, 100000);
		assert_true(cfs.avg.load_sum == want[i].load_sum);
	}
}

struct detach_want {
	const char *kernel;
	u32 util_sum;
	u64 runnable_sum;
	u64 load_sum;
};

/* One CPU under `kernel` with the cfs_rq of cfs_state() last updated now, and task 10 on it,
 * asleep, synced to now: util 298 / sum 298 * 47218 + 7000 = 14078964, runnable 300 /
 * 300 * 47218 + 5000 = 14170400, load 590 / unweighted sum 27400 (weighted 28057600). */
static struct sched *one_task(const char *kernel, struct rq **rq, struct task_node **n)
{
	struct sched_config cfg;
	struct sched *s;
	u64 now;

	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_cpus = 1;
	cfg.hz = 250;
	cfg.kernel = kernel_profile_find(kernel);
	cfg.capacity[0] = 1024;
	assert_non_null(cfg.kernel);
	assert_int_equal(sched_new(&cfg, NULL, &s), 0);
	*rq = &s->rq[0];
	update_rq_clock(*rq, NOW);
	now = rq_clock_pelt(&(*rq)->clock);
	cfs_state(&(*rq)->cfs.avg);
	(*rq)->cfs.avg.last_update_time = now;
	*n = node_get(s, 10, NULL, NOW);
	assert_non_null(*n);
	(*n)->t.cpu = 0;
	(*n)->t.avg.last_update_time = now;
	(*n)->t.avg.period_contrib = PC;
	(*n)->t.avg.util_avg = 298;
	(*n)->t.avg.util_sum = 14078964;
	(*n)->t.avg.runnable_avg = 300;
	(*n)->t.avg.runnable_sum = 14170400;
	(*n)->t.avg.load_avg = 590;
	(*n)->t.avg.load_sum = 27400;
	return s;
}

/*
 * A queued task detached (migrate_task_rq_fair(), TASK_ON_RQ_MIGRATING). The task: util 298 /
 * sum 298 * 47218 + 7000 = 14078964, runnable 300 / 300 * 47218 + 5000 = 14170400, load 590 /
 * unweighted sum 27400 (weighted 1024 * 27400 = 28057600). Subtracted: util 14100000 -
 * 14078964 = 21036, runnable 15096760 - 14170400 = 926360, load 28320800 - 28057600 = 263200.
 * v5.10 rebuilds util (2 * 47218 = 94436) and runnable (944360) and leaves load; 6.12 and 7.2
 * floor all three (93436, 934360, 467180).
 */
static void test_detach(void **state)
{
	static const struct detach_want want[] = {
		{"v5.9", 21036, 926360, 263200},
		{"v5.10", 94436, 944360, 263200},
		{"v6.12", 93436, 934360, 467180},
		{"v7.2", 93436, 934360, 467180},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct task_node *n;
		struct rq *rq;
		struct sched *s = one_task(want[i].kernel, &rq, &n);

		migrate_task_rq_fair(s, rq, &n->t, true, 0);
		assert_int_equal(rq->cfs.avg.util_avg, 2);
		assert_int_equal(rq->cfs.avg.runnable_avg, 20);
		assert_int_equal(rq->cfs.avg.load_avg, 10);
		assert_int_equal(rq->cfs.avg.util_sum, want[i].util_sum);
		assert_int_equal(rq->cfs.avg.runnable_sum, want[i].runnable_sum);
		assert_int_equal(rq->cfs.avg.load_sum, want[i].load_sum);
		sched_free(s);
	}
}

/*
 * A sleeping task that sched_setattr() takes out of the fair class (switched_from_fair()), the
 * task and cfs_rq of test_detach(), now the cfs_rq's last update (nothing decays). The detach is
 * test_detach()'s: util 2, runnable 20, load 10, sums 93436 / 934360 / 467180. Up to 6.12 that
 * is all. 7.2 then reweights it while still fair (Debian 7.2 core.c sched_change_begin(), fair.c
 * reweight_entity()): dequeue_load_avg() takes 590 from 10 and 28057600 from 467180, both
 * clamped at 0 (floor 0 * 46718); the task's load_avg becomes 1024 * 27400 / 47218 = 594
 * (28057600 / 47218 = 594.2); enqueue_load_avg() adds 594 and 28057600, above its floor
 * 594 * 46718 = 27750492.
 */
static void test_setattr(void **state)
{
	static const struct {
		const char *kernel;
		unsigned long load_avg, task_load_avg;
		u64 load_sum;
	} want[] = {
		{"v6.12", 10, 590, 467180},
		{"v7.2", 594, 594, 28057600},
	};
	(void)state;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct task_node *n;
		struct rq *rq;
		struct sched *s = one_task(want[i].kernel, &rq, &n);

		switched_from_fair(s, rq, &n->t);
		assert_int_equal(rq->cfs.avg.util_avg, 2);
		assert_int_equal(rq->cfs.avg.runnable_avg, 20);
		assert_int_equal(rq->cfs.avg.util_sum, 93436);
		assert_int_equal(rq->cfs.avg.runnable_sum, 934360);
		assert_int_equal(rq->cfs.avg.load_avg, want[i].load_avg);
		assert_int_equal(rq->cfs.avg.load_sum, want[i].load_sum);
		assert_int_equal(n->t.avg.load_avg, want[i].task_load_avg);
		sched_free(s);
	}
	assert_false(kernel_profile_find("v6.12")->setattr_reweight_after_detach);
	assert_true(kernel_profile_find("v7.2")->setattr_reweight_after_detach);
}

/*
 * A fair task's nice changes (set_user_nice() -> reweight_task() -> reweight_entity(), Debian
 * 5.10 to 7.2), here to nice -20 (sched_prio_to_weight[0] = 88761), the task and cfs_rq of
 * test_detach(), queued. dequeue_load_avg(): load 600 - 590 = 10, sum 28320800 - 1024 * 27400
 * = 263200, floored from 6.1 at 10 * 46718 = 467180 (5.10 leaves it); the task's load_avg is
 * rebuilt from its own sum at the new weight, 88761 * 27400 / 47218 = 51506 (2432051400 /
 * 47218 = 51506.9); enqueue_load_avg() adds 51506 and 2432051400: 51516 and 2432314600 (5.10)
 * or 2432518580 (6.12; 7.2's floor, 51516 * 46718 = 2406724488, is below). The queued weight
 * goes 1024 -> 88761.
 */
static void test_reweight(void **state)
{
	static const struct {
		const char *kernel;
		u64 load_sum;
	} want[] = {
		{"v5.10", 2432314600ULL},
		{"v6.12", 2432518580ULL},
		{"v7.2", 2432518580ULL},
	};
	(void)state;

	assert_int_equal(prio_to_weight(100), 88761);
	assert_int_equal(prio_to_weight(120), 1024);
	assert_int_equal(prio_to_weight(121), 820);
	assert_int_equal(prio_to_weight(139), 15);
	assert_int_equal(prio_to_weight(99), 1024);  /* RT */
	assert_int_equal(prio_to_weight(-1), 1024);  /* DL */
	assert_int_equal(prio_to_weight(140), 1024); /* none */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct task_node *n;
		struct rq *rq;
		struct sched *s = one_task(want[i].kernel, &rq, &n);

		rq->cfs.load = 1024;
		n->t.on_rq = true;
		reweight_task_fair(rq, &n->t, prio_to_weight(100));
		assert_int_equal(n->t.weight, 88761);
		assert_int_equal(n->t.avg.load_avg, 51506);
		assert_int_equal(rq->cfs.avg.load_avg, 51516);
		assert_int_equal(rq->cfs.avg.load_sum, want[i].load_sum);
		assert_int_equal(rq->cfs.load, 88761);
		n->t.on_rq = false;
		sched_free(s);
	}
}

/* The profile table carries the rule of the trees read: v5.9 subtracts, Debian 5.10.223 and
 * 5.15.100 rebuild, 6.1 to 6.12 floor as u32, 7.2 in the sum's type. */
static void test_profiles(void **state)
{
	(void)state;
	assert_int_equal(kernel_profile_find("v5.9")->pelt_sum_sync, PELT_SUMS_SUBTRACT);
	assert_int_equal(kernel_profile_find("v5.10")->pelt_sum_sync, PELT_SUMS_RESYNC);
	assert_int_equal(kernel_profile_find("v5.15")->pelt_sum_sync, PELT_SUMS_RESYNC);
	assert_int_equal(kernel_profile_find("v6.1")->pelt_sum_sync, PELT_SUMS_FLOORED);
	assert_int_equal(kernel_profile_find("v6.12")->pelt_sum_sync, PELT_SUMS_FLOORED);
	assert_int_equal(kernel_profile_find("v7.2")->pelt_sum_sync, PELT_SUMS_FLOORED_TYPED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_removal),
		cmocka_unit_test(test_removal_u32_cut),
		cmocka_unit_test(test_detach),
		cmocka_unit_test(test_setattr),
		cmocka_unit_test(test_reweight),
		cmocka_unit_test(test_profiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
