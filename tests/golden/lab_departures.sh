#!/bin/bash
# lab_departures.sh - tools/lab/departures classes validate's departures of the util at the
# kernel's evaluations by what the trace shows on the policy's CPUs just before each, and counts
# the missed decisions that fall in one. govsim is replaced by a script that prints a
# validate --json written by hand, so the tool's own reading is what is checked.
#
# A 2-CPU recording (policy0 = CPU 0, policy1 = CPU 1, the governor's hooks live at 12.000000 on
# both). Its departures, each first evaluation a resolve_freq probe of its policy's CPU:
#   12.100000 CPU 0   a fork onto CPU 0 at 12.095 too, but 0.1 s after the start: start
#   13.500000 CPU 0   sched_wakeup_new onto CPU 0 at 13.495 (5 ms before): fork
#   14.000000 CPU 1   sched_process_exit on CPU 1 at 13.9995; a fork onto CPU 0 at 13.999
#                     touches the other policy: exit
#   15.000000 CPU 1   sched_migrate_task from CPU 1 to CPU 0 at 14.995: migration
#   16.000000 CPU 0   the last fork onto CPU 0 at 15.980, 20 ms before (more than 10): other
# The missed decisions (window 4 ms): policy0 at 13.500100 (in the fork one: it began before the
# decision and ended at 13.520000), at 13.600000 (in none: more than 4 ms after 13.520000);
# policy1 at 14.001000 (in the exit one). policy0's 12.100000 decision was paired: not missed.
# Expected: 5 departures, one of each class; 3 missed decisions, 2 in a departure (fork 1,
# exit 1). Then a departure whose line is no probe of its policy fails the tool (exit 1).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_departures.sh

mkdir -p "$tmp/rec"
cat >"$tmp/rec/r.txt" <<'TRACE'
# tracer: nop
            init-1       [001] d..2.    12.095000: sched_wakeup_new: comm=init pid=20 prio=120 target_cpu=000
          <idle>-0       [000] d.s2.    12.100000: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=1000000
            init-1       [001] d..2.    13.495000: sched_wakeup_new: comm=init pid=21 prio=120 target_cpu=000
          <idle>-0       [000] d.s2.    13.500000: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=1000000
            init-1       [001] d..2.    13.999000: sched_wakeup_new: comm=init pid=22 prio=120 target_cpu=000
              sh-30      [001] .....    13.999500: sched_process_exit: comm=sh pid=30 prio=120
          <idle>-0       [001] d.s2.    14.000000: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=1000000
              sh-31      [001] d..2.    14.995000: sched_migrate_task: comm=sh pid=31 prio=120 orig_cpu=1 dest_cpu=0
          <idle>-0       [001] d.s2.    15.000000: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=1000000
            init-1       [001] d..2.    15.980000: sched_wakeup_new: comm=init pid=23 prio=120 target_cpu=000
          <idle>-0       [000] d.s2.    16.000000: resolve_freq: (cpufreq_driver_resolve_freq+0x4/0x70) target_freq=1000000
TRACE
gzip "$tmp/rec/r.txt"
printf '%s\n' "kernel = 6.12" "policy0.related_cpus = 0" "policy1.related_cpus = 1" \
	"governor_start_ns = 12000000000:12000000000" >"$tmp/rec/r.facts"
# the departures: line, time, CPU; the decisions
dep() { printf '{"line": %d, "t_ns": %d, "cpu": %d, "kernel": 500, "emulated": 0, "evaluations": 3, "last_t_ns": %d, "max_abs_err": 500}' "$@"; }
json() {
	cat <<JSON
{"traces": [{"trace": "r", "kernels": [{"kernel": "v6.12",
 "policies": [{"policy": 0, "window_ns": 4000000, "decision_times": {"kernel": [[12100000000, 1], [13500100000, 0], [13600000000, 0]], "emulated": []}},
              {"policy": 1, "window_ns": 4000000, "decision_times": {"kernel": [[14001000000, 0]], "emulated": []}}],
 "kernel_evaluations": {"departures": [$1]}}]}]}
JSON
}
deps="$(dep 3 12100000000 0 12110000000), $(dep 5 13500000000 0 13520000000), $(dep 8 14000000000 1 14010000000), $(dep 10 15000000000 1 15010000000), $(dep 12 16000000000 0 16010000000)"
json "$deps" >"$tmp/v.json"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/v.json" >"$tmp/govsim"
chmod +x "$tmp/govsim"
out=$(tools/lab/departures --govsim "$tmp/govsim" "$tmp/rec/r.txt.gz" 2>"$tmp/err") ||
	golden_fail "departures failed: $(cat "$tmp/err")"
golden_equal "the classes and the misses in them" "$out" \
	"6.12   1 recordings: 5 departures (start 1, fork 1, exit 1, migration 1, other 1); 3 missed decisions, 2 in a departure (start 0, fork 1, exit 1, migration 0, other 0)"
# a departure at a line that is no probe of its policy (line 4 is a sched_wakeup_new)
json "$(dep 4 13495000000 0 13520000000)" >"$tmp/v.json"
tools/lab/departures --govsim "$tmp/govsim" "$tmp/rec/r.txt.gz" >/dev/null 2>"$tmp/err"
golden_equal "a departure at no probe: exit status" "$?" 1
grep -q "line 4 .* is no probe of that policy" "$tmp/err" || golden_fail "no message: $(cat "$tmp/err")"
exit $fail
