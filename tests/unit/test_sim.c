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
#include "gen/gen.h"
#include "uclamp/policy.h"

/* ---- a tiny ftrace text writer ---------------------------------------------------------------- */

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

/* A switch out to death: X (EXIT_DEAD), as do_task_dead() reports it. */
static void tb_switch_out_dead(struct tb *b, unsigned long long us, int cpu, const char *comm,
			       int pid, int prio, char state)
{
	tb_ts(b, comm, pid, cpu, us);
	tb_printf(b,
		  "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%c ==> "
		  "next_comm=swapper/%d next_pid=0 next_prio=120\n",
		  comm, pid, prio, state, cpu);
}

/*
 * A long-lived periodic task on CPU 4 (pid 1000, 2 ms every 10 ms) and n
 * short-lived ones on CPUs 0-3, one every 100 us (pids 2000.., each 300 us of work and gone),
 * each switched out for the last time with `state` (X: it died; S: it just sleeps).
 */
static const char *short_lived_trace(int n, char state)
{
	struct tb b = {0};
	const char *path;
	unsigned long long t0 = 100000000ULL, end = t0 + (unsigned long long)n * 100 + 1000;

	for (unsigned long long t = t0; t < end; t += 10000) {
		tb_wakeup(&b, t, 4, "busy", 1000, 120);
		tb_switch_in(&b, t, 4, "busy", 1000, 120);
		tb_switch_out(&b, t + 2000, 4, "busy", 1000, 120);
	}
	for (int k = 0; k < n; k++) {
		unsigned long long t = t0 + (unsigned long long)k * 100;
		int cpu = k % 4, pid = 2000 + k;

		tb_wakeup(&b, t, cpu, "sh", pid, 120);
		tb_switch_in(&b, t + 1, cpu, "sh", pid, 120);
		tb_switch_out_dead(&b, t + 301, cpu, "sh", pid, 120, state);
	}
	/* the text reader re-orders within its window: the two streams interleave by time */
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
}

/* n short-lived tasks alone, written in time order: one every 100 us on CPUs 0-3 in turn (pids
 * 2000..), each running 50 us and switched out for the last time with `state`. */
