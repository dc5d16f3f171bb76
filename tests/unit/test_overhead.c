/*
 * test_overhead.c - the kernel's own overhead in the replay: counted, costed and
 * charged to work timing, end to end through replay_run() on Hikey960 with a cost table set by
 * hand.
 *
 * The trace: a ping-pong of two tasks ("ping" 10, "pong" 11) on two CPUs (or one), n slices
 * of 100 us at the traced 1844 MHz, each slice waking the other task at its end (sched_waking
 * in its context), then sleeping; the first wakeup is from idle. By hand, with a charge of D ns
 * per enqueue and E per dequeue (at 1844 MHz on the capacity-462 A53s), the critical path is:
 *   external activate of ping (D) + n x 100 us + (n-1) wakers' activates (D each) + the last
 *   slice's deactivate (E)   on two CPUs (each other deactivate overlaps the peer's slice);
 *   + (n-1) more deactivates (E)   on one CPU (all in a row).
 * The charged total is n activates and n deactivates whatever the placement.
 * Checks: that span for depth 1 (attach) and for the static key on (sysctl); at 533 MHz the
 * same x 1844/533 (costs scale with frequency); nothing charged when the emulated kernel is the
 * traced one (key off, root group, or a sysctl that writes the value in force): the span is the
 * trace's; charges from an action that turns the key on half-way, for some rounds and not all,
 * and from a new task that a setattr selects; depth 0..3 gives increasing spans;
 * the charge following a change from one emulated configuration to another (key off, then on,
against a traced kernel without uclamp); the counts (enqueues by depth, clamp ids aggregated,
branches) and their time; traced work in
 * = out and charged work in = out.
 * On HiKey with the table of models/hikey.sql: the charged uclamp costs by hand from its ns,
 * the capacity and the frequency.
 * Does not check: the cost table arithmetic (test_kernel_cost) or the models' derivations.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/platform.h"
#include "sim/replay.h"
#include "uclamp/policy.h"

static void tb_ctx(struct tb *b, const char *comm, int pid, int cpu, const char *flags,
		   unsigned long long us)
{
	tb_printf(b, "%16s-%-7d [%03d] %s %5llu.%06llu: ", comm, pid, cpu, flags, us / 1000000,
		  us % 1000000);
}

static void tb_switch(struct tb *b, unsigned long long us, int cpu, const char *prev, int ppid,
		      const char *pstate, const char *next, int npid)
{
	tb_ctx(b, ppid ? prev : "<idle>", ppid, cpu, "d..3", us);
	tb_printf(b,
		  "sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
		  "next_comm=%s next_pid=%d next_prio=120\n",
		  prev, ppid, pstate, next, npid);
}

static const char *pingpong_at(int cpu_a, int cpu_b, int n, unsigned khz)
{
	struct tb b = {0};
	const char *comm[2] = {"ping", "pong"}, *path;
	int pid[2] = {10, 11}, cpu[2] = {cpu_a, cpu_b};
	unsigned long long t = 100000000ULL;
	char idle[2][16];

	snprintf(idle[0], sizeof(idle[0]), "swapper/%d", cpu_a);
	snprintf(idle[1], sizeof(idle[1]), "swapper/%d", cpu_b);
	for (int c = 0; c < 4; c++) {
		tb_ctx(&b, "<...>", 99, 0, "d..3", t);
		tb_printf(&b, "tracing_mark_write: cpu_frequency_devlib: state=%u cpu_id=%d\n", khz,
			  c);
	}
	tb_ctx(&b, "<idle>", 0, cpu_a, "d..3", t);
	tb_printf(&b, "sched_wakeup: comm=ping pid=10 prio=120 target_cpu=%03d\n", cpu_a);
	tb_switch(&b, t, cpu_a, idle[0], 0, "R", "ping", 10);
	for (int k = 0; k < n; k++) {
		int x = k % 2, y = 1 - x;
		t += 100;
		if (k + 1 < n) {
			tb_ctx(&b, comm[x], pid[x], cpu[x], "d..3", t);
			tb_printf(&b, "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n",
				  comm[y], pid[y], cpu[y]);
			tb_ctx(&b, "<idle>", 0, cpu[y], "dNh2", t);
			tb_printf(&b, "sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d\n",
				  comm[y], pid[y], cpu[y]);
		}
		if (cpu_a == cpu_b && k + 1 < n) {
			tb_switch(&b, t, cpu[x], comm[x], pid[x], "S", comm[y], pid[y]);
			continue;
		}
		tb_switch(&b, t, cpu[x], comm[x], pid[x], "S", idle[x], 0);
		if (k + 1 < n)
			tb_switch(&b, t, cpu[y], idle[y], 0, "R", comm[y], pid[y]);
	}
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
}

static const char *pingpong(int cpu_a, int cpu_b, int n)
{
	return pingpong_at(cpu_a, cpu_b, n, 1844000);
}

static struct platform plat;
static struct platform *run_plat = &plat; /* the platform run_with() replays on */

