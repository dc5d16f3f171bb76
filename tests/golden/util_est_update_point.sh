#!/bin/bash
# util_est_update_point.sh - which util a sleeping task's util_est_update() reads, per kernel.
#
# In v6.12 dequeue_task_fair() calls util_est_update() before dequeue_entities(), so the task's
# estimate takes its util as the last PELT update left it (kernel/sched/fair.c l.7282, Debian
# 6.12.95). v6.1 calls it at the end of dequeue_task_fair(), after dequeue_entity()'s
# update_load_avg() (l.6252), and 7.2 inside that update_load_avg() (UPDATE_UTIL_EST, l.5889):
# both read the util at the dequeue.
#
# A hand-made trace on lab-2cpu (not frequency invariant; rate limit 0, so each update is a
# --timeline row): spin runs alone on CPU 1 from 1.000 with ticks at 1.004 and 1.008, sleeps at
# 1.010 and is woken at 1.050. Alone on the CPU from zero, its util is the root cfs_rq's: the
# util_cfs of the 1.008 row is its util at the last update, that of the 1.010 row its util at
# the dequeue (2 ms more of running: larger). Its first activation sets util_est to the util read
# (an increase resets the EWMA), and the wakeup's util_est_enqueue() adds it to the root, whose
# util_est is the 1.050 row's util_est_cfs. So: v6.12's equals the 1.008 row's util_cfs, v6.1's
# and v7.2's the 1.010 row's (to 1: the root's and the task's util_avg round apart).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init util_est_update_point.sh

cat >"$tmp/t.txt" <<'TRACE'
# tracer: nop
          <idle>-0       [001] d..2.     1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [001] d.h1.     1.004000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1004000000
            spin-11      [001] d.h1.     1.008000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1008000000
            spin-11      [001] d..2.     1.010000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0       [001] dNh2.     1.050000: sched_wakeup: comm=spin pid=11 prio=120 target_cpu=001
          <idle>-0       [001] d..2.     1.050010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120
            spin-11      [001] d..2.     1.052000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
TRACE
# KERNEL: "util@1.008 util@1.010 util_est@1.050" from CPU 1's rows
rows() {
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --kernel "$1" --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --timeline "$tmp/tl.csv" \
		>"$tmp/out.txt" 2>&1 || { golden_fail "run --kernel $1 failed: $(head -3 "$tmp/out.txt")"; return; }
	awk -F, 'NR > 1 && $2 == 1 { u[$1] = $4; e[$1] = $5 }
		END { print u["0.008000"] + 0, u["0.010000"] + 0, e["0.050000"] + 0 }' "$tmp/tl.csv"
}
for k in v6.12 v6.1 v7.2; do
	read -r at_tick at_dequeue est <<<"$(rows $k)"
	[ "${at_tick:-0}" -gt 0 ] && [ "${at_dequeue:-0}" -gt "${at_tick:-0}" ] ||
		golden_fail "$k: util at the tick '$at_tick' and at the dequeue '$at_dequeue': want 0 < tick < dequeue"
	want=$at_dequeue
	[ $k = v6.12 ] && want=$at_tick
	# the root's util and the task's round apart by at most 1
	[ "${est:-0}" -ge $((want - 1)) ] && [ "${est:-0}" -le $((want + 1)) ] ||
		golden_fail "$k: root util_est after the wakeup '$est', want $want (+-1; tick $at_tick, dequeue $at_dequeue)"
done
exit $fail
