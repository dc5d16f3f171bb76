/*
 * test_schedutil.c - the v5.9 schedutil governor on Hikey960 OPP tables built by hand
 * (A53 capacity 462, A73 1024), with a fake replay behind struct gov_env.
 *
 * Checks, each against numbers worked by hand from the kernel formulas:
 * get_next_freq + RELATION_L resolution (A73 util 512 -> 1476250 -> 1805000 kHz; A53 util 200
 * of 462 -> 999000; exact OPP targets; above max; scaling_max_freq); schedutil_cpu_util (RT
 * boost with the uclamp key off, uclamp.min replacing it with the key on, uclamp.max, DL
 * bandwidth, DL saturation, irq scaling, ENERGY_UTIL); the rate limit counted from the last
 * change of next_freq; ignore_dl_rate_limit; cached_raw_freq returning the previous next_freq;
 * the shared policy following the largest util/max ratio; the single-CPU busy hold; the iowait
 * boost (doubling, halving, reset after TICK_NSEC, off by default); the slow path's switch
 * latency; the v5.9 default rate_limit_us; tunable errors; the on_eval records. Every check
 * goes through the public interface's host (host.c), as the replay's do.
 * Does not check: the scheduler model's signals (test_sched*.c) or uclamp aggregation itself.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "gov/schedutil.h"
#include "gov/tunables.h"
#include "kernel/profile.h"
#include "sim/cpufreq_table.h"

static const u32 a53_khz[] = {533000, 999000, 1402000, 1709000, 1844000};
/* the lab's P-states (models/lab-2cpu.sql) */
static const u32 lab_khz[] = {800000, 1200000, 1800000, 2400000, 3000000};
/* setup() options: the kernel profile (NULL: v5.9) and a platform that is not frequency
 * invariant */
static const struct kernel_profile *setup_kernel;
static bool setup_not_invariant;
static const u32 a73_khz[] = {903000, 1421000, 1805000, 2112000, 2362000};

/* The fake replay: per-CPU signals and clamps the test sets, evaluations it records. */
struct fake {
	struct sched_cpu_util cu[GS_MAX_CPUS];
	struct uclamp_sys uc;
	struct uclamp_rq_pair rq[GS_MAX_CPUS];
	int nr_evals;
	struct gov_eval evals[64];
};

static void fake_cpu_util(void *ctx, int cpu, struct sched_cpu_util *out)
{
	*out = ((struct fake *)ctx)->cu[cpu];
}

static const struct uclamp_rq_pair *fake_cpu_uclamp(void *ctx, int cpu)
{
	return &((struct fake *)ctx)->rq[cpu];
}

static void fake_on_eval(void *ctx, const struct govsim_eval *e, u32 freq_khz)
{
	struct fake *f = ctx;

	if (f->nr_evals < (int)GS_ARRAY_SIZE(f->evals))
		gov_eval_of(&f->evals[f->nr_evals++], e, freq_khz);
}

struct fixture {
	struct fake fake;
	struct gov_env env;
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	void *data; /* what governor_init gave */
	struct sugov_policy *sg;
};

static void make_cluster(struct plat_cluster *cl, const u32 *khz, int first_cpu, int nr_cpus)
{
	memset(cl, 0, sizeof(*cl));
	cl->nr_cpus = nr_cpus;
	for (int i = 0; i < nr_cpus; i++)
		cl->cpus[i] = first_cpu + i;
	cl->transition_latency_ns = 300000;
	cl->nr_opps = 5;
	for (int i = 0; i < 5; i++)
		cl->opps[i].freq_khz = khz[i];
}

/* A policy over `nr_cpus` CPUs from first_cpu with capacity cap, schedutil on it. */
static struct fixture *setup(const u32 *khz, int first_cpu, int nr_cpus, unsigned long cap,
			     u64 latency_ns, const char *const *kv, int nr_kv)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct gov_param params[8];
	struct gs_error err;
	void *data = NULL;

	assert_non_null(fx);
	gs_error_clear(&err);
	uclamp_sys_init(&fx->fake.uc, UCLAMP_BUCKETS_DEFAULT);
	for (int c = 0; c < GS_MAX_CPUS; c++) {
		uclamp_rq_init(&fx->fake.rq[c]);
		fx->fake.cu[c].capacity = cap;
	}
	fx->env.ctx = &fx->fake;
	fx->env.cpu_util = fake_cpu_util;
	fx->env.uclamp = &fx->fake.uc;
	fx->env.cpu_uclamp = fake_cpu_uclamp;
	fx->env.on_eval = fake_on_eval;
	fx->env.hz = 250;
	fx->env.kernel = setup_kernel;
	make_cluster(&fx->cl, khz, first_cpu, nr_cpus);
	cpufreq_policy_init_cluster(&fx->pol, 0, &fx->cl, khz[0], latency_ns);
	fx->pol.freq_invariant = !setup_not_invariant;
	for (int i = 0; i < nr_kv; i++)
		params[i] = (struct gov_param){.key = kv[2 * i], .value = kv[2 * i + 1]};
	assert_int_equal(
		governor_init(&schedutil_gov, &fx->pol, &fx->env, params, nr_kv, &data, &err), 0);
	for (int i = 0; i < nr_kv; i++)
		assert_true(params[i].used);
	fx->data = data;
	fx->sg = governor_data(data);
	return fx;
}