/* Costs on CPU 0 at 1844 MHz: a level 1000 ns, a clamp id 100 ns in, 50 ns out, the branch
 * 3 ns; the base enqueue/dequeue 700/900 ns (the same in both kernels: never charged). */
static int setup(void **state)
{
	struct gs_error err = {0};
	static const double ns[KC__COUNT] = {
		[KC_ACTIVATE] = 700, [KC_DEACTIVATE] = 900, [KC_CGROUP_LEVEL] = 1000,
		[KC_UCLAMP_INC_ID] = 100, [KC_UCLAMP_DEC_ID] = 50, [KC_UCLAMP_BRANCH] = 3,
	};
	(void)state;
	if (platform_load("hikey960", &plat, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	kcost_init(&plat.kcost);
	plat.kcost.present = true;
	for (int i = 0; i < KC__COUNT; i++) {
		plat.kcost.ns[i] = ns[i];
		plat.kcost.cpu[i] = 0;
	}
	return 0;
}

static void run_with(const char *trace, const char *governor, const char *action,
		     const char *traced, const char *set, struct run_result *r)
{
	struct replay_spec spec = {0};
	struct gov_param param = {0};
	char key[64];
	struct policy pol;
	struct gs_error err = {0};

	policy_init(&pol);
	if (action && strncmp(action, "attach ", 7) == 0) {
		/* the group must exist before tasks are attached to it (ENOENT otherwise) */
		char create[128];

		snprintf(create, sizeof(create), "cgroup %s", strrchr(action, ' ') + 1);
		if (policy_parse_line(&pol, create, "--action", 1, &err))
			fail_msg("%s", err.msg);
	}
	if (action && policy_parse_line(&pol, action, "--action", 2, &err))
		fail_msg("%s", err.msg);
	sim_opts_init(&spec.opts);
	spec.trace = trace;
	spec.opts.plat = run_plat;
	spec.opts.governor = governor;
	spec.opts.timing = SIM_TIMING_WORK;
	spec.opts.policy = pol.n ? &pol : NULL;
	if (traced && kcost_config_parse(traced, &spec.opts.traced, &err))
		fail_msg("%s", err.msg);
	spec.opts.has_traced_config = traced != NULL;
	if (set) {
		snprintf(key, sizeof(key), "%s", set);
		*strchr(key, '=') = '\0';
		param.key = key;
		param.value = strchr(set, '=') + 1;
		spec.opts.params = &param;
		spec.opts.nr_params = 1;
	}
	spec.no_hash = true;
	run_result_init(r);
	if (replay_run(&spec, r, &err))
		fail_msg("replay failed: %s", err.msg);
	policy_release(&pol);
}

static void run(const char *trace, const char *governor, const char *action,
		struct run_result *r)
{
	run_with(trace, governor, action, NULL, NULL, r);
}

static void check_work(const struct run_result *r)
{
	for (int c = 0; c < plat.nr_cpus; c++)
		assert_true(fabs(r->work_in_s[c] - r->work_out_s[c]) < 1e-12);
}

/* span by hand (ns at 1844 MHz), see the top of the file */
static double hand_span_ns(int n, bool one_cpu, double d, double e)
{
	return d + n * 100000.0 + (n - 1) * d + e + (one_cpu ? (n - 1) * e : 0);
}

static void expect_span(const struct run_result *r, double want_ns, int n)
{
	double got = r->span_s * 1e9;
	if (fabs(got - want_ns) > n) /* each item rounds up to the ns */
		fail_msg("span %.1f ns, by hand %.1f ns", got, want_ns);
}

static void test_depth_two_cpus(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 1, n), "performance", "attach comm=p* /a", &r);
	expect_span(&r, hand_span_ns(n, false, 1000, 1000), n);
	/* charged: n activates and n deactivates, 1 us each */
	assert_true(fabs(r.ovh.charged_s - 2 * n * 1e-6) < 1e-12);
	assert_int_equal(r.ovh.calls[KC_ACTIVATE], n);
	assert_int_equal(r.ovh.calls[KC_DEACTIVATE], n);
	assert_int_equal(r.ovh.calls[KC_CGROUP_LEVEL], 2 * n);
	assert_int_equal(r.ovh.sched_by_depth[1], 2 * n);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_BRANCH], 2 * n); /* key off: the test only */
	assert_int_equal(r.ovh.calls[KC_UCLAMP_INC_ID], 0);
	/* every enqueue 700 + 1000 + 3, dequeue 900 + 1000 + 3 ns at 1844 MHz */
	assert_true(fabs(r.ovh.total_s - n * (1703 + 1903) * 1e-9) < 1e-12);
	check_work(&r);
	run_result_release(&r);
}

