#!/bin/bash
# sweep_cache.sh - a sweep, a tune and `validate --kernel all` read each trace once and replay
# every configuration from memory, with the results of reading it for each.
#
# Checks:
#  - a sweep of 8 configurations (2 traces: ftrace text and trace.dat; a clamp action or none;
#    schedutil at a 500 us rate limit, and performance) stores, table for table and row for row,
#    what 8 `govsim run --db` of the same configurations store one after the other (each run
#    reads its trace itself: no cache); runs.created_at aside;
#  - counting the opens of each trace in all the processes (strace -f), the sweep opens it as
#    often as one `govsim trace read` of it does (the reader alone: once for text; a trace.dat
#    more, libtracecmd's and the trial parse's), plus once to hash it, whatever the number of
#    configurations; tune without --db and validate --kernel all open it as often as trace read
#    (no hash). The same sweep with the cache turned off
#    (GOVSIM_CACHE_MAX_MB=0) opens it at least once per configuration: the count does see
#    per-run reads;
#  - a trace whose events need more than the bound (GOVSIM_CACHE_MAX_MB=1, a generated trace of
#    about 2.5 MiB of records) is replayed from its file, with a note saying so, and stores what
#    the cached sweep stores; tune, and validate of two kernel profiles, print the same with
#    and without the cache.
# Under strace, LeakSanitizer is off (it cannot run under ptrace); the untraced runs keep it.
# It does not check the replayed numbers themselves (the run tests do), nor speed (bench.sh).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sweep_cache

txt=traces/juno-r0/rtapp_switch/trace.txt
dat=traces/juno-r0/sched_load/trace.dat
act='setattr comm=* uclamp_max=300'

same_db() {
	if ! diff -u <(golden_db_dump "$1") <(golden_db_dump "$2") >"$tmp/db.diff"; then
		head -40 "$tmp/db.diff" >&2
		golden_fail "$3: '$1' and '$2' differ"
	fi
}
# strace stops LeakSanitizer (it cannot run under ptrace): no leak check in traced commands
nolsan="${ASAN_OPTIONS:-}:detect_leaks=0"
# opens FILE LOG: how many times the strace log shows FILE opened
opens() {
	grep -cE "open(at)?\((AT_FDCWD, )?\"$1\"" "$2"
}

# --- a sweep against one run per configuration
sweep=("$txt" "$dat" --platform juno-r0 --no-policy --action "$act" --governor schedutil
	--governor performance --set schedutil.rate_limit_us=500)
ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=open,openat -o "$tmp/sweep.strace" \
	"$bin" sweep "${sweep[@]}" --db "$tmp/sweep.db" --jobs 2 --quiet || golden_fail "sweep: exit $?"