static void teardown(struct fixture *fx)
{
	governor_release(fx->data);
	uclamp_sys_release(&fx->fake.uc);
	free(fx);
}

static void update(struct fixture *fx, int cpu, u64 t, unsigned int flags)
{
	governor_update(fx->data, cpu, t, flags);
}

/* get_next_freq with the cache out of the way. */
static unsigned int next_freq_fresh(struct sugov_policy *sg, unsigned long util,
				    unsigned long max)
{
	sg->need_freq_update = true;
	return get_next_freq(sg, util, max);
}

/*
 * Not frequency invariant (x86 without APERF/MPERF, the lab's guests): get_next_freq() scales
 * policy->cur (v5.9 .. v6.6: arch_scale_freq_invariant() ? cpuinfo.max_freq : policy->cur;
 * v6.8+ get_capacity_ref_freq(): cur + cur/4), worked by hand on the lab's OPPs:
 *   v5.10 map_util_freq, cur 1200000: (1200000 + 300000) * 700 / 1024 = 1025390 -> 1200000;
 *         util 900: 1500000 * 900 / 1024 = 1318359 -> 1800000
 *   v6.1 map_util_perf, cur 1800000, util 900: 1800000 * (900 + 225) / 1024 = 1977539 -> 2400000
 *   v6.12, cur 1800000, a perf of 875 (util 700 + 175): (1800000 + 450000) * 875 / 1024
 *         = 1922607 -> 2400000; invariant: 3000000 * 875 / 1024 = 2563476 -> 3000000
 */
static void test_not_invariant_next_freq(void **state)
{
	struct fixture *fx;
	(void)state;

	setup_not_invariant = true;
	setup_kernel = kernel_profile_find("v5.10");
	fx = setup(lab_khz, 0, 1, 1024, 0, NULL, 0);
	fx->sg->policy->cur_khz = 1200000;
	assert_int_equal(next_freq_fresh(fx->sg, 700, 1024), 1200000);
	assert_int_equal(next_freq_fresh(fx->sg, 900, 1024), 1800000);
	/* at the lowest OPP a CPU needs util above 819 to leave it: 1000000 * 819 / 1024 */
	fx->sg->policy->cur_khz = 800000;
	assert_int_equal(next_freq_fresh(fx->sg, 819, 1024), 800000);
	assert_int_equal(next_freq_fresh(fx->sg, 820, 1024), 1200000);
	teardown(fx);

	setup_kernel = kernel_profile_find("v6.1");
	fx = setup(lab_khz, 0, 1, 1024, 0, NULL, 0);
	fx->sg->policy->cur_khz = 1800000;
	assert_int_equal(next_freq_fresh(fx->sg, 900, 1024), 2400000);
	teardown(fx);

	setup_kernel = kernel_profile_find("v6.12");
	fx = setup(lab_khz, 0, 1, 1024, 0, NULL, 0);
	fx->sg->policy->cur_khz = 1800000;
	assert_int_equal(sugov_ref_freq(fx->sg), 2250000);
	assert_int_equal(next_freq_fresh(fx->sg, 875, 1024), 2400000);
	teardown(fx);

	setup_not_invariant = false;
	fx = setup(lab_khz, 0, 1, 1024, 0, NULL, 0);
	fx->sg->policy->cur_khz = 1800000;
	assert_int_equal(sugov_ref_freq(fx->sg), 3000000);
	assert_int_equal(next_freq_fresh(fx->sg, 875, 1024), 3000000);
	teardown(fx);
	setup_kernel = NULL;
}

/*
 * v6.8+ sugov_effective_cpu_perf() and effective_cpu_util() (Debian 6.12 fair.c l.8218,
 * cpufreq_schedutil.c): max(min, min(util + util/4, max)), by hand.
 */
