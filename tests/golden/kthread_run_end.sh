#!/bin/bash
# kthread_run_end.sh - a governor kthread run that ends without a driver call's end changed
# nothing. sugov_work() reads sg_policy->next_freq and calls the driver; a request made during
# that call queues the next work, which kthread_worker_fn() runs as soon as the call returns,
# reading next_freq then; acpi-cpufreq changes nothing for the frequency in force, so no
# cpu_frequency (kernel/sched/cpufreq_schedutil.c sugov_work(), kernel/kthread.c, Debian 5.10 to
# 7.2). Where the trace shows the kthread's run ending with no call end and the newest request
# is the frequency in force, that is what the kernel read.
#
# traces/lab/6.12/periodic4-shared (a 4-CPU policy on acpi-cpufreq's slow path), read from the
# text below: at 13.634490 the kthread's call puts 2400 MHz in force; 3000 MHz had been asked 9
# us before it (raw 2603759 at 13.634481), 2400 MHz again after it (raw 2083007 at 13.634596),
# and the kthread sleeps at 13.634656; the next cpu_frequency is at 13.643186. Before,
# the replay's queued call read 3000 MHz and, the traced run ending without its call, ended it
# after the model's transition_us: 3000 MHz at 13.635032 and 2400 MHz at 13.635574, two
# changes the kernel did not make.
#
# The run ends after its own switch's updates: __schedule() puts the kthread and picks the next
# task (set_next_entity() updates its load and calls the hook) before the context switch, so a
# request that switch makes comes before the run's end. At 18.708475 the kthread's call puts
# 1800 MHz in force; 2400 MHz had been asked during it (raw 1942382 at 18.708359); its switch out
# to q3 at 18.708752 calls the hook (traced at 18.708580: raw 1456787, 1800 MHz at 1800); the
# kernel's next cpu_frequency is past 18.725. Before, the replay ended the run ahead of that
# switch's update, with 2400 MHz the newest: the model's call put it in force at 18.709017, and
# three more changes followed by 18.710643.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init kthread_run_end

trace="$GOVSIM_SOURCE_DIR/traces/lab/6.12/periodic4-shared.txt.gz"
zcat "$trace" >"$tmp/t.txt"
stamp() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) print substr($i, 1, length($i) - 1) }'; }
# the kernel's side, from the text: CPU 0's cpu_frequency events in each window, and the
# kthread's sleeps
window() { # FROM TO: the kernel's changes and the kthread's sleeps, then the emulated changes
	local from=$1 to=$2
	echo "kernel: $(awk -v a="$from" -v b="$to" '$4 + 0 >= a && $4 + 0 < b && /cpu_frequency: / && / cpu_id=0$/' \
		"$tmp/t.txt" | stamp | tr '\n' ' ')"
	echo "sleeps: $(awk -v a="$from" -v b="$to" '$4 + 0 >= a && $4 + 0 < b && /prev_comm=sugov:0 .* prev_state=S /' \
		"$tmp/t.txt" | stamp | tr '\n' ' ')"
	echo "emulated: $(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["traces"][0]["kernels"][0]["policies"][0]
a, b = float(sys.argv[2]) * 1e9, float(sys.argv[3]) * 1e9
print(" ".join("%.6f" % (t / 1e9) for t, ok in p["decision_times"]["emulated"] if a <= t < b))' \
		"$tmp/v.json" "$from" "$to")"
}
"$bin" validate "$trace" --json >"$tmp/v.json" 2>"$tmp/err" ||
	golden_fail "validate: exit $?: $(tail -n 3 "$tmp/err")"
golden_equal "13.6340 to 13.6400: one change, the kernel's" "$(window 13.634 13.640)" \
	"kernel: 13.634490 
sleeps: 13.634656 
emulated: 13.634490"
golden_equal "18.7080 to 18.7250: one change, the kernel's" "$(window 18.708 18.725)" \
	"kernel: 18.708475 
sleeps: 18.708752 18.709194 
emulated: 18.708475"
exit $fail
