#!/bin/bash
# compare.sh - `govsim compare` on runs of the real Juno traces, against reviewed tables.
#
# Checks: a policy that raises energy past a --fail-on threshold exits 1 after printing the
# table (rtapp_switch, uclamp_min=1024 on every task: +4.10% energy, checked by hand against the
# two `govsim run` summaries' energy totals 0.656309 J and 0.683244 J), and within the
# threshold exits 0; absolute and downward thresholds; repeats per side bring Hmean and Stddev
# but no significance marker (identical repeats: no spread on either side, nothing to test);
# a change from a base of 0 reads 'new'; several traces per side (no significance at 95%);
# markdown and csv; selectors across databases; and the exit status 2 of bad selectors and
# thresholds, 3 of runs without a trace in common.
# It does not check the statistics themselves (unit test test_compare does).
# Set GOVSIM_GOLDEN_UPDATE=1 to rewrite the expected files (then review the diff).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init compare


rtapp=traces/juno-r0/rtapp_switch/trace.txt
sched=traces/juno-r0/sched_load/trace.dat
boost='setattr comm=* uclamp_min=1024'
printf 'setattr comm=* uclamp_max=300\n' >"$tmp/cap300.txt"

# case NAME ARGS...: run compare, stdout and stderr and the exit status into the expected file
case_() {
	local name=$1
	shift
	"$bin" compare "$@" >"$tmp/$name.out" 2>&1
	echo "exit status: $?" >>"$tmp/$name.out"
	sed -i "s|$tmp|TMP|g" "$tmp/$name.out"
	if [ "${GOVSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$tmp/$name.out" "$exp/compare_$name.txt"
	elif ! diff -u "$exp/compare_$name.txt" "$tmp/$name.out"; then
		golden_fail "$name differs from $exp/compare_$name.txt"
	fi
}

# one run per side, from `govsim run`
db1="$tmp/one.db"
"$bin" run "$rtapp" --platform juno-r0 --label base --db "$db1" --quiet ||
	golden_fail "run $rtapp --platform juno-r0 --label base: exit $?"
"$bin" run "$rtapp" --platform juno-r0 --label boost --action "$boost" --db "$db1" --quiet ||
	golden_fail "run $rtapp --platform juno-r0 --label boost: exit $?"
case_ fail_on_energy --db "$db1" --base label=base --new label=boost --fail-on 'energy>+2%'
case_ within --db "$db1" --base label=base --new label=boost --fail-on 'energy>+10%' \
	--fail-on 'delay>+5%' --fail-on 'avg_freq_policy1<-10%' --fail-on 'transitions>+100'
case_ fail_on_absolute --db "$db1" --base run=1 --new run=2 --fail-on 'transitions>+40' \
	--fail-on 'delay<-50%' --fail-on 'delay<=-40%'
# several --new, one column each: column 1 is fail_on_energy's new column
"$bin" run "$rtapp" --platform juno-r0 --label cap --policy "$tmp/cap300.txt" --db "$db1" \
	--quiet || golden_fail "run $rtapp --platform juno-r0 --label cap: exit $?"
case_ columns --db "$db1" --base label=base --new label=boost --new label=cap
case_ columns_json --db "$db1" --base label=base --new label=boost --new label=cap --json

# two identical repeats per side: Hmean, Stddev, no '*' (no spread on either side)
db2="$tmp/repeats.db"
"$bin" sweep "$rtapp" "$rtapp" --platform juno-r0 --no-policy --action "$boost" --db "$db2" \
	--jobs 2 --quiet ||
		golden_fail "sweep $rtapp $rtapp --platform juno-r0 --no-policy: exit $?"
case_ repeats --db "$db2" --base policy=none --new "label=action=\"$boost\""

# two traces per side
db3="$tmp/traces.db"
"$bin" sweep "$rtapp" "$sched" --platform juno-r0 --no-policy --policy "$tmp/cap300.txt" \
	--db "$db3" --jobs 2 --quiet ||
		golden_fail "sweep $rtapp $sched --platform juno-r0 --no-policy: exit $?"
case_ traces_markdown --db "$db3" --base policy=none --new "policy=$tmp/cap300.txt" \
	--format markdown
case_ traces_csv --db "$db3" --base policy=none --new "policy=$tmp/cap300.txt" --format csv \
	--confidence 0.9
# across databases: base from one file, new from another; sched_load only in the base
case_ across_dbs --base "db=$db3,policy=none" --new "db=$db1,label=boost"

# mistakes
case_ bad_selector --db "$db1" --base colour=red --new label=boost
case_ no_run --db "$db1" --base label=nothing --new label=boost
case_ bad_threshold --db "$db1" --base label=base --new label=boost --fail-on 'energy>>2%'
case_ unknown_metric --db "$db1" --base label=base --new label=boost --fail-on 'joules>2%'
case_ no_common_trace --base "db=$db3,trace=$sched" --new "db=$db1,label=boost"
exit $fail