static const char *dying_tasks_trace(int n, char state)
{
	struct tb b = {0};
	const char *path;

	for (int k = 0; k < n; k++) {
		unsigned long long t = 100000000ULL + (unsigned long long)k * 100;
		int cpu = k % 4, pid = 2000 + k;

		tb_wakeup(&b, t, cpu, "sh", pid, 120);
		tb_switch_in(&b, t + 1, cpu, "sh", pid, 120);
		tb_switch_out_dead(&b, t + 51, cpu, "sh", pid, 120, state);
	}
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
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
	spec.opts.plat = c->plat ? c->plat : &hikey;
	spec.opts.governor = c->governor;
	spec.opts.params = c->params;
	spec.opts.nr_params = c->nr_params;
	spec.opts.timing = c->timing;
	spec.opts.util_source = SIM_UTIL_EMULATED;
	spec.opts.power_model = POWER_MODEL_EM;
	spec.opts.policy = pol.n ? &pol : NULL;
	spec.opts.warmup_ns = c->warmup_ns;
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

	/* a group only created (mkdir, no write) keeps the key off: the same run as no policy */
	c.actions[0] = "cgroup /app";
	replay(&c, &same);
	assert_false(same.key_on);
	assert_true(same.agg_ops == 0);
	assert_true(fabs(same.energy_total - base.energy_total) < 1e-12);
	run_result_release(&same);

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

/* The state of a task that died is freed; the results are the same as when
 * it is kept (the same trace with S instead of X: the model dequeues both alike), and the
 * states held at once do not grow with the number of pids. */
static void test_dead_tasks_freed(void **state)
{
	struct replay_case c = {.timing = SIM_TIMING_TRACED};
	struct run_result dead, kept, many;
	(void)state;

	c.trace = short_lived_trace(2000, 'X');
	replay(&c, &dead);
	c.trace = short_lived_trace(2000, 'S');
	replay(&c, &kept);
	c.trace = short_lived_trace(20000, 'X');
	replay(&c, &many);

	/* kept: every pid's state to the end (2000 + busy); freed: at most one short-lived task
	 * per CPU at a time, each gone 300 us after its start, 3 per CPU at once at most */
	assert_true(kept.peak_task_states >= 2001);
	assert_true(dead.peak_task_states <= 1 + 4 * 4);
	assert_true(many.peak_task_states == dead.peak_task_states);

	/* the results do not change: same tasks, runtimes, energy, residency */
	assert_int_equal(dead.nr_tasks, 2001);
	assert_int_equal(dead.nr_tasks, kept.nr_tasks);
	for (int i = 0; i < dead.nr_tasks; i++) {
		assert_int_equal(dead.tasks[i].pid, kept.tasks[i].pid);
		assert_string_equal(dead.tasks[i].comm, kept.tasks[i].comm);
		assert_true(dead.tasks[i].runtime_s == kept.tasks[i].runtime_s);
	}
	/* by hand: each short-lived task ran 300 us; busy 2 ms per 10-ms period */
	assert_int_equal(dead.tasks[0].pid, 1000); /* 21 periods in 0.201 s */
	assert_true(fabs(dead.tasks[0].runtime_s - 21 * 2e-3) < 1e-12);
	assert_int_equal(dead.tasks[1].pid, 2000);
	assert_true(fabs(dead.tasks[1].runtime_s - 300e-6) < 1e-12);
	/* a task that dies takes its util off its CPU (task_dead_fair), one that sleeps leaves
	 * it to decay there: the CPUs' util, and so frequency and energy, can only be lower */
	assert_true(dead.energy_total <= kept.energy_total);
	assert_int_equal(many.nr_tasks, 20001);
	run_result_release(&dead);
	run_result_release(&kept);
	run_result_release(&many);
}

/* Work timing frees a dead task too, once its last slice is emulated: the scheduler model's
 * states and the work layer's tasks held at once do not grow with the number of pids (2000 or
 * 20000 short-lived ones, each 50 us of every 400 us of its CPU, so that even the lowest OPP
 * keeps up: the slices the emulation lags behind the trace are held whatever the pids, work.h);
 * every task is still listed with its figures (each ran once: one activation, 50 us at the
 * traced speed or longer), and the tasks' activations add up to the run's (which the work
 * layer counts apart, in its totals). */
static void test_dead_tasks_freed_work(void **state)
{
	struct replay_case c = {.timing = SIM_TIMING_WORK};
	struct run_result dead, many;
	u64 acts = 0;
	(void)state;

	c.trace = dying_tasks_trace(2000, 'X');
	replay(&c, &dead);
	c.trace = dying_tasks_trace(20000, 'X');
	replay(&c, &many);

	print_message("states held at once: %llu and %llu, work tasks %llu and %llu\n",
		      (unsigned long long)dead.peak_task_states,
		      (unsigned long long)many.peak_task_states,
		      (unsigned long long)dead.peak_work_tasks,
		      (unsigned long long)many.peak_work_tasks);
	assert_true(dead.peak_task_states < 100);
	assert_true(many.peak_task_states <= dead.peak_task_states + 4);
	assert_true(dead.peak_work_tasks < 100);
	assert_true(many.peak_work_tasks <= dead.peak_work_tasks + 4);

	assert_int_equal(dead.nr_tasks, 2000);
	assert_int_equal(many.nr_tasks, 20000);
	for (int i = 0; i < dead.nr_tasks; i++) {
		assert_int_equal(dead.tasks[i].pid, 2000 + i);
		assert_true(dead.tasks[i].runtime_s >= 50e-6 - 1e-12);
		assert_true(dead.tasks[i].delay_s >= 0);
		assert_int_equal(dead.tasks[i].act.activations, 1);
		acts += dead.tasks[i].act.activations;
	}
	assert_int_equal(acts, dead.act_total.activations);
	run_result_release(&dead);
	run_result_release(&many);
}

/* A pid reused after its task died is a new task, in both timings: pid 3000 runs 1 ms as
 * "first" and dies (X), then 2 ms as "second". Both are listed, the dead one first; under traced
 * timing their runtimes are those of the trace, under work timing each ran once (one
 * activation). Merged, the pid was one task holding both runtimes. */
static void test_pid_reused(void **state)
{
	static const enum sim_timing timings[] = {SIM_TIMING_TRACED, SIM_TIMING_WORK};
	unsigned long long t0 = 100000000ULL;
	struct replay_case c = {0};
	struct tb b = {0};
	struct run_result r;
	(void)state;

	tb_wakeup(&b, t0, 4, "first", 3000, 120);
	tb_switch_in(&b, t0 + 10, 4, "first", 3000, 120);
	tb_switch_out_dead(&b, t0 + 1010, 4, "first", 3000, 120, 'X');
	tb_wakeup(&b, t0 + 5000, 4, "second", 3000, 120);
	tb_switch_in(&b, t0 + 5010, 4, "second", 3000, 120);
	tb_switch_out(&b, t0 + 7010, 4, "second", 3000, 120);
	c.trace = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	for (int k = 0; k < 2; k++) {
		c.timing = timings[k];
		replay(&c, &r);
		assert_int_equal(r.nr_tasks, 2);
		assert_int_equal(r.tasks[0].pid, 3000);
		assert_string_equal(r.tasks[0].comm, "first");
		assert_int_equal(r.tasks[1].pid, 3000);
		assert_string_equal(r.tasks[1].comm, "second");
		if (c.timing == SIM_TIMING_TRACED) {
			assert_true(fabs(r.tasks[0].runtime_s - 1e-3) < 1e-12);
			assert_true(fabs(r.tasks[1].runtime_s - 2e-3) < 1e-12);
		} else {
			assert_int_equal(r.tasks[0].act.activations, 1);
			assert_int_equal(r.tasks[1].act.activations, 1);
			assert_true(r.tasks[1].runtime_s > r.tasks[0].runtime_s);
		}
		run_result_release(&r);
	}
}

/* A cluster nothing ran on (the task runs on CPU4 only) has no average
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

/* A setattr that reaches no task is no use of uclamp. `comm=nobody` matches
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

/* v5.9 __sched_setscheduler() dequeues and enqueues a queued task around
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
	assert_true(fabs(r.traced_span_s - 1.0) < 1e-12); /* the replay ends after the trace */
	assert_true(fabs(r.stretch - stretch) < 2e-9);
	assert_true(fabs(r.energy_cpu[4] - 0.243 * stretch) < 1e-8);
	assert_true(fabs(r.work_in_s[4] - 1.0) < 1e-9);
	assert_true(fabs(r.work_out_s[4] - r.work_in_s[4]) < 1e-9);
	assert_true(r.nr_tasks == 1 && fabs(r.tasks[0].delay_s - (stretch - 1.0)) < 2e-9);
	run_result_release(&r);
}

