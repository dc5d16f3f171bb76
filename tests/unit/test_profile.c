/*
 * test_profile.c - kernel profiles (src/kernel/profile.c) and the behaviours they switch in the
 * model files, each on a small case where the profiles on the two sides give different
 * answers. Every expected number is computed here from the kernel's formula of each release,
 * not read from the code under test:
 * - the table: every cell cites a source; kernel releases map to the right profile;
 * - PELT: an always-running task at 903 of 2362 MHz saturates at the current capacity
 *   (cap_scale(1024, 391) = 391) under v4.19's contribution scaling and climbs towards 1024
 *   under clock_pelt (v5.9), both through pelt.c alone and through the scheduler model;
 * - util_est: FASTUP (v5.9) vs the EWMA (v5.4); the capacity skip (v5.4) vs none (v4.19);
 *   the late-5.10 last_enqueued filter and MSB flag;
 * - uclamp: no static key (5.4-early: aggregation always runs), the hard-wired RT
 *   default (no sysctl), the bucket id clamp, the tg clamp rule;
 * - schedutil: map_util_perf vs map_util_freq at an OPP boundary, the v6.6 runnable
 *   boost, the v5.10 busy hold restoring cached_raw_freq, v4.19's iowait floor;
 * - cpufreq: RELATION_LE skipping an inefficient OPP;
 * - the public interface: the profile's schedutil behaviours in struct govsim_kernel, and
 *   RELATION_LE reaching schedutil's get_next_freq through it.
 * Does not check: whole traces (golden tests) or validate's figures (test_validate).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpufreq/cpufreq.h"
#include "sim/cpufreq_table.h"
#include "gov/schedutil.h"
#include "gov/tunables.h"
#include "kernel/profile.h"
#include "sched/pelt.h"
#include "sched/sched.h"
#include "sched/util_est.h"
#include "uclamp/uclamp.h"

static const struct kernel_profile *kp(const char *name)
{
	const struct kernel_profile *p = kernel_profile_find(name);
	assert_non_null(p);
	return p;
}

/* ---- the table ------------------------------------------------------------------------------ */

static void test_table_sources(void **state)
{
	(void)state;
	for (int i = 0; kernel_profiles[i]; i++) {
		for (int b = 0; b < KB__COUNT; b++) {
			assert_non_null(kernel_profiles[i]->src[b]);
			assert_true(strlen(kernel_profiles[i]->src[b]) > 3);
			assert_string_not_equal(kernel_profile_value(kernel_profiles[i],
								     (enum kernel_behaviour)b),
						"?");
		}
		for (int j = 0; j < i; j++)
			assert_string_not_equal(kernel_profiles[i]->name, kernel_profiles[j]->name);
	}
	assert_string_equal(kernel_profile_default()->name, "v5.9");
	assert_ptr_equal(kernel_profile_find("5.9"), kernel_profile_find("v5.9"));
	assert_null(kernel_profile_find("v5.8"));
}

static void test_release_mapping(void **state)
{
	static const struct {
		const char *release, *want;
	} c[] = {
		{"4.19.0-07801-gf317706", "v4.19-early"}, /* the bundled Juno kernel */
		{"4.19.150-android-x", "v4.19"},
		{"5.4.59", "v5.4-early"},
		{"5.4.200-g1", "v5.4"},
		{"5.10.7", "v5.10-early"},
		{"5.10.66-android12-9-00001-gabc", "v5.10"},
		{"5.15.94-android13-8", "v5.15"},
		{"6.1.25-android14-11", "v6.1"},
		{"6.6.30", "v6.6"},
		{"5.9.1", "v5.9"},
		/* nearest in release order: 5.7 is 2 from 5.9, 3 from 5.4 */
		{"5.7.0", "v5.9"},
		/* 6.3 is 2 from 6.1, 3 from 6.6; 5.19 is 2 from 6.1 (6.0 follows 5.19) */
		{"6.3.1", "v6.1"},
		{"5.19.0", "v6.1"},
		{"4.14.100", "v4.19"},
		{"6.12.1", "v6.12"},
		{"7.2.13+deb14-amd64", "v7.2"},
		{"6.12.95+deb12-amd64", "v6.12"},
	};
	char why[256];

	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(c); i++) {
		const struct kernel_profile *p = kernel_profile_for_release(c[i].release, why,
									    sizeof(why));
		assert_non_null(p);
		if (strcmp(p->name, c[i].want) != 0)
			fail_msg("%s -> %s, want %s", c[i].release, p->name, c[i].want);
		assert_non_null(strstr(why, c[i].release));
	}
	assert_null(kernel_profile_for_release("unknown", why, sizeof(why)));
}

