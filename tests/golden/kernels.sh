#!/bin/bash
# kernels.sh - `govsim kernels list|show`: the reviewed outputs in
# tests/golden/expected/kernels_*.txt, and, for every profile, the behaviours each kernel's sources
# give (file, function and release in each profile row) asserted one by one here, so a wrong
# cell fails
# even if the expected file were regenerated. Run from the source root with GOVSIM_BIN set.
# Set GOVSIM_GOLDEN_UPDATE=1 to rewrite the expected files (then review the diff).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init kernels

# expect PROFILE BEHAVIOUR VALUE-PREFIX: the value column of `kernels show PROFILE`
expect() {
	local got
	[ -f "$tmp/show-$1" ] || "$bin" kernels show "$1" >"$tmp/show-$1" 2>&1
	got=$(awk -v b="$2" '$1 == b { $1 = ""; sub(/^ +/, ""); print; exit }' "$tmp/show-$1")
	case "$got" in
	"$3"*) ;;
	*) golden_fail "$1 $2: '$got', the kernel's sources say '$3'" ;;
	esac
}

golden_cmd kernels_list 0 "$bin" kernels list
golden_cmd kernels_show_v4.19 0 "$bin" kernels show v4.19
golden_cmd kernels_show_v6.6 0 "$bin" kernels show v6.6
golden_cmd kernels_show_unknown 2 "$bin" kernels show v5.8

# PELT invariance
expect v4.19 pelt_invariance contrib_scaling
expect v4.19-early pelt_invariance contrib_scaling
for k in v5.4-early v5.4 v5.9 v5.10-early v5.10 v5.15 v6.1 v6.6; do
	expect $k pelt_invariance clock_pelt