/* ---- closed loop -------------------------------------------------------------------- */

/* A line in a task's context with the given flags column ("d..3": task, "dNh2": hardirq). */
static void tb_ctx(struct tb *b, const char *comm, int pid, int cpu, const char *flags,
		   unsigned long long us)
{
	tb_printf(b, "%16s-%-7d [%03d] %s %5llu.%06llu: ", comm, pid, cpu, flags, us / 1000000,
		  us % 1000000);
}

static void tb_freq(struct tb *b, unsigned long long us, int first, int last, unsigned khz)
{
	for (int c = first; c <= last; c++) {
		tb_ts(b, "<...>", 99, 0, us);
		tb_printf(b, "tracing_mark_write: cpu_frequency_devlib: state=%u cpu_id=%d\n", khz, c);
	}
}

/* `waker` (on wcpu) wakes `wakee` (target tcpu) at us: sched_waking in the waker's context,
 * then the sched_wakeup on the target CPU from the IPI (hardirq): the waking decides. */
static void tb_wake_by(struct tb *b, unsigned long long us, const char *waker, int wpid, int wcpu,
		       const char *wakee, int pid, int tcpu)
{
	tb_ctx(b, waker, wpid, wcpu, "d..3", us);
	tb_printf(b, "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n", wakee, pid, tcpu);
	tb_ctx(b, "<idle>", 0, tcpu, "dNh2", us);
	tb_printf(b, "sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d\n", wakee, pid, tcpu);
}

