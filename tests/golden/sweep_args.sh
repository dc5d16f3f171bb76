#!/bin/bash
# sweep_args.sh - `govsim sweep`'s command line: what it refuses (exit 2, before anything runs)
# and the job list it makes of what it accepts.
#
# Checks: an empty value in --set (a,,b; a trailing or leading comma) exits 2 naming the option
# instead of being dropped. With several governors, a --set key applies to the governors that
# take it (their labels and stored params have it, the others run once without it), GOV.KEY
# scopes it to GOV, and a key no governor of the sweep takes, a GOV.KEY whose GOV is not in the
# sweep or does not take KEY, and a key given twice for one governor exit 2 before anything
# runs; the expected job lists are written out here from the rule, not taken from govsim. --slurm FILE prints the number of jobs and writes an sbatch script
# whose array range is 0..N-1 and whose tasks, run here one by one as Slurm would (each with its
# SLURM_ARRAY_TASK_ID, from another directory), give parts that `merge --expect N` joins into
# the local sweep's database (a label with a quote and a space survives the script's quoting).
# tests/cluster/slurm.sh runs such an array on a real Slurm.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init sweep_args
trace=traces/juno-r0/rtapp_switch/trace.txt


# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches the extended regex PATTERN
expect() {
	local code=$1 pat=$2 st
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" != "$code" ]; then
		golden_fail "'$*': exit $st, expected $code"
		cat "$tmp/err" >&2
	elif ! grep -Eq -- "$pat" "$tmp/err"; then
		golden_fail "'$*': stderr does not match '$pat':"
		cat "$tmp/err" >&2
	fi
}

# --- an empty value in --set is a command-line mistake
for v in 'hz=100,,250' 'hz=100,' 'hz=,100'; do
	expect 2 "--set '$v': empty value" "$bin" sweep "$trace" --platform juno-r0 --set "$v" --list-jobs
	expect 2 "--set '$v': empty value" "$bin" sweep "$trace" --platform juno-r0 --set "$v" \
		--db "$tmp/x.db"
	[ ! -e "$tmp/x.db" ] || golden_fail "'$v': a database was written"
done
# the same values without the hole: two jobs, labelled with each
"$bin" sweep "$trace" --platform juno-r0 --set hz=100,250 --list-jobs >"$tmp/list" 2>&1
printf '0\t%s\thz=100\n1\t%s\thz=250\n' "$trace" "$trace" | diff -u - "$tmp/list" ||
	golden_fail "--set hz=100,250 --list-jobs: not the two jobs hz=100 and hz=250"

# --- several governors and --set: a key applies to the governors that take it
# list_is ARGS... -- LABEL...: --list-jobs of the sweep gives exactly these labels, in order
list_is() {
	local args=() want=() i=0
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	for l in "$@"; do want+=("$(printf '%d\t%s\t%s' $i "$trace" "$l")"); i=$((i + 1)); done
	"$bin" sweep "$trace" --platform juno-r0 "${args[@]}" --list-jobs >"$tmp/list" 2>&1
	printf '%s\n' "${want[@]}" | diff -u - "$tmp/list" >"$tmp/diff" ||
		{ golden_fail "job list of '${args[*]}':"; cat "$tmp/diff" >&2; }
}
# rate_limit_us is schedutil's only; hz is the replay's own (every governor); ondemand runs
# once per hz, not once per rate_limit_us value
list_is --governor schedutil --governor ondemand --set rate_limit_us=1000,10000 --set hz=100,250 -- \
	"governor=schedutil rate_limit_us=1000 hz=100" "governor=schedutil rate_limit_us=1000 hz=250" \
	"governor=schedutil rate_limit_us=10000 hz=100" "governor=schedutil rate_limit_us=10000 hz=250" \
	"governor=ondemand hz=100" "governor=ondemand hz=250"
# a key two governors take varies for both
list_is --governor ondemand --governor conservative --set sampling_rate=10000,20000 -- \
	"governor=ondemand sampling_rate=10000" "governor=ondemand sampling_rate=20000" \
	"governor=conservative sampling_rate=10000" "governor=conservative sampling_rate=20000"
# GOV.KEY scopes a key to one governor
list_is --governor ondemand --governor conservative --set ondemand.sampling_rate=10000,20000 -- \
	"governor=ondemand sampling_rate=10000" "governor=ondemand sampling_rate=20000" \
	"governor=conservative"
list_is --governor schedutil --governor ondemand --set ondemand.up_threshold=80,95 --set rate_limit_us=500 -- \
	"governor=schedutil rate_limit_us=500" "governor=ondemand up_threshold=80" \
	"governor=ondemand up_threshold=95"
