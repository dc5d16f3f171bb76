/*
 * test_eas.c - v5.9 task placement (src/sched/fair_eas.c, fair_select.c, rt_eas.c) on a
 * hand-built Hikey960 snapshot.
 *
 * Checks: three examples worked by hand (util 300 moves CPU4 -> CPU0 by
 * 56 > 11 and stays on CPU0; util 600 with uclamp_max 300 stays on CPU4 in both idle-clamp
 * cases; util 100 with uclamp_min 1024 stays on its LITTLE CPU, and moves to big under the
 * v6.2 util_fits_cpu rule); each candidate's energy against a hand computation from the EM
 * (v5.9 costs: fmax * power / freq); em_cpu_energy's OPP thresholds; the overutilized flag (set
 * by one CPU, feec off, the fallback's select_idle_capacity, cleared only by the root-level
 * recomputation); a misfit pull (only while overutilized, to the lowest idle big CPU) and the
 * uclamp_min misfit that stays; two forks (to the other cluster when it has more idle CPUs,
 * the shallowest idle state; within the cluster otherwise); wake_affine_weight; RT placement
 * (the RT default uclamp_min 1024 sends a LITTLE RT wakeup to a big CPU; uclamp_min 0 stays).
 * Every expected number is derived in the comment above its assert.
 * Does not check: the replay's use of these functions (golden tests).
 */
#include "testutil.h"

#include <limits.h>
#include <string.h>

#include "power/platform.h"
#include "sched/eas.h"
#include "uclamp/uclamp.h"

static struct em_perf_domain pd_little, pd_big;
static struct uclamp_sys sys;
static struct uclamp_rq_pair urq[8];
static struct uclamp_task uct;

/* Hikey960, v5.9 em_create_perf_table(): cost = fmax * power / freq. */
static void hikey_pds(void)
{
	static const unsigned long lf[5] = { 533000, 999000, 1402000, 1709000, 1844000 };
	static const unsigned long lc[5] = { 96, 129, 163, 201, 245 };
	static const unsigned long bf[5] = { 903000, 1421000, 1805000, 2112000, 2362000 };
	static const unsigned long bc[5] = { 635, 831, 1052, 1298, 1571 };

	memset(&pd_little, 0, sizeof(pd_little));
	memset(&pd_big, 0, sizeof(pd_big));
	pd_little.nr_perf_states = pd_big.nr_perf_states = 5;
	pd_little.cpus = 0x0f;
	pd_big.cpus = 0xf0;
	for (int i = 0; i < 5; i++) {
		pd_little.table[i].frequency = lf[i];
		pd_little.table[i].cost = lc[i];
		pd_big.table[i].frequency = bf[i];
		pd_big.table[i].cost = bc[i];
	}
}

/* Every CPU idle, util 0, no RT; rd->pd = big then LITTLE; uclamp key off. */
static void hikey_rd(struct eas_rd *rd)
{
	hikey_pds();
	memset(rd, 0, sizeof(*rd));
	uclamp_sys_init(&sys, 5);
	rd->nr_cpus = 8;
	for (int c = 0; c < 8; c++) {
		struct eas_cpu *ec = &rd->cpu[c];

		ec->capacity_orig = ec->capacity = c < 4 ? 462 : 1024;
		ec->idle = true;
		ec->curr_prio = 140;
		ec->rt_highest_prio = 100;
		ec->idle_exit_latency_us = 1;
		uclamp_rq_init(&urq[c]);
		ec->uclamp = &urq[c];
		rd->cluster[c] = c < 4 ? 0 : 4;
	}
	rd->nr_pd = 2;
	rd->pd[0] = &pd_big;
	rd->pd[1] = &pd_little;
	rd->uclamp = &sys;
	rd->asym = rd->energy = true;
	rd->util_est_lsb = true;
	rd->max_cpu_capacity = 1024;
}

/* A task of util u, ewma = enqueued = u, its blocked util still on prev's cfs_rq. */
static void task_on(struct eas_rd *rd, struct eas_task *p, int prev, unsigned long u)
{
	memset(p, 0, sizeof(*p));
	p->cpu = prev;
	p->util_avg = u;
	p->util_est_ewma = p->util_est_enqueued = (unsigned int)u;
	p->load_avg = u;
	p->prio = 120;
	uclamp_task_init(&sys, &uct, false);
	p->uc = &uct;
	rd->cpu[prev].util_avg = u;
}

