#!/bin/bash
# up_down_rate_limit.sh - Android's split rate limits (up_rate_limit_us, down_rate_limit_us:
# the Android common kernels' android-4.19 / android-5.4 kernel/sched/cpufreq_schedutil.c,
# sugov_up_down_rate_limit). sugov_should_update_freq() lets an update through min(up, down)
# after the last change of next_freq; the change itself must then wait up_rate_delay_ns if it
# raises next_freq, down_rate_delay_ns if it lowers it.
#
# Independent answers, on the lab's 6.1 bursty recording in traced timing:
# - up = down = 2000 us is mainline's rule with rate_limit_us=2000: the same rows;
# - up = 20000, down = 0: every change up comes >= 20 ms after the change before it, and some
#   change down comes sooner than that (the down direction is not held).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init up_down_rate_limit.sh

trace="$GOVSIM_SOURCE_DIR/traces/lab/6.1/bursty.txt.gz"
tl() { # $1: output; then the --set arguments
	local out=$1
	shift
	"$bin" run "$trace" --quiet --timing traced --timeline "$out" "$@" >"$tmp/out.txt" 2>&1 ||
		golden_fail "run $*: $(head -3 "$tmp/out.txt")"
}
tl "$tmp/plain.csv" --set rate_limit_us=2000
tl "$tmp/same.csv" --set up_rate_limit_us=2000 --set down_rate_limit_us=2000
[ -s "$tmp/plain.csv" ] || golden_fail "no timeline"
cmp -s "$tmp/plain.csv" "$tmp/same.csv" || golden_fail "up = down = 2000 us differs from rate_limit_us=2000"
tl "$tmp/split.csv" --set up_rate_limit_us=20000 --set down_rate_limit_us=0
# per policy, each change of frequency: direction and the time since the policy's last change
awk -F, 'NR > 1 {
	p = $3
	if (p in last && $12 != last[p]) {
		d = $1 - t[p]
		if ($12 > last[p]) { ups++; if (d < 0.020 - 1e-9) bad++ }
		else { downs++; if (d < 0.020) quick++ }
		t[p] = $1
	} else if (!(p in last)) t[p] = $1
	last[p] = $12
} END { printf "%d %d %d %d\n", ups, bad, downs, quick }' "$tmp/split.csv" >"$tmp/c.txt"
read -r ups bad downs quick <"$tmp/c.txt"
[ "$ups" -gt 0 ] && [ "$downs" -gt 0 ] || golden_fail "no changes up ($ups) or down ($downs)"
[ "$bad" = 0 ] || golden_fail "$bad of $ups changes up came within 20 ms of the change before"
[ "$quick" -gt 0 ] || golden_fail "no change down within 20 ms of a change: the down direction was held"
exit $fail