/* ---- PELT ------------------------------------------------------------------------------------ */

/* arch_scale_freq_capacity at 903 of 2362 MHz: (903000 << 10) / 2362000 = 391 */
#define FREQ_SCALE_903 ((903000UL << 10) / 2362000UL)

/* The geometric series in double: an entity running for n whole periods from 0, each period
 * contributing `level` (the contribution it adds at full load), decayed by y = 0.5^(1/32). */
static double pelt_level_after(double level, double periods)
{
	return level * (1.0 - pow(0.5, periods / 32.0));
}

static void test_pelt_contrib_scaling_vs_clock_pelt(void **state)
{
	struct pelt_variant v419 = {.contrib_scaling = true, .scale_freq = FREQ_SCALE_903,
				    .scale_cpu = 1024};
	struct sched_avg a = {0}, b = {0};
	struct pelt_clock pc = {0};
	const u64 step = 1000000; /* 1 ms updates */
	double want_b;

	(void)state;
	assert_int_equal(FREQ_SCALE_903, 391);
	for (u64 t = step; t <= 3000 * step; t += step) {
		/* v4.19: time is rq_clock_task, the contribution is scaled */
		__update_load_avg_se(t, &a, 1024, true, true, true, &v419);
		/* v5.9: time is clock_pelt, running at 1024/1024 * 391/1024 of the task clock */
		pc.clock_task = t;
		update_rq_clock_pelt(&pc, (s64)step, false, 1024, FREQ_SCALE_903);
		__update_load_avg_se(rq_clock_pelt(&pc), &b, 1024, true, true, true, NULL);
	}
	/* v4.19 saturates at cap_scale(1024, 391) = 391 (minus integer truncation) */
	assert_in_range(a.util_avg, 391 - 3, 391);
	/* v5.9: 3 s of task time is 3 s * 391/1024 = 1.146 s of clock_pelt = 1119 periods */
	want_b = pelt_level_after(1024.0, (double)rq_clock_pelt(&pc) / 1024.0 / 1024.0);
	assert_true(want_b > 1020.0);
	assert_in_range(b.util_avg, (unsigned long)want_b - 3, (unsigned long)want_b + 1);
}

/* The same through the scheduler model: a CFS task always running on CPU 0 at 903 MHz. */
static unsigned long sched_always_running(const char *profile)
{
	struct sched_config cfg = {0};
	struct sched_hooks hooks = {0};
	struct sched *s;
	struct sched_cpu_util u;
	struct event e;

	cfg.nr_cpus = 1;
	cfg.capacity[0] = 1024;
	cfg.hz = 250;
	cfg.kernel = kp(profile);
	assert_int_equal(sched_new(&cfg, &hooks, &s), 0);
	sched_set_freq_scale(s, 0, 0, FREQ_SCALE_903);
	memset(&e, 0, sizeof(e));
	e.type = EV_WAKEUP;
	e.cpu = 0;
	e.wake.pid = 42;
	e.wake.prio = 120;
	snprintf(e.wake.comm, sizeof(e.wake.comm), "busy");
	assert_int_equal(sched_event(s, &e, 1000, NULL), 0);
	memset(&e, 0, sizeof(e));
	e.type = EV_SWITCH;
	e.cpu = 0;
	e.sw.prev_pid = 0;
	e.sw.prev_prio = 120;
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), "swapper/0");
	e.sw.next_pid = 42;
	e.sw.next_prio = 120;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "busy");
	assert_int_equal(sched_event(s, &e, 2000, NULL), 0);
	for (u64 t = 4000000; t <= 3000000000ULL; t += 4000000)
		sched_tick(s, 0, t);
	sched_cpu_util(s, 0, &u);
	sched_free(s);
	return u.util_avg;
}