/* ---- em_cpu_energy and compute_energy ------------------------------------------------------ */

static void test_em_thresholds(void **state)
{
	(void)state;
	hikey_pds();
	/* big: freq = 2952500 * u / 1024; u = 313 -> 902,473 kHz <= 903000 (cost 635);
	 * u = 314 -> 905,356 -> 1421000 (831). Energy = cost * sum / 1024. */
	assert_int_equal(em_cpu_energy(&pd_big, 313, 1024, 1024), 635);
	assert_int_equal(em_cpu_energy(&pd_big, 314, 1024, 1024), 831);
	/* above the top: the last state; 1571 * 512 / 1024 = 785 */
	assert_int_equal(em_cpu_energy(&pd_big, 1024, 512, 1024), 785);
	/* LITTLE: freq = 2305000 * u / 462; u = 106 -> 528,852 <= 533000 (96); 107 -> 533,841
	 * -> 999000 (129). 96 * 462 / 462 = 96. */
	assert_int_equal(em_cpu_energy(&pd_little, 106, 462, 462), 96);
	assert_int_equal(em_cpu_energy(&pd_little, 107, 462, 462), 129);
}

/* ---- worked example 3: util 300, no clamps ------------------------------------------------ */

static void test_example3_big_to_little(void **state)
{
	struct eas_rd rd;
	struct eas_task p;
	struct eas_feec_explain ex;

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 4, 300);
	/* _task_util_est = 300 | 1 = 301. cpu_util_next(4, p, 4) = max(300, 0 + 301) = 301;
	 * for dst -1 CPU4 = max(300 - 300, 0) = 0: every base energy is 0. */
	assert_int_equal(cpu_util_next(&rd, 4, &p, 4), 301);
	assert_int_equal(cpu_util_next(&rd, 4, &p, -1), 0);
	assert_int_equal(cpu_util_next(&rd, 0, &p, 0), 301);
	/* big, dst 4: max 301 -> 2952500 * 301 / 1024 = 867,873 kHz -> 903 MHz (635);
	 * 635 * 301 / 1024 = 186 */
	assert_int_equal(compute_energy(&rd, &p, 4, &pd_big), 186);
	/* LITTLE, dst 0: 2305000 * 301 / 462 = 1,501,742 -> 1709 MHz (201); 201 * 301 / 462 = 130 */
	assert_int_equal(compute_energy(&rd, &p, 0, &pd_little), 130);
	assert_int_equal(compute_energy(&rd, &p, -1, &pd_little), 0);
	/* prev_delta 186, best 130 (CPU0: spare 161, the first of the max); 186 - 130 = 56 >
	 * (186 + 0) >> 4 = 11: CPU0 */
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 4, &ex), 0);
	assert_int_equal(ex.prev_delta, 186);
	assert_int_equal(ex.base_energy, 0);
	assert_int_equal(ex.nr, 2);
	assert_int_equal(ex.cand[0].cpu, 4);
	assert_int_equal(ex.cand[0].delta, 186);
	assert_int_equal(ex.cand[1].cpu, 0);
	assert_int_equal(ex.cand[1].delta, 130);
	/* the whole wakeup path returns feec's answer */
	assert_int_equal(select_task_rq_fair(&rd, &p, 4, EAS_BALANCE_WAKE, NULL, NULL), 0);
}

static void test_example3_little_stays(void **state)
{
	struct eas_rd rd;
	struct eas_task p;
	struct eas_feec_explain ex;

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 0, 300);
	/* prev_delta 130 (LITTLE), big's max-spare CPU4 186 > 130: best stays 130, saving 0 */
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 0, &ex), 0);
	assert_int_equal(ex.prev_delta, 130);
	/* prev CPU2: pd0's max-spare is CPU0 (spare 161, first), it ties at 130: CPU2 stays */
	rd.cpu[0].util_avg = 0;
	task_on(&rd, &p, 2, 300);
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 2, &ex), 2);
	assert_int_equal(ex.cand[ex.nr - 1].cpu, 0);
	assert_int_equal(ex.cand[ex.nr - 1].delta, 130);
}

/* ---- worked example 1: util 600, uclamp_max 300 -------------------------------------------- */

