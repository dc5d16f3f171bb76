#!/bin/bash
# platform_fit.sh - `govsim run` says when a trace's CPUs do not fit the platform's clusters,
# and refuses, before replaying, a trace with more CPUs than the platform in any format.
#
# Checks:
# - juno-r0's rtapp_switch on hikey960: the trace's frequency markers (cpu_frequency_devlib,
#   the only frequencies it gives) put CPUs 1-2 at
#   1200000 kHz while CPUs 0 and 3 are at 950000 kHz (read from the trace with awk below), but
#   hikey960 (models/hikey960.sql) has CPUs 0-3 in one policy: a note names policy0, both
#   frequencies and their CPUs; on juno-r0 itself no such note.
# - a hand-written trace whose CPUs 0-3 start together at 533000 kHz and later split (CPUs 0-1
#   go to 999000, 2-3 stay): the same note for the later split, with the split's figures.
# - the 22-CPU Perfetto trace (no CPU count in a header) on hikey960 (8 CPUs): exit 3, nothing
#   on stdout, a message naming the 22 CPUs and the fix (--platform), not a "line" of a binary
#   file; a text trace without a header but with events on CPU 9 is refused the same way.
# Does not check: cpu_info capacities (perfetto.sh does).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init platform_fit
juno=traces/juno-r0/rtapp_switch/trace.txt

# the trace's first frequency per CPU, by a second parser
first=$(awk '/cpu_frequency(_devlib)?:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^state=/) s = substr($i, 7);
	if ($i ~ /^cpu_id=/) c = substr($i, 8) }; if (!(c in f)) { f[c] = s; print c, s } }' "$juno" |
	sort -n | tr '\n' ' ')
[ "$first" = "0 950000 1 1200000 2 1200000 3 950000 4 950000 5 950000 " ] ||
	golden_fail "juno's first frequencies are not what this test assumes: $first"

want="note:     the trace runs the CPUs of hikey960's policy0 (CPUs 0-3) at different frequencies at once: 950000 kHz on CPUs 0,3, 1200000 kHz on CPUs 1-2: its clusters are not hikey960's (see 'govsim platforms list' for a platform with its clusters)"
"$bin" run "$juno" >"$tmp/o" 2>"$tmp/e" || golden_fail "juno on hikey960 failed: $(cat "$tmp/e")"
grep -qxF -- "$want" "$tmp/o" || { golden_fail "juno on hikey960: no line '$want' in:"; cat "$tmp/o" >&2; }
grep -q "policy4 (CPUs 4-7) at different" "$tmp/o" && golden_fail "juno on hikey960: policy4 flagged"
"$bin" run "$juno" --platform juno-r0 >"$tmp/o" 2>"$tmp/e" || golden_fail "juno on juno-r0 failed"
grep -q "at different frequencies" "$tmp/o" && golden_fail "juno on juno-r0: clusters flagged: $(cat "$tmp/o")"

# CPUs 0-3 together at 533000, then CPUs 0-1 alone to 999000 (2-3 stay)
{
	printf '# tracer: nop\n#\n'
	for c in 0 1 2 3; do
		printf '          <idle>-0     [00%d] d..2   10.000000: cpu_frequency: state=533000 cpu_id=%d\n' $c $c
	done
	for c in 4 5 6 7; do
		printf '          <idle>-0     [00%d] d..2   10.000000: cpu_frequency: state=903000 cpu_id=%d\n' $c $c
	done
	printf '          <idle>-0     [000] dnh3   10.001000: sched_wakeup: comm=a pid=50 prio=120 target_cpu=000\n'
	printf '          <idle>-0     [000] d..3   10.001010: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=50 next_prio=120\n'
	printf '          <idle>-0     [000] d..2   10.020000: cpu_frequency: state=999000 cpu_id=0\n'
	printf '          <idle>-0     [001] d..2   10.020000: cpu_frequency: state=999000 cpu_id=1\n'
	printf '               a-50    [000] d..3   10.040000: sched_switch: prev_comm=a prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n'
	printf '          <idle>-0     [000] dnh3   10.041000: sched_wakeup: comm=a pid=50 prio=120 target_cpu=000\n'
	printf '          <idle>-0     [000] d..3   10.041010: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=50 next_prio=120\n'
	printf '               a-50    [000] d..3   10.050000: sched_switch: prev_comm=a prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n'
} >"$tmp/split.txt"
want="note:     the trace runs the CPUs of hikey960's policy0 (CPUs 0-3) at different frequencies at once: 999000 kHz on CPUs 0-1, 533000 kHz on CPUs 2-3: its clusters are not hikey960's (see 'govsim platforms list' for a platform with its clusters)"
"$bin" run "$tmp/split.txt" >"$tmp/o" 2>"$tmp/e" || golden_fail "split trace failed: $(cat "$tmp/e")"
grep -qxF -- "$want" "$tmp/o" || { golden_fail "split trace: no line '$want' in:"; cat "$tmp/o" >&2; }
# the same trace with the split reverted at once (CPUs 2-3 follow within a microsecond): fits
sed 's/^\(.*\[001\] d..2   10.020000: cpu_frequency: state=999000 cpu_id=1\)$/\1\n          <idle>-0     [002] d..2   10.020001: cpu_frequency: state=999000 cpu_id=2\n          <idle>-0     [003] d..2   10.020001: cpu_frequency: state=999000 cpu_id=3/' \
	"$tmp/split.txt" >"$tmp/together.txt"
[ "$(grep -c cpu_frequency "$tmp/together.txt")" = 12 ] || golden_fail "together.txt not made"
"$bin" run "$tmp/together.txt" >"$tmp/o" 2>"$tmp/e" || golden_fail "together trace failed: $(cat "$tmp/e")"
grep -q "at different frequencies" "$tmp/o" && golden_fail "together trace flagged: $(cat "$tmp/o")"

# more CPUs than the platform, with no header to say so: refused before replaying
"$bin" run traces/perfetto/systing-x86-22cpu.pftrace >"$tmp/o" 2>"$tmp/e"
st=$?
[ $st = 3 ] || golden_fail "22-CPU perfetto on hikey960: exit $st, want 3"
[ -s "$tmp/o" ] && golden_fail "22-CPU perfetto on hikey960: output on stdout: $(head -3 "$tmp/o")"
grep -q "events on CPUs 0-21, but platform .hikey960. has 8 CPUs" "$tmp/e" && grep -q "at least 22 CPUs (--platform" "$tmp/e" ||
	golden_fail "22-CPU perfetto: message lacks the CPUs or the fix: $(cat "$tmp/e")"
grep -q "pftrace':[0-9]" "$tmp/e" && golden_fail "22-CPU perfetto: a line number in a binary file: $(cat "$tmp/e")"
sed 's/\[000\] d..3   10.041010/[009] d..3   10.041010/' "$tmp/split.txt" >"$tmp/cpu9.txt"
"$bin" run "$tmp/cpu9.txt" >"$tmp/o" 2>"$tmp/e"
st=$?
[ $st = 3 ] || golden_fail "CPU 9 text trace on hikey960: exit $st, want 3"
grep -q "events on CPUs 0-7,9" "$tmp/e" && grep -q "at least 10 CPUs (--platform" "$tmp/e" ||
	golden_fail "CPU 9 text trace: message lacks the CPUs or the fix: $(cat "$tmp/e")"
exit $fail
