/*
 * test_cpufreq.c - the cpufreq core on Hikey960's OPP tables (DT hi3660.dtsi v5.9, built by
 * hand here).
 *
 * Checks: RELATION_L resolution (lowest OPP >= target, else the highest) including exact OPPs,
 * targets between OPPs, below min and above max, and scaling_min/max_freq clamping; the H and C
 * relations ondemand/conservative use (C: a tie goes to the lower OPP); v5.9
 * cpufreq_policy_transition_delay_us (10000 µs for Hikey960's 300000 ns latency); the switch
 * latency (a request at t is in force at t + latency, a second request while pending replaces
 * the frequency and keeps the time, a request equal to cur changes nothing); fast switch.
 * Expected values are worked by hand from the OPP tables, and RELATION_L is also compared with
 * a plain scan over every target around each OPP.
 * The OPP table interface: a policy on a table built by hand, with no platform,
 * takes its limits, latency and resolution from the table alone; cpufreq_table_from_cluster()
 * copies a cluster's OPPs (frequency, capacity, EM cost), CPUs and latency, and the copy is
 * the policy's own (a later change to the cluster does not reach it).
 * Does not check: governors (test_schedutil.c, test_governors.c), platform loading.
 */
#include "testutil.h"

#include <string.h>

#include "cpufreq/cpufreq.h"
#include "sim/cpufreq_table.h"

static const u32 a53_khz[] = {533000, 999000, 1402000, 1709000, 1844000};
static const u32 a73_khz[] = {903000, 1421000, 1805000, 2112000, 2362000};

static void make_cluster(struct plat_cluster *cl, int id, const u32 *khz, int first_cpu)
{
	memset(cl, 0, sizeof(*cl));
	cl->id = id;
	cl->nr_cpus = 4;
	for (int i = 0; i < 4; i++)
		cl->cpus[i] = first_cpu + i;
	cl->transition_latency_ns = 300000;
	cl->nr_opps = 5;
	for (int i = 0; i < 5; i++)
		cl->opps[i].freq_khz = khz[i];
}

static void test_resolve_l_table(void **state)
{
	struct plat_cluster big, little;
	struct cpufreq_policy pb, pl;
	static const struct {
		u32 target, want;
	} big_rows[] = {
		{1476250, 1805000},  /* util 512 on the A73 */
		{0, 903000},         /* below min -> min */
		{902999, 903000},
		{903000, 903000},    /* exact OPPs stay */
		{1421000, 1421000},
		{1421001, 1805000},
		{1805000, 1805000},
		{2112000, 2112000},
		{2361999, 2362000},
		{2362000, 2362000},
		{2952500, 2362000},  /* above max -> max */
		{UINT32_MAX, 2362000},
	};
	static const struct {
		u32 target, want;
	} little_rows[] = {
		{997835, 999000},    /* util 200 of capacity 462 */
		{533000, 533000},
		{533001, 999000},
		{1709001, 1844000},
		{2305000, 1844000},
	};
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	make_cluster(&little, 0, a53_khz, 0);
	cpufreq_policy_init_cluster(&pb, 1, &big, 0, 0);
	cpufreq_policy_init_cluster(&pl, 0, &little, 0, 0);
	for (size_t i = 0; i < GS_ARRAY_SIZE(big_rows); i++)
		assert_int_equal(cpufreq_driver_resolve_freq(&pb, big_rows[i].target),
				 big_rows[i].want);
	for (size_t i = 0; i < GS_ARRAY_SIZE(little_rows); i++)
		assert_int_equal(cpufreq_driver_resolve_freq(&pl, little_rows[i].target),
				 little_rows[i].want);
}

/* A slow reference: the smallest OPP >= target by a scan of the sorted table, else the top. */
static u32 ref_resolve_l(const u32 *khz, int n, u32 target)
{
	u32 best = 0;

	for (int i = n - 1; i >= 0; i--)
		if (khz[i] >= target)
			best = khz[i];
	return best ? best : khz[n - 1];
}

static void test_resolve_l_reference(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 0, 0);
	for (int i = 0; i < 5; i++) {
		for (int d = -3; d <= 3; d++) {
			u32 t = a73_khz[i] + (u32)(d * 1000);

			assert_int_equal(cpufreq_driver_resolve_freq(&p, t),
					 ref_resolve_l(a73_khz, 5, t));
		}
	}
}