static void test_sched_saturation_per_profile(void **state)
{
	(void)state;
	assert_in_range(sched_always_running("v4.19"), 391 - 3, 391);
	assert_in_range(sched_always_running("v4.19-early"), 391 - 3, 391);
	assert_in_range(sched_always_running("v5.9"), 1015, 1024);
	assert_in_range(sched_always_running("v5.4"), 1015, 1024);
}

/* ---- util_est -------------------------------------------------------------------------------- */

/* A task that went to sleep with util_avg `util` after its estimate was (enqueued, ewma). */
static bool dequeue_with(const struct util_est_cfg *cfg, unsigned int enqueued, unsigned int ewma,
			 unsigned long util, unsigned long cap, struct util_est *out)
{
	struct sched_avg cfs = {0}, p = {0};
	bool w;

	p.util_est.enqueued = enqueued;
	p.util_est.ewma = ewma;
	p.util_avg = util;
	util_est_enqueue_cfg(cfg, &cfs, &p);
	w = util_est_dequeue_cfg(cfg, &cfs, &p, true, cap);
	assert_int_equal(cfs.util_est.enqueued, 0);
	*out = p.util_est;
	return w;
}

static void test_util_est_fastup_and_margins(void **state)
{
	struct util_est_cfg v59, v54, v419, v510;
	struct util_est ue;

	(void)state;
	util_est_cfg_from_profile(&v59, kp("v5.9"));
	util_est_cfg_from_profile(&v54, kp("v5.4"));
	util_est_cfg_from_profile(&v419, kp("v4.19"));
	util_est_cfg_from_profile(&v510, kp("v5.10"));

	/* ewma 100, new sample 400 | 1 = 401: FASTUP replaces the EWMA ... */
	assert_true(dequeue_with(&v59, 100, 100, 400, 1024, &ue));
	assert_int_equal(ue.ewma, 401);
	assert_int_equal(ue.enqueued, 401);
	/* ... without it, ewma' = ((100 << 2) + (401 - 100)) >> 2 = 175 */
	assert_true(dequeue_with(&v54, 100, 100, 400, 1024, &ue));
	assert_int_equal(ue.ewma, ((100u << 2) + (401u - 100u)) >> 2);
	assert_int_equal(ue.enqueued, 401);

	/* a task above capacity_orig (500 > 462) decreasing from 600: v5.4 skips the sample,
	 * v4.19 has no such test: ewma' = ((600 << 2) + (501 - 600)) >> 2 */
	assert_false(dequeue_with(&v54, 600, 600, 500, 462, &ue));
	assert_int_equal(ue.ewma, 600);
	assert_true(dequeue_with(&v419, 600, 600, 500, 462, &ue));
	assert_int_equal(ue.ewma, (unsigned int)(((600 << 2) + (501 - 600)) >> 2));

	/* late 5.10: MSB flag, flag-free cfs sums; ewma 300, last enqueued 320, new 295:
	 * |295 - 300| < 10 but |320 - 295| >= 10 -> enqueued written (295 | MSB), ewma kept */
	assert_int_equal(v510.flag, 0x80000000u);
	assert_true(dequeue_with(&v510, 320, 300, 295, 1024, &ue));
	assert_int_equal(ue.enqueued, 295u | 0x80000000u);
	assert_int_equal(ue.ewma, 300);
	/* v5.9 (LSB) on the same numbers: 295 | 1 = 295 within 1% of 300 -> no write at all */
	assert_false(dequeue_with(&v59, 320, 300, 295, 1024, &ue));
	assert_int_equal(ue.enqueued, 320);
	/* late 5.10, last enqueued 298: both within 1% -> no write */
	assert_false(dequeue_with(&v510, 298, 300, 295, 1024, &ue));
}

