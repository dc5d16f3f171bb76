/*
 * test_sim.c - the whole replay on small synthetic traces, against worked numbers.
 *
 * Checks, end to end through replay_run() on Hikey960 (issues 5 and 6):
 *  - uclamp: `setattr uclamp_max=300` holds a busy A73 at 903 MHz; `uclamp_min=1024` sends a
 *    light task's A73 to 2362 MHz while it is runnable; an RT task sends its CPU to max with no
 *    policy (the RT boost while the static key is off) and stops doing so after
 *    `sysctl sched_util_clamp_min_rt_default 0`; an unchanged sysctl write leaves the key off;
 *    a cgroup's cpu.uclamp.max caps the tasks attached to it, and an unchanged cgroup write
 *    turns the key on without changing the outcome.
 *  - energy: 1 s busy at 2362 MHz under performance and em costs 1.571 J on that CPU and nothing
 *    elsewhere; under powersave with work timing the same work takes 2362/903 as long at 243 mW.
 *  - --warmup-ms: the first part is replayed, not measured;
 *  - invariants: residency sums to the replayed span per policy; work in equals work out per
 *    CPU on the real traces.
 * Does not check: PELT arithmetic (test_pelt, test_sched) or governor formulas (test_schedutil).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/platform.h"
#include "sim/replay.h"
#include "uclamp/policy.h"

/* ---- a tiny ftrace text writer ---------------------------------------------------------------- */

struct tb {
	char *buf;
	size_t len, cap;
};