# the runs get the keys that apply to them, and run (ondemand without rate_limit_us)
"$bin" sweep "$trace" --platform juno-r0 --governor schedutil --governor ondemand \
	--set rate_limit_us=1000 --db "$tmp/gov.db" --quiet || golden_fail "the mixed sweep failed"
r=$(sqlite3 "$tmp/gov.db" "SELECT group_concat(governor || ':' || params, ' ') FROM runs")
[ "$r" = "schedutil:rate_limit_us=1000 ondemand:" ] || golden_fail "stored runs: $r"
# mistakes: exit 2 before anything runs (no database)
expect 2 "--set 'up_threshold': no governor of the sweep takes it \(schedutil performance\)" \
	"$bin" sweep "$trace" --platform juno-r0 --governor schedutil --governor performance \
	--set up_threshold=80 --db "$tmp/no.db"
expect 2 "--set 'schedutil.up_threshold': governor 'schedutil' has no tunable 'up_threshold'" \
	"$bin" sweep "$trace" --platform juno-r0 --governor schedutil --governor ondemand \
	--set schedutil.up_threshold=80 --db "$tmp/no.db"
expect 2 "'ondemand' is not a governor of the sweep" \
	"$bin" sweep "$trace" --platform juno-r0 --set ondemand.up_threshold=80 --db "$tmp/no.db"
expect 2 "unknown governor 'nosuch'" \
	"$bin" sweep "$trace" --platform juno-r0 --set nosuch.x=1 --db "$tmp/no.db"
expect 2 "--set 'rate_limit_us' given twice for governor 'schedutil'" \
	"$bin" sweep "$trace" --platform juno-r0 --set schedutil.rate_limit_us=1 --set rate_limit_us=2 \
	--db "$tmp/no.db"
expect 2 "--set 'nosuch': no governor of the sweep takes it" \
	"$bin" sweep "$trace" --platform juno-r0 --set nosuch=1 --list-jobs
[ ! -e "$tmp/no.db" ] || golden_fail "a refused sweep wrote a database"
# a bad value of a key that is taken is the run's error, not "no governor takes it"
expect 1 "--set hz='abc': not a non-negative integer" \
	"$bin" sweep "$trace" --platform juno-r0 --governor schedutil --governor ondemand \
	--set hz=abc --db "$tmp/no.db"

# --- --slurm FILE
sargs=("$trace" --platform juno-r0 --governor schedutil --governor performance --no-policy
	--action 'setattr comm=* uclamp_max=300' --label "it's a test")
mkdir "$tmp/sl"
src=$PWD
n=$(cd "$tmp/sl" && "$bin" sweep "${sargs[@]/#traces/$src/traces}" --db r.db --jobs 3 \
	--slurm job.sbatch 2>"$tmp/err")
[ "$n" = 4 ] || golden_fail "--slurm printed '$n', expected 4"
grep -qx '#SBATCH --array=0-3' "$tmp/sl/job.sbatch" ||
	golden_fail "--slurm: no '#SBATCH --array=0-3' line"
grep -q "merge --expect 4 r.db parts/out-\*.db" "$tmp/err" ||
	{ golden_fail "--slurm: no merge hint on stderr"; cat "$tmp/err" >&2; }
for k in 3 1 0 2; do
	# sbatch starts the script in --chdir; bash here does not, so start elsewhere and cd
	(cd "$tmp/sl" && SLURM_ARRAY_TASK_ID=$k bash job.sbatch) ||
		golden_fail "--slurm job.sbatch, task $k: exit $?"
done
(cd "$tmp/sl" && "$bin" merge --expect "$n" r.db parts/out-*.db --quiet) ||
	golden_fail "merge --expect $n r.db parts/out-*.db --quiet: exit $?"
"$bin" sweep "${sargs[@]}" --db "$tmp/local.db" --quiet ||
	golden_fail "the local sweep: exit $?"
# trace paths differ (absolute in the script's sweep); compare everything else
sqlite3 "$tmp/sl/r.db" "UPDATE runs SET trace = replace(trace, '$src/', '')"
diff -u <(golden_db_dump "$tmp/local.db") <(golden_db_dump "$tmp/sl/r.db") >"$tmp/diff" ||
	{ head -20 "$tmp/diff"; golden_fail "--slurm parts differ from the local sweep"; }
expect 2 "--slurm writes every job: not with --job" \
	"$bin" sweep "$trace" --platform juno-r0 --slurm "$tmp/x.sbatch" --job 0

exit $fail