static void test_effective_cpu_perf(void **state)
{
	struct govsim_cpu_util cu = {0};
	struct cpu_util_rq rq;
	unsigned long lo, hi;
	(void)state;

	assert_int_equal(sugov_effective_cpu_perf(700, 0, 1024), 875);
	assert_int_equal(sugov_effective_cpu_perf(900, 0, 1024), 1024); /* 1125 capped */
	assert_int_equal(sugov_effective_cpu_perf(100, 300, 1024), 300); /* min wins */
	assert_int_equal(sugov_effective_cpu_perf(900, 0, 512), 512);    /* uclamp.max */
	assert_int_equal(sugov_effective_cpu_perf(900, 700, 512), 700);   /* min over max */
	/* no uclamp in use, an RT task runnable: min is the capacity */
	cu.rt_runnable = 1;
	cu.util_rt = 100;
	sugov_cpu_rq(NULL, 0, &cu, &rq);
	assert_int_equal(effective_cpu_util(&rq, 200, 1024, &lo, &hi), 300);
	assert_int_equal(lo, 1024);
	assert_int_equal(hi, 1024);
	/* DL bandwidth and irq in min; irq scaling: 300 * (1024 - 128) / 1024 + 128 = 390 */
	cu.rt_runnable = 0;
	cu.bw_dl = 50;
	cu.util_irq = 128;
	sugov_cpu_rq(NULL, 0, &cu, &rq);
	assert_int_equal(effective_cpu_util(&rq, 200, 1024, &lo, &hi), 390);
	assert_int_equal(lo, 178);
	/* saturated by irq */
	cu.util_irq = 1024;
	sugov_cpu_rq(NULL, 0, &cu, &rq);
	assert_int_equal(effective_cpu_util(&rq, 0, 1024, &lo, &hi), 1024);
}

static void test_get_next_freq_table(void **state)
{
	static const struct {
		unsigned long util, max;
		unsigned int want;
	} big[] = {
		/* (2362000 + 590500) * 512 / 1024 = 1476250 -> 1805000 */
		{512, 1024, 1805000},
		{0, 1024, 903000},
		/* 2952500 * 1024 / 1024 > max -> max */
		{1024, 1024, 2362000},
		/* 2952500 * 361000 / 590500 = 5 * 361000 = 1805000 exactly: stays */
		{361000, 590500, 1805000},
		{361001, 590500, 2112000}, /* 1805005 */
		/* 5 * 284200 = 1421000 exactly */
		{284200, 590500, 1421000},
		/* 5 * 180600 = 903000 exactly, 5 * 180601 = 903005 */
		{180600, 590500, 903000},
		{180601, 590500, 1421000},
		/* 5 * 472400 = 2362000 */
		{472400, 590500, 2362000},
		/* the tipping point: 80% of the capacity asks for exactly max */
		{8192, 10240, 2362000},
	};
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 0, NULL, 0);
	struct fixture *fl;
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(big); i++)
		assert_int_equal(next_freq_fresh(fx->sg, big[i].util, big[i].max), big[i].want);
	assert_int_equal(map_util_freq(512, 2362000, 1024), 1476250);

	/* scaling_max_freq 1805000: the most get_next_freq can give. */
	cpufreq_policy_set_limits(&fx->pol, 0, 1805000);
	assert_int_equal(next_freq_fresh(fx->sg, 1024, 1024), 1805000);
	assert_int_equal(next_freq_fresh(fx->sg, 512, 1024), 1805000);
	cpufreq_policy_set_limits(&fx->pol, 1421000, CPUFREQ_NO_MAX_KHZ);
	assert_int_equal(next_freq_fresh(fx->sg, 0, 1024), 1421000);
	teardown(fx);

	/* A53: (1844000 + 461000) * 200 / 462 = 997835 -> 999000 */
	fl = setup(a53_khz, 0, 4, 462, 0, NULL, 0);
	assert_int_equal(map_util_freq(200, 1844000, 462), 997835);
	assert_int_equal(next_freq_fresh(fl->sg, 200, 462), 999000);
	assert_int_equal(next_freq_fresh(fl->sg, 462, 462), 1844000);
	assert_int_equal(next_freq_fresh(fl->sg, 0, 462), 533000);
	/* 2305000 * 99 / 462 = 493928 -> 533000 */
	assert_int_equal(next_freq_fresh(fl->sg, 99, 462), 533000);
	teardown(fl);
}

/* schedutil_cpu_util on cu as schedutil reads the rq through the public interface
 * (sugov_cpu_rq): a one-CPU policy whose CPU 0 has uc's static key and the rq clamps rq (uc
 * NULL: no policy, uclamp unused). */