static void test_example1_capped_stays_big(void **state)
{
	struct eas_rd rd;
	struct eas_task p;
	struct eas_feec_explain ex;

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 4, 600);
	assert_int_equal(uclamp_setattr(&sys, &uct, -1, 300, 1, NULL), 0); /* key on */
	/* Case A: every rq retains MAX 1024. LITTLE: util_next capped at 462, fits(462, 462)
	 * false. Big: 601 fits; CPU4 = prev is the max-spare (423, first).
	 * dst 4: max(1024, 300) = 1024 leaves 601 -> 2952500 * 601 / 1024 = 1,732,863 -> 1805 MHz
	 * (1052); 1052 * 601 / 1024 = 617. */
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 4, &ex), 4);
	assert_int_equal(ex.prev_delta, 617);
	assert_int_equal(ex.nr, 1);
	/* Case B: every rq retains MAX 300 (idle). Clamped 300 fits LITTLE too (300 * 1280 <
	 * 462 * 1024) but its spare is 462 - 462 = 0, never a candidate. dst 4: max_util 300 ->
	 * 864,990 kHz -> 903 MHz (635); 635 * 601 / 1024 = 372. */
	for (int c = 0; c < 8; c++) {
		urq[c].uc[UCLAMP_MAX].value = 300;
		urq[c].flags = UCLAMP_FLAG_IDLE;
	}
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 4, &ex), 4);
	assert_int_equal(ex.prev_delta, 372);
	assert_int_equal(ex.nr, 1);
	/* not misfit on LITTLE (uclamp_task_util = 300 <= 369), but CPU util 462 there makes
	 * the rd overutilized */
	assert_true(task_fits_capacity(&rd, &p, 462));
	rd.cpu[0].util_avg = 600;
	assert_true(cpu_overutilized(&rd, 0));
}

/* ---- worked example 2: util 100, uclamp_min 1024 ------------------------------------------- */

static void test_example2_boosted_stays_little(void **state)
{
	struct eas_rd rd;
	struct eas_task p;
	struct eas_feec_explain ex;

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 1, 100);
	assert_int_equal(uclamp_setattr(&sys, &uct, 1024, -1, 1, NULL), 0);
	/* min_util 1024 >= max 1024 on every CPU: returns 1024, fits nowhere; prev_delta stays
	 * ULONG_MAX and best_energy_cpu = prev */
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 1, &ex), 1);
	assert_true(ex.prev_delta == ULONG_MAX);
	assert_int_equal(ex.nr, 0);
	/* misfit on LITTLE (1024 does not fit), but not overutilized (util 101): no pull */
	update_misfit_status(&rd, 1, &p);
	assert_true(rd.cpu[1].misfit_task_load > 0);
	assert_false(update_overutilized_status(&rd, 1));
	assert_int_equal(misfit_pull_cpu(&rd, &p, 1), -1);
	/* v6.2 util_fits_cpu: LITTLE: the boost 1024 > 462 does not fit; big: 1024 <= 1024
	 * fits. prev does not fit, big's max-spare CPU4 is returned (prev_delta ULONG_MAX). */
	rd.util_fits_cpu = true;
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 1, &ex), 4);
}

/* ---- overutilized and the fallback ---------------------------------------------------------- */

static void test_overutilized_fallback(void **state)
{
	struct eas_rd rd;
	struct eas_task p;
	struct eas_waker w = { .cpu = 4 };

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 4, 300);
	/* CPU1 at util 370: 370 * 1280 = 473,600 >= 462 * 1024 = 473,088: overutilized;
	 * 369 would fit (472,320) */
	rd.cpu[1].util_avg = 369;
	assert_false(update_overutilized_status(&rd, 1));
	rd.cpu[1].util_avg = 370;
	rd.cpu[1].idle = false;
	assert_true(update_overutilized_status(&rd, 1));
	assert_true(rd.overutilized);
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 4, NULL), -1);
	/* fallback: waker on prev (no wake_affine), select_idle_capacity from 4 in wrap order:
	 * CPU4 busy, CPU5 idle and 301 fits 1024 -> CPU5 */
	rd.cpu[4].idle = false;
	assert_int_equal(select_task_rq_fair(&rd, &p, 4, EAS_BALANCE_WAKE, &w, NULL), 5);
	/* every big CPU busy: the wrap goes 4..7, 0: CPU0 idle and 301 fits 462 -> CPU0 */
	rd.cpu[5].idle = rd.cpu[6].idle = rd.cpu[7].idle = false;
	assert_int_equal(select_task_rq_fair(&rd, &p, 4, EAS_BALANCE_WAKE, &w, NULL), 0);
	/* the set-only path never clears; the root-level recomputation does */
	rd.cpu[1].util_avg = 100;
	assert_false(update_overutilized_status(&rd, 1));
	assert_true(rd.overutilized);
	assert_true(update_sd_lb_stats_overutilized(&rd));
	assert_false(rd.overutilized);
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 4, NULL), 0);
}