static void test_scaling_limits(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 2362000, 0);
	assert_int_equal(p.cpuinfo_min_khz, 903000);
	assert_int_equal(p.cpuinfo_max_khz, 2362000);

	cpufreq_policy_set_limits(&p, 0, 1805000);
	assert_int_equal(p.min_khz, 903000);
	assert_int_equal(p.max_khz, 1805000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 2952500), 1805000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 1476250), 1805000);
	/* Setting limits does not move the frequency in force. */
	assert_int_equal(p.cur_khz, 2362000);

	cpufreq_policy_set_limits(&p, 1421000, CPUFREQ_NO_MAX_KHZ);
	assert_int_equal(p.max_khz, 2362000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 0), 1421000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 1000000), 1421000);

	/* min > max: min comes down to max. */
	cpufreq_policy_set_limits(&p, 2112000, 1421000);
	assert_int_equal(p.min_khz, 1421000);
	assert_int_equal(p.max_khz, 1421000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 2362000), 1421000);

	/* No OPP in [1000000, 1100000]: max rises to the next OPP (table verify). */
	cpufreq_policy_set_limits(&p, 1000000, 1100000);
	assert_int_equal(p.min_khz, 1000000);
	assert_int_equal(p.max_khz, 1421000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 0), 1421000);

	/* Beyond cpuinfo: clamped to it. */
	cpufreq_policy_set_limits(&p, 100, 9000000);
	assert_int_equal(p.min_khz, 903000);
	assert_int_equal(p.max_khz, 2362000);

	/* v5.9 does not resolve the limits to OPPs: a max between OPPs lets RELATION_L pick the
	 * OPP above it (the limits became hard only in later kernels). */
	cpufreq_policy_set_limits(&p, 0, 2000000);
	assert_int_equal(p.max_khz, 2000000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 2362000), 2112000);

	/* 0 is a value like any other (cpufreq_verify_within_cpu_limits clamps it): a write of 0
	 * to scaling_max_freq leaves the lowest OPP; scaling_min_freq=0 is cpuinfo's min. */
	cpufreq_policy_set_limits(&p, 0, 0);
	assert_int_equal(p.min_khz, 903000);
	assert_int_equal(p.max_khz, 903000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 2362000), 903000);
}

static void test_relations(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 0, 0);
	/* H: highest <= target, else the lowest. */
	assert_int_equal(cpufreq_frequency_table_target(&p, 1600000, CPUFREQ_RELATION_H), 1421000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 1805000, CPUFREQ_RELATION_H), 1805000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 800000, CPUFREQ_RELATION_H), 903000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 3000000, CPUFREQ_RELATION_H), 2362000);
	/* C: the closest. 1600000 is 179000 above 1421000 and 205000 below 1805000. */
	assert_int_equal(cpufreq_frequency_table_target(&p, 1600000, CPUFREQ_RELATION_C), 1421000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 1700000, CPUFREQ_RELATION_C), 1805000);
	/* The midpoint of 1421000 and 1805000 is a tie: the lower one. */
	assert_int_equal(cpufreq_frequency_table_target(&p, 1613000, CPUFREQ_RELATION_C), 1421000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 1613001, CPUFREQ_RELATION_C), 1805000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 800000, CPUFREQ_RELATION_C), 903000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 2900000, CPUFREQ_RELATION_C), 2362000);
	/* Limits come first for every relation. */
	cpufreq_policy_set_limits(&p, 0, 1805000);
	assert_int_equal(cpufreq_resolve_relation(&p, 2362000, CPUFREQ_RELATION_H), 1805000);
	assert_int_equal(cpufreq_resolve_relation(&p, 2362000, CPUFREQ_RELATION_C), 1805000);
}