static unsigned long cpu_util(const struct sched_cpu_util *cu, unsigned long util_cfs,
			      unsigned long max, enum schedutil_type type,
			      const struct uclamp_sys *uc, const struct uclamp_rq_pair *rq)
{
	struct fixture *fx = setup(a73_khz, 0, 1, 1024, 0, NULL, 0);
	struct govsim_cpu_util g = {
		.util_avg = cu->util_avg,
		.util_est_enqueued = cu->util_est_enqueued,
		.util_cfs = cu->util_cfs,
		.util_rt = cu->util_rt,
		.util_dl = cu->util_dl,
		.bw_dl = cu->bw_dl,
		.util_irq = cu->util_irq,
		.rt_runnable = cu->rt_runnable,
		.capacity = cu->capacity,
	};
	struct cpu_util_rq rq_in;
	unsigned long ret;

	if (uc) {
		fx->fake.uc.key = uc->key;
		fx->fake.rq[0] = *rq;
	}
	sugov_cpu_rq(uc ? fx->sg->policy : NULL, 0, &g, &rq_in);
	ret = schedutil_cpu_util(&rq_in, util_cfs, max, type);
	teardown(fx);
	return ret;
}

static void test_cpu_util_rt_boost_key_off(void **state)
{
	struct sched_cpu_util cu = {.util_cfs = 100, .util_rt = 50, .rt_runnable = true};
	struct uclamp_sys uc;
	struct uclamp_rq_pair rq;
	(void)state;
	uclamp_sys_init(&uc, 5);
	uclamp_rq_init(&rq);
	assert_false(uclamp_is_used(&uc));
	/* Key off and an RT task runnable: max. */
	assert_int_equal(cpu_util(&cu, 100, 1024, FREQUENCY_UTIL, &uc, &rq), 1024);
	assert_int_equal(cpu_util(&cu, 100, 462, FREQUENCY_UTIL, &uc, &rq), 462);
	assert_int_equal(cpu_util(&cu, 100, 1024, FREQUENCY_UTIL, NULL, NULL), 1024);
	/* ENERGY_UTIL has no RT rule: 100 + 50. */
	assert_int_equal(cpu_util(&cu, 100, 1024, ENERGY_UTIL, &uc, &rq), 150);
	/* No RT runnable: cfs + rt. */
	cu.rt_runnable = false;
	assert_int_equal(cpu_util(&cu, 100, 1024, FREQUENCY_UTIL, &uc, &rq), 150);
	uclamp_sys_release(&uc);
}

static void test_cpu_util_uclamp_key_on(void **state)
{
	struct sched_cpu_util cu = {.util_cfs = 100, .util_rt = 50, .rt_runnable = true};
	struct uclamp_sys uc;
	struct uclamp_rq_pair rq;
	(void)state;
	uclamp_sys_init(&uc, 5);
	uclamp_rq_init(&rq);
	uc.key = true;
	/* With the key on, the RT boost is the rq's uclamp.min: clamp(150, 512, 1024). */
	rq.uc[UCLAMP_MIN].value = 512;
	assert_int_equal(cpu_util(&cu, 100, 1024, FREQUENCY_UTIL, &uc, &rq), 512);
	/* Nothing boosting: util itself, no longer max. */
	rq.uc[UCLAMP_MIN].value = 0;
	assert_int_equal(cpu_util(&cu, 100, 1024, FREQUENCY_UTIL, &uc, &rq), 150);
	/* uclamp.max caps CFS + RT together: min(600 + 50, 300). */
	rq.uc[UCLAMP_MAX].value = 300;
	assert_int_equal(cpu_util(&cu, 600, 1024, FREQUENCY_UTIL, &uc, &rq), 300);
	/* min >= max: min wins (uclamp_rq_util_with). */
	rq.uc[UCLAMP_MIN].value = 400;
	assert_int_equal(cpu_util(&cu, 600, 1024, FREQUENCY_UTIL, &uc, &rq), 400);
	/* ENERGY_UTIL is not clamped. */
	assert_int_equal(cpu_util(&cu, 600, 1024, ENERGY_UTIL, &uc, &rq), 650);
	/* DL is added after the clamp: 300 capped, + bw_dl 100. */
	rq.uc[UCLAMP_MIN].value = 0;
	cu.bw_dl = 100;
	cu.util_dl = 20;
	assert_int_equal(cpu_util(&cu, 600, 1024, FREQUENCY_UTIL, &uc, &rq), 400);
	uclamp_sys_release(&uc);
}

