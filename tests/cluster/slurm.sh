#!/bin/bash
# slurm.sh - docs/cluster.md's Slurm recipe on a real single-node Slurm (tools/slurm-local.sh).
#
# Checks: the doc's job list lines are what --list-jobs prints; its sbatch script, taken from
# the doc verbatim and submitted as `sbatch --wait --array=0-(N-1)` for the doc's sweep (two
# traces x two policies x two governors), stores N parts, and the doc's merge command makes of
# them the database a local `sweep` of the same command line makes (every table, every column
# but runs.created_at). Then with one policy file broken: `sbatch --wait` exits 3 (the tasks'
# highest status), the failing tasks' logs name the policy, and the doc's merge names exactly
# the missing jobs (those --list-jobs gives for that policy), exits 1 and writes no database.
# The same for `sweep --slurm`'s own script. tools/slurm-local.sh: a second start and a second
# stop are harmless, status tells. Skipped (77) when not root or Slurm/munge are not
# installed. Every wait is bounded; the cluster is stopped on exit.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/cluster/common.sh"
cd "$src"

if [ "$(id -u)" != 0 ]; then
	echo "cluster: skipped: Slurm needs root here (slurmd starts the jobs)"
	exit $SKIP
fi
for p in sbatch squeue slurmctld slurmd munged mungekey sqlite3; do
	if ! command -v "$p" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$p" ]; then
		echo "cluster: skipped: '$p' is not installed (tools/setup.sh)"
		exit $SKIP
	fi
done

tmp=$(mktemp -d)
export GOVSIM_SLURM_DIR="$tmp/cluster"
# eight job slots: the array of eight short jobs starts in one wave, whatever the cores
export GOVSIM_SLURM_CPUS=8
cleanup() {
	# not bounded by the budget: stopping must happen (slurm-local.sh bounds its own waits)
	timeout 120 "$src/tools/slurm-local.sh" stop >/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

out=$(bounded 60 "$src/tools/slurm-local.sh" start)
st=$?
case $st in
0) ;;
4 | 5)
	echo "cluster: skipped: tools/slurm-local.sh cannot run here (exit $st)"
	exit $SKIP
	;;
*)
	echo "cluster: tools/slurm-local.sh start failed (exit $st)" >&2
	exit 1
	;;
esac
eval "$out" # SLURM_CONF
export SLURM_CONF
# safe to run twice: a second start finds it running and says where
again=$(bounded 30 "$src/tools/slurm-local.sh" start 2>/dev/null) && [ "$again" = "$out" ] ||
	{ echo "cluster: a second 'slurm-local.sh start' gave '$again'" >&2; fail=1; }
bounded 10 "$src/tools/slurm-local.sh" status >/dev/null ||
	{ echo "cluster: 'slurm-local.sh status' says it is not running" >&2; fail=1; }
echo "cluster: Slurm up (${SECONDS}s)"

# submit DIR: in DIR, the doc's recipe up to the merge; sets N and sbatch_status
submit() {
	cd "$1" || exit 1
	eval "$(doc_block sweep)" >list.txt || { echo "cluster: --list-jobs failed" >&2; fail=1; }
	N=$(wc -l <list.txt)
	doc_block sbatch >sweep.sbatch
	grep -q "^#SBATCH --array=0-$((N - 1)) " sweep.sbatch ||
		{ echo "cluster: the doc's #SBATCH --array is not 0-$((N - 1))" >&2; fail=1; }
	mkdir -p logs
	bounded 90 sbatch --wait --array=0-$((N - 1)) sweep.sbatch >sbatch.out 2>&1
	sbatch_status=$?
	[ $sbatch_status = 124 ] && { echo "cluster: sbatch --wait timed out" >&2; exit 1; }
	echo "cluster: array of $N in $1 done, exit $sbatch_status (${SECONDS}s)"
}