static void test_transition_delay(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	static const struct {
		u32 latency_ns;
		unsigned int want_us;
	} rows[] = {
		{300000, 10000}, /* Hikey960: min(300 * 1000, 10000) */
		{10000, 10000},  /* 10 µs -> exactly the cap */
		{5000, 5000},    /* 5 µs * LATENCY_MULTIPLIER */
		{1000, 1000},
		{999, 1000},     /* rounds down to 0 µs -> LATENCY_MULTIPLIER */
		{0, 1000},
	};
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	for (size_t i = 0; i < GS_ARRAY_SIZE(rows); i++) {
		big.transition_latency_ns = rows[i].latency_ns;
		cpufreq_policy_init_cluster(&p, 1, &big, 0, 0);
		assert_int_equal(p.transition_latency_ns, rows[i].latency_ns);
		assert_int_equal(cpufreq_policy_transition_delay_us(&p), rows[i].want_us);
	}
}

static void test_init_resolves(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 1000000, 300000);
	assert_int_equal(p.cur_khz, 1421000);
	assert_int_equal(p.switch_latency_ns, 300000);
	assert_false(p.pending);
	cpufreq_policy_init_cluster(&p, 1, &big, 0, 0);
	assert_int_equal(p.cur_khz, 903000);
}

static void test_switch_latency(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 903000, 500000);

	/* Request at t = 1000: in force at 501000. */
	assert_false(cpufreq_request(&p, 2362000, 1000));
	assert_int_equal(p.cur_khz, 903000);
	assert_true(p.pending);
	assert_int_equal(p.pending_khz, 2362000);
	assert_int_equal(p.pending_at_ns, 501000);
	assert_false(cpufreq_apply_pending(&p, 500999));
	assert_int_equal(p.cur_khz, 903000);

	/* A second request while pending: new frequency, same time. */
	assert_false(cpufreq_request(&p, 1400000, 200000));
	assert_int_equal(p.pending_khz, 1421000);
	assert_int_equal(p.pending_at_ns, 501000);
	assert_true(cpufreq_apply_pending(&p, 501000));
	assert_int_equal(p.cur_khz, 1421000);
	assert_false(p.pending);
	assert_false(cpufreq_apply_pending(&p, 600000));

	/* A request equal to cur is dropped when it comes due. */
	assert_false(cpufreq_request(&p, 1421000, 700000));
	assert_false(cpufreq_apply_pending(&p, 1200000));
	assert_int_equal(p.cur_khz, 1421000);
	assert_false(p.pending);

	/* A due request not yet applied runs before a new one, which then waits its latency. */
	assert_false(cpufreq_request(&p, 903000, 2000000));
	assert_true(cpufreq_request(&p, 2362000, 2600000));
	assert_int_equal(p.cur_khz, 903000);
	assert_true(p.pending);
	assert_int_equal(p.pending_at_ns, 3100000);
}

/*
 * The slow path with a driver call that takes time (transition_ns): the sugov:N kthread reads
 * next_freq when it runs (switch latency after the first request), clears work_in_progress and
 * calls the driver, whose write lands transition_ns later; a request meanwhile sets
 * work_in_progress again and queues another run, which reads the newest next_freq as soon as
 * the call returns (kernel/sched/cpufreq_schedutil.c sugov_work, sugov_deferred_update, v5.9 to
 * Debian 7.2). Latency 100 us, driver call 1000 us.
 */
static void test_driver_call(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 903000, 100000);
	p.transition_ns = 1000000;

	/* t = 0: queued; the kthread reads it at 100 us, the write lands at 1100 us */
	assert_false(cpufreq_request(&p, 2362000, 0));
	assert_false(cpufreq_apply_pending(&p, 100000));
	assert_int_equal(p.cur_khz, 903000);
	assert_int_equal(cpufreq_next_khz(&p), 2362000);
	/* during the call: a new run is queued; the newest request is the one it reads */
	assert_false(cpufreq_request(&p, 1400000, 500000));
	assert_false(cpufreq_request(&p, 1805000, 600000));
	assert_int_equal(cpufreq_next_khz(&p), 1805000);
	assert_false(cpufreq_apply_pending(&p, 1099999));
	assert_int_equal(p.cur_khz, 903000);
	/* 1100 us: the first write lands, the kthread runs again at once: 1805000 lands at 2100 */
	assert_true(cpufreq_apply_pending(&p, 1100000));
	assert_int_equal(p.cur_khz, 2362000);
	assert_true(p.pending);
	assert_int_equal(p.pending_at_ns, 2100000);
	assert_true(cpufreq_apply_pending(&p, 2100000));
	assert_int_equal(p.cur_khz, 1805000);
	assert_false(p.pending);
	/* a request before the kthread ran is read by that run (no second call) */
	assert_false(cpufreq_request(&p, 903000, 3000000));
	assert_false(cpufreq_request(&p, 1421000, 3050000));
	assert_false(cpufreq_apply_pending(&p, 3100000));
	assert_true(cpufreq_apply_pending(&p, 4100000));
	assert_int_equal(p.cur_khz, 1421000);
	assert_false(p.pending);
}