static void test_cpu_util_dl_irq(void **state)
{
	struct sched_cpu_util cu = {0};
	(void)state;
	/* DL bandwidth is added for FREQUENCY_UTIL, DL util for ENERGY_UTIL. */
	cu.util_dl = 80;
	cu.bw_dl = 100;
	assert_int_equal(cpu_util(&cu, 300, 1024, FREQUENCY_UTIL, NULL, NULL), 400);
	assert_int_equal(cpu_util(&cu, 300, 1024, ENERGY_UTIL, NULL, NULL), 380);
	/* cfs + rt + dl util >= max: saturated, max. */
	assert_int_equal(cpu_util(&cu, 944, 1024, FREQUENCY_UTIL, NULL, NULL), 1024);
	assert_int_equal(cpu_util(&cu, 943, 1024, FREQUENCY_UTIL, NULL, NULL), 1024);
	/* 943 + 100 = 1043 capped at max. */
	cu.util_dl = 0;
	cu.bw_dl = 0;
	/* irq: 500 * (1024 - 256) / 1024 + 256 = 375 + 256 = 631. */
	cu.util_irq = 256;
	assert_int_equal(cpu_util(&cu, 500, 1024, FREQUENCY_UTIL, NULL, NULL), 631);
	/* 100 * (462 - 100) / 462 = 78 (78.35 truncated) + 100 = 178. */
	cu.util_irq = 100;
	assert_int_equal(cpu_util(&cu, 100, 462, FREQUENCY_UTIL, NULL, NULL), 178);
	/* irq >= max: max. */
	cu.util_irq = 1024;
	assert_int_equal(cpu_util(&cu, 0, 1024, FREQUENCY_UTIL, NULL, NULL), 1024);
}

static void test_default_rate_limit(void **state)
{
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 300000, NULL, 0);
	static const char *const kv[] = {"rate_limit_us", "500"};
	struct fixture *f2;
	(void)state;
	/* v5.9: min(300 µs * 1000, 10000). */
	assert_int_equal(fx->sg->rate_limit_us, 10000);
	assert_int_equal(fx->sg->freq_update_delay_ns, 10000000);
	assert_false(fx->sg->iowait_boost_enabled);
	assert_int_equal(fx->sg->tick_nsec, 4000000);
	teardown(fx);
	f2 = setup(a73_khz, 4, 4, 1024, 300000, kv, 1);
	assert_int_equal(f2->sg->rate_limit_us, 500);
	assert_int_equal(f2->sg->freq_update_delay_ns, 500000);
	teardown(f2);
}

static void test_bad_tunables(void **state)
{
	static const struct {
		const char *key, *value;
	} rows[] = {
		{"rate_limit_us", "abc"}, {"rate_limit_us", "-1"}, {"rate_limit_us", "99999999999"},
		{"rate_limit_us", ""},    {"iowait_boost", "2"},   {"iowait_boost", "yes"},
	};
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	struct gov_env env = {0};
	(void)state;
	make_cluster(&cl, a73_khz, 4, 4);
	cpufreq_policy_init_cluster(&pol, 0, &cl, 903000, 0);
	for (size_t i = 0; i < GS_ARRAY_SIZE(rows); i++) {
		struct gov_param p[2] = {{.key = "switch_latency_us", .value = "7"},
					 {.key = rows[i].key, .value = rows[i].value}};
		struct gs_error err;
		void *data = NULL;

		gs_error_clear(&err);
		assert_int_equal(governor_init(&schedutil_gov, &pol, &env, p, 2, &data, &err),
				 GS_EARG);
		assert_null(data);
		assert_int_equal(err.code, GS_EARG);
		assert_non_null(strstr(err.msg, rows[i].key));
		/* The replay's own keys are left alone. */
		assert_false(p[0].used);
	}
}

static void test_rate_limit_from_last_change(void **state)
{
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 0, NULL, 0);
	const u64 t0 = 1000000000ULL, ms = 1000000ULL;
	(void)state;
	/* t0: util 512 -> 1805000; the timer starts at t0. */
	fx->fake.cu[4].util_cfs = 512;
	update(fx, 4, t0, 0);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	assert_int_equal(fx->sg->last_freq_update_time, t0);
	/* t0 + 5 ms: within 10 ms, no evaluation even though util rose. */
	fx->fake.cu[4].util_cfs = 1000;
	fx->fake.nr_evals = 0;
	update(fx, 4, t0 + 5 * ms, 0);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	assert_int_equal(fx->fake.nr_evals, 0);
	/* t0 + 10 ms: evaluated, a change -> max, timer at t0 + 10 ms. */
	update(fx, 4, t0 + 10 * ms, 0);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	assert_int_equal(fx->sg->last_freq_update_time, t0 + 10 * ms);
	/* t0 + 20 ms: evaluated, the same frequency: the timer is NOT reset. */
	fx->fake.nr_evals = 0;
	update(fx, 4, t0 + 20 * ms, 0);
	assert_int_equal(fx->fake.nr_evals, 4);
	assert_int_equal(fx->sg->last_freq_update_time, t0 + 10 * ms);
	/* t0 + 21 ms: 11 ms after the last change, so util 512 is acted on at once. */
	fx->fake.cu[4].util_cfs = 512;
	update(fx, 4, t0 + 21 * ms, 0);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	assert_int_equal(fx->sg->last_freq_update_time, t0 + 21 * ms);
	/* The change at t0 + 21 ms restarts the timer: blocked until t0 + 31 ms. */
	fx->fake.cu[4].util_cfs = 0;
	update(fx, 4, t0 + 30 * ms, 0);
	assert_int_equal(fx->pol.cur_khz, 1805000);
	update(fx, 4, t0 + 31 * ms, 0);
	assert_int_equal(fx->pol.cur_khz, 903000);
	teardown(fx);
}