/* wake_affine_weight with a waker on LITTLE CPU1 and prev CPU2 (same cluster: MC, 117 ->
 * factor 108). Neither idle. this_eff = (200 + 300) * 100 * 462 = 23,100,000; prev_eff =
 * (600 - 300) * 108 * 462 = 14,968,800: not smaller -> prev. With load(prev) 800: prev_eff =
 * 500 * 108 * 462 = 24,948,000 > 23,100,000 -> this CPU. */
static void test_wake_affine_weight(void **state)
{
	struct eas_rd rd;
	struct eas_task p;

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 2, 300);
	rd.cpu[1].idle = rd.cpu[2].idle = false;
	rd.cpu[1].nr_running = rd.cpu[2].nr_running = 1;
	rd.cpu[1].load_avg = 200;
	rd.cpu[2].load_avg = 600;
	assert_int_equal(wake_affine(&rd, &p, 1, 2, false, 0), 2);
	rd.cpu[2].load_avg = 800;
	assert_int_equal(wake_affine(&rd, &p, 1, 2, false, 0), 1);
	/* wake_affine_idle: this CPU idle and cache-affine: prev if idle too */
	rd.cpu[1].idle = true;
	assert_int_equal(wake_affine(&rd, &p, 1, 2, false, 0), 1);
	rd.cpu[2].idle = true;
	assert_int_equal(wake_affine(&rd, &p, 1, 2, false, 0), 2);
}

/* ---- misfit ---------------------------------------------------------------------------------- */

static void test_misfit_pull(void **state)
{
	struct eas_rd rd;
	struct eas_task p;

	(void)state;
	hikey_rd(&rd);
	task_on(&rd, &p, 1, 500); /* running on LITTLE CPU1 */
	rd.cpu[1].idle = false;
	rd.cpu[1].nr_running = 1;
	/* uclamp_task_util = 501: 501 * 1280 >= 462 * 1024 -> misfit, load max(500, 1) */
	update_misfit_status(&rd, 1, &p);
	assert_int_equal(rd.cpu[1].misfit_task_load, 500);
	/* not overutilized yet: find_busiest_group is balanced, no pull */
	assert_int_equal(misfit_pull_cpu(&rd, &p, 1), -1);
	/* cpu_util(1) = 500 >= 370: the tick sets the flag */
	assert_true(update_overutilized_status(&rd, 1));
	/* the lowest-numbered idle big CPU whose cluster has spare: CPU4; CPU4 busy -> CPU5 */
	assert_int_equal(misfit_pull_cpu(&rd, &p, 1), 4);
	rd.cpu[4].idle = false;
	rd.cpu[4].nr_running = 1;
	assert_int_equal(misfit_pull_cpu(&rd, &p, 1), 5);
	/* not allowed on 5: CPU6 */
	p.cpus_allowed = 0x4f;
	assert_int_equal(misfit_pull_cpu(&rd, &p, 1), 6);
	/* a LITTLE CPU is never a misfit destination for a LITTLE source: 462 does not fit 462 */
	p.cpus_allowed = 0x0f;
	assert_int_equal(misfit_pull_cpu(&rd, &p, 1), -1);
	/* the pulled task no longer misfit on big: 501 * 1280 < 1024 * 1024 */
	update_misfit_status(&rd, 5, &p);
	assert_int_equal(rd.cpu[5].misfit_task_load, 0);
}

/* ---- fork ------------------------------------------------------------------------------------ */

