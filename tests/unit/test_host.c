/*
 * test_host.c - the host side of the public governor interface (src/gov/host.c) called by a
 * governor with arguments out of range, as a plugin may: a CPU that is not the policy's (-1, a
 * CPU of another policy, 4096), a NULL out or report pointer, a NULL policy, an unknown
 * relation, a NULL tunable out pointer.
 *
 * Checks: no call reaches the replay (struct gov_env) with a CPU that is not the policy's (the
 * replay indexes its per-CPU arrays with it, as sim.c does: the fake below fails the test
 * instead), none crashes, and each answers what "nothing" means: zeroed signals, idle 0, bw_dl 0,
 * no clamps (0/1024), util unchanged, an unknown relation as RELATION_L, GOVSIM_EINVAL for a
 * tunable without a place to put it; a report with a bad CPU or none is dropped. Good arguments
 * in between still reach the replay, so the checks cannot pass by answering nothing always.
 * And a replay that gives the scheduler model itself (struct gov_env.sched): a CPU of the
 * policy reads the model's own numbers (sched_cpu_util()), a CPU that is not the policy's none.
 * Does not check: the governors themselves (test_governors.c, test_schedutil.c).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gov/governor.h"
#include "sim/cpufreq_table.h"

static const u32 opp_khz[] = {903000, 1421000, 1805000, 2112000, 2362000};

/* The policy's CPUs are 4..7; the replay knows 8. */
#define FIRST_CPU 4
#define NR_CPUS   4

struct fake {
	int calls;     /* env calls with a CPU of the policy */
	int evals;     /* reports that reached the replay */
	struct uclamp_rq_pair rq;
};

static void check_cpu(int cpu)
{
	/* what sim.c does with it: s->cpu[cpu] */
	assert_in_range(cpu, FIRST_CPU, FIRST_CPU + NR_CPUS - 1);
}

static void fake_cpu_util(void *ctx, int cpu, struct sched_cpu_util *out)
{
	check_cpu(cpu);
	((struct fake *)ctx)->calls++;
	memset(out, 0, sizeof(*out));
	out->util_cfs = 300;
	out->bw_dl = 7;
	out->capacity = 1024;
}

static unsigned long fake_cpu_bw_dl(void *ctx, int cpu)
{
	check_cpu(cpu);
	((struct fake *)ctx)->calls++;
	return 7;
}

static const struct uclamp_rq_pair *fake_cpu_uclamp(void *ctx, int cpu)
{
	check_cpu(cpu);
	((struct fake *)ctx)->calls++;
	return &((struct fake *)ctx)->rq;
}

static u64 fake_cpu_idle_ns(void *ctx, int cpu, u64 now_ns)
{
	check_cpu(cpu);
	((struct fake *)ctx)->calls++;
	return 1000;
}

static void fake_on_eval(void *ctx, const struct govsim_eval *e, u32 freq_khz)
{
	(void)freq_khz;
	check_cpu(e->cpu);
	((struct fake *)ctx)->evals++;
}

/* The governor under test: init keeps the policy and tries a tunable without an out pointer. */
static struct govsim_policy *seen_pol;
static int tunable_null_out;

static int t_init(struct govsim_policy *pol, void **data)
{
	seen_pol = pol;
	*data = NULL;
	tunable_null_out = govsim_tunable_uint(pol, "x", 0, 10, NULL);
	return GOVSIM_OK;
}

static void t_update(struct govsim_policy *pol, void *data, int cpu, uint64_t now_ns,
		     unsigned int flags)
{
	(void)pol, (void)data, (void)cpu, (void)now_ns, (void)flags;
}

static const struct govsim_governor t_gov = {
	GOVSIM_GOVERNOR_ABI,
	.name = "hostargs",
	.init = t_init,
	.update = t_update,
};
static const struct governor t_ops = GOVERNOR_ENTRY("hostargs", &t_gov);

struct fixture {
	struct fake fake;
	struct uclamp_sys uc;
	struct gov_env env;
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	void *data;
};

/* The fixture, whose replay gives the scheduler model's signals directly when model is given
 * (struct gov_env.sched), else through the fake. */