static void test_dl_bandwidth_skips_rate_limit(void **state)
{
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 0, NULL, 0);
	const u64 t0 = 1000000000ULL, ms = 1000000ULL;
	(void)state;
	update(fx, 4, t0, 0);
	assert_int_equal(fx->pol.cur_khz, 903000);
	/* More DL bandwidth than at the last evaluation: evaluated within the rate limit. */
	fx->fake.cu[5].bw_dl = 700;
	update(fx, 5, t0 + 1 * ms, 0);
	/* 2952500 * 700 / 1024 = 2018310 -> 2112000 */
	assert_int_equal(fx->pol.cur_khz, 2112000);
	/* Same bandwidth: back under the rate limit. */
	fx->fake.cu[5].bw_dl = 0;
	update(fx, 5, t0 + 2 * ms, 0);
	assert_int_equal(fx->pol.cur_khz, 2112000);
	teardown(fx);
}

static void test_cached_raw_freq(void **state)
{
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 0, NULL, 0);
	(void)state;
	assert_int_equal(get_next_freq(fx->sg, 512, 1024), 1805000);
	assert_int_equal(fx->sg->cached_raw_freq, 1476250);
	/* Same raw frequency: the previous next_freq is returned as is, not re-resolved. */
	fx->sg->next_freq = 1421000;
	assert_int_equal(get_next_freq(fx->sg, 512, 1024), 1421000);
	/* need_freq_update forces a resolution. */
	fx->sg->need_freq_update = true;
	assert_int_equal(get_next_freq(fx->sg, 512, 1024), 1805000);
	assert_false(fx->sg->need_freq_update);
	/* Another raw frequency: resolved. */
	assert_int_equal(get_next_freq(fx->sg, 513, 1024), 1805000);
	assert_int_equal(fx->sg->cached_raw_freq, 1479133); /* 2952500 * 513 / 1024 */
	teardown(fx);
}

static void test_shared_max_ratio(void **state)
{
	struct fixture *fx = setup(a53_khz, 0, 4, 462, 0, NULL, 0);
	(void)state;
	fx->fake.cu[0].util_cfs = 100;
	fx->fake.cu[1].util_cfs = 300;
	fx->fake.cu[2].util_cfs = 0;
	fx->fake.cu[3].util_cfs = 200;
	update(fx, 2, 1000000000ULL, 0);
	/* The busiest: 2305000 * 300 / 462 = 1496753 -> 1709000. */
	assert_int_equal(fx->pol.cur_khz, 1709000);
	/* Every CPU of the policy was evaluated and reported. */
	assert_int_equal(fx->fake.nr_evals, 4);
	for (int i = 0; i < 4; i++) {
		const struct gov_eval *e = &fx->fake.evals[i];

		assert_int_equal(e->cpu, i);
		assert_int_equal(e->policy, 0);
		assert_int_equal(e->time_ns, 1000000000ULL);
		assert_int_equal(e->util, fx->fake.cu[i].util_cfs);
		assert_int_equal(e->in.util_cfs, fx->fake.cu[i].util_cfs);
		assert_int_equal(e->uclamp_min, 0);
		assert_int_equal(e->uclamp_max, 1024);
		assert_int_equal(e->freq_khz, 1709000);
	}
	assert_int_equal(fx->fake.evals[1].target_khz, 1496753);
	assert_int_equal(fx->fake.evals[3].target_khz, 997835);
	teardown(fx);

	/* Unequal capacities: the ratio, not the raw util, decides. 300/1024 < 200/462. */
	fx = setup(a73_khz, 4, 2, 1024, 0, NULL, 0);
	fx->fake.cu[4].util_cfs = 300;
	fx->fake.cu[5].util_cfs = 200;
	fx->fake.cu[5].capacity = 462;
	update(fx, 4, 1000000000ULL, 0);
	/* 2952500 * 200 / 462 = 1278138 -> 1421000 (300 of 1024 would give 865 MHz -> 903000) */
	assert_int_equal(fx->pol.cur_khz, 1421000);
	teardown(fx);
}

