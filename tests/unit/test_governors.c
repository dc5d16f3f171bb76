/*
 * test_governors.c - the registry and the governors other than schedutil (performance,
 * powersave, userspace, ondemand, conservative) on Hikey960's A73 OPPs built by hand, with a
 * fake replay whose per-CPU idle time the test sets.
 *
 * Checks: governor_find and the table; the fixed governors' choices (max, min, freq_khz
 * resolved RELATION_L, default the current frequency) and their reaction to new limits;
 * ondemand's v5.9 defaults (up_threshold 95, sampling_rate 10000 µs, sampling_down_factor 1),
 * its load from idle time, the proportional RELATION_C choice, the jump to max, the reuse of
 * the previous load after a long idle, the sampling period and sampling_down_factor;
 * conservative's steps of 5 % of max up (RELATION_H) and down (RELATION_L) and the drop by idle
 * periods; tunable parsing and errors. Expected values are worked by hand (comments show how).
 * Does not check: schedutil (test_schedutil.c), the cpufreq core alone (test_cpufreq.c).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "gov/dbs.h"
#include "gov/tunables.h"
#include "sim/cpufreq_table.h"

static const u32 a73_khz[] = {903000, 1421000, 1805000, 2112000, 2362000};

struct fake {
	u64 idle_ns[GS_MAX_CPUS];
	int nr_evals;
	struct gov_eval last;
};

static void fake_cpu_util(void *ctx, int cpu, struct sched_cpu_util *out)
{
	memset(out, 0, sizeof(*out));
	out->capacity = 1024;
}

static u64 fake_cpu_idle_ns(void *ctx, int cpu, u64 now_ns)
{
	return ((struct fake *)ctx)->idle_ns[cpu];
}

static void fake_on_eval(void *ctx, const struct govsim_eval *e, u32 freq_khz)
{
	struct fake *f = ctx;

	f->nr_evals++;
	gov_eval_of(&f->last, e, freq_khz);
}

struct fixture {
	struct fake fake;
	struct gov_env env;
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	const struct governor *gov;
	void *data;
};

static struct fixture *fixture_new(const char *name, u32 initial_khz)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->env.ctx = &fx->fake;
	fx->env.cpu_util = fake_cpu_util;
	fx->env.cpu_idle_ns = fake_cpu_idle_ns;
	fx->env.on_eval = fake_on_eval;
	fx->env.hz = 250;
	fx->cl.nr_cpus = 4;
	for (int i = 0; i < 4; i++)
		fx->cl.cpus[i] = 4 + i;
	fx->cl.transition_latency_ns = 300000;
	fx->cl.nr_opps = 5;
	for (int i = 0; i < 5; i++)
		fx->cl.opps[i].freq_khz = a73_khz[i];
	cpufreq_policy_init_cluster(&fx->pol, 1, &fx->cl, initial_khz, 0);
	fx->gov = governor_find(name);
	assert_non_null(fx->gov);
	return fx;
}

/* init with "k=v" pairs; returns the init result. */
static int fixture_init(struct fixture *fx, const char *const *kv, int nr_kv,
			struct gs_error *err)
{
	struct gov_param params[8];

	for (int i = 0; i < nr_kv; i++)
		params[i] = (struct gov_param){.key = kv[2 * i], .value = kv[2 * i + 1]};
	gs_error_clear(err);
	return governor_init(fx->gov, &fx->pol, &fx->env, params, nr_kv, &fx->data, err);
}

static struct fixture *start(const char *name, u32 initial_khz, const char *const *kv,
			     int nr_kv)
{
	struct fixture *fx = fixture_new(name, initial_khz);
	struct gs_error err;

	assert_int_equal(fixture_init(fx, kv, nr_kv, &err), 0);
	return fx;
}

static void fixture_free(struct fixture *fx)
{
	if (fx->data)
		governor_release(fx->data);
	free(fx);
}

static void hook(struct fixture *fx, int cpu, u64 t)
{
	governor_update(fx->data, cpu, t, 0);
}