/* MSB: the flag set by PELT is cleared by __update_load_avg_se with the variant's flag, and
 * the LSB of the value is kept. */
static void test_util_est_msb_flag_clear(void **state)
{
	struct pelt_variant pv = {.util_avg_unchanged = 0x80000000u};
	struct sched_avg se = {0};

	(void)state;
	se.util_est.enqueued = 301u | 0x80000000u;
	__update_load_avg_se(2 * 1024 * 1024, &se, 1024, true, true, true, &pv);
	assert_int_equal(se.util_est.enqueued, 301);
	se.util_est.enqueued = 301;
	__update_load_avg_se(4 * 1024 * 1024, &se, 1024, true, true, true, NULL);
	assert_int_equal(se.util_est.enqueued, 300); /* LSB flag cleared under v5.9 */
}

/* ---- uclamp ---------------------------------------------------------------------------------- */

static void test_uclamp_key_and_rt_default(void **state)
{
	struct uclamp_sys early, v59, v54;
	struct uclamp_rq_pair rq;
	struct uclamp_task t;
	struct gs_error err;

	(void)state;
	uclamp_sys_init(&early, 5);
	uclamp_sys_set_profile(&early, kp("v5.4-early"));
	uclamp_sys_init(&v59, 5);
	uclamp_sys_set_profile(&v59, kp("v5.9"));
	/* no static key: aggregation runs from the start; v5.9 skips it until a clamp is used */
	assert_true(uclamp_is_used(&early));
	assert_false(uclamp_is_used(&v59));
	uclamp_rq_init_sys(&early, &rq);
	uclamp_task_init(&early, &t, true);
	uclamp_rq_inc(&early, &rq, &t);
	assert_int_equal(early.stats.agg_ops, 1);
	assert_int_equal(early.stats.agg_skipped, 0);
	/* the RT task's hard-wired uclamp.min 1024 is the rq's min */
	assert_int_equal(rq.uc[UCLAMP_MIN].value, 1024);
	uclamp_rq_init_sys(&v59, &rq);
	uclamp_task_init(&v59, &t, true);
	uclamp_rq_inc(&v59, &rq, &t);
	assert_int_equal(v59.stats.agg_skipped, 1);

	/* sched_util_clamp_min_rt_default exists from v5.9 on */
	uclamp_sys_init(&v54, 5);
	uclamp_sys_set_profile(&v54, kp("v5.4"));
	gs_error_clear(&err);
	assert_int_equal(uclamp_sysctl_write(&v54, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 0, 0, &err),
			 GS_EPOLICY);
	assert_int_equal(uclamp_sysctl_write(&v59, UCLAMP_SYSCTL_MIN_RT_DEFAULT, 0, 0, &err), 0);
}