static void test_single_busy_hold(void **state)
{
	static const char *const kv[] = {"rate_limit_us", "0"};
	struct fixture *fx = setup(a73_khz, 4, 1, 1024, 0, kv, 1);
	(void)state;
	fx->fake.cu[4].util_cfs = 900;
	fx->fake.cu[4].idle_calls = 5;
	update(fx, 4, 1000, 0);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	/* Not idle since (idle_calls unchanged): the drop to 903000 is held. */
	fx->fake.cu[4].util_cfs = 100;
	update(fx, 4, 2000, 0);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	assert_int_equal(fx->sg->next_freq, 2362000);
	assert_int_equal(fx->sg->cached_raw_freq, 0);
	/* A rise is not held. */
	fx->fake.cu[4].util_cfs = 1024;
	update(fx, 4, 3000, 0);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	/* Idle in between: it drops. */
	fx->fake.cu[4].util_cfs = 100;
	fx->fake.cu[4].idle_calls = 6;
	update(fx, 4, 4000, 0);
	assert_int_equal(fx->pol.cur_khz, 903000);
	teardown(fx);

	/* A shared policy has no busy hold. */
	fx = setup(a73_khz, 4, 2, 1024, 0, kv, 1);
	fx->fake.cu[4].util_cfs = 900;
	update(fx, 4, 1000, 0);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	fx->fake.cu[4].util_cfs = 100;
	update(fx, 4, 2000, 0);
	assert_int_equal(fx->pol.cur_khz, 903000);
	teardown(fx);
}

static unsigned long last_util(const struct fixture *fx)
{
	return fx->fake.evals[fx->fake.nr_evals - 1].util;
}