/*
 * perf bench sched pipe in miniature: "ping" (pid 10, CPU cpu_a) and "pong" (pid 11, CPU
 * cpu_b) take turns, each running run_us at the traced 1844 MHz, waking the other as it goes
 * to sleep; n slices in all, no gap between them. The first wakeup is from idle.
 */
static const char *pingpong_trace(int cpu_a, int cpu_b, unsigned long long run_us, int n)
{
	struct tb b = {0};
	const char *path;
	unsigned long long t = 100000000ULL;
	const char *comm[2] = {"ping", "pong"};
	int pid[2] = {10, 11}, cpu[2] = {cpu_a, cpu_b};

	tb_freq(&b, t, 0, 3, 1844000);
	tb_wakeup(&b, t, cpu_a, "ping", 10, 120);
	tb_switch_in(&b, t, cpu_a, "ping", 10, 120);
	for (int k = 0; k < n; k++) {
		int x = k % 2, y = 1 - x;
		t += run_us;
		if (k + 1 < n)
			tb_wake_by(&b, t, comm[x], pid[x], cpu[x], comm[y], pid[y], cpu[y]);
		tb_switch_out(&b, t, cpu[x], comm[x], pid[x], 120);
		if (k + 1 < n)
			tb_switch_in(&b, t, cpu[y], comm[y], pid[y], 120);
	}
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
}

/* The emulated duration of traced work: ns at f0 -> ns at f, rounded up to the ns. */
static double scaled_ns(double ns, double f0, double f)
{
	return ceil(ns * f0 / f - 1e-6);
}

static void check_pingpong(int cpu_a, int cpu_b)
{
	const int n = 40;
	const double run_ns = 100000, f0 = 1844000, f = 533000;
	struct replay_case c = {.trace = pingpong_trace(cpu_a, cpu_b, 100, n),
				.governor = "powersave", .timing = SIM_TIMING_WORK};
	struct run_result r;
	double slice = scaled_ns(run_ns, f0, f) / 1e9; /* 345967 ns */
	double late_step = slice - run_ns / 1e9, lmean = 0;

	replay(&c, &r);
	/* the work of the n slices, one after the other: span x f0/f */
	assert_true(fabs(r.traced_span_s - n * run_ns / 1e9) < 1e-12);
	assert_true(fabs(r.span_s - n * slice) < 1e-9);
	assert_true(fabs(r.stretch - slice / (run_ns / 1e9)) < 1e-6);
	/* never both busy: the busy time of the CPUs adds up to the span */
	assert_true(fabs(r.pol[0].busy_s - r.span_s) < 1e-9);
	/* every slice is an activation; the wakee runs at once, as in the trace */
	assert_int_equal(r.act_total.activations, n);
	assert_true(r.act_total.latency.max_s == 0);
	assert_true(fabs(r.act_total.response.mean_s - slice) < 1e-9);
	assert_true(fabs(r.act_total.response.max_s - slice) < 1e-9);
	assert_true(fabs(r.act_total.response.p95_s - slice) < 1e-9);
	/* slice k ends (k+1) x slice after the start instead of (k+1) x run */
	for (int k = 0; k < n; k++)
		lmean += (k + 1) * late_step / n;
	assert_true(fabs(r.act_total.lateness.max_s - n * late_step) < 1e-9);
	assert_true(fabs(r.act_total.lateness.mean_s - lmean) < 1e-9);
	/* nearest rank of 95 % of 40: the 38th, within the histogram's 1/32 */
	assert_true(fabs(r.act_total.lateness.p95_s - 38 * late_step) < 38 * late_step / 32);
	assert_true(fabs(r.act_total.throughput - n / r.span_s) < 1e-6);
	for (int cpu = 0; cpu < 8; cpu++)
		assert_true(fabs(r.work_in_s[cpu] - r.work_out_s[cpu]) < 1e-12);
	run_result_release(&r);
}