static void test_depth_one_cpu(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 0, n), "performance", "attach comm=p* /a", &r);
	expect_span(&r, hand_span_ns(n, true, 1000, 1000), n);
	assert_true(fabs(r.ovh.charged_s - 2 * n * 1e-6) < 1e-12);
	check_work(&r);
	run_result_release(&r);
}

/* The static key on: 2 clamp ids, 200 ns in, 100 ns out; the branch is paid by both. */
static void test_key_on(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 1, n), "performance", "sysctl sched_util_clamp_min 512", &r);
	expect_span(&r, hand_span_ns(n, false, 200, 100), n);
	assert_true(fabs(r.ovh.charged_s - n * 300e-9) < 1e-12);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_INC_ID], 2 * n);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_DEC_ID], 2 * n);
	run_result_release(&r);
}

/* The traced kernel's configuration: nothing to charge, the span is the trace's. */
static void test_same_config_charges_nothing(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 1, n), "performance", NULL, &r);
	expect_span(&r, n * 100000.0, n);
	assert_true(r.ovh.charged_s == 0);
	assert_true(r.ovh.total_s > 0);
	run_result_release(&r);
}

/* The traced kernel's configuration until an action turns the key on half-way (1 ms of the 2):
 * the charges start then, so some rounds are charged (200 ns in, 100 ns out: a whole number of
 * 100 ns) and not all of them: the work layer is asked from the action on (sim_ovh_follow). */
static void test_key_on_later(void **state)
{
	const int n = 20;
	struct run_result r;
	double units;
	(void)state;

	run(pingpong(0, 1, n), "performance", "at 0.001 sysctl sched_util_clamp_min 512", &r);
	units = r.ovh.charged_s / 100e-9;
	assert_true(units > 0.5 && units < 3.0 * n - 0.5);
	assert_true(fabs(units - round(units)) < 1e-6);
	assert_true(r.span_s * 1e9 > n * 100000.0);
	assert_true(r.ovh.calls[KC_UCLAMP_INC_ID] > 0 && r.ovh.calls[KC_UCLAMP_INC_ID] < (u64)(2 * n));
	check_work(&r);
	run_result_release(&r);
}