static void test_uclamp_bucket_and_tg(void **state)
{
	struct uclamp_sys a, b;
	struct uclamp_task t = {0};
	unsigned int delta = (1024 + 10) / 20; /* DIV_ROUND_CLOSEST(1024, 20) = 51 */
	int g;

	(void)state;
	uclamp_sys_init(&a, 20);
	uclamp_sys_set_profile(&a, kp("v5.9"));
	uclamp_sys_init(&b, 20);
	uclamp_sys_set_profile(&b, kp("v5.10"));
	/* 1024 / 51 = 20: one past the last bucket in v5.9, clamped to 19 later */
	assert_int_equal(uclamp_bucket_id(&a, 1024), 1024 / delta);
	assert_int_equal(uclamp_bucket_id(&a, 1024), 20);
	assert_int_equal(uclamp_bucket_id(&b, 1024), 19);

	/* a group with effective min 200, max 800; a user-defined task request min 100 */
	for (int k = 0; k < 2; k++) {
		struct uclamp_sys *sys = k ? &b : &a;
		g = uclamp_group_get(sys, "/g");
		assert_true(g > 0);
		sys->groups[g].eff[UCLAMP_MIN].value = 200;
		sys->groups[g].eff[UCLAMP_MAX].value = 800;
	}
	t.group = g;
	t.req[UCLAMP_MIN].value = 100;
	t.req[UCLAMP_MIN].user_defined = true;
	/* old rule: 100 is not above the group's 200 and is user-defined -> kept */
	assert_int_equal(uclamp_tg_restrict(&a, &t, UCLAMP_MIN).value, 100);
	/* clamp(100, 200, 800) = 200 */
	assert_int_equal(uclamp_tg_restrict(&b, &t, UCLAMP_MIN).value, 200);
}

/* ---- schedutil and cpufreq ------------------------------------------------------------------- */

static const u32 a73_khz[] = {903000, 1421000, 1805000, 2112000, 2362000};

static void make_cluster(struct plat_cluster *cl, const u32 *khz, int nr_cpus)
{
	memset(cl, 0, sizeof(*cl));
	cl->nr_cpus = nr_cpus;
	for (int i = 0; i < nr_cpus; i++)
		cl->cpus[i] = i;
	cl->nr_opps = 5;
	for (int i = 0; i < 5; i++)
		cl->opps[i].freq_khz = khz[i];
}

struct fake {
	struct sched_cpu_util cu;
};

static void fake_cpu_util(void *ctx, int cpu, struct sched_cpu_util *out)
{
	(void)cpu;
	*out = ((struct fake *)ctx)->cu;
}

/* schedutil on a one-CPU policy of khz under a profile, through the public interface's host
 * as the replay runs it: *data is governor_init's (for update and release), the result the
 * governor's own struct sugov_policy. */
static struct sugov_policy *sugov_on(const char *profile, struct cpufreq_policy *pol,
				     struct plat_cluster *cl, struct fake *f, const u32 *khz,
				     void **data)
{
	struct gov_env env = {0};
	struct gs_error err;

	make_cluster(cl, khz, 1);
	cpufreq_policy_init_cluster(pol, 0, cl, khz[0], 0);
	env.ctx = f;
	env.cpu_util = fake_cpu_util;
	env.hz = 250;
	env.kernel = kp(profile);
	gs_error_clear(&err);
	*data = NULL;
	assert_int_equal(governor_init(&schedutil_gov, pol, &env, NULL, 0, data, &err), 0);
	return governor_data(*data);
}

static void test_headroom_map_util_perf(void **state)
{
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	struct fake f = {0};
	struct sugov_policy *sg;
	void *data;
	const unsigned long util = 493;
	/* v5.9: (2362000 + 590500) * 493 / 1024 = 1421478 > 1421000 -> 1805000 */
	const unsigned long raw59 = (2362000UL + (2362000UL >> 2)) * util / 1024;
	/* v5.15: 2362000 * (493 + 123) / 1024 = 1420906 <= 1421000 -> 1421000 */
	const unsigned long raw515 = 2362000UL * (util + (util >> 2)) / 1024;

	(void)state;
	assert_true(raw59 > 1421000 && raw515 <= 1421000);
	sg = sugov_on("v5.9", &pol, &cl, &f, a73_khz, &data);
	sg->need_freq_update = true;
	assert_int_equal(get_next_freq(sg, util, 1024), 1805000);
	assert_int_equal(sg->cached_raw_freq, raw59);
	governor_release(data);
	sg = sugov_on("v5.15", &pol, &cl, &f, a73_khz, &data);
	sg->need_freq_update = true;
	assert_int_equal(get_next_freq(sg, util, 1024), 1421000);
	assert_int_equal(sg->cached_raw_freq, raw515);
	governor_release(data);
}

