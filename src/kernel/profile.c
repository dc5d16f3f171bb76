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

#include "kernel/profile_sources.h"

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
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_SUB, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_RESYNC, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
		S_SUMS_RESYNC, S_DETACH_MIG, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_ONCPU, S_SLICE_TICK, S_LAG_NONE},
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
	.ttwu_wakelist_idle = true,
	.migrate_pelt_lag = true,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_MSB, S_MARGIN_510,
		S_SUB_BEFORE, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT,
		S_RT_KEY, S_BLK, S_FN_61, S_CFS_61, S_HR_PERF, S_HOLD_61, S_LIM, S_COMMIT, S_IO_128,
		S_IOC, S_AGG_RATIO, S_RATE, S_REL_LE, S_EM_UW, S_IDLE_RETAIN, S_ILB_JIFFY,
		S_NEWIDLE_OUTER, S_ATTACH_ENQ,
		S_SUMS_FLOOR, S_DETACH_DEQ, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_IDLE, S_SLICE_TICK, S_LAG},
	.caveats = "GKI vendor hooks are not emulated",
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
	.ttwu_wakelist_idle = true,
	.slice_resched = SLICE_RESCHED_FULL,
	.migrate_pelt_lag = true,
	.src = {S_PELT_CLOCK, S_RBL_AVG, S_SIG_59, S_FASTUP_LATE, S_FLAG_MSB, S_MARGIN_510,
		S_SUB_BEFORE, S_UPD_AFTER, S_INIT_LOAD,
		S_UCLAMP, S_KEY, S_RT_SYSCTL, S_BUCKET, S_IDLE, S_TG_CLAMP, S_SHORT,
		S_RT_KEY, S_BLK, S_FN_61, S_CFS_66, S_HR_PERF, S_HOLD_66, S_LIM, S_COMMIT, S_IO_128,
		S_IOC, S_AGG_MAX, S_RATE, S_REL_LE, S_EM_UW, S_IDLE_RETAIN, S_ILB_JIFFY,
		S_NEWIDLE_OUTER, S_ATTACH_ENQ,
		S_SUMS_FLOOR, S_DETACH_DEQ, S_NO_DELAY, S_INC_BEFORE, S_NO_SERVER, S_SETATTR_OLD,
		S_WL_IDLE, S_SLICE_FULL, S_LAG},
	.caveats = "GKI vendor hooks are not emulated",
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
	.idle_retain_tick = true, .ilb_stats_per_jiffy = true, .detach_in_dequeue = true,      \
	.ttwu_wakelist_idle = true, .migrate_pelt_lag = true

/* Their sources, in kernel_behaviour order; `lim` is sugov_should_update_freq's. */
#define PROFILE_V6_8_SOURCES(lim, margin, update, newidle, sums, delay, incorder, server, setattr, \
			     slice)                                                                \
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
	 delay, incorder, server, setattr, S_WL_IDLE, slice, S_LAG}

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
	.slice_resched = SLICE_RESCHED_FULL,
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
				    S_SETATTR_OLD, S_SLICE_FULL),
	.caveats = "EEVDF's delayed dequeue is emulated with every task at the nice-0 weight, "
		   "and its picks only where the trace shows a switch to a fair task or idle, or "
		   "a tick ends the running task's request; sched_ext is not emulated; the "
		   "fair class's deadline server "
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
	.slice_resched = SLICE_RESCHED_LAZY,
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
					  "dequeue_load_avg l.4762, enqueue_load_avg l.4755 (7.2)"),
				    S_612("fair.c update_curr l.2226-2227 (7.2): resched_curr_lazy(); "
					  "core.c resched_curr_lazy l.1268, get_lazy_tif_bit: "
					  "TIF_NEED_RESCHED_LAZY when dynamic_preempt_lazy()")),
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
	[KB_TTWU_WAKELIST] = {"ttwu_wakelist",
			      "who enqueues a wakeup onto another, idle CPU of the same cache"},
	[KB_SLICE_RESCHED] = {"slice_resched",
			      "what update_curr() asks when the running task's slice has ended"},
	[KB_MIGRATE_PELT_LAG] = {"migrate_pelt_lag",
				 "how far a task woken onto another CPU from an idle one is decayed"},
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
	case KB_TTWU_WAKELIST:
		return kp->ttwu_wakelist_idle ? "the target, by its wakeup IPI"
					      : "the waker (the target's IPI only for a wakee still on a CPU)";
	case KB_SLICE_RESCHED:
		switch (kp->slice_resched) {
		case SLICE_RESCHED_TICK:
			return "nothing (the tick's check_preempt_tick() does)";
		case SLICE_RESCHED_FULL:
			return "a reschedule (TIF_NEED_RESCHED, traced N)";
		case SLICE_RESCHED_LAZY:
			return "a lazy reschedule (TIF_NEED_RESCHED_LAZY, traced l)";
		}
		break;
	case KB_MIGRATE_PELT_LAG:
		return kp->migrate_pelt_lag ? "to now (migrate_se_pelt_lag: the idle source's clock)"
					    : "to its source cfs_rq's last update";
	case KB__COUNT:
		break;
	}
	return "?";
}