/* A sysctl that writes the value in force (the default 1024) flips no key: the configuration
 * stays the traced one, nothing is charged, the span is the trace's and no clamp is aggregated
 * (the branch only), as without the action. */
static void test_same_value_sysctl_charges_nothing(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 1, n), "performance", "sysctl sched_util_clamp_min 1024", &r);
	expect_span(&r, n * 100000.0, n);
	assert_true(r.ovh.charged_s == 0);
	assert_false(r.key_on);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_INC_ID], 0);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_BRANCH], 2 * n);
	run_result_release(&r);
}

/* A setattr that selects a task not seen yet flips the key when the emulation first meets the
 * task: pong, at ping's first sched_waking. The work layer asks as the trace is read, ahead of
 * the emulation: before it, ping's first enqueue (the external wakeup that starts the trace),
 * and, read before the emulation applies pong's wakeup (which waits for ping's slice to end:
 * its wake point is at its end), pong's first enqueue and ping's first dequeue. Charged: the
 * other n - 2 enqueues 200 ns each and n - 1 dequeues 100 ns each; without the flip, nothing. */
static void test_key_on_at_new_task(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 1, n), "performance", "setattr comm=pong uclamp_min=100", &r);
	assert_true(r.key_on);
	assert_true(fabs(r.ovh.charged_s - ((n - 2) * 200e-9 + (n - 1) * 100e-9)) < 1e-12);
	check_work(&r);
	run_result_release(&r);
}

/* powersave: the A53s at 533 MHz; work and charges stretch by 1844/533. */
static void test_scales_with_frequency(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run(pingpong(0, 1, n), "powersave", "attach comm=p* /a", &r);
	expect_span(&r, hand_span_ns(n, false, 1000, 1000) * 1844.0 / 533.0, 2 * n);
	assert_true(fabs(r.ovh.charged_s - 2 * n * 1e-6 * 1844.0 / 533.0) < 1e-9);
	run_result_release(&r);
}

/* Key off against a traced kernel without uclamp: the branch (3 ns) at every enqueue and
 * dequeue, nothing more; and nothing against one with the key off (the default). */
static void test_key_off_charges_the_branch(void **state)
{
	const int n = 20;
	struct run_result r;
	(void)state;

	run_with(pingpong(0, 1, n), "performance", NULL, "uclamp=none", NULL, &r);
	expect_span(&r, hand_span_ns(n, false, 3, 3), n);
	assert_true(fabs(r.ovh.charged_s - 2 * n * 3e-9) < 1e-12);
	run_result_release(&r);
	/* the emulated kernel without uclamp against the default traced one: the branch back */
	run_with(pingpong(0, 1, n), "performance", NULL, NULL, "uclamp_task=0", &r);
	assert_true(fabs(r.ovh.charged_s + 2 * n * 3e-9) < 1e-12);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_BRANCH], 0);
	run_result_release(&r);
	/* a traced kernel at depth 2, emulated at depth 3 (--set cgroup_depth=3): one level */
	run_with(pingpong(0, 1, n), "performance", NULL, "depth=2", "cgroup_depth=3", &r);
	expect_span(&r, hand_span_ns(n, false, 1000, 1000), n);
	assert_int_equal(r.ovh.sched_by_depth[3], 2 * n);
	run_result_release(&r);
}

/* A traced kernel without uclamp; the emulated one has the key off until an action turns it on
 * half-way (1 ms of the 2), in a run without attach actions (every task at one depth): the branch
 * (3 ns) at each of the 2n enqueues and dequeues throughout, and from the action on the clamp
 * ids too (200 ns in, 100 ns out), so the charge moves from one emulated configuration's to the
 * other's: above the branch alone by a whole number of 100 ns, for some rounds and not all. */