static void test_registry(void **state)
{
	static const char *const names[] = {"schedutil", "performance", "powersave",
					    "userspace", "ondemand",    "conservative"};
	int n = 0;
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(names); i++) {
		const struct governor *g = governor_find(names[i]);

		assert_non_null(g);
		assert_string_equal(g->name, names[i]);
		assert_non_null(governor_help(g));
		assert_true(governor_help(g)[0] != '\0');
		/* a governor of the public interface, run through the host */
		assert_non_null(g->pub);
		if (g->pub) {
			assert_int_equal(g->pub->abi_major, GOVSIM_GOV_ABI_MAJOR);
			assert_string_equal(g->pub->name, g->name);
			assert_non_null(g->pub->init);
			assert_non_null(g->pub->update);
		}
	}
	for (n = 0; governor_table[n]; n++)
		for (int j = 0; j < n; j++)
			assert_string_not_equal(governor_table[n]->name, governor_table[j]->name);
	assert_int_equal(n, (int)GS_ARRAY_SIZE(names));
	assert_null(governor_find("nope"));
	assert_null(governor_find(NULL));
	assert_null(governor_find("Schedutil"));
}

static void test_performance_powersave(void **state)
{
	struct fixture *fx = start("performance", 1421000, NULL, 0);
	(void)state;
	assert_int_equal(fx->pol.cur_khz, 2362000);
	hook(fx, 4, 1000);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	/* v5.9 performance/powersave install no update_util hook: no evaluation is reported */
	assert_int_equal(fx->fake.nr_evals, 0);
	/* New limits: the next hook follows them. */
	cpufreq_policy_set_limits(&fx->pol, 0, 1805000);
	hook(fx, 5, 2000);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	fixture_free(fx);

	fx = start("powersave", 1421000, NULL, 0);
	assert_int_equal(fx->pol.cur_khz, 903000);
	cpufreq_policy_set_limits(&fx->pol, 1421000, CPUFREQ_NO_MAX_KHZ);
	hook(fx, 4, 1000);
	assert_int_equal(fx->pol.cur_khz, 1421000);
	assert_int_equal(fx->fake.nr_evals, 0);
	fixture_free(fx);
}

static void test_userspace(void **state)
{
	static const char *const set[] = {"freq_khz", "1500000"};
	static const char *const bad[][2] = {{"freq_khz", "abc"}, {"freq_khz", "0"},
					     {"freq_khz", "1.5e6"}};
	struct fixture *fx = start("userspace", 1421000, NULL, 0);
	struct gs_error err;
	(void)state;
	/* Default: the frequency in force at the start. */
	assert_int_equal(fx->pol.cur_khz, 1421000);
	hook(fx, 4, 1000);
	assert_int_equal(fx->pol.cur_khz, 1421000);
	fixture_free(fx);

	/* 1500000 -> RELATION_L -> 1805000. */
	fx = start("userspace", 903000, set, 1);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	/* Limits below setspeed: max, RELATION_H. */
	cpufreq_policy_set_limits(&fx->pol, 0, 1421000);
	hook(fx, 4, 1000);
	assert_int_equal(fx->pol.cur_khz, 1421000);
	fixture_free(fx);

	for (size_t i = 0; i < GS_ARRAY_SIZE(bad); i++) {
		fx = fixture_new("userspace", 903000);
		assert_int_equal(fixture_init(fx, bad[i], 1, &err), GS_EARG);
		assert_non_null(strstr(err.msg, "freq_khz"));
		assert_null(fx->data);
		fixture_free(fx);
	}
}

static void test_ondemand_defaults(void **state)
{
	struct fixture *fx = start("ondemand", 903000, NULL, 0);
	struct dbs_policy *d = governor_data(fx->data);
	(void)state;
	/* v5.9 on a NO_HZ kernel: MICRO_FREQUENCY_UP_THRESHOLD. */
	assert_int_equal(d->tun.up_threshold, 95);
	/* max(2 ticks = 8000 µs at HZ 250, transition delay 10000 µs). */
	assert_int_equal(d->tun.sampling_rate_us, 10000);
	assert_int_equal(d->tun.sampling_down_factor, 1);
	assert_int_equal(dbs_min_sampling_rate_us(250), 8000);
	assert_int_equal(dbs_min_sampling_rate_us(1000), 2000);
	fixture_free(fx);
}

static void set_idle_ms(struct fixture *fx, u64 cpu4, u64 others)
{
	fx->fake.idle_ns[4] = cpu4 * 1000000ULL;
	for (int c = 5; c < 8; c++)
		fx->fake.idle_ns[c] = others * 1000000ULL;
}