static struct fixture *start_model(const struct sched *model)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct gov_param params[1] = {{.key = "x", .value = "5"}};
	struct gs_error err;

	assert_non_null(fx);
	fx->env.ctx = &fx->fake;
	fx->env.cpu_util = fake_cpu_util;
	fx->env.cpu_bw_dl = fake_cpu_bw_dl;
	fx->env.cpu_idle_ns = fake_cpu_idle_ns;
	fx->env.cpu_uclamp = fake_cpu_uclamp;
	fx->env.uclamp = &fx->uc;
	fx->env.sched = model;
	fx->env.on_eval = fake_on_eval;
	fx->env.hz = 250;
	fx->cl.nr_cpus = NR_CPUS;
	for (int i = 0; i < NR_CPUS; i++)
		fx->cl.cpus[i] = FIRST_CPU + i;
	fx->cl.transition_latency_ns = 300000;
	fx->cl.nr_opps = 5;
	for (int i = 0; i < 5; i++)
		fx->cl.opps[i].freq_khz = opp_khz[i];
	cpufreq_policy_init_cluster(&fx->pol, 1, &fx->cl, opp_khz[1], 0);
	gs_error_clear(&err);
	seen_pol = NULL;
	assert_int_equal(governor_init(&t_ops, &fx->pol, &fx->env, params, 1, &fx->data, &err),
			 0);
	assert_non_null(seen_pol);
	return fx;
}

static struct fixture *start(void)
{
	return start_model(NULL);
}

static void finish(struct fixture *fx)
{
	governor_release(fx->data);
	free(fx);
}

static const int bad_cpus[] = {-1, 0, FIRST_CPU - 1, FIRST_CPU + NR_CPUS, 4096, -2147483647 - 1};

static void test_signals_bad_cpu(void **state)
{
	struct fixture *fx = start();
	struct govsim_policy *pol = seen_pol;
	struct govsim_cpu_util u;
	struct govsim_rq_clamp c;
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(bad_cpus); i++) {
		int cpu = bad_cpus[i];

		memset(&u, 0xa5, sizeof(u));
		govsim_cpu_util(pol, cpu, &u);
		assert_int_equal(u.util_cfs, 0);
		assert_int_equal(u.capacity, 0);
		assert_int_equal(govsim_cpu_bw_dl(pol, cpu), 0);
		assert_true(govsim_cpu_idle_ns(pol, cpu, 5000) == 0);
		memset(&c, 0xa5, sizeof(c));
		govsim_rq_clamp(pol, cpu, &c);
		assert_int_equal(c.used, 0);
		assert_int_equal(c.min, 0);
		assert_int_equal(c.max, 1024);
		assert_int_equal(govsim_uclamp_rq_util_with(pol, cpu, 500), 500);
	}
	assert_int_equal(fx->fake.calls, 0);

	/* a CPU of the policy still reaches the replay */
	govsim_cpu_util(pol, FIRST_CPU + 1, &u);
	assert_int_equal(u.util_cfs, 300);
	assert_int_equal(govsim_cpu_bw_dl(pol, FIRST_CPU + 3), 7);
	assert_true(govsim_cpu_idle_ns(pol, FIRST_CPU, 5000) == 1000);
	assert_int_equal(fx->fake.calls, 3);
	finish(fx);
}

static void test_null_pointers(void **state)
{
	struct fixture *fx = start();
	struct govsim_policy *pol = seen_pol;
	const struct govsim_host *host = pol->host;
	struct govsim_cpu_util u;
	struct govsim_eval e = {.cpu = FIRST_CPU, .policy = FIRST_CPU};
	(void)state;

	/* NULL out pointers: nothing written, nothing read */
	govsim_cpu_util(pol, FIRST_CPU, NULL);
	govsim_rq_clamp(pol, FIRST_CPU, NULL);
	assert_int_equal(tunable_null_out, GOVSIM_EINVAL);
	/* NULL policy */
	memset(&u, 0xa5, sizeof(u));
	host->cpu_util(NULL, FIRST_CPU, &u);
	assert_int_equal(u.util_cfs, 0);
	assert_int_equal(host->cpu_bw_dl(NULL, FIRST_CPU), 0);
	assert_true(host->cpu_idle_ns(NULL, FIRST_CPU, 1) == 0);
	assert_int_equal(host->uclamp_rq_util_with(NULL, FIRST_CPU, 321), 321);
	assert_int_equal(host->resolve_freq(NULL, 1500000, GOVSIM_RELATION_L), 0);
	assert_int_equal(host->request_freq(NULL, 1500000, GOVSIM_RELATION_L, 0), 0);
	host->start_freq(NULL, 1500000, GOVSIM_RELATION_L);
	host->report(NULL, &e);
	assert_null(host->tunable(NULL, "x"));
	assert_int_equal(host->tunable_uint(NULL, "x", 0, 1, NULL), GOVSIM_EINVAL);
	assert_int_equal(fx->fake.calls, 0);

	/* reports: none, or of a CPU not the policy's, are dropped; a good one goes through */
	govsim_report(pol, NULL);
	for (size_t i = 0; i < GS_ARRAY_SIZE(bad_cpus); i++) {
		e.cpu = bad_cpus[i];
		govsim_report(pol, &e);
	}
	assert_int_equal(fx->fake.evals, 0);
	e.cpu = FIRST_CPU + 2;
	govsim_report(pol, &e);
	assert_int_equal(fx->fake.evals, 1);
	finish(fx);
}

