/*
 * profile.c - the kernel profile table (see profile.h). One row per profile, one cell per
 * behaviour, each citing its source: the kernel file, function and line it was read from in
 * the stable tree the row names. The v5.9 row is the reference the model files were written
 * against.
 */
#include "kernel/profile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sources shared by several rows. */
#define S_PELT_CONTRIB "pelt.c accumulate_sum l.109 v4.19: contrib = cap_scale(contrib, scale_freq); util_sum += contrib * scale_cpu"
#define S_PELT_CLOCK   "pelt.h update_rq_clock_pelt / update_idle_rq_clock_pelt (l.58/97 v5.4, l.74/113 v5.10, l.76/115 v5.15, l.95/133 v6.1-v6.6)"
#define S_RBL_LOAD     "pelt.c l.299-304 v4.19: runnable_load_avg, weight based"
#define S_RBL_AVG      "v5.4->v5.9 diff of pelt.c: runnable_avg from h_nr_running (v5.7)"
#define S_SIG_419      "pelt.c l.324-390 v4.19: avg_rt, avg_dl, avg_irq"
#define S_SIG_54       "5.4.286 pelt.h: no update_thermal_load_avg"
#define S_SIG_59       "fair.c __update_blocked_others l.7844-7848 v5.9: + avg_thermal"
#define S_FASTUP_NO_419 "features.h l.92 v4.19: no UTIL_EST_FASTUP"
#define S_FASTUP_NO_54 "features.h l.91 v5.4: no UTIL_EST_FASTUP"
#define S_FASTUP_59    "features.h v5.9: SCHED_FEAT(UTIL_EST_FASTUP, true) (b8c96361402a, v5.5)"
#define S_FASTUP_LATE  "features.h l.92 v5.10, l.93 v5.15, l.98 v6.1, l.87 v6.6"
#define S_FLAG_LSB     "pelt.h UTIL_AVG_UNCHANGED 0x1 (l.26 v4.19, l.27 v5.4, l.52 5.10.7)"
#define S_FLAG_MSB     "include/linux/sched.h UTIL_AVG_UNCHANGED 0x80000000 (l.363 v5.10.89, l.431 v5.15, l.445 v6.1, l.446 v6.6)"
#define S_MARGIN_419   "fair.c util_est_dequeue l.3751 v4.19: within_margin only, no capacity skip"
#define S_MARGIN_54    "fair.c util_est_dequeue l.3738 v5.4: + skip if task_util > capacity_orig"
#define S_MARGIN_510   "fair.c util_est_update l.3981-4065 v5.10.89 (same body v5.15, v6.1, v6.6): last_enqueued_diff filter"
#define S_SUB_AFTER    "end of dequeue_task_fair (fair.c l.3751 v4.19, l.3738 v5.4, v5.9; l.5642 5.10.7)"
#define S_SUB_BEFORE   "start of dequeue_task_fair (fair.c l.5628 v5.10.89, l.5852 v5.15, l.6141 v6.1, l.6801 v6.6)"
#define S_INIT_LOAD    "fair.c post_init_entity_util_avg: cfs_rq->avg.util_avg * se->load.weight (Debian 5.10, 6.1; 1024 << 10 on 64-bit)"
#define S_UPD_AFTER    "end of dequeue_task_fair, after dequeue_entity's update_load_avg (fair.c l.3751 v4.19, l.5856 v5.10, l.6252 v6.1)"
#define S_NO_UCLAMP    "no uclamp in kernel/sched/* v4.19"
#define S_UCLAMP       "CONFIG_UCLAMP_TASK (core.c l.775 v5.4.59 ... l.1327 v6.6)"
#define S_KEY_NO       "core.c 5.4.59: no sched_uclamp_used, aggregation always active"
#define S_KEY          "sched_uclamp_used (core.c l.813 5.4.286, v5.9, l.929 v5.10, l.1286 v5.15, l.1343 v6.1, l.1384 v6.6)"
#define S_RT_HARD      "__setscheduler_uclamp l.1187-1209 5.4.59, l.1292-1294 5.4.286: uclamp_none(UCLAMP_MAX)"
#define S_RT_SYSCTL    "sysctl_sched_uclamp_util_min_rt_default = 1024 (v5.9, l.906 v5.10, l.1263 v5.15, l.1320 v6.1, l.1361 v6.6)"
#define S_BUCKET_NO    "uclamp_bucket_id = v / DELTA (l.803 5.4.59, v5.9, 5.10.7)"
#define S_BUCKET       "uclamp_bucket_id = min(v / DELTA, BUCKETS - 1) (l.821 5.4.120+, l.937 v5.10.89, l.1294 v5.15, l.1351 v6.1, l.1392 v6.6)"
#define S_IDLE_NO      "init_uclamp_rq: uclamp_flags = 0 (l.1252 5.4.59, v5.9, l.939 5.10.7)"
#define S_IDLE         "init_uclamp_rq: UCLAMP_FLAG_IDLE (l.1340 5.4.286, l.1529 v5.10.89, l.1918 v5.15, l.1982 v6.1, l.2020 v6.6)"
#define S_TG_OLD       "uclamp_tg_restrict: tg value if req > tg or !user_defined (5.4.59/120, v5.9, 5.10.7)"
#define S_TG_CLAMP     "uclamp_tg_restrict: clamp(req, tg_min, tg_max) (5.4.286, v5.10.89+)"
#define S_SHORT_NO     "uclamp_rq_util_with / uclamp_util_with without idle shortcut (v5.4, v5.9, 5.10.7)"
#define S_SHORT        "uclamp_rq_util_with idle shortcut (sched.h l.2424-2457 v5.10.89, l.2876 v5.15, l.3017 v6.1, l.3080 v6.6)"
#define S_RT_419       "cpufreq_schedutil.c l.215-216 v4.19: max whenever rt_rq_is_runnable"
#define S_RT_54E       "schedutil_cpu_util l.213 5.4.59: only if !IS_BUILTIN(CONFIG_UCLAMP_TASK)"
#define S_RT_KEY       "!uclamp_is_used() (schedutil_cpu_util l.213 5.4.120/286, v5.9, l.195 v5.10; effective_cpu_util l.7162 v5.15, l.7257 v6.1, l.7416 v6.6)"
#define S_BLK_NO       "fair.c v4.19: update_blocked_averages has no cpufreq_update_util"
#define S_BLK          "update_blocked_averages -> cpufreq_update_util (fair.c l.7802-7803 v5.4, l.8066 v5.10, l.8453 v5.15, l.8728 v6.1, l.9401 v6.6)"
#define S_FN_419       "sugov_get_util l.207-271 v4.19"
#define S_FN_54        "schedutil_cpu_util(cpu, util_cfs, max, type, p) l.206 v5.4, l.195 v5.10"
#define S_FN_515       "effective_cpu_util(cpu, util_cfs, max, type, p) core.c l.7155-7239 v5.15"
#define S_FN_61        "effective_cpu_util(cpu, util_cfs, type, p) core.c l.7248 v6.1, l.7407 v6.6"
#define S_CFS          "cpu_util_cfs = max(util_avg, util_est.enqueued), uncapped (sched.h l.2204 v4.19 ... l.2989 v5.15)"
#define S_CFS_61       "cpu_util_cfs capped at capacity_orig (sched.h l.2957-2971 v6.1)"
#define S_CFS_66       "cpu_util_cfs_boost: max(util_avg, runnable_avg, util_est), capped (fair.c l.7663-7732 v6.6)"
#define S_HR_FREQ      "(f + f>>2) * util / max (get_next_freq l.170-185 v4.19; map_util_freq cpufreq.h l.26-29 v5.10)"
#define S_HR_PERF      "map_util_perf then f * util / max (cpufreq.h l.26-35 v5.15-v6.6; get_next_freq l.147 v5.15, l.140 v6.1, l.139 v6.6)"
#define S_HOLD_419E    "4.19.1: busy = is_busy() with no need_freq_update gate"
#define S_HOLD_GATED   "sugov_update_single l.418-450 v4.19 (.304), v5.4, v5.9: !need_freq_update && busy, cached_raw_freq = 0"
#define S_HOLD_510     "sugov_update_single l.439+ v5.10, sugov_update_single_freq l.337 v5.15: no gate, cached_raw_freq restored"
#define S_HOLD_61      "sugov_update_single_freq l.329 v6.1: + !uclamp_rq_is_capped"
#define S_HOLD_66      "sugov_update_single_freq l.331+ v6.6: + !need_freq_update"
#define S_LIM_NO       "4.19.1: no limits_changed; should_update true while need_freq_update"
#define S_LIM          "sugov_should_update_freq l.70 v4.19 (.304) ... l.95 v6.6: limits_changed -> need_freq_update"
#define S_COMMIT_NO    "sugov_update_next_freq l.103 v4.19 ... v5.9: false if next_freq unchanged"
#define S_COMMIT       "sugov_update_next_freq l.102 v5.10, l.103-113 v5.15, l.96 v6.1, l.95 v6.6: commit while need_freq_update"
#define S_IO_KHZ       "sugov_iowait_reset/apply l.277-397, sugov_start l.820 4.19.1: kHz"
#define S_IO_FMIN      "sugov_start l.825-827 4.19.304: sg_cpu->min = 1024 * fmin / fmax"
#define S_IO_128       "IOWAIT_BOOST_MIN = 128 (v4.19->v5.4 diff)"
#define S_IOC_NO       "sugov_iowait_apply l.361 v4.19, l.382 v5.10: max(util, boost)"
#define S_IOC          "sugov_iowait_apply l.262-280 v5.15, l.254 v6.1/v6.6: boost = uclamp_rq_util_with(rq, boost, NULL)"
#define S_AGG_RATIO    "sugov_next_freq_shared l.467 v4.19, l.409-431 v5.15, l.407 v6.1: largest util/max"
#define S_AGG_MAX      "sugov_next_freq_shared l.416 v6.6: plain max, max_cap"
#define S_RATE         "cpufreq_policy_transition_delay_us l.518 v4.19, l.553 v5.4, l.561 v5.10, l.562 v5.15/v6.1, l.570 v6.6"
#define S_REL_L        "cpufreq_driver_resolve_freq RELATION_L (cpufreq.c l.496 v4.19, l.531 v5.4, l.539 v5.10, l.528/558 v5.15)"
#define S_REL_LE       "cpufreq_driver_resolve_freq RELATION_LE (cpufreq.c l.558 v6.1, l.566 v6.6)"
#define S_EM_NONE      "no include/linux/energy_model.h in v4.19"
#define S_EM_MW        "em cost = fmax * P / f, mW (drivers/opp/of.c l.1080-1081 v5.4; v5.9)"
#define S_EM_X1000     "em_scale_power: fmax * (P * 1000) / f on 64-bit (energy_model.h l.56 5.4.286, l.65 v5.10.89; energy_model.c l.157-159 v5.15)"
#define S_IDLE_STOP    "idle.c cpuidle_idle_call l.192 (Debian 5.10): no driver -> tick_nohz_idle_stop_tick() each iteration (5.10; older as 5.10, not checked per release)"
#define S_IDLE_RETAIN  "idle.c do_idle: cpuidle_idle_call(got_tick), idle_call_stop_or_retain_tick l.158-164 (Debian 6.1, 6.12, 7.2)"
#define S_ILB_FORCED   "fair.c _nohz_idle_balance l.10665 (Debian 5.10): update_nohz_stats(rq, true) l.10712, update_blocked_averages(this_cpu) l.10745 unless CPU_NEWLY_IDLE (older as 5.10, not checked per release)"
#define S_ILB_JIFFY    "fair.c _nohz_idle_balance: NOHZ_STATS_KICK -> update_nohz_stats(rq) per idle CPU, this one included (l.11439 Debian 6.1, l.14529 7.2; v5.13 'Merge for each idle cpu loop of ILB')"
#define S_NEWIDLE_OUTER "fair.c newidle_balance: update_blocked_averages(this_cpu) l.11631 (Debian 6.1; sched_balance_newidle l.12909 Debian 6.12; older as 6.1, not checked per release)"
#define S_ATTACH_POST  "fair.c post_init_entity_util_avg: attach_entity_cfs_rq(se) at its end, the util computed before the !fair return (v5.10; moved by 'sched/fair: Move task sched_avg attach to enqueue_task_fair()', v6.1)"
#define S_ATTACH_ENQ   "fair.c post_init_entity_util_avg l.829, !fair tasks return first, no attach; enqueue_entity update_load_avg(UPDATE_TG | DO_ATTACH) l.4773 (Debian 6.1; l.5428 6.12, l.6338 7.2)"
#define S_SUMS_SUB     "fair.c update_cfs_rq_load_avg / detach_entity_load_avg: sub_positive(&sa->*_sum, r * divider) (v5.9, 5.10.7; older as v5.9, not checked per release)"
#define S_SUMS_RESYNC  "fair.c update_cfs_rq_load_avg l.3673-3693: load/runnable sums = avg * divider, util_sum floored at util_avg * PELT_MIN_DIVIDER; detach_entity_load_avg l.3778-3790: util/runnable sums = avg * divider (Debian 5.10.223; the same in 5.15.100; 5.10.89 not read for this row)"
#define S_SUMS_FLOOR   "fair.c update_cfs_rq_load_avg l.4038-4061, detach_entity_load_avg l.4150-4156, dequeue_load_avg l.3297: max_t(u32, sum, avg * PELT_MIN_DIVIDER) (Debian 6.1.176; v6.6 as 6.1, the v5.17 'Relax the sync of *_sum with *_avg' commits, not read per release)"
#define S_DETACH_MIG   "fair.c migrate_task_rq_fair: detach_entity_cfs_rq() for TASK_ON_RQ_MIGRATING, after the dequeue's update_load_avg(UPDATE_TG) (v5.9; Debian 5.10 l.7004-7041; 5.15.100)"
#define S_DETACH_DEQ   "fair.c dequeue_entity l.4850: DO_DETACH for a migrating task, update_load_avg l.4201 detaches instead of the decay kick (Debian 6.1; e1f078f50478, v6.1; v6.6 as 6.1, not read per release)"
#define S_NO_DELAY     "fair.c dequeue_entity: a sleeping task leaves its cfs_rq at once (no DELAY_DEQUEUE before v6.12)"
#define S_INC_BEFORE   "core.c enqueue_task: uclamp_rq_inc() before p->sched_class->enqueue_task() (v5.3+; Debian 6.1 l.2059)"
#define S_NO_SERVER    "no fair server before v6.12: cpu_bw_dl() counts DL tasks only"
#define S_SETATTR_OLD  "core.c __sched_setscheduler: __setscheduler_params() (set_load_weight(): reweight_task() while the class is fair) before check_class_changed() -> switched_from_fair() -> detach_task_cfs_rq() (Debian 5.10 l.5448 / l.5466, 6.1 l.7670 / l.7688, 6.12 syscalls.c l.724 / l.744; older as 5.10, not checked per release)"
#define S_EM_UW        "uW: C * mV^2 * MHz / 1e6 (of.c l.1524-1526 v6.1, l.1501-1503 v6.6); cost fmax * P / f"