static void test_relation_le(void **state)
{
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	/* EM costs by ascending OPP; from the top: 400, 280, 260, 250 each lower than the
	 * last efficient one; 300 >= 250 -> the lowest OPP is inefficient */
	static const u32 cost[] = {300, 250, 260, 280, 400};

	(void)state;
	make_cluster(&cl, a73_khz, 1);
	for (int i = 0; i < 5; i++)
		cl.opps[i].em_cost = cost[i];
	cpufreq_policy_init_cluster(&pol, 0, &cl, 903000, 0);
	assert_int_equal(cpufreq_driver_resolve_freq(&pol, 800000), 903000); /* RELATION_L */
	cpufreq_policy_set_efficiencies(&pol);
	assert_int_equal(pol.inefficient_mask, 1u);
	assert_int_equal(cpufreq_driver_resolve_freq(&pol, 800000), 1421000); /* LE */
	assert_int_equal(cpufreq_driver_resolve_freq(&pol, 2000000), 2112000);
	/* scaling_max_freq below the efficient OPP: the retry without efficiencies */
	pol.max_khz = 903000;
	assert_int_equal(cpufreq_driver_resolve_freq(&pol, 800000), 903000);
}

static void test_runnable_boost_and_busy_hold(void **state)
{
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	struct fake f = {0};
	struct sugov_policy *sg;
	struct govsim_cpu_util cu;
	unsigned int raw_before;
	void *data;

	(void)state;
	f.cu.capacity = 1024;
	f.cu.util_cfs = 300;
	f.cu.runnable_avg = 500;
	/* v6.6 reads max(util, runnable_avg) = 500; v5.9 300 */
	sg = sugov_on("v6.6", &pol, &cl, &f, a73_khz, &data);
	assert_int_equal(sugov_get_util(&sg->cpus[0], &cu), 500);
	governor_release(data);
	sg = sugov_on("v5.9", &pol, &cl, &f, a73_khz, &data);
	assert_int_equal(sugov_get_util(&sg->cpus[0], &cu), 300);
	governor_release(data);

	/* busy hold on a single-CPU policy: util 800 then 100 without idle in between.
	 * v5.9 keeps the frequency and zeroes cached_raw_freq; v5.10 keeps it and restores the
	 * raw frequency of 800: (2362000 + 590500) * 800 / 1024 */
	for (int k = 0; k < 2; k++) {
		f.cu.runnable_avg = 0;
		f.cu.util_cfs = 800;
		f.cu.idle_calls = 7;
		sg = sugov_on(k ? "v5.10" : "v5.9", &pol, &cl, &f, a73_khz, &data);
		governor_update(data, 0, 20000000, 0);
		assert_int_equal(sg->next_freq, 2362000);
		raw_before = sg->cached_raw_freq;
		assert_int_equal(raw_before, (2362000U + 590500U) * 800U / 1024U);
		f.cu.util_cfs = 100;
		governor_update(data, 0, 40000000, 0);
		assert_int_equal(sg->next_freq, 2362000); /* held */
		assert_int_equal(sg->cached_raw_freq, k ? raw_before : 0);
		governor_release(data);
	}
}

static void test_iowait_floor_v4_19(void **state)
{
	static const u32 a53_khz[] = {533000, 999000, 1402000, 1709000, 1844000};
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	struct fake f = {0};
	struct sugov_policy *sg;
	void *data;

	(void)state;
	f.cu.capacity = 462;
	sg = sugov_on("v4.19", &pol, &cl, &f, a53_khz, &data);
	/* sg_cpu->min = 1024 * 533000 / 1844000 = 295 */
	assert_int_equal(sg->cpus[0].iowait_boost_min, 1024U * 533000U / 1844000U);
	assert_int_equal(sg->cpus[0].iowait_boost_min, 295);
	governor_release(data);
	sg = sugov_on("v5.9", &pol, &cl, &f, a53_khz, &data);
	assert_int_equal(sg->cpus[0].iowait_boost_min, 0); /* IOWAIT_BOOST_MIN (128) */
	governor_release(data);
}

