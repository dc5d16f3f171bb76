#!/bin/bash
# idle_tick_balance.sh - an idle CPU's own blocked-load update at its tick, where the trace
# has no blocked-load points of its own (no update_blocked_averages probe, no SCHED_SOFTIRQ).
#
# In the kernel a tick on an idle CPU (trigger_load_balance(), kernel/sched/fair.c, v4.19 to
# 7.2) raises SCHED_SOFTIRQ once rq->next_balance has passed; run_rebalance_domains() then
# runs update_blocked_averages(this cpu), which decays its signals and kicks schedutil. On an
# idle CPU the balance interval is the domain's balance_interval, not multiplied by
# busy_factor: its weight in ms, at least one jiffy -- every tick of a CPU of a 2-CPU domain.
#
# By hand (lab-2cpu, v6.1, not frequency invariant, governor running before the trace at
# 3000 MHz): spin runs alone on CPU 1 from zero util for 30 ms, util ~ 1024 (1 - 0.5^(30/32))
# ~ 490; the CPU never idles, so schedutil's busy hold keeps 3000 MHz up to the dequeue. The
# CPU then idles; its tick at +30 ms finds util ~ 490 x 0.5^(30/32) ~ 255: 1.25 x 3000 MHz x
# 255 / 1024 = 934 MHz, 1200 MHz (any util in 219..327 gives 1200 MHz). Without the update at
# that tick nothing evaluates CPU 1 again (CPU 0 is never busy: no 32-ms refresh runs) and the
# policy stays at 3000 MHz; and a trace that shows SCHED_SOFTIRQ itself (one entry, on CPU 0)
# takes the kernel's points instead, so its idle tick updates nothing.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init idle_tick_balance.sh

trace() {
	echo "# tracer: nop"
	echo "          <idle>-0       [001] d..2.     0.999000: cpu_frequency: state=3000000 cpu_id=1"
	[ "${1:-}" = softirq ] && echo "          <idle>-0       [000] ..s1.     0.999500: softirq_entry: vec=7 [action=SCHED]"
	echo "          <idle>-0       [001] dNh2.     1.000000: sched_waking: comm=spin pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] dNh2.     1.000001: sched_wakeup: comm=spin pid=11 prio=120 target_cpu=001"
	echo "          <idle>-0       [001] d..2.     1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=spin next_pid=11 next_prio=120"
	for ms in 004 008 012 016 020 024 028; do
		echo "            spin-11      [001] d.h1.     1.$ms""000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1$ms""000000"
	done
	echo "            spin-11      [001] d..2.     1.030000: sched_switch: prev_comm=spin prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120"
	echo "          <idle>-0       [001] d..1.     1.030010: cpu_idle: state=1 cpu_id=1"
	echo "          <idle>-0       [001] d.h1.     1.060000: hrtimer_expire_entry: hrtimer=0000000000000001 function=tick_sched_timer now=1060000000"
	echo "          <idle>-0       [001] d..1.     1.070000: cpu_idle: state=4294967295 cpu_id=1"
}
# CPU 1's frequency (kHz) after its last evaluation, and the time of that evaluation
last_eval() {
	"$bin" run "$tmp/t.txt" --platform lab-2cpu --kernel v6.1 --timing traced --set rate_limit_us=0 \
		--set switch_latency_us=0 --set rq_clock_offset_ns=0 --timeline "$tmp/tl.csv" >"$tmp/out.txt" 2>&1 ||
		{ golden_fail "run failed: $(head -3 "$tmp/out.txt")"; return; }
	awk -F, 'NR > 1 && $2 == 1 { t = $1; f = $12; u = $10 } END { print f, u }' "$tmp/tl.csv"
}
trace >"$tmp/t.txt"
read -r khz util <<<"$(last_eval)"
[ "$khz" = 1200000 ] || golden_fail "idle tick: CPU 1 ends at '$khz' kHz (util '$util'), want 1200000"
[ "${util:-0}" -ge 219 ] && [ "${util:-0}" -le 327 ] || golden_fail "idle tick: util '$util', want 219..327"
trace softirq >"$tmp/t.txt"
read -r khz util <<<"$(last_eval)"
[ "$khz" = 3000000 ] || golden_fail "with the trace's own SCHED_SOFTIRQ: CPU 1 ends at '$khz' kHz, want 3000000"
exit $fail
