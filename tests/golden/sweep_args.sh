#!/bin/bash
# sweep_args.sh - `govsim sweep`'s command line: what it refuses (exit 2, before anything runs)
# and the job list it makes of what it accepts.
#
# Checks: an empty value in --set (a,,b; a trailing or leading comma) exits 2 naming the option
# instead of being dropped. --slurm FILE prints the number of jobs and writes an sbatch script
# whose array range is 0..N-1 and whose tasks, run here one by one as Slurm would (each with its
# SLURM_ARRAY_TASK_ID, from another directory), give parts that `merge --expect N` joins into
# the local sweep's database (a label with a quote and a space survives the script's quoting).
# tests/cluster/slurm.sh runs such an array on a real Slurm.
set -u
cd "${GOVSIM_SOURCE_DIR:?}"
bin="${GOVSIM_BIN:?}"
fail=0
trace=traces/juno-r0/rtapp_switch/trace.txt

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches the extended regex PATTERN
expect() {
	local code=$1 pat=$2 st
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" != "$code" ]; then
		echo "sweep_args: '$*': exit $st, expected $code" >&2
		cat "$tmp/err" >&2
		fail=1
	elif ! grep -Eq -- "$pat" "$tmp/err"; then
		echo "sweep_args: '$*': stderr does not match '$pat':" >&2
		cat "$tmp/err" >&2
		fail=1
	fi
}

# --- an empty value in --set is a command-line mistake
for v in 'hz=100,,250' 'hz=100,' 'hz=,100'; do
	expect 2 "--set '$v': empty value" "$bin" sweep "$trace" --platform juno-r0 --set "$v" --list-jobs
	expect 2 "--set '$v': empty value" "$bin" sweep "$trace" --platform juno-r0 --set "$v" \
		--db "$tmp/x.db"
	[ ! -e "$tmp/x.db" ] || { echo "sweep_args: '$v': a database was written" >&2; fail=1; }
done
# the same values without the hole: two jobs, labelled with each
"$bin" sweep "$trace" --platform juno-r0 --set hz=100,250 --list-jobs >"$tmp/list" 2>&1
printf '0\t%s\thz=100\n1\t%s\thz=250\n' "$trace" "$trace" | diff -u - "$tmp/list" || fail=1

# --- --slurm FILE
dump() {
	cp "$1" "$1.dump.db"
	sqlite3 "$1.dump.db" "UPDATE runs SET created_at = ''" && sqlite3 "$1.dump.db" .dump
}
sargs=("$trace" --platform juno-r0 --governor schedutil --governor performance --no-policy
	--action 'setattr comm=* uclamp_max=300' --label "it's a test")
mkdir "$tmp/sl"
src=$PWD
n=$(cd "$tmp/sl" && "$bin" sweep "${sargs[@]/#traces/$src/traces}" --db r.db --jobs 3 \
	--slurm job.sbatch 2>"$tmp/err")
[ "$n" = 4 ] || { echo "sweep_args: --slurm printed '$n', expected 4" >&2; fail=1; }
grep -qx '#SBATCH --array=0-3' "$tmp/sl/job.sbatch" ||
	{ echo "sweep_args: --slurm: no '#SBATCH --array=0-3' line" >&2; fail=1; }
grep -q "merge --expect 4 r.db parts/out-\*.db" "$tmp/err" ||
	{ echo "sweep_args: --slurm: no merge hint on stderr" >&2; cat "$tmp/err" >&2; fail=1; }
for k in 3 1 0 2; do
	# sbatch starts the script in --chdir; bash here does not, so start elsewhere and cd
	(cd "$tmp/sl" && SLURM_ARRAY_TASK_ID=$k bash job.sbatch) || fail=1
done
(cd "$tmp/sl" && "$bin" merge --expect "$n" r.db parts/out-*.db --quiet) || fail=1
"$bin" sweep "${sargs[@]}" --db "$tmp/local.db" --quiet || fail=1
# trace paths differ (absolute in the script's sweep); compare everything else
sqlite3 "$tmp/sl/r.db" "UPDATE runs SET trace = replace(trace, '$src/', '')"
diff -u <(dump "$tmp/local.db") <(dump "$tmp/sl/r.db") >"$tmp/diff" ||
	{ head -20 "$tmp/diff"; echo "sweep_args: --slurm parts differ from the local sweep" >&2; fail=1; }
expect 2 "--slurm writes every job: not with --job" \
	"$bin" sweep "$trace" --platform juno-r0 --slurm "$tmp/x.sbatch" --job 0

exit $fail
