#!/bin/bash
# exit_move_final_run.sh - the exiting task's last run after its move to its group counts.
# do_exit() moves the task (sched_autogroup_exit_task() -> sched_move_task()) and later dies in
# do_task_dead() -> __schedule(), whose dequeue updates the task and the root cfs_rq at a fresh
# rq clock (kernel/exit.c, kernel/sched/core.c; Debian 6.1). The move's hook calls show the
# move's clock only: they are not the clock of the switch that follows (before this test's fix
# that switch took it, when no event came between, so the task's last run was lost).
#
# Why it shows: the move's attach rebuilds the task's util_sum from its util_avg
# (attach_entity_load_avg(): util_sum = util_avg * divider), and a run that ends no PELT period
# adds to both sums but to neither average; task_dead_fair() -> remove_entity_load_avg() then
# takes the task's util_avg off, and the root keeps what the last run added beyond it
# (update_cfs_rq_load_avg(): util_sum -= r * divider, floored at util_avg * PELT_MIN_DIVIDER;
# kernel/sched/fair.c and pelt.c, Debian 6.1).
#
# A hand-made lab-2cpu trace under v6.1 (rate_limit_us=0, rq_clock_offset_ns=0: a hook's time=
# is its trace time; cur 800000 kHz: a raw frequency is util * 1000000 / 1024). spin (pid 11)
# runs alone on CPU 0 from 1.000100, reaches sched_process_exit at 1.002500, is moved at rq clock
# 1.003000 (three hook calls: util 59, 0, 59, tests/golden/lib/pelt_ref.py) and dies at
# 1.003400, 390 PELT units later, within the period (period_contrib 548 -> 938). At 1.006000 the
# idle CPU's blocked-load update (the lab's probe) applies the removal and calls schedutil. By
# hand, below with pelt_ref.py's arithmetic: the root keeps 390 * (1024 - 59) of util_sum, which
# decays over three periods to util 7 (raw 6835). Before the fix the replay ended the task's run
# at the move's clock and kept 0.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init exit_move_final_run

want=$(PYTHONPATH="$GOVSIM_SOURCE_DIR/tests/golden/lib" /usr/bin/python3 - <<'PY'
from pelt_ref import Avg, LOAD_AVG_MAX
se = Avg()                       # spin alone on CPU 0: its signal and the root's are one
se.update(1000100000, 0)
se.update(1003000000, 1)
u = se.util_avg
root = Avg()                     # the move: detach (the root empties), attach (sum = avg * div)
root.lut, root.contrib = se.lut, se.contrib
root.util_avg, root.util_sum = u, u * (LOAD_AVG_MAX - 1024 + root.contrib)
root.update(1003400000, 1)       # the last run, to the dying switch: no period ends
assert root.contrib == 938 and root.util_avg == u
div = LOAD_AVG_MAX - 1024 + root.contrib
root.util_sum = max(root.util_sum - u * div, 0)   # the removal of util_avg u
root.util_avg = 0
root.update(1006000000, 0)       # idle to the blocked-load update
print(u, root.util_avg)
PY
) || golden_fail "the reference computation failed"
read -r move_util want_util <<<"$want"
[ "$move_util" = 59 ] && [ "$want_util" = 7 ] ||
	golden_fail "the reference gives $move_util and $want_util, the comment above says 59 and 7"
raw_move=$((move_util * 1000000 / 1024))
raw_after=$((want_util * 1000000 / 1024))

cat >"$tmp/t.txt" <<TRACE
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0
          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [000] d.h2.     1.000300: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1000300000 flags=0
            spin-11      [000] .....     1.002500: sched_process_exit: comm=spin pid=11 prio=120 group_dead=true
            spin-11      [000] d..2.     1.003100: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003000000 flags=0
            spin-11      [000] d..2.     1.003105: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$raw_move
            spin-11      [000] d..2.     1.003110: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003000000 flags=0
            spin-11      [000] d..2.     1.003115: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=0
            spin-11      [000] d..2.     1.003120: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003000000 flags=0
            spin-11      [000] d..2.     1.003125: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$raw_move
            spin-11      [000] d..2.     1.003400: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] ..s1.     1.006000: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] ..s1.     1.006005: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=0
          <idle>-0       [000] d.s2.     1.006010: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1006000000 flags=0
          <idle>-0       [000] d.s2.     1.006015: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$raw_after
TRACE
"$bin" validate "$tmp/t.txt" --platform lab-2cpu --kernel v6.1 --set rate_limit_us=0 \
	--set switch_latency_us=0 --set rq_clock_offset_ns=0 --set sched_autogroup=1 \
	>"$tmp/out.txt" 2>"$tmp/err" || golden_fail "validate failed: $(cat "$tmp/err")"
got=$(grep -A1 "kernel's own evaluations" "$tmp/out.txt" | tail -n 1 | sed 's/ (update points.*//')
golden_equal "the removal keeps the last run's util" "$got" \
	"    4; 4 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 100.0% within 10); 0 without"
exit $fail