static const struct kernel_profile profile_v4_19_early = {
	.name = "v4.19-early",
	.tree = "4.19.1 (chens37/linux-4.19.1)",
	.summary = "4.19.0-4.19.~39: contribution-scaled PELT, no FASTUP, no uclamp, kHz iowait boost",
	.pelt_invariance = PELT_CONTRIB_SCALING,
	.util_est_margin = UTIL_EST_MARGIN_EWMA,
	.uclamp_rt_default = UCLAMP_RT_NONE,
	.sugov_util_fn = SUGOV_UTIL_SUGOV_GET_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_UNGATED,
	.sugov_iowait_units = GOVSIM_IOWAIT_KHZ,
	.em_cost = EM_COST_NONE,
	.src = {S_PELT_CONTRIB, S_RBL_LOAD, S_SIG_419, S_FASTUP_NO_419, S_FLAG_LSB, S_MARGIN_419,
		S_SUB_AFTER, S_UPD_AFTER, S_INIT_LOAD,
		S_NO_UCLAMP, S_NO_UCLAMP, S_NO_UCLAMP, S_NO_UCLAMP, S_NO_UCLAMP,
		S_NO_UCLAMP, S_NO_UCLAMP, S_RT_419, S_BLK_NO, S_FN_419, S_CFS, S_HR_FREQ,
		S_HOLD_419E, S_LIM_NO, S_COMMIT_NO, S_IO_KHZ, S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L,
		S_EM_NONE, S_IDLE_STOP, S_ILB_FORCED, S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "the early/late boundary (~4.19.40) is an estimate (unverified); "
		   "the kHz iowait boost is emulated in util units (iowait_boost is off by "
		   "default); the runnable signal is not used for frequency before v6.6",
};

static const struct kernel_profile profile_v4_19 = {
	.name = "v4.19",
	.tree = "4.19.304 (maxiangpan/linux-4.19)",
	.summary = "4.19 LTS (late stable): contribution-scaled PELT, no FASTUP, no uclamp",
	.pelt_invariance = PELT_CONTRIB_SCALING,
	.util_est_margin = UTIL_EST_MARGIN_EWMA,
	.uclamp_rt_default = UCLAMP_RT_NONE,
	.sugov_util_fn = SUGOV_UTIL_SUGOV_GET_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_GATED,
	.sugov_limits_changed = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_FMIN,
	.em_cost = EM_COST_NONE,
	.src = {S_PELT_CONTRIB, S_RBL_LOAD, S_SIG_419, S_FASTUP_NO_419, S_FLAG_LSB, S_MARGIN_419,
		S_SUB_AFTER, S_UPD_AFTER, S_INIT_LOAD,
		S_NO_UCLAMP, S_NO_UCLAMP, S_NO_UCLAMP, S_NO_UCLAMP, S_NO_UCLAMP,
		S_NO_UCLAMP, S_NO_UCLAMP, S_RT_419, S_BLK_NO, S_FN_419, S_CFS, S_HR_FREQ,
		S_HOLD_GATED, S_LIM, S_COMMIT_NO, S_IO_FMIN, S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L,
		S_EM_NONE, S_IDLE_STOP, S_ILB_FORCED, S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "Android 4.19 trees differ (up/down rate limits, backported uclamp or "
		   "SchedTune): not emulated; the runnable signal is not used for frequency "
		   "before v6.6",
};

static const struct kernel_profile profile_v5_4_early = {
	.name = "v5.4-early",
	.tree = "5.4.59 (BoKyoungHan/linux-5.4.59-vanilla)",
	.summary = "5.4.0-5.4.~59: clock_pelt, no FASTUP, uclamp without the static key",
	.util_est_margin = UTIL_EST_MARGIN_CAPACITY,
	.uclamp_present = true,
	.uclamp_rt_default = UCLAMP_RT_HARDWIRED,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_SCHEDUTIL_CPU_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_GATED,
	.sugov_limits_changed = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.em_cost = EM_COST_MW,
	.src = {S_PELT_CLOCK, S_RBL_LOAD, S_SIG_54, S_FASTUP_NO_54, S_FLAG_LSB, S_MARGIN_54,
		S_SUB_AFTER, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY_NO, S_RT_HARD, S_BUCKET_NO, S_IDLE_NO, S_TG_OLD,
		S_SHORT_NO, S_RT_54E, S_BLK, S_FN_54, S_CFS, S_HR_FREQ, S_HOLD_GATED, S_LIM,
		S_COMMIT_NO, S_IO_128, S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L, S_EM_MW, S_IDLE_STOP, S_ILB_FORCED,
		S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "assumes CONFIG_UCLAMP_TASK=y (then RT reaches max through its hard-wired "
		   "uclamp.min, never through the RT shortcut); the key arrived between 5.4.60 "
		   "and 5.4.120 (the boundary used is 5.4.60)",
};

static const struct kernel_profile profile_v5_4 = {
	.name = "v5.4",
	.tree = "5.4.286 (KINGFIOX/linux-5.4.286)",
	.summary = "5.4 LTS (late stable): clock_pelt, no FASTUP, uclamp with the backported key",
	.util_est_margin = UTIL_EST_MARGIN_CAPACITY,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_HARDWIRED,
	.uclamp_bucket_clamp = true,
	.uclamp_rq_idle_init = true,
	.uclamp_tg_clamp = true,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_SCHEDUTIL_CPU_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_GATED,
	.sugov_limits_changed = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.em_cost = EM_COST_MW_X1000,
	.src = {S_PELT_CLOCK, S_RBL_LOAD, S_SIG_54, S_FASTUP_NO_54, S_FLAG_LSB, S_MARGIN_54,
		S_SUB_AFTER, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_HARD, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT_NO,
		S_RT_KEY, S_BLK, S_FN_54, S_CFS, S_HR_FREQ, S_HOLD_GATED, S_LIM, S_COMMIT_NO,
		S_IO_128, S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L, S_EM_X1000, S_IDLE_STOP, S_ILB_FORCED,
		S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "5.4.60-5.4.120 had the key and the bucket clamp but not the IDLE init, the "
		   "tg clamp or em x1000 (sublevels unverified): this row is 5.4.286",
};

static const struct kernel_profile profile_v5_9 = {
	.name = "v5.9",
	.tree = "5.9.1 (ach84/linux-5.9.1)",
	.summary = "the reference the model follows: clock_pelt, FASTUP, uclamp static key",
	.pelt_runnable_avg = true,
	.pelt_thermal = true,
	.util_est_fastup = true,
	.util_est_margin = UTIL_EST_MARGIN_CAPACITY,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_SYSCTL,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_SCHEDUTIL_CPU_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_GATED,
	.sugov_limits_changed = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.em_cost = EM_COST_MW,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_59, S_FLAG_LSB, S_MARGIN_54,
		S_SUB_AFTER, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET_NO, S_IDLE_NO, S_TG_OLD,
		S_SHORT_NO, S_RT_KEY, S_BLK, S_FN_54, S_CFS, S_HR_FREQ, S_HOLD_GATED, S_LIM,
		S_COMMIT_NO, S_IO_128, S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L, S_EM_MW, S_IDLE_STOP, S_ILB_FORCED,
		S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = NULL,
};

static const struct kernel_profile profile_v5_10_early = {
	.name = "v5.10-early",
	.tree = "5.10.7 (ejga2001/linux-5.10.7)",
	.summary = "5.10.0-5.10.~39: v5.9 util_est and uclamp, v5.10 schedutil",
	.pelt_runnable_avg = true,
	.pelt_thermal = true,
	.util_est_fastup = true,
	.util_est_margin = UTIL_EST_MARGIN_CAPACITY,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_SYSCTL,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_SCHEDUTIL_CPU_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_RESTORE,
	.sugov_limits_changed = true,
	.sugov_commit_on_need_update = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.em_cost = EM_COST_MW,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_LSB, S_MARGIN_54,
		S_SUB_AFTER, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET_NO, S_IDLE_NO, S_TG_OLD,
		S_SHORT_NO, S_RT_KEY, S_BLK, S_FN_54, S_CFS, S_HR_FREQ, S_HOLD_510, S_LIM,
		S_COMMIT, S_IO_128, S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L, S_EM_MW, S_IDLE_STOP, S_ILB_FORCED,
		S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "the early/late boundary (~5.10.40) is an estimate",
};

static const struct kernel_profile profile_v5_10 = {
	.name = "v5.10",
	.tree = "5.10.89 (Prashant446/linux-5.10.89)",
	.summary = "5.10 LTS / android12-5.10 (late stable): MSB util_est flag, dequeue split",
	.pelt_runnable_avg = true,
	.pelt_thermal = true,
	.pelt_sum_sync = PELT_SUMS_RESYNC,
	.util_est_fastup = true,
	.util_est_flag = UTIL_EST_FLAG_MSB,
	.util_est_margin = UTIL_EST_MARGIN_LAST_ENQUEUED,
	.util_est_sub_before_pelt = true,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_SYSCTL,
	.uclamp_bucket_clamp = true,
	.uclamp_rq_idle_init = true,
	.uclamp_tg_clamp = true,
	.uclamp_idle_shortcut = true,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_SCHEDUTIL_CPU_UTIL,
	.sugov_busy_hold = GOVSIM_HOLD_RESTORE,
	.sugov_limits_changed = true,
	.sugov_commit_on_need_update = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.em_cost = EM_COST_MW_X1000,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_MSB, S_MARGIN_510,
		S_SUB_BEFORE, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT,
		S_RT_KEY, S_BLK, S_FN_54, S_CFS, S_HR_FREQ, S_HOLD_510, S_LIM, S_COMMIT, S_IO_128,
		S_IOC_NO, S_AGG_RATIO, S_RATE, S_REL_L, S_EM_X1000, S_IDLE_STOP, S_ILB_FORCED,
		S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_RESYNC, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "GKI vendor hooks (android_vh_map_util_freq) and vendor governors are not "
		   "emulated",
};

static const struct kernel_profile profile_v5_15 = {
	.name = "v5.15",
	.tree = "5.15.100 (zcjie1/linux-5.15.100, root commit)",
	.summary = "5.15 LTS / android13-5.15: effective_cpu_util, map_util_perf headroom",
	.pelt_runnable_avg = true,
	.pelt_thermal = true,
	.pelt_sum_sync = PELT_SUMS_RESYNC,
	.util_est_fastup = true,
	.util_est_flag = UTIL_EST_FLAG_MSB,
	.util_est_margin = UTIL_EST_MARGIN_LAST_ENQUEUED,
	.util_est_sub_before_pelt = true,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_SYSCTL,
	.uclamp_bucket_clamp = true,
	.uclamp_rq_idle_init = true,
	.uclamp_tg_clamp = true,
	.uclamp_idle_shortcut = true,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_EFFECTIVE_CPU_UTIL,
	.sugov_headroom = GOVSIM_HEADROOM_MAP_UTIL_PERF,
	.sugov_busy_hold = GOVSIM_HOLD_RESTORE,
	.sugov_limits_changed = true,
	.sugov_commit_on_need_update = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.sugov_iowait_clamped = true,
	.em_cost = EM_COST_MW_X1000,
	.ilb_stats_per_jiffy = true,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_MSB, S_MARGIN_510,
		S_SUB_BEFORE, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT,
		S_RT_KEY, S_BLK, S_FN_515, S_CFS, S_HR_PERF, S_HOLD_510, S_LIM, S_COMMIT, S_IO_128,
		S_IOC, S_AGG_RATIO, S_RATE, S_REL_L, S_EM_X1000, S_IDLE_STOP, S_ILB_JIFFY,
		S_NEWIDLE_OUTER, S_ATTACH_POST,
		S_SUMS_RESYNC, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "GKI vendor hooks and vendor governors are not emulated",
};

static const struct kernel_profile profile_v6_1 = {
	.name = "v6.1",
	.tree = "6.1.20 (c1336658570/linux-6.1.20)",
	.summary = "6.1 LTS / android14-6.1: CFS util capped, RELATION_LE, no hold when capped",
	.pelt_runnable_avg = true,
	.pelt_thermal = true,
	.pelt_sum_sync = PELT_SUMS_FLOORED,
	.util_est_fastup = true,
	.util_est_flag = UTIL_EST_FLAG_MSB,
	.util_est_margin = UTIL_EST_MARGIN_LAST_ENQUEUED,
	.util_est_sub_before_pelt = true,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_SYSCTL,
	.uclamp_bucket_clamp = true,
	.uclamp_rq_idle_init = true,
	.uclamp_tg_clamp = true,
	.uclamp_idle_shortcut = true,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_EFFECTIVE_CPU_UTIL,
	.sugov_cfs_input = GOVSIM_CFS_UTIL_EST_CAPPED,
	.sugov_headroom = GOVSIM_HEADROOM_MAP_UTIL_PERF,
	.sugov_busy_hold = GOVSIM_HOLD_NOT_CAPPED,
	.sugov_limits_changed = true,
	.sugov_commit_on_need_update = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.sugov_iowait_clamped = true,
	.resolve_relation = CPUFREQ_RESOLVE_LE,
	.em_cost = EM_COST_UW,
	.idle_retain_tick = true,
	.ilb_stats_per_jiffy = true,
	.post_init_attach_enqueue = true,
	.detach_in_dequeue = true,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_MSB, S_MARGIN_510,
		S_SUB_BEFORE, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT,
		S_RT_KEY, S_BLK, S_FN_61, S_CFS_61, S_HR_PERF, S_HOLD_61, S_LIM, S_COMMIT, S_IO_128,
		S_IOC, S_AGG_RATIO, S_RATE, S_REL_LE, S_EM_UW, S_IDLE_RETAIN, S_ILB_JIFFY,
		S_NEWIDLE_OUTER, S_ATTACH_ENQ,
		S_SUMS_FLOOR, S_DETACH_DEQ, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "the v6.1 idle sync of clock_pelt (_update_idle_rq_clock_pelt) is not "
		   "emulated (it feeds the wakeup-migration decay); GKI vendor hooks are not "
		   "emulated",
};

static const struct kernel_profile profile_v6_6 = {
	.name = "v6.6",
	.tree = "6.6.57 (lxdklp/linux-6.6.y)",
	.summary = "6.6 LTS / android15-6.6: runnable-boosted CFS util, plain-max shared policy",
	.pelt_runnable_avg = true,
	.pelt_thermal = true,
	.pelt_sum_sync = PELT_SUMS_FLOORED,
	.util_est_fastup = true,
	.util_est_flag = UTIL_EST_FLAG_MSB,
	.util_est_margin = UTIL_EST_MARGIN_LAST_ENQUEUED,
	.util_est_sub_before_pelt = true,
	.uclamp_present = true,
	.uclamp_static_key = true,
	.uclamp_rt_default = UCLAMP_RT_SYSCTL,
	.uclamp_bucket_clamp = true,
	.uclamp_rq_idle_init = true,
	.uclamp_tg_clamp = true,
	.uclamp_idle_shortcut = true,
	.blocked_kick = true,
	.sugov_util_fn = SUGOV_UTIL_EFFECTIVE_CPU_UTIL,
	.sugov_cfs_input = GOVSIM_CFS_RUNNABLE_BOOST,
	.sugov_headroom = GOVSIM_HEADROOM_MAP_UTIL_PERF,
	.sugov_busy_hold = GOVSIM_HOLD_NOT_CAPPED_GATED,
	.sugov_limits_changed = true,
	.sugov_commit_on_need_update = true,
	.sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,
	.sugov_iowait_clamped = true,
	.sugov_shared_agg = GOVSIM_SHARED_MAX,
	.resolve_relation = CPUFREQ_RESOLVE_LE,
	.em_cost = EM_COST_UW,
	.idle_retain_tick = true,
	.ilb_stats_per_jiffy = true,
	.post_init_attach_enqueue = true,
	.detach_in_dequeue = true,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_MSB, S_MARGIN_510,
		S_SUB_BEFORE, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT,
		S_RT_KEY, S_BLK, S_FN_61, S_CFS_66, S_HR_PERF, S_HOLD_66, S_LIM, S_COMMIT, S_IO_128,
		S_IOC, S_AGG_MAX, S_RATE, S_REL_LE, S_EM_UW, S_IDLE_RETAIN, S_ILB_JIFFY,
		S_NEWIDLE_OUTER, S_ATTACH_ENQ,
		S_SUMS_FLOOR, S_DETACH_DEQ, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD},
	.caveats = "the idle sync of clock_pelt is not "
		   "emulated; GKI vendor hooks are not emulated",
};

/*
 * v6.12 and v7.2, read in Debian's linux-source-6.12 (6.12.95, bookworm-backports) and
 * linux-source-7.2 (7.2.13, sid) -- the kernels the lab boots. What changed after v6.6 and is
 * emulated: the v6.8 schedutil rework (sugov_get_util -> effective_cpu_util(cpu, util, &min,
 * &max) -> sugov_effective_cpu_perf: the 1.25 headroom on the actual util only, uclamp and the
 * RT boost and DL bandwidth as a min/max band; get_capacity_ref_freq: not invariant, cur +
 * cur/4), the unified util_est (v6.8: one value, FASTUP gone, the runnable skip), and the
 * default rate limit of v6.9 (latency x 1.5: 15 us on the lab's 10 us P-states). They differ
 * in util_est_update(): 6.12 calls it from dequeue_task_fair() ahead of dequeue_entities(), on
 * the util of the task's last PELT update; 7.2 from dequeue_entity()'s update_load_avg()
 * (UPDATE_UTIL_EST), after it, and without the capacity skip.
 */
#define S_612(f) "Debian linux-source-6.12 (6.12.95) and -7.2 (7.2.13) " f

/* The behaviours of v6.8 and later as far as the emulation goes: one list for v6.12 and v7.2,
 * whose schedutils differ only where DL bandwidth or policy limits change (below). */
#define PROFILE_V6_8_BEHAVIOURS                                                                 \
	.pelt_runnable_avg = true, .pelt_thermal = true, .util_est_fastup = true,               \
	.util_est_flag = UTIL_EST_FLAG_MSB, .util_est_sub_before_pelt = true,                    \
	.post_init_se_weight = true, .post_init_attach_enqueue = true,                          \
	 .uclamp_present = true, .uclamp_static_key = true,     \
	.uclamp_rt_default = UCLAMP_RT_SYSCTL, .uclamp_bucket_clamp = true,                     \
	.uclamp_rq_idle_init = true, .uclamp_tg_clamp = true, .uclamp_idle_shortcut = true,     \
	.blocked_kick = true, .sugov_util_fn = SUGOV_UTIL_EFFECTIVE_CPU_UTIL, .fair_server = true, \
	.sugov_cfs_input = GOVSIM_CFS_RUNNABLE_BOOST,                                            \
	.sugov_headroom = GOVSIM_HEADROOM_EFFECTIVE_PERF,                                        \
	.sugov_busy_hold = GOVSIM_HOLD_NOT_CAPPED_GATED, .sugov_limits_changed = true,           \
	.sugov_commit_on_need_update = true, .sugov_iowait_units = GOVSIM_IOWAIT_UTIL_128,       \
	.sugov_iowait_clamped = false, .sugov_shared_agg = GOVSIM_SHARED_MAX,                    \
	.resolve_relation = CPUFREQ_RESOLVE_LE, .rate_limit_1_5x = true, .em_cost = EM_COST_UW, \
	.idle_retain_tick = true, .ilb_stats_per_jiffy = true, .detach_in_dequeue = true

/* Their sources, in kernel_behaviour order; `lim` is sugov_should_update_freq's. */
#define PROFILE_V6_8_SOURCES(lim, margin, update, newidle, sums, delay, incorder, server, setattr) \
	{S_PELT_CLOCK, S_RBL_AVG, S_SIG_59,                                                     \
	 S_612("fair.c util_est_update: ewma reset on increase (UTIL_EST_FASTUP removed)"),      \
	 S_FLAG_MSB, margin, S_SUB_BEFORE, update,                                               \
	 S_612("fair.c post_init_entity_util_avg: cfs_rq->avg.util_avg * se_weight(se)"),        \
	 S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP,                    \
	 S_612("fair.c eenv_pd_max_util: an idle rq's max is the task's uclamp_max (the min stays "   \
	       "the rq's, 0 when idle)"),                                                         \
	 S_612("fair.c effective_cpu_util: *min = scale when !uclamp_is_used() and RT runnable"), \
	 S_BLK, S_612("fair.c effective_cpu_util(cpu, util_cfs, &min, &max) l.8218 (6.12)"),     \
	 S_612("fair.c cpu_util_cfs_boost: cpu_util(cpu, NULL, -1, 1)"),                        \
	 S_612("cpufreq_schedutil.c sugov_effective_cpu_perf, get_capacity_ref_freq, "          \
	       "get_next_freq l.188 (6.12), l.204 (7.2)"),                                        \
	 S_612("cpufreq_schedutil.c sugov_update_single_freq: sugov_hold_freq && "              \
	       "!need_freq_update"),                                                             \
	 lim, S_612("cpufreq_schedutil.c sugov_update_next_freq l.106 (6.12)"), S_IO_128,        \
	 S_612("cpufreq_schedutil.c sugov_iowait_apply returns the boost; max(util, boost) "    \
	       "before the headroom, no clamp"),                                                 \
	 S_AGG_MAX,                                                                              \
	 S_612("cpufreq.c cpufreq_policy_transition_delay_us l.586 (6.12), l.524 (7.2): "       \
	       "latency + latency >> 1"),                                                        \
	 S_REL_LE, S_EM_UW, S_IDLE_RETAIN, S_ILB_JIFFY, newidle, S_ATTACH_ENQ, sums,            \
	 S_612("fair.c dequeue_entity l.5575 (6.12), l.6494 (7.2): DO_DETACH, update_load_avg "  \
	       "l.4875 (6.12), l.5875 (7.2)"),                                                    \
	 delay, incorder, server, setattr}

static const struct kernel_profile profile_v6_12 = {
	.name = "v6.12",
	.tree = "6.12.95 (Debian linux-source-6.12, bookworm-backports)",
	.summary = "6.12 LTS: sugov_effective_cpu_perf, unified util_est, 1.5 x latency rate "
		   "limit, EEVDF",
	PROFILE_V6_8_BEHAVIOURS,
	.pelt_sum_sync = PELT_SUMS_FLOORED,
	.util_est_margin = UTIL_EST_MARGIN_UNIFIED,
	.util_est_update_point = UTIL_EST_UPDATE_BEFORE_PELT,
	.eevdf_delay = EEVDF_DELAY_V6_12,
	.uclamp_inc_after_enqueue = true,
	.src = PROFILE_V6_8_SOURCES(S_LIM,
				    S_612("fair.c util_est_update l.4994 (6.12): one util_est value, "
					  "the capacity and runnable skips"),
				    S_612("fair.c dequeue_task_fair l.7282 (6.12): util_est_update "
					  "before dequeue_entities"),
				    S_NEWIDLE_OUTER,
				    S_612("fair.c update_cfs_rq_load_avg l.4712-4735, "
					  "detach_entity_load_avg l.4824-4830, dequeue_load_avg l.3783 "
					  "(6.12): max_t(u32, sum, avg * PELT_MIN_DIVIDER)"),
				    S_612("fair.c dequeue_entity l.5545 DELAY_DEQUEUE, "
					  "pick_next_entity l.5667, requeue_delayed_entity l.6980, "
					  "entity_lag l.729, place_entity l.5290 (6.12)"),
				    S_612("core.c enqueue_task l.2019-2031 (6.12): uclamp_rq_inc() "
					  "after ->enqueue_task(), whose ENQUEUE_DELAYED requeue clears "
					  "sched_delayed first"),
				    S_612("deadline.c dl_server_start l.1828 (50 ms / 1 s), "
					  "__add_running_bw l.246 kicks cpufreq; fair.c enqueue_task_fair "
					  "l.7117 (6.12)"),
				    S_SETATTR_OLD),
	.caveats = "EEVDF's delayed dequeue is emulated with every task at the nice-0 weight, "
		   "and its picks only where the trace shows a switch to a fair task or idle, or "
		   "a tick ends the running task's request; sched_ext is not emulated; the "
		   "idle sync of clock_pelt is not emulated; the fair class's deadline server "
		   "(rq->fair_server) is kept running from a CPU's first fair enqueue: its "
		   "runtime, deferral and zero-lag timer are not emulated",
};

/* v7.2: the v6.12 behaviours; schedutil's own changes (need_freq_update also skips the rate
 * limit; ignore_dl_rate_limit sets it directly) act only on DL bandwidth increases and policy
 * limit changes, which the lab's workloads do not make. */
static const struct kernel_profile profile_v7_2 = {
	.name = "v7.2",
	.tree = "7.2.13 (Debian linux-source-7.2, sid)",
	.summary = "7.2: as v6.12 (Debian sid's kernel, uclamp and cgroup uclamp built in)",
	PROFILE_V6_8_BEHAVIOURS,
	.pelt_sum_sync = PELT_SUMS_FLOORED_TYPED,
	.eevdf_delay = EEVDF_DELAY_V7_2,
	.util_est_margin = UTIL_EST_MARGIN_UNIFIED_NO_CAPACITY,
	.util_est_update_point = UTIL_EST_UPDATE_AFTER_PELT,
	.newidle_blocked_inner = true,
	.setattr_reweight_after_detach = true,
	.src = PROFILE_V6_8_SOURCES(S_612("cpufreq_schedutil.c sugov_should_update_freq: "
					  "need_freq_update skips the rate limit (7.2)"),
				    S_612("fair.c util_est_update l.5768 (7.2): one util_est value, "
					  "the runnable skip, no capacity skip"),
				    S_612("fair.c update_load_avg l.5889 (7.2): util_est_update with "
					  "UPDATE_UTIL_EST, after the se's PELT update (dequeue_entity)"),
				    S_612("fair.c sched_balance_newidle l.14717 (7.2): "
					  "__sched_balance_update_blocked_averages(this_rq), no "
					  "update_rq_clock"),
				    S_612("fair.c __update_sa() l.4746 (7.2): max_t(typeof(sum), ...) in "
					  "update_cfs_rq_load_avg, detach_entity_load_avg and "
					  "enqueue/dequeue_load_avg"),
				    S_612("fair.c dequeue_entity l.6459 DELAY_DEQUEUE (lag updated "
					  "as delayed), pick_next_entity l.6601, requeue_delayed_entity "
					  "l.7995, entity_lag l.832, update_entity_lag l.859 (7.2)"),
				    S_612("core.c enqueue_task l.2183-2195 (7.2): uclamp_rq_inc(rq, p, "
					  "flags) before ->enqueue_task() again (a delayed task counted "
					  "only for ENQUEUE_DELAYED)"),
				    S_612("deadline.c dl_server_start l.1796; fair.c "
					  "enqueue_task_fair l.8118 (7.2)"),
				    S_612("syscalls.c __sched_setscheduler l.682-685: the sched_change "
					  "scope; core.c sched_change_begin l.11255: switched_from() "
					  "before the scope's __setscheduler_params() -> set_load_weight() "
					  "l.1552 -> reweight_task_fair(); fair.c reweight_entity l.4871: "
					  "dequeue_load_avg l.4762, enqueue_load_avg l.4755 (7.2)")),
	.caveats = "as v6.12: the delayed dequeue at nice-0 weights, the fair server kept "
		   "running from a CPU's first fair enqueue (its rise also skips the busy hold); "
		   "sched_ext is not emulated",
};

const struct kernel_profile *const kernel_profiles[] = {
	&profile_v4_19_early, &profile_v4_19, &profile_v5_4_early, &profile_v5_4,
	&profile_v5_9,        &profile_v5_10_early, &profile_v5_10, &profile_v5_15,
	&profile_v6_1,        &profile_v6_6,  &profile_v6_12, &profile_v7_2,
	NULL,
};

const struct kernel_profile *kernel_profile_default(void)
{
	return &profile_v5_9;
}

const struct kernel_profile *kernel_profile_find(const char *name)
{
	if (!name)
		return NULL;
	for (int i = 0; kernel_profiles[i]; i++) {
		const char *n = kernel_profiles[i]->name;
		if (strcmp(name, n) == 0 || strcmp(name, n + 1) == 0)
			return kernel_profiles[i];
	}
	return NULL;
}

/* A release's position in release order: 4.0 .. 4.20, 5.0 .. 5.19, 6.0 ... */
static int release_ordinal(int major, int minor)
{
	if (major <= 4)
		return minor;
	if (major == 5)
		return 21 + minor;
	return 41 + (major - 6) * 20 + minor;
}

/*
 * Early/late boundaries: the first sublevel taken as "late" (the backports landed
 * somewhere in x.y.~40; 5.4's static key between 5.4.60 and 5.4.120).
 */
static const struct {
	int major, minor, first_late;
	const char *early, *late;
} sublevel_split[] = {
	{4, 19, 40, "v4.19-early", "v4.19"},
	{5, 4, 60, "v5.4-early", "v5.4"},
	{5, 10, 40, "v5.10-early", "v5.10"},
};

/*
 * A Debian release hides its sublevel ("5.10.0-32-amd64"); the reader appends the upstream
 * version from /proc/version (" (Debian 5.10.223)"): that sublevel, when it is the same
 * major.minor and the release's own is 0.
 */
static int debian_sublevel(const char *release, int major, int minor, int sub)
{
	const char *d = strstr(release, "(Debian ");
	int dmaj, dmin, dsub;

	if (sub != 0 || !d || sscanf(d + 8, "%d.%d.%d", &dmaj, &dmin, &dsub) != 3)
		return sub;
	return dmaj == major && dmin == minor ? dsub : sub;
}

const struct kernel_profile *kernel_profile_for_release(const char *release, char *why,
							size_t why_size)
{
	const struct kernel_profile *best = NULL;
	int major, minor, sub = 0, best_d = 1 << 30, ord;
	const char *p = release;

	if (!p)
		return NULL;
	while (*p && !isdigit((unsigned char)*p))
		p++;
	if (sscanf(p, "%d.%d.%d", &major, &minor, &sub) < 2 || major < 2 || major > 99)
		return NULL;
	sub = debian_sublevel(release, major, minor, sub);
	for (size_t i = 0; i < GS_ARRAY_SIZE(sublevel_split); i++) {
		if (sublevel_split[i].major == major && sublevel_split[i].minor == minor) {
			bool late = sub >= sublevel_split[i].first_late;
			best = kernel_profile_find(late ? sublevel_split[i].late
							: sublevel_split[i].early);
			if (why)
				snprintf(why, why_size,
					 "the trace records kernel %s: profile %s (sublevel %d %s %d)",
					 release, best->name, sub, late ? ">=" : "<",
					 sublevel_split[i].first_late);
			return best;
		}
	}
	ord = release_ordinal(major, minor);
	for (int i = 0; kernel_profiles[i]; i++) {
		int pmaj, pmin, d;
		if (strstr(kernel_profiles[i]->name, "-early"))
			continue;
		if (sscanf(kernel_profiles[i]->name, "v%d.%d", &pmaj, &pmin) != 2)
			continue;
		d = abs(release_ordinal(pmaj, pmin) - ord);
		if (d < best_d) { /* table order is oldest first: ties keep the older */
			best_d = d;
			best = kernel_profiles[i];
		}
	}
	if (why && best)
		snprintf(why, why_size, "the trace records kernel %s: %s %s", release,
			 best_d ? "nearest profile" : "profile", best->name);
	return best;
}

static int indent_of(const char *line)
{
	int n = 0;
	while (line[n] == ' ')
		n++;
	return n;
}

bool kernel_release_from_plat_info(const char *trace_path, char *buf, size_t size)
{
	char path[4096], line[512];
	const char *slash = strrchr(trace_path, '/');
	int kernel_indent = -1; /* the kernel: block's, once found */
	bool found = false;
	FILE *f;

	if (slash)
		snprintf(path, sizeof(path), "%.*s/plat_info.yml", (int)(slash - trace_path),
			 trace_path);
	else
		snprintf(path, sizeof(path), "plat_info.yml");
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		int ind = indent_of(line);
		const char *t = line + ind;

		if (kernel_indent < 0) {
			if (strncmp(t, "kernel:", 7) == 0)
				kernel_indent = ind;
			continue;
		}
		if (ind <= kernel_indent && *t != '\n')
			break; /* left the kernel: block */
		if (strncmp(t, "release:", 8) == 0) {
			t += 8;
			while (*t == ' ')
				t++;
			snprintf(buf, size, "%.*s", (int)strcspn(t, " \r\n"), t);
			found = buf[0] != '\0';
			break;
		}
	}
	fclose(f);
	return found;
}

static const struct {
	const char *name, *what;
} behaviours[KB__COUNT] = {
	[KB_PELT_INVARIANCE] = {"pelt_invariance", "how PELT is made frequency and CPU invariant"},
	[KB_PELT_RUNNABLE] = {"pelt_runnable", "the runnable signal PELT keeps"},
	[KB_PELT_RQ_SIGNALS] = {"pelt_rq_signals", "rq signals tracked besides cfs"},
	[KB_UTIL_EST_FASTUP] = {"util_est_fastup", "UTIL_EST_FASTUP: an increase replaces the EWMA"},
	[KB_UTIL_EST_FLAG] = {"util_est_flag", "position of UTIL_AVG_UNCHANGED in util_est.enqueued"},
	[KB_UTIL_EST_MARGIN] = {"util_est_margin", "filters before the EWMA update"},
	[KB_UTIL_EST_SUB_BEFORE_PELT] = {"util_est_dequeue",
					 "cfs_rq util_est subtraction vs dequeue_entity's PELT update"},
	[KB_UTIL_EST_UPDATE_POINT] = {"util_est_update",
				      "the task's util a sleep's util_est_update reads"},
	[KB_POST_INIT_WEIGHT] = {"post_init_weight",
				 "the weight a new task's util is extrapolated with"},
	[KB_UCLAMP_PRESENT] = {"uclamp_present", "CONFIG_UCLAMP_TASK exists"},
	[KB_UCLAMP_STATIC_KEY] = {"uclamp_static_key", "sched_uclamp_used gates aggregation"},
	[KB_UCLAMP_RT_DEFAULT] = {"uclamp_rt_default", "RT tasks' default uclamp.min"},
	[KB_UCLAMP_BUCKET_CLAMP] = {"uclamp_bucket_clamp", "uclamp_bucket_id clamped to BUCKETS-1"},
	[KB_UCLAMP_RQ_IDLE_INIT] = {"uclamp_rq_idle_init", "rq->uclamp_flags at init"},
	[KB_UCLAMP_TG_CLAMP] = {"uclamp_tg_restrict", "how a task group restricts a request"},
	[KB_UCLAMP_IDLE_SHORTCUT] = {"uclamp_idle_shortcut",
				     "uclamp_rq_util_with skips an idle rq (task path only)"},
	[KB_RT_BOOST_KEY_OFF] = {"rt_boost", "when a runnable RT task sends schedutil to max"},
	[KB_BLOCKED_KICK] = {"blocked_kick", "update_blocked_averages kicks cpufreq"},
	[KB_SUGOV_UTIL_FN] = {"sugov_util_fn", "the function schedutil takes a CPU's util from"},
	[KB_SUGOV_CFS_INPUT] = {"sugov_cfs_input", "the CFS util schedutil reads"},
	[KB_SUGOV_HEADROOM] = {"sugov_headroom", "where the 1.25 headroom is applied"},
	[KB_SUGOV_BUSY_HOLD] = {"sugov_busy_hold", "single-policy busy hold and its gate"},
	[KB_SUGOV_LIMITS_CHANGED] = {"sugov_limits_changed", "limits_changed split from need_freq_update"},
	[KB_SUGOV_COMMIT_ON_NEED_UPDATE] = {"sugov_need_update_commit",
					    "an unchanged next_freq is committed while need_freq_update"},
	[KB_SUGOV_IOWAIT_UNITS] = {"sugov_iowait_units", "iowait boost units and floor"},
	[KB_SUGOV_IOWAIT_CLAMPED] = {"sugov_iowait_clamped", "iowait boost clamped by the rq's uclamp"},
	[KB_SUGOV_SHARED_AGG] = {"sugov_shared_agg", "shared-policy aggregation"},
	[KB_RATE_LIMIT_DEFAULT] = {"rate_limit_default", "default rate_limit_us"},
	[KB_RESOLVE_RELATION] = {"resolve_relation", "cpufreq_driver_resolve_freq relation"},
	[KB_EM_COST] = {"em_cost", "Energy Model cost formula and power unit"},
	[KB_IDLE_RETAIN_TICK] = {"idle_retain_tick",
				 "no cpuidle driver: an idle entry stops the tick (and counts for "
				 "schedutil's busy hold) only after a tick wakeup"},
	[KB_ILB_BLOCKED] = {"ilb_blocked", "what an idle-load balancer's pass refreshes"},
	[KB_NEWIDLE_BLOCKED] = {"newidle_blocked",
				"the function the newidle balance refreshes blocked load with"},
	[KB_POST_INIT_ATTACH] = {"post_init_attach", "where a new task's averages join its cfs_rq"},
	[KB_PELT_SUM_SYNC] = {"pelt_sum_sync",
			      "a cfs_rq's PELT sums after a removal or detach of averages"},
	[KB_MIGRATE_DETACH] = {"migrate_detach",
			       "where a queued task that migrates leaves its CPU's averages"},
	[KB_DELAY_DEQUEUE] = {"delay_dequeue",
			      "EEVDF's DELAY_DEQUEUE: a sleeper not eligible stays queued"},
	[KB_UCLAMP_INC_ORDER] = {"uclamp_inc_order",
				 "where enqueue_task() counts the task's clamps in its rq"},
	[KB_FAIR_SERVER] = {"fair_server",
			    "the fair class's deadline server in schedutil's minimum"},
	[KB_SETATTR_LOAD] = {"setattr_class_load",
			     "what a task that sched_setattr() takes out of the fair class leaves"},
};

const char *kernel_behaviour_name(enum kernel_behaviour b)
{
	return b < KB__COUNT ? behaviours[b].name : "?";
}

const char *kernel_behaviour_what(enum kernel_behaviour b)
{
	return b < KB__COUNT ? behaviours[b].what : "?";
}

static const char *yes_no(bool v)
{
	return v ? "yes" : "no";
}

/* long: one case per named kernel behaviour: a lookup table written as a switch so
 * that the compiler checks every behaviour has its text */
const char *kernel_profile_value(const struct kernel_profile *kp, enum kernel_behaviour b)
{
	switch (b) {
	case KB_PELT_INVARIANCE:
		return kp->pelt_invariance == PELT_CONTRIB_SCALING
			       ? "contrib_scaling (util_sum += cap_scale(contrib, freq) * cpu_scale)"
			       : "clock_pelt (time scaled by capacity and freq, lost idle time)";
	case KB_PELT_RUNNABLE:
		return kp->pelt_runnable_avg ? "runnable_avg (h_nr_running << 10)"
					     : "runnable_load_avg (weight)";
	case KB_PELT_RQ_SIGNALS:
		return kp->pelt_thermal ? "rt, dl, thermal, irq" : "rt, dl, irq";
	case KB_UTIL_EST_FASTUP:
		return yes_no(kp->util_est_fastup);
	case KB_UTIL_EST_FLAG:
		return kp->util_est_flag == UTIL_EST_FLAG_MSB ? "msb (0x80000000)" : "lsb (0x1)";
	case KB_UTIL_EST_MARGIN:
		switch (kp->util_est_margin) {
		case UTIL_EST_MARGIN_EWMA:
			return "ewma_1pct (no capacity skip)";
		case UTIL_EST_MARGIN_CAPACITY:
			return "ewma_1pct + capacity skip";
		case UTIL_EST_MARGIN_LAST_ENQUEUED:
			return "ewma_1pct + last_enqueued filter + capacity skip";
		case UTIL_EST_MARGIN_UNIFIED:
			return "one value: reset on increase, 1% margin, capacity and runnable skips";
		case UTIL_EST_MARGIN_UNIFIED_NO_CAPACITY:
			return "one value: reset on increase, 1% margin, runnable skip";
		}
		break;
	case KB_UTIL_EST_SUB_BEFORE_PELT:
		return kp->util_est_sub_before_pelt ? "before (util_est_dequeue / util_est_update split)"
						    : "after (end of dequeue_task_fair)";
	case KB_UTIL_EST_UPDATE_POINT:
		return kp->util_est_update_point == UTIL_EST_UPDATE_BEFORE_PELT
			       ? "before dequeue_entity's PELT update (the last update's util)"
			       : "after dequeue_entity's PELT update (the util at the dequeue)";
	case KB_POST_INIT_WEIGHT:
		return kp->post_init_se_weight ? "se_weight (1024): util * 1024 / (load + 1), capped"
					       : "se->load.weight (1024 << 10): the cap";
	case KB_UCLAMP_PRESENT:
		return yes_no(kp->uclamp_present);
	case KB_UCLAMP_STATIC_KEY:
		if (!kp->uclamp_present)
			return "-";
		return kp->uclamp_static_key ? "yes" : "no (aggregation always runs)";
	case KB_UCLAMP_RT_DEFAULT:
		switch (kp->uclamp_rt_default) {
		case UCLAMP_RT_NONE:
			return "-";
		case UCLAMP_RT_HARDWIRED:
			return "hardwired 1024";
		case UCLAMP_RT_SYSCTL:
			return "sysctl sched_util_clamp_min_rt_default (1024)";
		}
		break;
	case KB_UCLAMP_BUCKET_CLAMP:
		return kp->uclamp_present ? yes_no(kp->uclamp_bucket_clamp) : "-";
	case KB_UCLAMP_RQ_IDLE_INIT:
		if (!kp->uclamp_present)
			return "-";
		return kp->uclamp_rq_idle_init ? "UCLAMP_FLAG_IDLE" : "0";
	case KB_UCLAMP_TG_CLAMP:
		if (!kp->uclamp_present)
			return "-";
		return kp->uclamp_tg_clamp ? "clamp(req, tg_min, tg_max)"
					   : "tg value if req > tg or !user_defined";
	case KB_UCLAMP_IDLE_SHORTCUT:
		return kp->uclamp_present ? yes_no(kp->uclamp_idle_shortcut) : "-";
	case KB_RT_BOOST_KEY_OFF:
		if (!kp->uclamp_present)
			return "always";
		return kp->uclamp_static_key ? "while the static key is off"
					     : "never (RT reaches max through uclamp.min)";
	case KB_BLOCKED_KICK:
		return kp->blocked_kick ? "yes (rt, dl and cfs decay)"
					: "no (only the root cfs_rq's own decay kicks)";
	case KB_SUGOV_UTIL_FN:
		switch (kp->sugov_util_fn) {
		case SUGOV_UTIL_SUGOV_GET_UTIL:
			return "sugov_get_util";
		case SUGOV_UTIL_SCHEDUTIL_CPU_UTIL:
			return "schedutil_cpu_util";
		case SUGOV_UTIL_EFFECTIVE_CPU_UTIL:
			return "effective_cpu_util";
		}
		break;
	case KB_SUGOV_CFS_INPUT:
		switch (kp->sugov_cfs_input) {
		case GOVSIM_CFS_UTIL_EST:
			return "max(util_avg, util_est), uncapped";
		case GOVSIM_CFS_UTIL_EST_CAPPED:
			return "max(util_avg, util_est), capped at capacity_orig";
		case GOVSIM_CFS_RUNNABLE_BOOST:
			return "max(util_avg, runnable_avg, util_est), capped (cpu_util_cfs_boost)";
		}
		break;
	case KB_SUGOV_HEADROOM:
		if (kp->sugov_headroom == GOVSIM_HEADROOM_EFFECTIVE_PERF)
			return "sugov_effective_cpu_perf: max(min, min(util + util/4, max)), then f * "
			       "util / max; not invariant: f = cur + cur/4";
		return kp->sugov_headroom == GOVSIM_HEADROOM_MAP_UTIL_PERF
			       ? "map_util_perf: f * (util + util/4) / max"
			       : "map_util_freq: (f + f/4) * util / max";
	case KB_SUGOV_BUSY_HOLD:
		switch (kp->sugov_busy_hold) {
		case GOVSIM_HOLD_UNGATED:
			return "busy before get_next_freq, no gate";
		case GOVSIM_HOLD_GATED:
			return "!need_freq_update && busy, before get_next_freq";
		case GOVSIM_HOLD_RESTORE:
			return "busy after get_next_freq, cached_raw_freq restored";
		case GOVSIM_HOLD_NOT_CAPPED:
			return "as v5.10, not when uclamp_rq_is_capped";
		case GOVSIM_HOLD_NOT_CAPPED_GATED:
			return "as v6.1, not while need_freq_update";
		}
		break;
	case KB_SUGOV_LIMITS_CHANGED:
		return yes_no(kp->sugov_limits_changed);
	case KB_SUGOV_COMMIT_ON_NEED_UPDATE:
		return yes_no(kp->sugov_commit_on_need_update);
	case KB_SUGOV_IOWAIT_UNITS:
		switch (kp->sugov_iowait_units) {
		case GOVSIM_IOWAIT_KHZ:
			return "kHz from policy->min";
		case GOVSIM_IOWAIT_UTIL_FMIN:
			return "util, floor 1024 * fmin / fmax";
		case GOVSIM_IOWAIT_UTIL_128:
			return "util, floor IOWAIT_BOOST_MIN 128";
		}
		break;
	case KB_SUGOV_IOWAIT_CLAMPED:
		return yes_no(kp->sugov_iowait_clamped);
	case KB_SUGOV_SHARED_AGG:
		return kp->sugov_shared_agg == GOVSIM_SHARED_MAX ? "plain max" : "largest util/max";
	case KB_RATE_LIMIT_DEFAULT:
		return kp->rate_limit_1_5x ? "latency_us + latency_us / 2, 1000 if latency is 0"
					   : "min(latency_us * 1000, 10000) us, 1000 if latency is 0";
	case KB_RESOLVE_RELATION:
		return kp->resolve_relation == CPUFREQ_RESOLVE_LE ? "RELATION_LE" : "RELATION_L";
	case KB_EM_COST:
		switch (kp->em_cost) {
		case EM_COST_NONE:
			return "none";
		case EM_COST_MW:
			return "fmax * P / f, mW";
		case EM_COST_MW_X1000:
			return "fmax * (P * 1000) / f, mW";
		case EM_COST_UW:
			return "fmax * P / f, uW";
		}
		break;
	case KB_IDLE_RETAIN_TICK:
		return kp->idle_retain_tick ? "after a tick wakeup" : "every iteration";
	case KB_ILB_BLOCKED:
		return kp->ilb_stats_per_jiffy ? "NOHZ_STATS_KICK: idle CPUs once a jiffy"
					       : "every pass: itself, then idle CPUs forced";
	case KB_POST_INIT_ATTACH:
		return kp->post_init_attach_enqueue ? "enqueue_entity (DO_ATTACH): one kick"
						    : "post_init_entity_util_avg: aged, then attached";
	case KB_NEWIDLE_BLOCKED:
		return kp->newidle_blocked_inner ? "__sched_balance_update_blocked_averages, schedule's clock"
						 : "update_blocked_averages, its own clock";
	case KB_PELT_SUM_SYNC:
		switch (kp->pelt_sum_sync) {
		case PELT_SUMS_SUBTRACT:
			return "subtracted";
		case PELT_SUMS_RESYNC:
			return "load/runnable rebuilt as avg * divider, util floored";
		case PELT_SUMS_FLOORED:
			return "subtracted, floored at avg * PELT_MIN_DIVIDER (u32)";
		case PELT_SUMS_FLOORED_TYPED:
			return "subtracted, floored at avg * PELT_MIN_DIVIDER, attach too";
		}
		break;
	case KB_MIGRATE_DETACH:
		return kp->detach_in_dequeue ? "dequeue_entity (DO_DETACH): one kick"
					     : "migrate_task_rq_fair: synced (a kick if decayed), detached";
	case KB_DELAY_DEQUEUE:
		switch (kp->eevdf_delay) {
		case EEVDF_DELAY_NONE:
			return "no: a sleep dequeues";
		case EEVDF_DELAY_V6_12:
			return "yes: weight kept until a pick or wakeup; DELAY_ZERO at the end";
		case EEVDF_DELAY_V7_2:
			return "yes: as v6.12, lag updated as delayed and capped at 0";
		}
		break;
	case KB_UCLAMP_INC_ORDER:
		if (!kp->uclamp_present)
			return "-";
		return kp->uclamp_inc_after_enqueue ? "after the class's enqueue (its kicks miss them)"
						    : "before the class's enqueue";
	case KB_FAIR_SERVER:
		return kp->fair_server ? "yes: bandwidth 51 from a CPU's first CFS enqueue, a kick"
				       : "no";
	case KB_SETATTR_LOAD:
		return kp->setattr_reweight_after_detach
			       ? "its load_avg: detached, then put back by the reweight"
			       : "nothing: reweighted, then detached";
	case KB__COUNT:
		break;
	}
	return "?";
}