static void test_fast_switch(void **state)
{
	struct plat_cluster big;
	struct cpufreq_policy p;
	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	cpufreq_policy_init_cluster(&p, 1, &big, 903000, 0);
	assert_true(cpufreq_request(&p, 1476250, 10));
	assert_int_equal(p.cur_khz, 1805000);
	assert_false(p.pending);
	assert_false(cpufreq_request(&p, 1805000, 20));
	assert_true(cpufreq_request_relation(&p, 1600000, CPUFREQ_RELATION_H, 30));
	assert_int_equal(p.cur_khz, 1421000);
}

/* The interface alone: three OPPs, no platform cluster anywhere. */
static void test_table_interface(void **state)
{
	struct cpufreq_opp_table t = {0};
	struct cpufreq_policy p;

	(void)state;
	t.nr_opps = 3;
	t.opps[0].freq_khz = 500000;
	t.opps[1].freq_khz = 1000000;
	t.opps[2].freq_khz = 1500000;
	t.nr_cpus = 2;
	t.cpus[0] = 6;
	t.cpus[1] = 7;
	t.transition_latency_ns = 50000;
	cpufreq_policy_init(&p, 3, &t, 700000, 0);
	assert_int_equal(p.id, 3);
	assert_int_equal(p.cpuinfo_min_khz, 500000);
	assert_int_equal(p.cpuinfo_max_khz, 1500000);
	assert_int_equal(p.transition_latency_ns, 50000);
	assert_int_equal(p.cur_khz, 1000000); /* 700000 -> the lowest OPP above it */
	/* 50 us x LATENCY_MULTIPLIER 1000 = 50000 us, capped at 10 ms */
	assert_int_equal(cpufreq_policy_transition_delay_us(&p), 10000);
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 1000001), 1500000);
	assert_int_equal(cpufreq_frequency_table_target(&p, 1200000, CPUFREQ_RELATION_H), 1000000);
	t.opps[1].freq_khz = 1100000; /* the policy holds its own copy */
	assert_int_equal(cpufreq_driver_resolve_freq(&p, 1000000), 1000000);
}

static void test_table_from_cluster(void **state)
{
	struct plat_cluster big;
	struct cpufreq_opp_table t;
	struct cpufreq_policy p;

	(void)state;
	make_cluster(&big, 1, a73_khz, 4);
	for (int i = 0; i < 5; i++) {
		big.opps[i].capacity = 100 + (u32)i;
		big.opps[i].em_cost = 200 + (u32)i;
	}
	cpufreq_table_from_cluster(&big, &t);
	assert_int_equal(t.nr_opps, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(t.opps[i].freq_khz, a73_khz[i]);
		assert_int_equal(t.opps[i].capacity, 100 + i);
		assert_int_equal(t.opps[i].em_cost, 200 + i);
	}
	assert_int_equal(t.nr_cpus, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(t.cpus[i], 4 + i);
	assert_int_equal(t.transition_latency_ns, 300000);
	cpufreq_policy_init_cluster(&p, 1, &big, 0, 0);
	assert_int_equal(p.tbl.opps[4].freq_khz, 2362000);
	assert_int_equal(p.cpuinfo_max_khz, 2362000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_l_table),
		cmocka_unit_test(test_resolve_l_reference),
		cmocka_unit_test(test_scaling_limits),
		cmocka_unit_test(test_relations),
		cmocka_unit_test(test_transition_delay),
		cmocka_unit_test(test_init_resolves),
		cmocka_unit_test(test_switch_latency),
		cmocka_unit_test(test_driver_call),
		cmocka_unit_test(test_fast_switch),
		cmocka_unit_test(test_table_interface),
		cmocka_unit_test(test_table_from_cluster),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