static void test_closed_pingpong_two_cpus(void **state)
{
	(void)state;
	check_pingpong(0, 1);
}

static void test_closed_pingpong_one_cpu(void **state)
{
	(void)state;
	check_pingpong(0, 0);
}

/* A timer task on CPU0: woken from a hardirq every period_us, runs run_us at the traced
 * 1844 MHz, n activations. */
static const char *timer_trace(unsigned long long run_us, unsigned long long period_us, int n)
{
	struct tb b = {0};
	const char *path;
	unsigned long long t0 = 100000000ULL;

	tb_freq(&b, t0, 0, 3, 1844000);
	for (int k = 0; k < n; k++) {
		unsigned long long t = t0 + (unsigned long long)k * period_us;
		tb_ctx(&b, "<idle>", 0, 0, "d.h2", t);
		tb_printf(&b, "sched_wakeup: comm=timer pid=20 prio=120 target_cpu=000\n");
		tb_switch_in(&b, t, 0, "timer", 20, 120);
		tb_switch_out(&b, t + run_us, 0, "timer", 20, 120);
	}
	path = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	return path;
}

/* It fits at 533 MHz: wakeups stay at their traced times, response x f0/f. */
static void test_closed_timer_fits(void **state)
{
	const int n = 20;
	const double run = 2e6, period = 10e6, f0 = 1844000, f = 533000;
	struct replay_case c = {.trace = timer_trace(2000, 10000, n), .governor = "powersave",
				.timing = SIM_TIMING_WORK};
	struct run_result r;
	double resp = scaled_ns(run, f0, f) / 1e9; /* 6.919700 ms < 10 ms */
	(void)state;

	replay(&c, &r);
	assert_true(fabs(r.traced_span_s - ((n - 1) * period + run) / 1e9) < 1e-12);
	assert_true(fabs(r.span_s - ((n - 1) * period / 1e9 + resp)) < 1e-9);
	assert_int_equal(r.act_total.activations, n);
	assert_true(r.act_total.latency.max_s == 0);
	assert_true(fabs(r.act_total.response.mean_s - resp) < 1e-9);
	assert_true(fabs(r.act_total.response.p95_s - resp) < 1e-9);
	assert_true(fabs(r.act_total.lateness.max_s - (resp - run / 1e9)) < 1e-9);
	assert_true(fabs(r.act_total.lateness.mean_s - (resp - run / 1e9)) < 1e-9);
	assert_null(strstr(r.notes, "backlog"));
	run_result_release(&r);
}

/* It does not fit (4 ms at 1844 MHz is 13.84 ms at 533 MHz, every 10 ms): activation k starts
 * when k-1 ends, at k x R'; its lateness k (R' - P) + R' - R grows linearly. */