static void test_iowait_boost(void **state)
{
	static const char *const on[] = {"rate_limit_us", "0", "iowait_boost", "1"};
	static const char *const off[] = {"rate_limit_us", "0"};
	const u64 ms = 1000000ULL, t = 1000000000ULL;
	struct fixture *fx = setup(a73_khz, 4, 1, 1024, 0, on, 2);
	struct sugov_cpu *c = &fx->sg->cpus[0];
	static const unsigned int doubling[] = {128, 256, 512, 1024, 1024};
	static const unsigned int halving[] = {512, 256, 128};
	(void)state;
	assert_true(fx->sg->iowait_boost_enabled);
	/* Each IO wakeup doubles the boost, from 128 up to 1024. */
	for (int i = 0; i < 5; i++) {
		update(fx, 4, t + (u64)i * ms, SCHED_CPUFREQ_IOWAIT);
		assert_int_equal(c->iowait_boost, doubling[i]);
		assert_int_equal(last_util(fx), doubling[i]);
		assert_false(c->iowait_boost_pending);
	}
	assert_int_equal(fx->pol.cur_khz, 2362000);
	/* Without IO wakeups it halves at each evaluation, then drops to 0 below 128. */
	for (int i = 0; i < 3; i++) {
		update(fx, 4, t + (u64)(5 + i) * ms, 0);
		assert_int_equal(c->iowait_boost, halving[i]);
		assert_int_equal(last_util(fx), halving[i]);
	}
	update(fx, 4, t + 8 * ms, 0);
	assert_int_equal(c->iowait_boost, 0);
	assert_int_equal(last_util(fx), 0);

	/* The boost scales to the CPU's capacity and never lowers util: 128 * 462 >> 10 = 57. */
	fx->fake.cu[4].capacity = 462;
	fx->fake.cu[4].util_cfs = 40;
	update(fx, 4, t + 9 * ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(last_util(fx), 57);
	fx->fake.cu[4].util_cfs = 300;
	update(fx, 4, t + 10 * ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(c->iowait_boost, 256);
	assert_int_equal(last_util(fx), 300); /* 256 * 462 >> 10 = 115 < 300 */
	fx->fake.cu[4].capacity = 1024;
	fx->fake.cu[4].util_cfs = 0;

	/* More than a tick (4 ms at HZ 250) without an update: reset. */
	update(fx, 4, t + 11 * ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(c->iowait_boost, 512);
	update(fx, 4, t + 15 * ms + 1, 0);
	assert_int_equal(c->iowait_boost, 0);
	assert_int_equal(last_util(fx), 0);
	/* Exactly a tick is not more than a tick: no reset, the boost decays instead. */
	update(fx, 4, t + 16 * ms, SCHED_CPUFREQ_IOWAIT);
	update(fx, 4, t + 17 * ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(c->iowait_boost, 256);
	update(fx, 4, t + 21 * ms, 0);
	assert_int_equal(c->iowait_boost, 128);
	/* An IO wakeup after more than a tick restarts at the minimum. */
	update(fx, 4, t + 30 * ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(c->iowait_boost, 128);
	assert_int_equal(last_util(fx), 128);
	teardown(fx);

	/* Off by default: the flag is ignored. */
	fx = setup(a73_khz, 4, 1, 1024, 0, off, 1);
	update(fx, 4, t, SCHED_CPUFREQ_IOWAIT);
	update(fx, 4, t + ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(fx->sg->cpus[0].iowait_boost, 0);
	assert_int_equal(last_util(fx), 0);
	assert_int_equal(fx->pol.cur_khz, 903000);
	teardown(fx);
}

static void test_iowait_shared_decay(void **state)
{
	static const char *const on[] = {"rate_limit_us", "0", "iowait_boost", "1"};
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 0, on, 2);
	const u64 ms = 1000000ULL, t = 1000000000ULL;
	(void)state;
	/* CPU 5 is boosted; evaluations from CPU 4 decay it too (apply runs on every CPU). */
	update(fx, 5, t, SCHED_CPUFREQ_IOWAIT);
	update(fx, 5, t + ms, SCHED_CPUFREQ_IOWAIT);
	assert_int_equal(fx->sg->cpus[1].iowait_boost, 256);
	update(fx, 4, t + 2 * ms, 0);
	assert_int_equal(fx->sg->cpus[1].iowait_boost, 128);
	/* 2952500 * 128 / 1024 = 369062 -> 903000 */
	assert_int_equal(fx->pol.cur_khz, 903000);
	teardown(fx);
}

static void test_slow_path_latency(void **state)
{
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 300000, NULL, 0);
	const u64 t0 = 1000000000ULL;
	(void)state;
	fx->fake.cu[6].util_cfs = 512;
	update(fx, 6, t0, 0);
	/* Chosen at t0, in force at t0 + 300 µs. */
	assert_int_equal(fx->sg->next_freq, 1805000);
	assert_int_equal(fx->pol.cur_khz, 903000);
	assert_true(fx->pol.pending);
	assert_int_equal(fx->pol.pending_khz, 1805000);
	assert_int_equal(fx->pol.pending_at_ns, t0 + 300000);
	/* The evaluation reports the frequency in force after the decision. */
	assert_int_equal(fx->fake.evals[fx->fake.nr_evals - 1].freq_khz, 903000);
	assert_true(cpufreq_apply_pending(&fx->pol, t0 + 300000));
	assert_int_equal(fx->pol.cur_khz, 1805000);
	teardown(fx);
}

static void test_rt_boost_through_update(void **state)
{
	struct fixture *fx = setup(a73_khz, 4, 4, 1024, 0, NULL, 0);
	(void)state;
	/* Key off, RT runnable on CPU 7: the policy goes to max. */
	fx->fake.cu[7].rt_runnable = true;
	fx->fake.cu[7].util_rt = 10;
	update(fx, 7, 1000000000ULL, 0);
	assert_int_equal(fx->pol.cur_khz, 2362000);
	teardown(fx);

	/* Key on: the rq's uclamp.min (here 300) replaces the boost; reported in the eval. */
	fx = setup(a73_khz, 4, 4, 1024, 0, NULL, 0);
	fx->fake.uc.key = true;
	fx->fake.rq[7].uc[UCLAMP_MIN].value = 300;
	fx->fake.cu[7].rt_runnable = true;
	fx->fake.cu[7].util_rt = 10;
	update(fx, 7, 1000000000ULL, 0);
	/* 2952500 * 300 / 1024 = 864990 -> 903000 */
	assert_int_equal(fx->pol.cur_khz, 903000);
	assert_int_equal(fx->fake.evals[3].cpu, 7);
	assert_int_equal(fx->fake.evals[3].util, 300);
	assert_int_equal(fx->fake.evals[3].uclamp_min, 300);
	assert_int_equal(fx->fake.evals[3].uclamp_max, 1024);
	assert_int_equal(fx->fake.evals[3].target_khz, 864990);
	teardown(fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_next_freq_table),
		cmocka_unit_test(test_cpu_util_rt_boost_key_off),
		cmocka_unit_test(test_cpu_util_uclamp_key_on),
		cmocka_unit_test(test_cpu_util_dl_irq),
		cmocka_unit_test(test_default_rate_limit),
		cmocka_unit_test(test_bad_tunables),
		cmocka_unit_test(test_rate_limit_from_last_change),
		cmocka_unit_test(test_dl_bandwidth_skips_rate_limit),
		cmocka_unit_test(test_cached_raw_freq),
		cmocka_unit_test(test_shared_max_ratio),
		cmocka_unit_test(test_single_busy_hold),
		cmocka_unit_test(test_iowait_boost),
		cmocka_unit_test(test_iowait_shared_decay),
		cmocka_unit_test(test_slow_path_latency),
		cmocka_unit_test(test_rt_boost_through_update),
		cmocka_unit_test(test_not_invariant_next_freq),
		cmocka_unit_test(test_effective_cpu_perf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