static void test_ondemand_load(void **state)
{
	struct fixture *fx = start("ondemand", 903000, NULL, 0);
	const u64 t0 = 1000000000ULL, ms = 1000000ULL;
	(void)state;
	/* The first hook starts the governor: the idle baseline. */
	set_idle_ms(fx, 0, 0);
	hook(fx, 4, t0);
	assert_int_equal(fx->fake.nr_evals, 0);
	/* Within the sampling period: nothing. */
	hook(fx, 5, t0 + 5 * ms);
	assert_int_equal(fx->fake.nr_evals, 0);
	/* CPU 4 idle 1 ms of 10: load 90 <= 95, proportional:
	 * 903000 + 90 * (2362000 - 903000) / 100 = 2216100, closest OPP 2112000 (104100 below,
	 * 145900 above). */
	set_idle_ms(fx, 1, 10);
	hook(fx, 6, t0 + 10 * ms);
	assert_int_equal(fx->pol.cur_khz, 2112000);
	assert_int_equal(fx->fake.nr_evals, 4);
	assert_int_equal(fx->fake.last.target_khz, 2216100);
	/* CPU 4 busy throughout: load 100 > 95 -> max. */
	set_idle_ms(fx, 1, 20);
	hook(fx, 4, t0 + 20 * ms);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	/* 30 ms without a hook, CPU 4 idle all along: more than two periods of idle after a busy
	 * one reuses the previous load (100) once, so the frequency stays at max. */
	set_idle_ms(fx, 31, 50);
	hook(fx, 4, t0 + 50 * ms);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	/* Next period idle: load 0 -> 903000. */
	set_idle_ms(fx, 41, 60);
	hook(fx, 4, t0 + 60 * ms);
	assert_int_equal(fx->pol.cur_khz, 903000);
	/* Load 50 on CPU 7: 903000 + 50 * 1459000 / 100 = 1632500 -> closest 1805000 (172500
	 * above, 211500 below). */
	set_idle_ms(fx, 51, 70);
	fx->fake.idle_ns[7] = 65 * ms;
	hook(fx, 4, t0 + 70 * ms);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	fixture_free(fx);
}

static void test_ondemand_tunables(void **state)
{
	static const char *const up80[] = {"up_threshold", "80"};
	static const char *const sdf[] = {"sampling_down_factor", "2", "sampling_rate", "8000"};
	static const char *const bad[][2] = {
		{"up_threshold", "0"},          {"up_threshold", "101"},
		{"sampling_rate", "7999"},      {"sampling_rate", "ten"},
		{"sampling_down_factor", "0"},  {"sampling_down_factor", "100001"},
	};
	const u64 t0 = 1000000000ULL, ms = 1000000ULL;
	struct fixture *fx = start("ondemand", 903000, up80, 1);
	struct dbs_policy *d;
	struct gs_error err;
	(void)state;
	/* up_threshold 80: load 90 is above it -> max. */
	set_idle_ms(fx, 0, 0);
	hook(fx, 4, t0);
	set_idle_ms(fx, 1, 10);
	hook(fx, 4, t0 + 10 * ms);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	fixture_free(fx);

	/* sampling_down_factor 2: going to max stretches the next period to 2 x 8 ms. */
	fx = start("ondemand", 903000, sdf, 2);
	d = governor_data(fx->data);
	assert_int_equal(d->tun.sampling_rate_us, 8000);
	set_idle_ms(fx, 0, 0);
	hook(fx, 4, t0);
	set_idle_ms(fx, 0, 8);
	hook(fx, 4, t0 + 8 * ms);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	assert_int_equal(d->rate_mult, 2);
	assert_int_equal(d->sample_delay_ns, 16 * ms);
	fx->fake.nr_evals = 0;
	hook(fx, 4, t0 + 23 * ms);
	assert_int_equal(fx->fake.nr_evals, 0);
	hook(fx, 4, t0 + 24 * ms);
	assert_int_equal(fx->fake.nr_evals, 4);
	fixture_free(fx);

	for (size_t i = 0; i < GS_ARRAY_SIZE(bad); i++) {
		fx = fixture_new("ondemand", 903000);
		assert_int_equal(fixture_init(fx, bad[i], 1, &err), GS_EARG);
		assert_non_null(strstr(err.msg, bad[i][0]));
		fixture_free(fx);
	}
}