# --- every job succeeds: the merge equals the local sweep
workdir "$tmp/ok"
submit "$tmp/ok"
check_list list.txt
[ "$N" = 8 ] || { echo "cluster: expected 8 jobs, got $N" >&2; fail=1; }
[ $sbatch_status = 0 ] || { echo "cluster: sbatch --wait exit $sbatch_status" >&2; cat sbatch.out logs/* >&2; fail=1; }
eval "$(doc_block merge)" >merge.out 2>&1 || { echo "cluster: the doc's merge failed:" >&2; cat merge.out >&2; fail=1; }
govsim sweep $SWEEP --db local.db --jobs 2 --quiet || fail=1
echo "cluster: local sweep done (${SECONDS}s)"
same_db local.db results.db "Slurm array + merge against the local sweep"
n=$(sqlite3 results.db "SELECT count(*) FROM runs")
[ "$n" = 8 ] || { echo "cluster: expected 8 runs merged, got $n" >&2; fail=1; }

# --- sweep --slurm writes its own script: the same database
mkdir "$tmp/ok/gen" && cd "$tmp/ok/gen" && workdir "$tmp/ok/gen"
n=$(govsim sweep $SWEEP --slurm gen.sbatch --quiet)
[ "$n" = 8 ] || { echo "cluster: sweep --slurm printed '$n'" >&2; fail=1; }
bounded 90 sbatch --wait gen.sbatch >sbatch.out 2>&1 || { echo "cluster: sweep --slurm's array failed" >&2; cat sbatch.out >&2; fail=1; }
govsim merge --expect "$n" results.db parts/out-*.db --quiet || fail=1
same_db "$tmp/ok/local.db" results.db "sweep --slurm's array against the local sweep"
echo "cluster: sweep --slurm's array done (${SECONDS}s)"

# --- a broken policy: its tasks fail, the array says so, merge names them and merges nothing
workdir "$tmp/bad"
printf 'setattr comm=* uclamp_min=900 uclamp_max=100\n' >"$tmp/bad/boost.txt"
submit "$tmp/bad"
[ $sbatch_status = 3 ] || { echo "cluster: sbatch --wait exit $sbatch_status, expected 3 (bad input)" >&2; fail=1; }
mapfile -t badjobs < <(grep -P '\tpolicy=boost.txt ' list.txt | cut -f1)
[ "${#badjobs[@]}" = 4 ] || { echo "cluster: expected 4 boost.txt jobs, got ${#badjobs[@]}" >&2; fail=1; }
for k in "${badjobs[@]}"; do
	grep -q "boost.txt" logs/sweep-*_"$k".log ||
		{ echo "cluster: the log of failed task $k does not name boost.txt" >&2; fail=1; }
	[ ! -e "parts/out-$k.db" ] || { echo "cluster: failed task $k left a part" >&2; fail=1; }
done
eval "$(doc_block merge)" >merge.out 2>&1
st=$?
want="missing ${#badjobs[@]} of $N jobs: $(ranges "${badjobs[@]}") (no part for them); nothing merged"
[ $st = 1 ] || { echo "cluster: merge with parts missing: exit $st, expected 1" >&2; fail=1; }
grep -qF "$want" merge.out || { echo "cluster: merge did not say '$want':" >&2; cat merge.out >&2; fail=1; }
[ ! -e results.db ] || { echo "cluster: a refused merge left results.db" >&2; fail=1; }

# stop, and stop again: the second finds nothing to do
bounded 60 "$src/tools/slurm-local.sh" stop || { echo "cluster: 'slurm-local.sh stop' failed" >&2; fail=1; }
[ ! -e "$GOVSIM_SLURM_DIR" ] || { echo "cluster: stop left '$GOVSIM_SLURM_DIR'" >&2; fail=1; }
bounded 30 "$src/tools/slurm-local.sh" stop || { echo "cluster: a second stop failed" >&2; fail=1; }
bounded 10 "$src/tools/slurm-local.sh" status >/dev/null &&
	{ echo "cluster: 'slurm-local.sh status' says a stopped cluster runs" >&2; fail=1; }

exit $fail