static void test_fork(void **state)
{
	struct eas_rd rd;
	struct eas_task child;

	(void)state;
	hikey_rd(&rd);
	memset(&child, 0, sizeof(child));
	child.new_task = true;
	child.cpu = 1; /* sched_fork: the parent's CPU */
	child.prio = 120;
	/* parent running on CPU1: LITTLE has 3 idle CPUs, big 4: both has_spare, the local
	 * (LITTLE) has fewer idle CPUs -> the big group. In it the shallowest idle state: CPU4
	 * 950 us, CPU5 and CPU6 WFI (1 us), CPU6 idle more recently -> CPU6. Then MC of CPU6:
	 * its single-CPU local group has 1 idle CPU, as many as any other: stay. */
	rd.cpu[1].idle = false;
	rd.cpu[1].nr_running = 1;
	rd.cpu[1].util_avg = rd.cpu[1].runnable_avg = rd.cpu[1].load_avg = 500;
	rd.cpu[4].idle_exit_latency_us = 950;
	rd.cpu[7].idle_exit_latency_us = 950;
	rd.cpu[5].idle_stamp = 1000;
	rd.cpu[6].idle_stamp = 2000;
	assert_int_equal(select_task_rq_fair(&rd, &child, 1, EAS_BALANCE_FORK, NULL, NULL), 6);
	/* two big CPUs busy: big has 2 idle < local's 3: DIE keeps the local cluster. MC of
	 * CPU1: local {1} is fully busy (1 task, util 500 * 117 > 462 * 100), {0} {2} {3} have
	 * spare with 1 idle CPU each, ties keep the first: CPU0 */
	rd.cpu[4].idle = rd.cpu[5].idle = false;
	rd.cpu[4].nr_running = rd.cpu[5].nr_running = 1;
	assert_int_equal(select_task_rq_fair(&rd, &child, 1, EAS_BALANCE_FORK, NULL, NULL), 0);
	/* affinity to one CPU: select_task_rq takes it without asking fair */
	child.cpus_allowed = 1u << 7;
	assert_int_equal(select_task_rq_fair(&rd, &child, 1, EAS_BALANCE_FORK, NULL, NULL), 7);
}

/* ---- RT -------------------------------------------------------------------------------------- */

static void test_rt_placement(void **state)
{
	struct eas_rd rd;
	struct eas_task p;

	(void)state;
	hikey_rd(&rd);
	memset(&p, 0, sizeof(p));
	p.cpu = 0;
	p.prio = 50;
	uclamp_task_init(&sys, &uct, true); /* RT default uclamp_min 1024 (sysctl default) */
	p.uc = &uct;
	/* 462 >= min(1024, 1024) false on CPU0: find_lowest_rq with fitness: cpupri NORMAL (1)
	 * on every CPU, fitting ones {4..7}; task_cpu 0 and waker 0 not in it; none in CPU0's MC;
	 * first of the mask: CPU4, whose highest RT prio 100 > 50: CPU4 */
	assert_false(rt_task_fits_capacity(&rd, &p, 0));
	assert_int_equal(select_task_rq_rt(&rd, &p, 0, 0), 4);
	/* CPU4 runs an RT task of prio 10: cpupri 91 there, so the lowest mask is {5, 6, 7} */
	rd.cpu[4].rt_highest_prio = rd.cpu[4].curr_prio = 10;
	assert_int_equal(select_task_rq_rt(&rd, &p, 0, 0), 5);
	/* uclamp_min 0: fits LITTLE, CPU0 not running RT: stays */
	assert_int_equal(uclamp_setattr(&sys, &uct, 0, -1, 1, NULL), 0);
	assert_int_equal(select_task_rq_rt(&rd, &p, 0, 0), 0);
}

/* ---- Tensor ---------------------------------------------------------------- */