static void test_key_on_later_against_no_uclamp(void **state)
{
	const int n = 20;
	struct run_result r;
	double units;
	(void)state;

	run_with(pingpong(0, 1, n), "performance", "at 0.001 sysctl sched_util_clamp_min 512",
		 "uclamp=none", NULL, &r);
	units = (r.ovh.charged_s - 2 * n * 3e-9) / 100e-9;
	assert_true(units > 0.5 && units < 3.0 * n - 0.5);
	assert_true(fabs(units - round(units)) < 1e-6);
	check_work(&r);
	run_result_release(&r);
}

static void test_depth_monotonic(void **state)
{
	const char *act[4] = {NULL, "attach comm=p* /a", "attach comm=p* /a/b",
			      "attach comm=p* /a/b/c"};
	const char *trace = pingpong(0, 1, 10);
	double prev = 0;
	(void)state;

	for (int d = 0; d < 4; d++) {
		struct run_result r;
		run(trace, "performance", act[d], &r);
		assert_true(r.span_s > prev);
		expect_span(&r, hand_span_ns(10, false, 1000.0 * d, 1000.0 * d), 10);
		prev = r.span_s;
		run_result_release(&r);
	}
}

/*
 * HiKey (models/hikey.sql) with its own table, from seed 003: uclamp_rq_inc_id 184.65 ns,
 * uclamp_rq_dec_id 172.09 ns, uclamp_static_branch 145.70 ns, on CPU 0 (capacity 1024) at
 * 1200 MHz. By hand: the work is ns x 1024 / 1024; on a capacity-1024 CPU at f MHz it takes
 * ns x 1200 / f. Key on (sysctl) against the default traced kernel (key off): n enqueues x 2
 * clamp ids in, n dequeues x 2 out (the branch is paid by both kernels); at powersave's 208 MHz
 * the same x 1200/208. Key off against a traced kernel without uclamp: the branch at each of
 * the 2n calls.
 */
static void test_hikey_table_by_hand(void **state)
{
	const int n = 20;
	const double per_round_ns = 2 * 184.65 + 2 * 172.09;
	const char *trace = pingpong_at(0, 1, n, 1200000);
	struct platform *hikey = malloc(sizeof(*hikey));
	struct gs_error err = {0};
	struct run_result r;
	(void)state;

	assert_non_null(hikey);
	if (platform_load("hikey", hikey, &err))
		fail_msg("%s", err.msg);
	run_plat = hikey;
	run(trace, "performance", "sysctl sched_util_clamp_min 512", &r);
	assert_true(fabs(r.ovh.charged_s - n * per_round_ns * 1e-9) < 1e-12);
	assert_int_equal(r.ovh.calls[KC_UCLAMP_INC_ID], 2 * n);
	run_result_release(&r);
	run(trace, "powersave", "sysctl sched_util_clamp_min 512", &r);
	assert_true(fabs(r.ovh.charged_s - n * per_round_ns * 1200.0 / 208.0 * 1e-9) < 1e-12);
	run_result_release(&r);
	run_with(trace, "performance", NULL, "uclamp=none", NULL, &r);
	assert_true(fabs(r.ovh.charged_s - 2 * n * 145.70e-9) < 1e-12);
	run_result_release(&r);
	run_plat = &plat;
	free(hikey);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth_two_cpus),
		cmocka_unit_test(test_depth_one_cpu),
		cmocka_unit_test(test_key_on),
		cmocka_unit_test(test_same_config_charges_nothing),
		cmocka_unit_test(test_key_on_later),
		cmocka_unit_test(test_same_value_sysctl_charges_nothing),
		cmocka_unit_test(test_key_on_at_new_task),
		cmocka_unit_test(test_scales_with_frequency),
		cmocka_unit_test(test_depth_monotonic),
		cmocka_unit_test(test_key_off_charges_the_branch),
		cmocka_unit_test(test_key_on_later_against_no_uclamp),
		cmocka_unit_test(test_hikey_table_by_hand),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
