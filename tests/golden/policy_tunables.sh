#!/bin/bash
# policy_tunables.sh - governor tunables per policy: `--set policyN.NAME=V` sets NAME for the
# policy whose first CPU is N, as a driver with governor tunables per policy exposes them
# (have_governor_per_policy(): /sys/devices/system/cpu/cpufreq/policyN/schedutil/rate_limit_us);
# `--set NAME=V` sets every policy and the policy's own value wins.
#
# Independent answers: the lab's 6.1 bursty recording has one policy per CPU and is not
# frequency invariant, so in traced timing (--timing traced) each policy's evaluations depend on its own CPU's
# events alone. A run with rate_limit_us=2000 and policy1.rate_limit_us=20000 must give, row
# for row, policy0's evaluations of the run with 2000 everywhere and policy1's of the run with
# 20000 everywhere (which differ from each other, so the check can fail). And by the rule of
# sugov_should_update_freq(): policy1 changes frequency at least 20 ms apart.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init policy_tunables.sh

trace="$GOVSIM_SOURCE_DIR/traces/lab/6.1/bursty.txt.gz"
rows() { # $1: output file, $2: policy; then the --set arguments
	local out=$1 pol=$2
	shift 2
	"$bin" run "$trace" --quiet --timing traced --timeline "$tmp/tl.csv" "$@" >"$tmp/out.txt" 2>&1 ||
		{ golden_fail "run $*: $(head -3 "$tmp/out.txt")"; return; }
	awk -F, -v p="$pol" 'NR > 1 && $3 == p' "$tmp/tl.csv" >"$out"
}
rows "$tmp/a0" 0 --set rate_limit_us=2000
rows "$tmp/b1" 1 --set rate_limit_us=20000
rows "$tmp/a1" 1 --set rate_limit_us=2000
rows "$tmp/c0" 0 --set rate_limit_us=2000 --set policy1.rate_limit_us=20000
rows "$tmp/c1" 1 --set rate_limit_us=2000 --set policy1.rate_limit_us=20000
[ -s "$tmp/a0" ] && [ -s "$tmp/b1" ] || golden_fail "no evaluations in the timelines"
cmp -s "$tmp/a1" "$tmp/b1" && golden_fail "policy1 under 2000 and 20000 us: the same rows (the test cannot tell)"
cmp -s "$tmp/c0" "$tmp/a0" || golden_fail "policy0 with policy1's own rate limit: not the rows of rate_limit_us=2000"
cmp -s "$tmp/c1" "$tmp/b1" || golden_fail "policy1 with its own rate limit: not the rows of rate_limit_us=20000"
# the rate limit itself: policy1's frequency changes at least 20 ms apart, policy0's not all
gap() { awk -F, '{ if (seen && $12 != last) { if (t != "" && $1 - t < min) min = $1 - t; t = $1 }
	seen = 1; last = $12 } BEGIN { min = 1e9; t = "" } END { printf "%.6f", min }' "$1"; }
g1=$(gap "$tmp/c1") g0=$(gap "$tmp/c0")
awk -v g="$g1" 'BEGIN { exit !(g >= 0.020) }' || golden_fail "policy1 changed $g1 s after a change, under 20 ms"
awk -v g="$g0" 'BEGIN { exit !(g < 0.020) }' || golden_fail "policy0's changes are all 20 ms apart: the rate limit leaked"
# a policy the platform does not have is named, with the ones it has
"$bin" run "$trace" --quiet --set policy7.rate_limit_us=1 >"$tmp/e.txt" 2>&1
[ $? = 2 ] || golden_fail "policy7 on a 2-policy platform: exit $?, want 2"
grep -q "has no policy7 .*policy0, policy1" "$tmp/e.txt" || golden_fail "policy7: $(cat "$tmp/e.txt")"
exit $fail