static void test_closed_timer_backlog(void **state)
{
	const int n = 50;
	const double run = 4e6, period = 10e6, f0 = 1844000, f = 533000;
	struct replay_case c = {.trace = timer_trace(4000, 10000, n), .governor = "powersave",
				.timing = SIM_TIMING_WORK};
	struct run_result r;
	double rr = scaled_ns(run, f0, f); /* ns */
	double lat_sum = 0, late_sum = 0;
	(void)state;

	replay(&c, &r);
	assert_true(fabs(r.span_s - n * rr / 1e9) < 1e-9);
	assert_int_equal(r.act_total.activations, n);
	for (int k = 0; k < n; k++) {
		lat_sum += k * (rr - period);
		late_sum += k * (rr - period) + rr - run;
	}
	assert_true(fabs(r.act_total.latency.max_s - (n - 1) * (rr - period) / 1e9) < 1e-9);
	assert_true(fabs(r.act_total.latency.mean_s - lat_sum / n / 1e9) < 1e-9);
	assert_true(fabs(r.act_total.lateness.max_s - ((n - 1) * (rr - period) + rr - run) / 1e9) <
		    1e-9);
	assert_true(fabs(r.act_total.lateness.mean_s - late_sum / n / 1e9) < 1e-9);
	assert_true(fabs(r.act_total.response.max_s - ((n - 1) * (rr - period) + rr) / 1e9) < 1e-9);
	assert_non_null(strstr(r.notes, "timer-driven work does not fit its period"));
	assert_non_null(strstr(r.notes, "timer 20"));
	for (int cpu = 0; cpu < 8; cpu++)
		assert_true(fabs(r.work_in_s[cpu] - r.work_out_s[cpu]) < 1e-12);
	run_result_release(&r);
}

/*
 * Cold start: a saturated one-CPU pipe (no idle) traced at 1844 MHz under schedutil, whose
 * PELT starts at zero: the ramp runs below 1844 MHz at first. The work is conserved, so the
 * span grows by the work lost at the lower OPPs, sum of residency x (1 - f/f_max), and that is
 * paid once: a trace twice as long loses the same.
 */
static double cold_start_extra(unsigned long long n)
{
	struct replay_case c = {.trace = pingpong_trace(0, 0, 1000, (int)n),
				.governor = "schedutil", .timing = SIM_TIMING_WORK};
	struct run_result r;
	double extra, lost = 0;

	replay(&c, &r);
	extra = r.span_s - r.traced_span_s;
	for (int k = 0; k < r.pol[0].nr_opps; k++)
		lost += r.pol[0].residency_s[k] * (1 - r.pol[0].freq_khz[k] / 1844000.0);
	assert_true(fabs(extra - lost) < 1e-6);
	assert_true(fabs(r.pol[0].busy_s - r.span_s) < 1e-9);
	run_result_release(&r);
	return extra;
}

static void test_closed_cold_start_once(void **state)
{
	double e1 = cold_start_extra(500), e2 = cold_start_extra(1000);
	(void)state;
	assert_true(e1 > 0.010 && e1 < 0.100); /* tens of ms */
	assert_true(fabs(e2 - e1) < 1e-3);
}

/* A task wakeup follows its waker, an external one keeps its time: a waker on CPU0 runs 1 ms
 * and wakes "w" on CPU1 in the middle of it (0.5 ms in); at 533 MHz the wakeup moves to
 * 0.5 x 1844/533 ms. The same wakeup from a softirq context is external: it stays at 0.5 ms. */