done
# UTIL_EST_FASTUP absent in v4.19 and v5.4, flag LSB up to v5.9 / 5.10.7
for k in v4.19 v5.4-early v5.4; do expect $k util_est_fastup no; done
for k in v5.9 v5.10 v5.15 v6.1 v6.6; do expect $k util_est_fastup yes; done
for k in v4.19 v5.4 v5.9 v5.10-early; do expect $k util_est_flag lsb; done
for k in v5.10 v5.15 v6.1 v6.6; do expect $k util_est_flag msb; done
expect v5.9 util_est_dequeue after
expect v5.10 util_est_dequeue before
expect v6.1 util_est_update after
expect v6.12 util_est_update before
expect v7.2 util_est_update after
expect v6.12 util_est_margin "one value: reset on increase, 1% margin, capacity and runnable skips"
expect v7.2 util_est_margin "one value: reset on increase, 1% margin, runnable skip"
# uclamp
expect v4.19 uclamp_present no
expect v5.4-early uclamp_static_key no
expect v5.4 uclamp_static_key yes
expect v5.4 uclamp_rt_default hardwired
expect v5.9 uclamp_rt_default sysctl
expect v5.9 uclamp_bucket_clamp no
expect v5.10 uclamp_bucket_clamp yes
expect v5.9 uclamp_rq_idle_init 0
expect v5.10 uclamp_rq_idle_init UCLAMP_FLAG_IDLE
# schedutil
expect v4.19 sugov_util_fn sugov_get_util
expect v5.4 sugov_util_fn schedutil_cpu_util
expect v5.15 sugov_util_fn effective_cpu_util
expect v5.10 sugov_headroom map_util_freq
expect v5.15 sugov_headroom map_util_perf
expect v6.1 sugov_cfs_input "max(util_avg, util_est), capped"
expect v6.6 sugov_cfs_input "max(util_avg, runnable_avg, util_est)"
expect v5.9 sugov_busy_hold "!need_freq_update && busy"
expect v5.10 sugov_busy_hold "busy after get_next_freq"
expect v4.19-early sugov_limits_changed no
expect v4.19 sugov_limits_changed yes
expect v4.19 sugov_iowait_units "util, floor 1024 * fmin / fmax"
expect v5.4 sugov_iowait_units "util, floor IOWAIT_BOOST_MIN 128"
expect v6.6 sugov_shared_agg "plain max"
# cpufreq resolution and EM
for k in v4.19 v5.4 v5.9 v5.10 v5.15; do expect $k resolve_relation RELATION_L; done
expect v6.1 resolve_relation RELATION_LE
expect v6.6 resolve_relation RELATION_LE
expect v4.19 em_cost none
expect v5.9 em_cost "fmax * P / f, mW"
expect v5.4 em_cost "fmax * (P * 1000) / f"
expect v6.1 em_cost "fmax * P / f, uW"
# the cfs_rq's sums at a removal or detach: fair.c update_cfs_rq_load_avg / detach_entity_load_avg
expect v5.9 pelt_sum_sync subtracted
expect v5.10 pelt_sum_sync "load/runnable rebuilt"
expect v5.15 pelt_sum_sync "load/runnable rebuilt"
expect v6.1 pelt_sum_sync "subtracted, floored at avg * PELT_MIN_DIVIDER (u32)"
expect v6.12 pelt_sum_sync "subtracted, floored at avg * PELT_MIN_DIVIDER (u32)"
expect v7.2 pelt_sum_sync "subtracted, floored at avg * PELT_MIN_DIVIDER, attach too"
# a queued task's move: fair.c migrate_task_rq_fair (up to 5.15), dequeue_entity DO_DETACH (6.1+)
expect v5.10 migrate_detach "migrate_task_rq_fair"
expect v5.15 migrate_detach "migrate_task_rq_fair"
expect v6.1 migrate_detach "dequeue_entity (DO_DETACH)"
expect v6.12 migrate_detach "dequeue_entity (DO_DETACH)"
expect v7.2 migrate_detach "dequeue_entity (DO_DETACH)"
# EEVDF's DELAY_DEQUEUE: fair.c dequeue_entity (v6.12 on; 7.2 updates the lag as it delays)
for k in v5.10 v6.1 v6.6; do expect $k delay_dequeue "no"; done
expect v6.12 delay_dequeue "yes: weight kept until a pick or wakeup; DELAY_ZERO"
expect v7.2 delay_dequeue "yes: as v6.12, lag updated as delayed"
# uclamp_rq_inc() and the class's enqueue: core.c enqueue_task (after it only in 6.12..6.15)
expect v4.19 uclamp_inc_order "-"
for k in v5.10 v6.1 v6.6 v7.2; do expect $k uclamp_inc_order "before the class's enqueue"; done
expect v6.12 uclamp_inc_order "after the class's enqueue"
# ttwu_queue_cond(): the wakelist for an idle shared-cache target (Debian 5.10 l.2683: only with
# WF_ON_CPU; 6.1 l.3880, 6.12 l.3932, 7.2 l.4074: !cpu_rq(cpu)->nr_running)
expect v5.10 ttwu_wakelist "the waker"
expect v6.1 ttwu_wakelist "the target, by its wakeup IPI"
expect v6.12 ttwu_wakelist "the target, by its wakeup IPI"
expect v7.2 ttwu_wakelist "the target, by its wakeup IPI"
# the fair server (deadline.c dl_server_start, v6.12 on)
for k in v5.10 v6.1 v6.6; do expect $k fair_server "no"; done
for k in v6.12 v7.2; do expect $k fair_server "yes: bandwidth 51"; done
# what update_curr() asks at a slice's end (fair.c: 5.10 l.852 and 6.1 l.882 nothing, the tick's
# check_preempt_tick() l.4752 / l.5101 does; 6.12 l.1271-1272 resched_curr(); 7.2 l.2226-2227
# resched_curr_lazy())
for k in v4.19 v5.10 v6.1; do expect $k slice_resched "nothing"; done
expect v6.12 slice_resched "a reschedule (TIF_NEED_RESCHED"
expect v7.2 slice_resched "a lazy reschedule"
# a waking task leaving an idle CPU (fair.c migrate_task_rq_fair: 5.10 l.7049-7053 remove only;
# 6.1 l.7559, 6.12 l.8770, 7.2 l.9860 migrate_se_pelt_lag())
for k in v4.19 v5.10 v5.15; do expect $k migrate_pelt_lag "to its source cfs_rq's last update"; done
for k in v6.1 v6.6 v6.12 v7.2; do expect $k migrate_pelt_lag "to now (migrate_se_pelt_lag"; done

# the default profile follows a text header's "Linux version" line (the release's sublevel
# picks early/late), and says so in the run's notes; a trace without one is v5.9
{
	echo "# tracer: nop"
	echo "# Linux version 5.10.66-android12-9-gabc (builder@host) #1 SMP PREEMPT"
	tail -n +2 traces/formats/juno_idle_5ms.txt
} >"$tmp/h.txt"
"$bin" run "$tmp/h.txt" >"$tmp/h.out" 2>&1 || golden_fail "run with a Linux version header failed"
grep -q "^govsim .*, kernel profile v5.10$" "$tmp/h.out" || golden_fail "header release not followed"
grep -q "the trace records kernel 5.10.66-android12-9-gabc: profile v5.10" "$tmp/h.out" ||
	golden_fail "the note does not say why"
"$bin" run traces/formats/juno_idle_5ms.txt --kernel v4.19 >"$tmp/k.out" 2>&1
grep -q "kernel profile v4.19$" "$tmp/k.out" || golden_fail "--kernel not followed"
"$bin" run traces/formats/juno_idle_5ms.txt --kernel v4.19 --action 'setattr comm=sh uclamp_max=300' >/dev/null 2>&1
[ $? = 3 ] || golden_fail "a clamp policy under v4.19 (no uclamp) should exit 3"

exit $fail
