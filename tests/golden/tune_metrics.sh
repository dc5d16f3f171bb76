#!/bin/bash
# tune_metrics.sh - `govsim tune` judges runs by every metric `govsim compare` has.
#
# The trace: one periodic task on Hikey960's CPU 0 (as tune.sh's), replayed at rate_limit_us
# 0, 10000 and 20000. For the metrics of the kernel's own work (governor_evals, update_calls,
# kernel_overhead) the figure tune reports for each point is checked against the database
# tune stored the replays in, read with sqlite3: the calls of the operation in the
# kernel_overhead table, and kernel_overhead_runs.total_s in ms; the answer of --minimize and
# --maximize is the point whose stored figure is least (greatest).
#
# Checks: those metrics and uclamp_aggregations and kernel_charged are accepted by --minimize,
# --maximize and --subject-to; kernel_charged, a work-timing metric, is refused with
# --timing traced (exit 2); every metric compare --help lists is listed by tune --help.
# Does not check: what the kernel's figures should be (kernel_evals.sh, test_overhead.c).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init tune_metrics

"$bin" gen periodic -o "$tmp/p.txt" --platform hikey960 \
	--task name=rtapp,period_ms=16,duty=0.25,cpu=0,count=20 >/dev/null || { golden_fail "gen failed"; exit 1; }

vary='rate_limit_us=?[0:20000:10000]'

# tune GOAL METRIC SQL: run tune, then compare each point's figure with SQL's for its run
# (SQL selects the figure of the run whose label is ?LABEL?), and the answer with the extreme.
figures_stored() {
	local goal=$1 metric=$2 sql=$3 db="$tmp/$1-$2.db" rc
	"$bin" tune "$tmp/p.txt" --vary "$vary" "--$goal" "$metric" --db "$db" --json --quiet \
		>"$tmp/out.json" 2>"$tmp/err.txt"
	rc=$?
	[ $rc = 0 ] || { golden_fail "--$goal $metric: exit $rc: $(cat "$tmp/err.txt")"; return; }
	/usr/bin/python3 - "$goal" "$metric" "$db" "$sql" "$tmp/out.json" <<'EOF' ||
import json, sqlite3, sys
goal, metric, db, sql, out = sys.argv[1:]
answer = json.load(open(out))
con = sqlite3.connect(db)
figures = {}
for p in answer["points"]:
    label = "rate_limit_us=%d" % p["values"]["rate_limit_us"]
    (want,) = con.execute(sql, (label,)).fetchone()
    figures[label] = want
    if abs(p["objective"] - want) > 1e-9 * max(1.0, abs(want)):
        sys.exit("%s %s: tune says %r, the database %r" % (metric, label, p["objective"], want))
if len(figures) != 3:
    sys.exit("%s: %d points, expected 3" % (metric, len(figures)))
best = (min if goal == "minimize" else max)(figures.values())
if abs(answer["answer"]["objective"] - best) > 1e-9 * max(1.0, abs(best)):
    sys.exit("%s: answer %r, the database's %s %r" % (metric, answer["answer"]["objective"], goal, best))
EOF
		golden_fail "--$goal $metric: figures differ from the database"
}

calls="SELECT k.calls FROM kernel_overhead k JOIN runs r USING (run_id) WHERE r.label = ?1 AND k.operation ="
figures_stored minimize governor_evals "$calls 'governor_eval'"
figures_stored maximize update_calls "$calls 'cpufreq_update_util'"
figures_stored minimize kernel_overhead \
	"SELECT k.total_s * 1000 FROM kernel_overhead_runs k JOIN runs r USING (run_id) WHERE r.label = ?1"

# the other two compare metrics tune did not have, as constraints
for c in 'uclamp_aggregations >= 0' 'kernel_charged <= 1000ms'; do
	"$bin" tune "$tmp/p.txt" --vary "$vary" --minimize energy --subject-to "$c" --quiet \
		>/dev/null 2>"$tmp/err.txt" || golden_fail "--subject-to '$c': $(cat "$tmp/err.txt")"
done
"$bin" tune "$tmp/p.txt" --vary "$vary" --minimize kernel_charged --timing traced --quiet \
	>/dev/null 2>"$tmp/err.txt"
rc=$?
[ $rc = 2 ] && grep -q "work timing only" "$tmp/err.txt" ||
	golden_fail "kernel_charged with --timing traced: exit $rc: $(cat "$tmp/err.txt")"

# every metric compare lists, tune lists too
"$bin" compare --help | sed -n '/^metrics/,/^$/p' | awk '/^  / { print $1 }' >"$tmp/compare.txt"
"$bin" tune --help | sed -n '/^metrics/,/^$/p' | awk '/^  / { print $1 }' >"$tmp/tune.txt"
[ "$(wc -l <"$tmp/compare.txt")" -ge 20 ] || golden_fail "compare --help lists fewer than 20 metrics"
while read -r m; do
	grep -qx "$m" "$tmp/tune.txt" || golden_fail "compare has metric '$m', tune --help does not list it"
done <"$tmp/compare.txt"
exit $fail