static void test_conservative_steps(void **state)
{
	struct fixture *fx = start("conservative", 903000, NULL, 0);
	struct dbs_policy *d = governor_data(fx->data);
	const u64 t0 = 1000000000ULL, ms = 1000000ULL;
	/* freq_step = 5 % of 2362000 = 118100. Up: requested 1021100, 1139200, 1257300, 1375400
	 * resolve RELATION_H to 903000; 1493500 to 1421000. */
	static const u32 up[] = {903000, 903000, 903000, 903000, 1421000};
	/* Down from 1493500: 1375400, 1257300, 1139200, 1021100 resolve RELATION_L to 1421000;
	 * 903000 to 903000. */
	static const u32 down[] = {1421000, 1421000, 1421000, 1421000, 903000};
	u64 t = t0, idle4 = 0, idle_other = 0;
	(void)state;
	assert_int_equal(d->tun.up_threshold, 80);
	assert_int_equal(d->tun.down_threshold, 20);
	assert_int_equal(d->tun.freq_step, 5);
	assert_int_equal(d->tun.sampling_down_factor, 1);
	assert_int_equal(d->tun.sampling_rate_us, 10000);
	set_idle_ms(fx, 0, 0);
	hook(fx, 4, t);
	for (int i = 0; i < 5; i++) {
		t += 10 * ms;
		idle_other += 10;
		set_idle_ms(fx, idle4, idle_other); /* CPU 4 load 100 */
		hook(fx, 4, t);
		assert_int_equal(fx->pol.cur_khz, up[i]);
	}
	for (int i = 0; i < 5; i++) {
		t += 10 * ms;
		idle4 += 9; /* load 10 < 20 */
		idle_other += 10;
		set_idle_ms(fx, idle4, idle_other);
		hook(fx, 4, t);
		assert_int_equal(fx->pol.cur_khz, down[i]);
	}
	/* Load 50: between the thresholds, nothing moves. */
	t += 10 * ms;
	idle4 += 5;
	idle_other += 10;
	set_idle_ms(fx, idle4, idle_other);
	hook(fx, 4, t);
	assert_int_equal(fx->pol.cur_khz, 903000);
	fixture_free(fx);
}

static void test_conservative_idle_periods(void **state)
{
	struct fixture *fx = start("conservative", 903000, NULL, 0);
	const u64 t0 = 1000000000ULL, ms = 1000000ULL;
	(void)state;
	set_idle_ms(fx, 0, 0);
	hook(fx, 4, t0);
	for (int i = 1; i <= 5; i++) {
		set_idle_ms(fx, 0, (u64)i * 10);
		hook(fx, 4, t0 + (u64)i * 10 * ms);
	}
	assert_int_equal(fx->pol.cur_khz, 1421000); /* requested 1493500 */
	/* 40 ms of idle everywhere: 4 idle periods take 4 steps off the request (1021100);
	 * CPU 4's previous load 100 is reused once, so one step goes back on: 1139200,
	 * RELATION_H -> 903000. */
	set_idle_ms(fx, 40, 90);
	hook(fx, 4, t0 + 90 * ms);
	assert_int_equal(fx->pol.cur_khz, 903000);
	fixture_free(fx);
}

static void test_conservative_tunables(void **state)
{
	static const char *const ok[] = {"up_threshold", "90", "down_threshold", "30",
					 "freq_step", "150", "sampling_down_factor", "10"};
	/* two key/value pairs, then what the message must name */
	static const char *const bad[][5] = {
		{"down_threshold", "80", "up_threshold", "80", "up_threshold (80)"},
		{"down_threshold", "0", "freq_step", "5", "'down_threshold=0'"},
		/* up 10 is at or below the default down 20 */
		{"up_threshold", "10", "freq_step", "5", "up_threshold (10)"},
		{"sampling_down_factor", "11", "freq_step", "5", "'sampling_down_factor=11'"},
		{"freq_step", "x", "up_threshold", "90", "'freq_step=x'"},
	};
	struct fixture *fx = start("conservative", 903000, ok, 4);
	struct dbs_policy *d = governor_data(fx->data);
	struct gs_error err;
	(void)state;
	assert_int_equal(d->tun.up_threshold, 90);
	assert_int_equal(d->tun.down_threshold, 30);
	assert_int_equal(d->tun.freq_step, 100); /* store_freq_step clamps to 100 */
	assert_int_equal(d->tun.sampling_down_factor, 10);
	fixture_free(fx);

	for (size_t i = 0; i < GS_ARRAY_SIZE(bad); i++) {
		fx = fixture_new("conservative", 903000);
		assert_int_equal(fixture_init(fx, bad[i], 2, &err), GS_EARG);
		assert_non_null(strstr(err.msg, bad[i][4]));
		fixture_free(fx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_performance_powersave),
		cmocka_unit_test(test_userspace),
		cmocka_unit_test(test_ondemand_defaults),
		cmocka_unit_test(test_ondemand_load),
		cmocka_unit_test(test_ondemand_tunables),
		cmocka_unit_test(test_conservative_steps),
		cmocka_unit_test(test_conservative_idle_periods),
		cmocka_unit_test(test_conservative_tunables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