static void test_bad_relation(void **state)
{
	struct fixture *fx = start();
	struct govsim_policy *pol = seen_pol;
	(void)state;

	/* an unknown relation is RELATION_L: the lowest OPP at or above */
	assert_int_equal(govsim_resolve_freq(pol, 1500000, (enum govsim_relation)99), 1805000);
	assert_int_equal(govsim_resolve_freq(pol, 1500000, (enum govsim_relation)-5), 1805000);
	govsim_request_freq(pol, 2000000, (enum govsim_relation)1234, 1000000);
	assert_int_equal(pol->next_khz, 2112000);
	finish(fx);
}

/* An event of the model's: a switch on cpu at t from prev to next (0: idle). */
static void model_switch(struct sched *s, int cpu, u64 t, s32 prev, u32 prev_state, s32 next)
{
	struct event ev = {.type = EV_SWITCH, .ts_ns = t, .cpu = cpu, .pid = prev};
	struct gs_error err;

	ev.sw.prev_pid = prev;
	ev.sw.prev_prio = ev.sw.next_prio = 120;
	ev.sw.prev_state = prev_state;
	ev.sw.next_pid = next;
	snprintf(ev.sw.prev_comm, TASK_COMM_LEN, prev ? "t%d" : "swapper/%d", prev ? prev : cpu);
	snprintf(ev.sw.next_comm, TASK_COMM_LEN, next ? "t%d" : "swapper/%d", next ? next : cpu);
	gs_error_clear(&err);
	assert_int_equal(sched_event(s, &ev, t, &err), 0);
}

/*
 * A replay that gives the scheduler model itself (gov_env.sched): a CPU of the policy reads
 * the numbers the model's own reader, sched_cpu_util(), gives (a task ran 30 ms on CPU 5 and
 * one runs on CPU 6: signals that are not 0), without a call to the fake; a CPU that is not the
 * policy's still reads nothing, though the model has it.
 */
static void test_signals_from_the_model(void **state)
{
	struct sched_config cfg = {.nr_cpus = 8};
	struct sched *model = NULL;
	struct fixture *fx;
	struct sched_cpu_util want;
	struct govsim_cpu_util u;
	(void)state;

	for (int c = 0; c < 8; c++)
		cfg.capacity[c] = c < FIRST_CPU ? 462 : 1024;
	assert_int_equal(sched_new(&cfg, NULL, &model), 0);
	model_switch(model, 5, 1000000, 0, 0, 100);
	model_switch(model, 5, 31000000, 100, TASK_STATE_S, 0);
	model_switch(model, 6, 32000000, 0, 0, 101);
	fx = start_model(model);
	for (int cpu = 5; cpu <= 6; cpu++) {
		sched_cpu_util(model, cpu, &want);
		memset(&u, 0xa5, sizeof(u));
		govsim_cpu_util(seen_pol, cpu, &u);
		assert_int_equal(u.util_avg, want.util_avg);
		assert_int_equal(u.util_est_enqueued, want.util_est_enqueued);
		assert_int_equal(u.util_cfs, want.util_cfs);
		assert_int_equal(u.util_rt, want.util_rt);
		assert_int_equal(u.util_dl, want.util_dl);
		assert_int_equal(u.bw_dl, want.bw_dl);
		assert_int_equal(u.util_irq, want.util_irq);
		assert_int_equal(u.rt_runnable, want.rt_runnable);
		assert_int_equal(u.capacity, 1024);
		assert_int_equal(u.busy, cpu == 6);
		assert_true(u.idle_calls == want.idle_calls);
		assert_int_equal(u.runnable_avg, want.runnable_avg);
		assert_int_equal(govsim_cpu_bw_dl(seen_pol, cpu), want.bw_dl);
	}
	govsim_cpu_util(seen_pol, 5, &u);
	assert_true(u.util_avg > 0); /* 30 ms of running, blocked since */
	memset(&u, 0xa5, sizeof(u));
	govsim_cpu_util(seen_pol, 1, &u);
	assert_int_equal(u.util_cfs, 0);
	assert_int_equal(u.capacity, 0);
	assert_int_equal(fx->fake.calls, 0);
	finish(fx);
	sched_free(model);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_bad_cpu),
		cmocka_unit_test(test_null_pointers),
		cmocka_unit_test(test_bad_relation),
		cmocka_unit_test(test_signals_from_the_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