static void tb_printf(struct tb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_printf(struct tb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->cap - b->len < 512) {
		b->cap = b->cap ? b->cap * 2 : 1 << 16;
		b->buf = realloc(b->buf, b->cap);
		assert_non_null(b->buf);
	}
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void tb_ts(struct tb *b, const char *comm, int pid, int cpu, unsigned long long us)
{
	tb_printf(b, "%16s-%-7d [%03d] d..3 %5llu.%06llu: ", comm, pid, cpu, us / 1000000,
		  us % 1000000);
}

static void tb_wakeup(struct tb *b, unsigned long long us, int cpu, const char *comm, int pid,
		      int prio)
{
	tb_ts(b, "<idle>", 0, cpu, us);
	tb_printf(b, "sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d\n", comm, pid, prio, cpu);
}

static void tb_switch_in(struct tb *b, unsigned long long us, int cpu, const char *comm, int pid,
			 int prio)
{
	tb_ts(b, "<idle>", 0, cpu, us);
	tb_printf(b,
		  "sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> "
		  "next_comm=%s next_pid=%d next_prio=%d\n",
		  cpu, comm, pid, prio);
}

static void tb_switch_out(struct tb *b, unsigned long long us, int cpu, const char *comm, int pid,
			  int prio)
{
	tb_ts(b, comm, pid, cpu, us);
	tb_printf(b,
		  "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=S ==> "
		  "next_comm=swapper/%d next_pid=0 next_prio=120\n",
		  comm, pid, prio, cpu);
}

/* A periodic task: every period_us it wakes, runs run_us, sleeps. */
static const char *periodic_trace(int cpu, const char *comm, int pid, int prio,
				  unsigned long long run_us, unsigned long long period_us, int n)
{
	struct tb b = {0};
	const char *path;
	unsigned long long t0 = 100000000ULL; /* 100 s */

	/* the tracer's record of the current frequency: the A73s at 903 MHz */
	for (int c = 4; c < 8; c++) {
		tb_ts(&b, "<...>", 99, 0, t0);
		tb_printf(&b, "tracing_mark_write: cpu_frequency_devlib: state=903000 cpu_id=%d\n", c);
	}
	for (int k = 0; k < n; k++) {
		unsigned long long t = t0 + (unsigned long long)k * period_us;
		tb_wakeup(&b, t, cpu, comm, pid, prio);
		tb_switch_in(&b, t, cpu, comm, pid, prio);
		tb_switch_out(&b, t + run_us, cpu, comm, pid, prio);
	}
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
}

/* ---- replay helpers --------------------------------------------------------------------------- */

static struct platform hikey;

static int setup_platform(void **state)
{
	struct gs_error err;
	(void)state;
	gs_error_clear(&err);
	if (platform_load("hikey960", &hikey, &err) != 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

struct replay_case {
	const char *trace;
	const char *governor;
	const char *actions[4];
	enum sim_timing timing;
	struct gov_param params[4];
	int nr_params;
	const struct platform *plat;
	u64 warmup_ns;
};

static void replay(const struct replay_case *c, struct run_result *r)
{
	struct replay_spec spec = {0};
	struct policy pol;
	struct gs_error err;
	int ret;

	gs_error_clear(&err);
	policy_init(&pol);
	for (int i = 0; i < 4 && c->actions[i]; i++) {
		ret = policy_parse_line(&pol, c->actions[i], "--action", i + 1, &err);
		if (ret)
			fail_msg("%s", err.msg);
	}
	spec.trace = c->trace;
	spec.plat = c->plat ? c->plat : &hikey;
	spec.governor = c->governor;
	spec.params = c->params;
	spec.nr_params = c->nr_params;
	spec.timing = c->timing;
	spec.util_source = SIM_UTIL_EMULATED;
	spec.power_model = POWER_MODEL_EM;
	spec.policy = pol.n ? &pol : NULL;
	spec.warmup_ns = c->warmup_ns;
	run_result_init(r);
	ret = replay_run(&spec, r, &err);
	if (ret)
		fail_msg("replay failed: %s", err.msg);
	policy_release(&pol);
}

static double residency_at(const struct run_result *r, int cluster, unsigned khz)
{
	const struct run_policy_result *p = &r->pol[cluster];
	for (int k = 0; k < p->nr_opps; k++)
		if (p->freq_khz[k] == khz)
			return p->residency_s[k];
	fail_msg("no OPP %u", khz);
	return 0;
}

/* ---- uclamp scenarios ------------------------------------------------------------------------- */

/* A busy CFS task (9 ms of every 10) on CPU4: util climbs to ~900. */
static void test_uclamp_max_holds_903(void **state)
{
	const char *trace = periodic_trace(4, "busy", 1000, 120, 9000, 10000, 100);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result base, capped;
	(void)state;

	replay(&c, &base);
	c.actions[0] = "setattr comm=busy uclamp_max=300";
	replay(&c, &capped);

	/* without a clamp the busy task reaches the top OPP for most of the run */
	assert_true(residency_at(&base, 1, 2362000) > 0.5 * base.span_s);
	/* with uclamp.max 300: (2362000 + 2362000/4) * 300 / 1024 = 865000 -> 903000, from the
	 * traced 903 MHz at the start to the end */
	assert_true(fabs(residency_at(&capped, 1, 903000) - capped.span_s) < 1e-9);
	assert_true(capped.key_on);
	assert_true(capped.agg_ops > 0);
	assert_true(capped.clamped_down_s > 0.5 * capped.span_s);
	run_result_release(&base);
	run_result_release(&capped);
}

/* A light task (1 ms of every 20): util stays low, the A73 idles at 903 MHz; uclamp_min=1024
 * sends it to 2362 MHz while the task is runnable. */
static void test_uclamp_min_boosts(void **state)
{
	const char *trace = periodic_trace(4, "light", 1001, 120, 1000, 20000, 100);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result base, boosted;
	(void)state;

	/* a rate limit below the task's runtime lets the boost show inside each activation */
	c.params[0] = (struct gov_param){"rate_limit_us", "500", false};
	c.nr_params = 1;
	replay(&c, &base);
	c.actions[0] = "setattr comm=light uclamp_min=1024";
	replay(&c, &boosted);

	assert_true(residency_at(&base, 1, 903000) > 0.95 * base.span_s);
	assert_true(residency_at(&boosted, 1, 2362000) > 0.02 * boosted.span_s);
	assert_true(boosted.clamped_up_s > 0);
	run_result_release(&base);
	run_result_release(&boosted);
}

/* An RT task (prio 50): with the key off schedutil sends its CPU to max while it is runnable;
 * `sysctl sched_util_clamp_min_rt_default 0` turns the key on and the boost off. */
static void test_rt_boost_and_rt_default(void **state)
{
	const char *trace = periodic_trace(4, "rt", 1002, 50, 1000, 20000, 100);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result base, nort;
	(void)state;

	c.params[0] = (struct gov_param){"rate_limit_us", "500", false};
	c.nr_params = 1;
	replay(&c, &base);
	c.actions[0] = "sysctl sched_util_clamp_min_rt_default 0";
	replay(&c, &nort);

	assert_false(base.key_on);
	assert_true(residency_at(&base, 1, 2362000) > 0.02 * base.span_s);
	assert_true(nort.key_on);
	assert_true(residency_at(&nort, 1, 2362000) == 0);
	run_result_release(&base);
	run_result_release(&nort);
}

/* Writing a sysctl its current value does not turn uclamp on: the run is the no-policy run. */
static void test_unchanged_sysctl_keeps_key_off(void **state)
{
	const char *trace = periodic_trace(4, "busy", 1000, 120, 5000, 10000, 50);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result base, same;
	(void)state;

	replay(&c, &base);
	c.actions[0] = "sysctl sched_util_clamp_min 1024";
	replay(&c, &same);
	assert_false(same.key_on);
	assert_int_equal(same.agg_ops, 0);
	assert_true(same.agg_skipped > 0);
	assert_true(fabs(same.energy_total - base.energy_total) < 1e-12);
	run_result_release(&base);
	run_result_release(&same);
}

/* cgroup v2: a group's cpu.uclamp.max restricts the tasks attached to it (v5.9 tg rule), and a
 * cgroup write turns the key on even when it changes nothing. */
static void test_cgroup_max_and_unchanged_write(void **state)
{
	const char *trace = periodic_trace(4, "busy", 1000, 120, 9000, 10000, 100);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result capped, same, base;
	(void)state;

	replay(&c, &base);
	/* 30% of 1024 = 307.2 -> 307: (2362000 + 590500) * 307 / 1024 = 885186 -> 903000 */
	c.actions[0] = "cgroup /app cpu.uclamp.max 30";
	c.actions[1] = "attach comm=busy /app";
	replay(&c, &capped);
	assert_true(capped.key_on);
	assert_true(fabs(residency_at(&capped, 1, 903000) - capped.span_s) < 1e-9);

	/* writing "max" to a new group's max changes nothing but turns the key on */
	c.actions[0] = "cgroup /app cpu.uclamp.max max";
	replay(&c, &same);
	assert_true(same.key_on);
	assert_true(same.agg_ops > 0);
	assert_true(fabs(same.energy_total - base.energy_total) < 1e-12);
	for (int k = 0; k < 5; k++)
		assert_true(same.pol[1].residency_s[k] == base.pol[1].residency_s[k]);
	run_result_release(&base);
	run_result_release(&capped);
	run_result_release(&same);
}

/* Issue 11 item 3: a cluster nothing ran on (the task runs on CPU4 only) has no average
 * frequency (NAN: "no activity"); the busy cluster has one. */
static void test_idle_cluster_no_activity(void **state)
{
	const char *trace = periodic_trace(4, "busy", 1000, 120, 5000, 10000, 20);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result r;
	(void)state;

	replay(&c, &r);
	assert_true(r.pol[0].busy_s == 0);
	assert_true(isnan(r.pol[0].avg_freq_khz));
	assert_true(r.pol[1].busy_s > 0);
	assert_false(isnan(r.pol[1].avg_freq_khz));
	run_result_release(&r);
}

/* Issue 11 item 4: a setattr that reaches no task is no use of uclamp. `comm=nobody` matches
 * nothing and `pid=4242` is absent (sched_setattr() fails with -ESRCH before
 * uclamp_validate()): the key stays off, the run equals the no-policy run, and the notes say
 * which actions matched nothing; an action timed after the trace's end is noted as not run. */
static void test_setattr_matching_nothing_keeps_key_off(void **state)
{
	const char *trace = periodic_trace(4, "busy", 1000, 120, 5000, 10000, 50);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result base, none;
	(void)state;

	replay(&c, &base);
	c.actions[0] = "setattr comm=nobody uclamp_min=512";
	c.actions[1] = "setattr pid=4242 uclamp_max=100";
	c.actions[2] = "at 10 setattr comm=busy uclamp_max=100";
	c.actions[3] = "setattr comm=busy"; /* no clamp: valid, no key */
	replay(&c, &none);
	assert_false(none.key_on);
	assert_int_equal(none.agg_ops, 0);
	assert_true(fabs(none.energy_total - base.energy_total) < 1e-12);
	assert_int_equal(none.nr_actions, 4);
	/* run order: the three without `at` first, then the one at 10 s */
	assert_string_equal(none.actions[0].text, "setattr comm=nobody uclamp_min=512");
	assert_int_equal(none.actions[0].matched + none.actions[0].matched_later, 0);
	assert_int_equal(none.actions[2].matched + none.actions[2].matched_later, 1);
	assert_false(none.actions[3].ran);
	assert_non_null(strstr(none.notes, "'--action':1: 'setattr comm=nobody uclamp_min=512' "
					    "matched no task"));
	assert_non_null(strstr(none.notes, "'--action':2: 'setattr pid=4242 uclamp_max=100' "
					    "matched no task"));
	assert_non_null(strstr(none.notes, "'--action':3: 'at 10 setattr comm=busy uclamp_max=100' "
					    "is timed after the trace's end: not run"));
	assert_null(strstr(none.notes, "'--action':4"));
	run_result_release(&base);
	run_result_release(&none);
}

/* Issue 11 item 7a: v5.9 __sched_setscheduler() dequeues and enqueues a queued task around
 * __setscheduler_uclamp(), and enqueue_top_rt_rq() kicks cpufreq_update_util(): a clamp on a
 * running RT task moves the frequency at the action's time. An RT task runs 100 ms on CPU4
 * from t0 (traced 903 MHz); with the key off the RT boost sends the A73s to 2362 MHz at once
 * (no switch latency); at 0.05 s `uclamp_min=0 uclamp_max=0` turns the key on and leaves
 * util 0 -> 903 MHz at 0.05 s exactly (no tick or event would evaluate before the end). */
static void test_setattr_kicks_rt_enqueue(void **state)
{
	const char *trace = periodic_trace(4, "rt", 1002, 50, 100000, 200000, 1);
	struct replay_case c = {.trace = trace, .timing = SIM_TIMING_TRACED};
	struct run_result r;
	(void)state;

	c.params[0] = (struct gov_param){"switch_latency_us", "0", false};
	c.params[1] = (struct gov_param){"rate_limit_us", "500", false};
	c.nr_params = 2;
	c.actions[0] = "at 0.05 setattr comm=rt uclamp_min=0 uclamp_max=0";
	replay(&c, &r);
	assert_true(fabs(r.span_s - 0.1) < 1e-9);
	assert_true(r.key_on);
	assert_true(fabs(r.key_on_at_s - 0.05) < 1e-9);
	assert_true(fabs(residency_at(&r, 1, 2362000) - 0.05) < 1e-9);
	assert_true(fabs(residency_at(&r, 1, 903000) - 0.05) < 1e-9);
	run_result_release(&r);
}

/* ---- energy ----------------------------------------------------------------------------------- */

/* One task busy for exactly 1 s on CPU4. */
static const char *one_second_trace(void)
{
	struct tb b = {0};
	const char *path;
	tb_wakeup(&b, 100000000ULL, 4, "work", 2000, 120);
	tb_switch_in(&b, 100000000ULL, 4, "work", 2000, 120);
	tb_switch_out(&b, 101000000ULL, 4, "work", 2000, 120);
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
}

static void test_energy_performance_1s(void **state)
{
	struct replay_case c = {.trace = one_second_trace(), .governor = "performance",
				.timing = SIM_TIMING_TRACED};
	struct run_result r;
	(void)state;

	replay(&c, &r);
	assert_true(fabs(r.span_s - 1.0) < 1e-9);
	/* 1571 mW for exactly 1 s */
	assert_true(fabs(r.energy_cpu[4] - 1.571) < 1e-9);
	for (int cpu = 0; cpu < 8; cpu++)
		if (cpu != 4)
			assert_true(r.energy_cpu[cpu] == 0);
	assert_true(fabs(r.energy_total - 1.571) < 1e-9);
	run_result_release(&r);
}

/* --warmup-ms: the first 500 ms of the busy second are replayed but not measured. */
static void test_energy_warmup(void **state)
{
	struct replay_case c = {.trace = one_second_trace(), .governor = "performance",
				.timing = SIM_TIMING_TRACED, .warmup_ns = 500 * NSEC_PER_MSEC};
	struct run_result r;
	(void)state;

	replay(&c, &r);
	assert_true(fabs(r.span_s - 0.5) < 1e-9);
	assert_true(fabs(r.start_s - 100.5) < 1e-9);
	assert_true(fabs(r.energy_cpu[4] - 1.571 * 0.5) < 1e-9);
	assert_true(fabs(r.pol[1].residency_s[4] - 0.5) < 1e-9);
	assert_true(fabs(r.pol[1].busy_s - 0.5) < 1e-9);
	assert_true(r.nr_tasks == 1 && fabs(r.tasks[0].runtime_s - 0.5) < 1e-9);
	run_result_release(&r);
}

static void test_energy_powersave_work(void **state)
{
	struct replay_case c = {.trace = one_second_trace(), .governor = "powersave",
				.timing = SIM_TIMING_WORK};
	struct run_result r;
	double stretch = 2362000.0 / 903000.0;
	(void)state;

	replay(&c, &r);
	/* the trace has no frequency: its second of work was done at max; at 903 MHz it takes
	 * 2362/903 s (to the ns the emulation rounds up to) at 243 mW */
	assert_true(fabs(r.span_s - stretch) < 2e-9);
	assert_true(fabs(r.energy_cpu[4] - 0.243 * stretch) < 1e-8);
	assert_true(fabs(r.work_in_s[4] - 1.0) < 1e-9);
	assert_true(fabs(r.work_out_s[4] - r.work_in_s[4]) < 1e-9);
	assert_true(r.nr_tasks == 1 && fabs(r.tasks[0].delay_s - (stretch - 1.0)) < 2e-9);
	run_result_release(&r);
}

/* ---- invariants on the real traces ------------------------------------------------------------ */

static void check_invariants(const char *rel, const char *platform, enum sim_timing timing)
{
	struct platform plat;
	struct gs_error err;
	struct replay_case c = {.trace = test_path(rel), .timing = timing, .plat = &plat};
	struct run_result r;

	gs_error_clear(&err);
	assert_int_equal(platform_load(platform, &plat, &err), 0);
	replay(&c, &r);
	for (int cl = 0; cl < r.nr_clusters; cl++) {
		double sum = 0;
		for (int k = 0; k < r.pol[cl].nr_opps; k++)
			sum += r.pol[cl].residency_s[k];
		if (fabs(sum - r.span_s) > 1e-9)
			fail_msg("%s: policy%d residency %.9f != span %.9f", rel, r.pol[cl].policy,
				 sum, r.span_s);
	}
	if (timing == SIM_TIMING_WORK)
		for (int cpu = 0; cpu < r.nr_cpus; cpu++)
			if (fabs(r.work_in_s[cpu] - r.work_out_s[cpu]) >
			    1e-9 * (1 + r.work_in_s[cpu]))
				fail_msg("%s: cpu%d work in %.9f != out %.9f", rel, cpu,
					 r.work_in_s[cpu], r.work_out_s[cpu]);
	run_result_release(&r);
}

static void test_invariants_real_traces(void **state)
{
	(void)state;
	check_invariants("traces/juno-r0/sched_load/trace.dat", "juno-r0", SIM_TIMING_WORK);
	check_invariants("traces/juno-r0/sched_load/trace.dat", "juno-r0", SIM_TIMING_TRACED);
	check_invariants("traces/juno-r0/rtapp_switch/trace.txt", "juno-r0", SIM_TIMING_WORK);
	check_invariants("traces/juno-r0/rtapp_switch/trace.txt", "juno-r0", SIM_TIMING_TRACED);
	check_invariants("traces/android-8cpu/surfaceflinger.txt", "hikey960", SIM_TIMING_WORK);
	check_invariants("traces/android-8cpu/surfaceflinger.txt", "hikey960", SIM_TIMING_TRACED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uclamp_max_holds_903),
		cmocka_unit_test(test_uclamp_min_boosts),
		cmocka_unit_test(test_rt_boost_and_rt_default),
		cmocka_unit_test(test_unchanged_sysctl_keeps_key_off),
		cmocka_unit_test(test_cgroup_max_and_unchanged_write),
		cmocka_unit_test(test_idle_cluster_no_activity),
		cmocka_unit_test(test_setattr_matching_nothing_keeps_key_off),
		cmocka_unit_test(test_setattr_kicks_rt_enqueue),
		cmocka_unit_test(test_energy_performance_1s),
		cmocka_unit_test(test_energy_powersave_work),
		cmocka_unit_test(test_energy_warmup),
		cmocka_unit_test(test_invariants_real_traces),
	};
	return cmocka_run_group_tests(tests, setup_platform, NULL);
}
