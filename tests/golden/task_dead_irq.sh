#!/bin/bash
# task_dead_irq.sh - an interrupt that runs between a dying task's switch and task_dead().
# finish_task_switch() drops the rq lock and enables interrupts (finish_lock_switch()) before it
# calls prev's task_dead() (kernel/sched/core.c, Debian 5.10 to 7.2), and only task_dead_fair()
# -> remove_entity_load_avg() queues the dead task's util to leave its cfs_rq
# (kernel/sched/fair.c). An interrupt pending at that point (the tick, and the SCHED softirq on
# its way out) runs first: its blocked-load update still sees the dead task's util. The lab
# measures how long after the dying switch such an interrupt is traced (task_dead_irq_us: its
# facts give it); the replay keeps the removal back while the CPU's first event after the switch
# is an interrupt's within that time, until the CPU's next event in task context.
#
# A hand-made lab-2cpu trace (rate_limit_us=0, rq_clock_offset_ns=0: a hook's time= is its
# trace time; cur 800000 kHz, not invariant: a raw frequency is util * 1000000 / 1024). spin
# (pid 11) runs alone on CPU 0 from 1.000100 and dies at 1.003400 (no PELT period ends there).
# The tick comes 50 us later; its SCHED softirq's blocked-load update at 1.003500 crosses a
# period: the root still has spin's util (util_kept 67, by hand below with pelt_ref.py).
# cpu_idle (task context) follows: task_dead() has run. The next blocked-load update, at
# 1.006000, applies the removal: spin's util synced to the root's last update is the root's
# own (spin was alone), and what is left decays to util_after, 0. Without task_dead_irq_us
# (default 0) the removal is queued at the switch and the update at 1.003500 applies it.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init task_dead_irq

want=$(PYTHONPATH="$GOVSIM_SOURCE_DIR/tests/golden/lib" /usr/bin/python3 - <<'PY'
from pelt_ref import Avg, LOAD_AVG_MAX
root = Avg()                     # spin alone on CPU 0: its signal and the root's are one
root.update(1000100000, 0)
root.update(1003400000, 1)       # the dying switch's dequeue: no period ends
root.update(1003500000, 0)       # the softirq's blocked update: a period ends
kept = root.util_avg
div = LOAD_AVG_MAX - 1024 + root.contrib
root.util_sum = max(root.util_sum - kept * div, 0)   # the removal of spin's synced util
root.util_avg = 0
root.update(1006000000, 0)
print(kept, root.util_avg)
PY
) || golden_fail "the reference computation failed"
read -r util_kept util_after <<<"$want"
[ "$util_kept" = 67 ] && [ "$util_after" = 0 ] ||
	golden_fail "the reference gives $util_kept and $util_after"

cat >"$tmp/t.txt" <<TRACE
# tracer: nop
          <idle>-0       [000] d.s2.     1.000000: cpu_frequency: state=800000 cpu_id=0
          <idle>-0       [000] d..2.     1.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [000] d..2.     1.003400: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0       [000] d.h1.     1.003450: hrtimer_expire_entry: hrtimer=00000000a518572e function=tick_nohz_handler now=1003450000
          <idle>-0       [000] ..s1.     1.003495: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] ..s1.     1.003498: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=0
          <idle>-0       [000] d.s2.     1.003510: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1003500000 flags=0
          <idle>-0       [000] d.s2.     1.003515: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$((util_kept * 1000000 / 1024))
          <idle>-0       [000] d..1.     1.003600: cpu_idle: state=1 cpu_id=0
          <idle>-0       [000] d..1.     1.005990: cpu_idle: state=4294967295 cpu_id=0
          <idle>-0       [000] ..s1.     1.005995: softirq_entry: vec=7 [action=SCHED]
          <idle>-0       [000] ..s1.     1.005998: update_blocked_averages: (sched_balance_update_blocked_averages+0x0/0x7b0) cpu=0
          <idle>-0       [000] d.s2.     1.006010: sugov_update_single_freq: (sugov_update_single_freq+0x4/0x240) time=1006000000 flags=0
          <idle>-0       [000] d.s2.     1.006015: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=$((util_after * 1000000 / 1024))
TRACE
evals() { # $1: kernel profile, then --set arguments
	local k=$1
	shift
	"$bin" validate "$tmp/t.txt" --platform lab-2cpu --kernel "$k" --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --set sched_autogroup=0 "$@" \
		>"$tmp/out.txt" 2>"$tmp/err" || golden_fail "validate failed: $(cat "$tmp/err")"
	grep -A1 "kernel's own evaluations" "$tmp/out.txt" | tail -n 1 | sed 's/ (update points.*//'
}
exact="    2; 2 with an emulated evaluation of the CPU within 200 us (util mean |err| 0.00, max 0, 100.0% within 10); 0 without"
for k in v5.10 v6.1; do # (v6.12 on adds the fair server's bandwidth: fair_server.sh)
	golden_equal "$k: the tick's softirq sees the dead task's util" \
		"$(evals $k --set task_dead_irq_us=100)" "$exact"
	# the interrupt later than task_dead_irq_us: task_dead() came first
	golden_equal "$k: an interrupt 50 us after the switch, the window 40 us" \
		"$(evals $k --set task_dead_irq_us=40 | grep -c "max $util_kept,")" 1
done

# a lab recording's facts give the window (the run's note names it)
printf 'task_dead_irq_us = 100\nrq_clock_offset_ns = 0:0\n' >"$tmp/t.facts"
golden_equal "the facts' window" "$(evals v6.1)" "$exact"
grep -q 'task_dead_irq_us=100' "$tmp/err" || golden_fail "the note: $(cat "$tmp/err")"
exit $fail