/* The profile reaches schedutil through the public struct govsim_kernel alone: the host's
 * mapping of the named behaviours (values from the profile rows, `kernels show`), and v6.1's
 * RELATION_LE as next_freq_relation: util 200 under map_util_perf asks
 * 2362000 * (200 + 50) / 1024 = 576660 kHz; L gives 903000, LE skips the inefficient lowest
 * OPP (costs as in test_relation_le) and gives 1421000; v5.15 keeps L on the same policy. */
static void test_public_kernel_constants(void **state)
{
	static const u32 cost[] = {300, 250, 260, 280, 400};
	struct plat_cluster cl;
	struct cpufreq_policy pol;
	struct fake f = {0};
	struct sugov_policy *sg;
	const struct govsim_kernel *k;
	void *data;

	(void)state;
	f.cu.capacity = 1024;
	sg = sugov_on("v4.19-early", &pol, &cl, &f, a73_khz, &data);
	k = sg->policy->kernel;
	assert_string_equal(k->release, "v4.19-early");
	assert_int_equal(k->hz, 250);
	assert_int_equal(k->next_freq_relation, GOVSIM_RELATION_L);
	assert_int_equal(k->sugov_busy_hold, GOVSIM_HOLD_UNGATED);
	assert_int_equal(k->sugov_no_limits_changed, 1);
	assert_int_equal(k->sugov_iowait_units, GOVSIM_IOWAIT_KHZ);
	assert_true(sg->v.no_limits_changed);
	governor_release(data);
	sg = sugov_on("v6.6", &pol, &cl, &f, a73_khz, &data);
	k = sg->policy->kernel;
	assert_int_equal(k->next_freq_relation, GOVSIM_RELATION_LE);
	assert_int_equal(k->sugov_cfs_input, GOVSIM_CFS_RUNNABLE_BOOST);
	assert_int_equal(k->sugov_headroom, GOVSIM_HEADROOM_MAP_UTIL_PERF);
	assert_int_equal(k->sugov_busy_hold, GOVSIM_HOLD_NOT_CAPPED_GATED);
	assert_int_equal(k->sugov_no_limits_changed, 0);
	assert_int_equal(k->sugov_commit_on_need_update, 1);
	assert_int_equal(k->sugov_iowait_clamped, 1);
	assert_int_equal(k->sugov_shared_agg, GOVSIM_SHARED_MAX);
	governor_release(data);

	for (int i = 0; i < 2; i++) {
		sg = sugov_on(i ? "v6.1" : "v5.15", &pol, &cl, &f, a73_khz, &data);
		for (int o = 0; o < 5; o++)
			pol.tbl.opps[o].em_cost = cost[o]; /* the policy's copy of the table */
		cpufreq_policy_set_efficiencies(&pol);
		sg->need_freq_update = true;
		assert_int_equal(get_next_freq(sg, 200, 1024), i ? 1421000 : 903000);
		assert_int_equal(sg->cached_raw_freq, 2362000U * 250U / 1024U);
		governor_release(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sources),
		cmocka_unit_test(test_release_mapping),
		cmocka_unit_test(test_pelt_contrib_scaling_vs_clock_pelt),
		cmocka_unit_test(test_sched_saturation_per_profile),
		cmocka_unit_test(test_util_est_fastup_and_margins),
		cmocka_unit_test(test_util_est_msb_flag_clear),
		cmocka_unit_test(test_uclamp_key_and_rt_default),
		cmocka_unit_test(test_uclamp_bucket_and_tg),
		cmocka_unit_test(test_headroom_map_util_perf),
		cmocka_unit_test(test_relation_le),
		cmocka_unit_test(test_runnable_boost_and_busy_hold),
		cmocka_unit_test(test_iowait_floor_v4_19),
		cmocka_unit_test(test_public_kernel_constants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