static void check_wake_rule(const char *flags, bool moves)
{
	struct tb b = {0};
	unsigned long long t = 100000000ULL;
	struct replay_case c = {.governor = "powersave", .timing = SIM_TIMING_WORK};
	struct run_result r;
	double half = scaled_ns(500000, 1844000, 533000) / 1e9;
	double late;

	tb_freq(&b, t, 0, 3, 1844000);
	tb_wakeup(&b, t, 0, "waker", 30, 120);
	tb_switch_in(&b, t, 0, "waker", 30, 120);
	tb_ctx(&b, "waker", 30, 0, flags, t + 500);
	tb_printf(&b, "sched_wakeup: comm=w pid=31 prio=120 target_cpu=001\n");
	tb_switch_in(&b, t + 500, 1, "w", 31, 120);
	tb_switch_out(&b, t + 600, 1, "w", 31, 120);
	tb_switch_out(&b, t + 1000, 0, "waker", 30, 120);
	c.trace = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	replay(&c, &r);
	assert_int_equal(r.nr_tasks, 2);
	for (int i = 0; i < r.nr_tasks; i++) {
		if (r.tasks[i].pid != 31)
			continue;
		/* w's 100 us end: traced at 0.6 ms, emulated at its wakeup + 100 us x f0/f */
		late = (moves ? half : 0.0005) + scaled_ns(100000, 1844000, 533000) / 1e9 - 0.0006;
		assert_true(fabs(r.tasks[i].act.lateness.max_s - late) < 2e-9);
		assert_true(r.tasks[i].act.latency.max_s == 0);
	}
	run_result_release(&r);
}

static void test_closed_wake_rules(void **state)
{
	(void)state;
	check_wake_rule("d..3", true);  /* sched_wakeup only, in the waker's context */
	check_wake_rule("d.s3", false); /* softirq context: external */
	check_wake_rule("d.h3", false); /* hardirq context: external */
}

/* `govsim gen pipe` on Hikey960's little CPUs at 533 MHz: the generator's wakeups are in the
 * writer's context, so they move with it. Each side wakes the other, sleeps 1 us later and the
 * woken side runs 2 us after the wakeup on its idle CPU: that latency is kept (it is the idle
 * exit and the IPI, not work). On one CPU the woken side runs when the writer's last 1 us of
 * work, at 533 MHz, is done. */
static void check_gen_pipe(int nr_cpus, int c0, int c1, double want_latency_s)
{
	struct gen_opts o;
	struct gs_error err;
	struct replay_case c = {.governor = "powersave", .timing = SIM_TIMING_WORK};
	struct run_result r;
	char path[256];
	FILE *f;

	gen_opts_init(&o);
	o.workload = GEN_PIPE;
	o.count = 100;
	o.nr_cpus = 8;
	for (int k = 0; k < 8; k++)
		o.max_khz[k] = k < 4 ? 1844000 : 2362000;
	o.nr_pipe_cpus = nr_cpus;
	o.pipe_cpus[0] = c0;
	o.pipe_cpus[1] = c1;
	snprintf(path, sizeof(path), "%s", test_tmpfile("", ".txt"));
	f = fopen(path, "w");
	assert_non_null(f);
	gs_error_clear(&err);
	assert_int_equal(gen_write(f, &o, NULL, &err), 0);
	fclose(f);
	c.trace = path;
	replay(&c, &r);
	assert_int_equal(r.act_total.activations, 2 * 100);
	/* the wakeup and the start are each rounded up to the ns: within 1 ns */
	assert_true(fabs(r.act_total.latency.max_s - want_latency_s) < 1.001e-9);
	assert_true(fabs(r.act_total.latency.mean_s - want_latency_s) < 1.001e-9);
	assert_true(r.stretch > 1.5);
	run_result_release(&r);
}

static void test_closed_gen_pipe(void **state)
{
	(void)state;
	check_gen_pipe(2, 0, 1, 2e-6);
	check_gen_pipe(1, 2, 2, scaled_ns(1000, 1844000, 533000) / 1e9);
}

/* A gap over SIM_MAX_GAP_NS (1 h) is refused at once (run time stays bounded by the
 * number of events); one just under it replays. */