for t in "$txt" "$dat"; do
	for pol in none action; do
		for cfg in "schedutil 500" "performance"; do
			set -- $cfg
			args=("$t" --platform juno-r0 --governor "$1" --db "$tmp/runs.db" --quiet)
			label="policy=none"
			[ $pol = action ] && { args+=(--action "$act"); label="action=\"$act\""; }
			label="$label governor=$1"
			[ $# = 2 ] && { args+=(--set "rate_limit_us=$2"); label="$label rate_limit_us=$2"; }
			"$bin" run "${args[@]}" --label "$label" || golden_fail "run ${args[*]}: exit $?"
		done
	done
done
n=$(sqlite3 "$tmp/sweep.db" "SELECT count(*) FROM runs")
[ "$n" = 8 ] || golden_fail "sweep stored $n runs, not 8"
same_db "$tmp/sweep.db" "$tmp/runs.db" "the sweep against one run per configuration"

# parse T: how many opens of T one read of it by the reader alone takes
# stdout is the count, or "failed": this runs in $(...), whose golden_fail the script would not see
parse() {
	ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=open,openat -o "$tmp/read.strace" "$bin" trace read "$1" >/dev/null ||
		{ echo failed; return; }
	opens "$1" "$tmp/read.strace"
}
p_txt=$(parse "$txt")
p_dat=$(parse "$dat")
for p in "$txt:$p_txt" "$dat:$p_dat"; do
	case ${p##*:} in
	'' | *[!0-9]*) golden_fail "trace read ${p%:*} failed (opens: '${p##*:}')"; exit 1 ;;
	esac
done
[ "$p_txt" = 1 ] || golden_fail "trace read opened '$txt' $p_txt times, not 1"
# each trace parsed once and hashed once by the sweep
for t in "$txt:$p_txt" "$dat:$p_dat"; do
	n=$(opens "${t%:*}" "$tmp/sweep.strace")
	[ "$n" = $((${t##*:} + 1)) ] ||
		golden_fail "sweep opened '${t%:*}' $n times, not $((${t##*:} + 1)) (one parse: ${t##*:}, one hash)"
done
# the cache turned off: every run reads the trace again (at least once per configuration)
GOVSIM_CACHE_MAX_MB=0 ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=open,openat -o "$tmp/off.strace" \
	"$bin" sweep "${sweep[@]}" --db "$tmp/off.db" --jobs 2 --quiet || golden_fail "sweep, cache off: exit $?"
n=$(opens "$txt" "$tmp/off.strace")
[ "$n" -ge 4 ] || golden_fail "sweep without the cache opened '$txt' $n times, fewer than its 4 runs"
same_db "$tmp/sweep.db" "$tmp/off.db" "the sweep with and without the cache"

# --- tune and validate --kernel all: one open each, and the same output without the cache
tune=("$txt" --platform juno-r0 --vary 'rate_limit_us=?[0:8000:2000]' --minimize energy
	--jobs 2 --quiet)
ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=open,openat -o "$tmp/tune.strace" \
	"$bin" tune "${tune[@]}" >"$tmp/tune.txt" 2>&1 || golden_fail "tune: exit $?"
n=$(opens "$txt" "$tmp/tune.strace")
[ "$n" = "$p_txt" ] || golden_fail "tune opened '$txt' $n times, not $p_txt (one parse)"
GOVSIM_CACHE_MAX_MB=0 "$bin" tune "${tune[@]}" >"$tmp/tune.off" 2>&1 || golden_fail "tune, cache off: exit $?"
diff -u "$tmp/tune.off" "$tmp/tune.txt" >&2 || golden_fail "tune prints differently from memory"
grep -q '^answer:' "$tmp/tune.txt" || golden_fail "tune found no answer: $(cat "$tmp/tune.txt")"

ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=open,openat -o "$tmp/val.strace" \
	"$bin" validate "$dat" --platform juno-r0 --kernel all >"$tmp/val.txt" 2>&1 ||
	golden_fail "validate: exit $?"
n=$(opens "$dat" "$tmp/val.strace")
[ "$n" = "$p_dat" ] || golden_fail "validate --kernel all opened '$dat' $n times, not $p_dat (one parse)"
# two profiles (each replayed twice: util emulated and from the trace), with and without it
"$bin" validate "$dat" --platform juno-r0 --kernel v4.19,v5.9 >"$tmp/val2.txt" 2>&1
GOVSIM_CACHE_MAX_MB=0 "$bin" validate "$dat" --platform juno-r0 --kernel v4.19,v5.9 >"$tmp/val.off" 2>&1
diff -u "$tmp/val.off" "$tmp/val2.txt" >&2 || golden_fail "validate prints differently from memory"

# --- past the bound: replayed from the file, with a note, the same rows
"$bin" gen mix --size 40000 --seed 3 -o "$tmp/big.txt" || golden_fail "gen: exit $?"
big=("$tmp/big.txt" --set rate_limit_us=1000,8000 --jobs 2)
"$bin" sweep "${big[@]}" --db "$tmp/big.db" --quiet || golden_fail "sweep of big.txt: exit $?"
GOVSIM_CACHE_MAX_MB=1 ASAN_OPTIONS="$nolsan" strace -f -qq -e trace=open,openat -o "$tmp/bound.strace" \
	"$bin" sweep "${big[@]}" --db "$tmp/bound.db" 2>"$tmp/bound.err" || golden_fail "sweep over the bound: exit $?"
grep -q "^govsim: note: '$tmp/big.txt': not kept in memory: more than 1 MiB in memory after [0-9]* events (GOVSIM_CACHE_MAX_MB sets the bound, 1 MiB): each run reads the file$" \
	"$tmp/bound.err" || golden_fail "no note over the bound: $(cat "$tmp/bound.err")"
n=$(opens "$tmp/big.txt" "$tmp/bound.strace")
[ "$n" -ge 3 ] || golden_fail "over the bound, '$tmp/big.txt' was opened $n times: not read per run"
same_db "$tmp/big.db" "$tmp/bound.db" "the sweep over the bound against the cached one"

exit $fail