/*
 * The tensor model's EM (models/tensor.sql via platform_load; costs as `platforms show tensor`
 * prints them): little CPUs 0-3 (capacity 160, fmax 1803 MHz), mid 4-5 (498, 2253 MHz), big
 * 6-7 (1024, 2802 MHz); rd->pd order big, mid, little. A task on big CPU6, every other CPU idle
 * at util 0, no clamps:
 * util 100 (_task_util_est 101):
 *   big, dst 6:   (2802000 + 700500) x 101 / 1024 = 345,461 kHz -> 500 MHz, cost 453:
 *                 453 x 101 / 1024 = 44 (prev_delta; CPU6 is also big's max-spare CPU)
 *   mid, CPU4:    (2253000 + 563250) x 101 / 498 = 571,167 -> 696 MHz, cost 200:
 *                 200 x 101 / 498 = 40
 *   little, CPU0: 101 fits 160 (129,280 < 163,840); (1803000 + 450750) x 101 / 160 =
 *                 1,422,679 -> 1598 MHz, cost 86: 86 x 101 / 160 = 54
 *   best 40 (mid): 44 - 40 = 4 > (44 + 0) >> 4 = 2 -> CPU4 (the A76, not the A55)
 * util 50 (51): big 174,440 -> 500 MHz: 453 x 51 / 1024 = 22; mid 288,411 -> 400 MHz (163):
 *   163 x 51 / 498 = 16; little 718,382 -> 738 MHz (46): 46 x 51 / 160 = 14;
 *   best 14 (little): 22 - 14 = 8 > 22 >> 4 = 1 -> CPU0
 */
static void test_tensor_worked_example(void **state)
{
	static struct platform plat;
	static struct em_perf_domain pds[3];
	struct gs_error err;
	struct eas_rd rd;
	struct eas_task p;
	struct eas_feec_explain ex;

	(void)state;
	assert_int_equal(platform_load("tensor", &plat, &err), 0);
	assert_int_equal(plat.nr_clusters, 3);
	memset(&rd, 0, sizeof(rd));
	uclamp_sys_init(&sys, 5);
	rd.nr_cpus = plat.nr_cpus;
	for (int c = 0; c < plat.nr_cpus; c++) {
		rd.cpu[c].capacity_orig = rd.cpu[c].capacity = plat.cpus[c].capacity;
		rd.cpu[c].idle = true;
		rd.cluster[c] = plat.cpus[c].cluster;
	}
	for (int k = 0; k < 3; k++) { /* rd->pd: the cluster of the highest CPU first */
		const struct plat_cluster *pc = &plat.clusters[2 - k];

		memset(&pds[k], 0, sizeof(pds[k]));
		pds[k].nr_perf_states = pc->nr_opps;
		for (int i = 0; i < pc->nr_opps; i++) {
			pds[k].table[i].frequency = pc->opps[i].freq_khz;
			pds[k].table[i].cost = pc->opps[i].em_cost;
		}
		for (int i = 0; i < pc->nr_cpus; i++)
			pds[k].cpus |= 1ull << pc->cpus[i];
		rd.pd[k] = &pds[k];
	}
	rd.nr_pd = 3;
	rd.uclamp = &sys;
	rd.asym = rd.energy = rd.util_est_lsb = true;
	rd.max_cpu_capacity = 1024;
	/* the costs the comment uses */
	assert_int_equal(pds[0].table[0].cost, 453);
	assert_int_equal(pds[1].table[2].cost, 200);
	assert_int_equal(pds[2].table[8].cost, 86);

	task_on(&rd, &p, 6, 100);
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 6, &ex), 4);
	assert_int_equal(ex.nr, 3);
	assert_int_equal(ex.cand[0].cpu, 6);
	assert_int_equal(ex.cand[0].delta, 44);
	assert_int_equal(ex.cand[1].cpu, 4);
	assert_int_equal(ex.cand[1].delta, 40);
	assert_int_equal(ex.cand[2].cpu, 0);
	assert_int_equal(ex.cand[2].delta, 54);

	rd.cpu[6].util_avg = 0;
	task_on(&rd, &p, 6, 50);
	assert_int_equal(find_energy_efficient_cpu(&rd, &p, 6, &ex), 0);
	assert_int_equal(ex.cand[0].delta, 22);
	assert_int_equal(ex.cand[1].delta, 16);
	assert_int_equal(ex.cand[2].delta, 14);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_em_thresholds),
		cmocka_unit_test(test_example3_big_to_little),
		cmocka_unit_test(test_example3_little_stays),
		cmocka_unit_test(test_example1_capped_stays_big),
		cmocka_unit_test(test_example2_boosted_stays_little),
		cmocka_unit_test(test_overutilized_fallback),
		cmocka_unit_test(test_wake_affine_weight),
		cmocka_unit_test(test_misfit_pull),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_rt_placement),
		cmocka_unit_test(test_tensor_worked_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