static void check_gap(unsigned long long gap_us, bool refused)
{
	struct tb b = {0};
	struct replay_spec spec = {0};
	struct run_result r;
	struct gs_error err;

	tb_wakeup(&b, 100000000ULL, 4, "long", 40, 120);
	tb_switch_in(&b, 100000000ULL, 4, "long", 40, 120);
	tb_switch_out(&b, 100000000ULL + gap_us, 4, "long", 40, 120);
	spec.trace = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	spec.opts.plat = &hikey;
	spec.opts.governor = "performance";
	spec.opts.timing = SIM_TIMING_TRACED;
	spec.opts.power_model = POWER_MODEL_EM;
	gs_error_clear(&err);
	run_result_init(&r);
	if (refused) {
		assert_int_equal(replay_run(&spec, &r, &err), GS_ETRACE);
		assert_non_null(strstr(err.msg, "gaps over 3600 s are refused"));
	} else {
		assert_int_equal(replay_run(&spec, &r, &err), 0);
		assert_true(fabs(r.span_s - gap_us / 1e6) < 1e-9);
	}
	run_result_release(&r);
}

static void test_gap_limit(void **state)
{
	(void)state;
	check_gap(100000ULL * 1000000ULL, true); /* 1e5 s */
	check_gap(3600ULL * 1000000ULL + 1, true);
	check_gap(60ULL * 1000000ULL, false);
}

/* The run covers the trace to its last event, a cpu_idle 50 ms after the last
 * sched_switch included; traced timing states that span, work timing at 903 MHz (powersave)
 * ends its 10 ms of 2362 MHz work later than the switch but before the tail, so both spans are
 * the trace's 60 ms. */
static void test_span_includes_tail(void **state)
{
	struct tb b = {0};
	struct replay_case c = {.governor = "powersave", .timing = SIM_TIMING_TRACED};
	struct run_result r;
	(void)state;

	tb_wakeup(&b, 100000000ULL, 4, "t", 50, 120);
	tb_switch_in(&b, 100000000ULL, 4, "t", 50, 120);
	tb_switch_out(&b, 100010000ULL, 4, "t", 50, 120);
	tb_ts(&b, "<idle>", 0, 4, 100060000ULL);
	tb_printf(&b, "cpu_idle: state=0 cpu_id=4\n");
	c.trace = test_tmpfile(b.buf, ".txt");
	free(b.buf);
	replay(&c, &r);
	assert_true(fabs(r.span_s - 0.060) < 1e-9);
	assert_true(fabs(r.traced_span_s - 0.060) < 1e-9);
	assert_true(r.stretch == 1.0);
	run_result_release(&r);
	c.timing = SIM_TIMING_WORK;
	replay(&c, &r);
	assert_true(fabs(r.traced_span_s - 0.060) < 1e-9);
	assert_true(fabs(r.span_s - 0.060) < 1e-9); /* 10 ms x 2362/903 = 26.2 ms < 60 ms */
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
		cmocka_unit_test(test_dead_tasks_freed),
		cmocka_unit_test(test_dead_tasks_freed_work),
		cmocka_unit_test(test_pid_reused),
		cmocka_unit_test(test_idle_cluster_no_activity),
		cmocka_unit_test(test_setattr_matching_nothing_keeps_key_off),
		cmocka_unit_test(test_setattr_kicks_rt_enqueue),
		cmocka_unit_test(test_energy_performance_1s),
		cmocka_unit_test(test_energy_powersave_work),
		cmocka_unit_test(test_energy_warmup),
		cmocka_unit_test(test_invariants_real_traces),
		cmocka_unit_test(test_closed_pingpong_two_cpus),
		cmocka_unit_test(test_closed_pingpong_one_cpu),
		cmocka_unit_test(test_closed_timer_fits),
		cmocka_unit_test(test_closed_timer_backlog),
		cmocka_unit_test(test_closed_cold_start_once),
		cmocka_unit_test(test_closed_wake_rules),
		cmocka_unit_test(test_closed_gen_pipe),
		cmocka_unit_test(test_gap_limit),
		cmocka_unit_test(test_span_includes_tail),
	};
	return cmocka_run_group_tests(tests, setup_platform, NULL);
}
