#!/bin/bash
# kthread_switch_order.sh - the governor kthread reads next_freq after the switch that runs it.
# __schedule() dequeues and puts prev, whose updates call schedutil's hook at the switch's rq
# clock, before the context switch to sugov:N; sugov_work() then reads sg_policy->next_freq
# (kernel/sched/core.c, cpufreq_schedutil.c, Debian 5.10 to 7.2). So a next_freq that prev's
# switch set is the one the kthread reads.
#
# traces/lab/6.12/periodic4-shared (a 4-CPU policy on acpi-cpufreq's slow path), at the
# governor's start: CPU 0's newidle refresh at 13.609793 asks for 2400 MHz (raw 2365722 from
# 3000 MHz: the kthread is woken at 13.610038); `uname` on CPU 3, preempted by sugov:0 at
# 13.610696, calls the hook in that switch's update (traced at 13.610318: raw 2402343, above
# 2400000), so next_freq is 3000 MHz again; the kthread then reads 3000 MHz, the frequency in
# force, and emits no cpu_frequency. The kernel's first decision of the policy is 3000 -> 2400
# MHz at 13.634490. Before, the replay started the kthread's run at its switch-in ahead of that
# switch's own update, read 2400 MHz, and changed six times before 13.62 (each change's
# evaluation at the other frequency asked back for the one before, on these guests that are
# not frequency-invariant).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init kthread_switch_order

trace="$GOVSIM_SOURCE_DIR/traces/lab/6.12/periodic4-shared.txt.gz"
# the kernel's side, from the text: no cpu_frequency of CPU 0 before 13.634490
golden_equal "the kernel's first change" \
	"$(zcat "$trace" | awk '/cpu_frequency: / && / cpu_id=0$/ { for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { print substr($i, 1, length($i) - 1); exit } }')" "13.634490"
"$bin" validate "$trace" --json >"$tmp/v.json" 2>"$tmp/err" ||
	golden_fail "validate: exit $?: $(tail -n 3 "$tmp/err")"
# the emulated changes of policy0 before 13.6345 s, each with whether the kernel's paired it
golden_equal "the emulation's changes before it" "$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]["policies"][0]
print(" ".join("%.6f:%d" % (t / 1e9, ok) for t, ok in p["decision_times"]["emulated"]
               if t < 13634500000))' "$tmp/v.json")" "13.634490:1"
exit $fail
