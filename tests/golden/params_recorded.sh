#!/bin/bash
# params_recorded.sh - every `run` option that changes a result is recorded with the run.
#
# Checks: on the Juno trace.dat, a run with each of --seed-util, --traced-config
# uclamp=on,depth=2 and --warmup-ms 50 and the same run without it have different runs.params
# in one database, different "params" in --json and different summary "set:" lines, and
# `compare` can select the run by the recorded word (seed_util=1, traced_uclamp=on,
# warmup_ms=50); --traced-config naming the default (uclamp=off,depth=0: the same replay)
# records nothing. The expected words are the options' names and values as given here.
# Does not check: the results themselves (each option's own tests do).
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init params_recorded
trace=traces/juno-r0/sched_load/trace.dat
base=(run "$trace" --platform juno-r0 --timing traced)

# recorded NAME WORD OPTION...: the run with OPTION... records WORD, the plain one does not
recorded() {
	local name=$1 word=$2 db="$tmp/$1.db" a b
	shift 2
	"$bin" "${base[@]}" --db "$db" --label plain >"$tmp/plain.txt" 2>/dev/null ||
		golden_fail "$name: plain run failed"
	"$bin" "${base[@]}" --db "$db" --label opt "$@" >"$tmp/opt.txt" 2>/dev/null ||
		golden_fail "$name: run with $* failed"
	a=$(sqlite3 "$db" "SELECT params FROM runs WHERE label = 'plain'")
	b=$(sqlite3 "$db" "SELECT params FROM runs WHERE label = 'opt'")
	[ "$a" != "$b" ] || golden_fail "$name: runs.params equal ('$a') with and without $*"
	case " $b " in *" $word "*) ;; *) golden_fail "$name: runs.params '$b' lacks '$word'" ;; esac
	a=$("$bin" "${base[@]}" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["params"])')
	b=$("$bin" "${base[@]}" --json "$@" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["params"])')
	[ "$a" != "$b" ] || golden_fail "$name: JSON params equal ('$a') with and without $*"
	grep -q "^set: .*$word" "$tmp/opt.txt" || golden_fail "$name: no summary 'set:' line with '$word'"
	"$bin" compare --db "$db" --base label=plain --new "$word" >"$tmp/cmp.txt" 2>"$tmp/cmp.err" ||
		golden_fail "$name: compare --new '$word' failed: $(cat "$tmp/cmp.err")"
}

recorded seed seed_util=1 --seed-util
recorded traced traced_uclamp=on --traced-config uclamp=on,depth=2
recorded traced-depth traced_depth=2 --traced-config uclamp=on,depth=2
recorded warmup warmup_ms=50 --warmup-ms 50

# the default traced configuration, named, is the same replay: nothing to record
a=$("$bin" "${base[@]}" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["params"])')
b=$("$bin" "${base[@]}" --json --traced-config uclamp=off,depth=0 2>/dev/null |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["params"])')
golden_equal "the default --traced-config (the same replay) recorded params" "$b" "$a"
exit $fail
