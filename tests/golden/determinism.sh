#!/bin/bash
# determinism.sh - the same inputs give the same results, byte for byte (DESIGN.md §10, STYLE.md
# "equal timestamps keep their insertion order").
#
# Invariant: replaying the same trace with the same platform, governor, tunables and policy twice,
# in two processes (so with different heap addresses and, under ASLR, different pointer order),
# gives results databases that are identical files when SOURCE_DATE_EPOCH pins runs.created_at,
# and identical `sqlite3 .dump` text apart from created_at when it does not; the --csv tables,
# the --timeline CSV and the printed summary are identical too. Two runs into one database
# write the same rows under two run ids. Configurations cover both timing models, both util
# sources, both power models, a clamp policy with cgroups and timed actions, --baselines, the
# three text layouts, a trace.dat and a CSV util trace.
# Does not check: that the numbers are right (other golden and unit tests).
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt); needs sqlite3(1).
set -u
cd "${GOVSIM_SOURCE_DIR:-.}" || exit 1
bin=${GOVSIM_BIN:?GOVSIM_BIN is not set}
command -v sqlite3 >/dev/null || { echo "determinism.sh: sqlite3 not found (tools/setup.sh)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

# A small CSV util trace, to drive the CSV path end to end.
cat >"$tmp/util.csv" <<'EOF'
time_s,cpu,util,util_rt,freq_khz,idle_state
0.000000,0,312,0,450000,-1
0.000000,1,45,,450000,1
0.004000,0,330,12,575000,-1
0.004000,4,700,0,1100000,-1
0.008000,1,90,0,450000,-1
0.012000,0,20,0,450000,0
0.016000,4,900,0,1100000,-1
0.020000,4,100,0,1100000,-1
EOF

# same NAME ARGS...: two runs with the same arguments in fresh directories; compare everything.
same() {
	local name=$1 a="$tmp/$1.a" b="$tmp/$1.b" d s
	shift
	n=$((n + 1))
	mkdir -p "$a" "$b"
	for d in "$a" "$b"; do
		# pinned creation time: whole files comparable
		SOURCE_DATE_EPOCH=1600000000 "$bin" run "$@" --db "$d/pinned.db" --csv "$d/csv" \
			--timeline "$d/timeline.csv" >"$d/summary.txt" 2>"$d/stderr.txt"
		s=$?
		if [ "$s" -ne 0 ]; then
			echo "determinism.sh: $name: exit status $s"
			sed 's/^/  /' "$d/stderr.txt"
			fail=1
			return
		fi
		# the clock's creation time: compare the dump without created_at; run twice into
		# one database to check that a second run writes the same rows
		"$bin" run "$@" --db "$d/clock.db" --quiet 2>/dev/null &&
			"$bin" run "$@" --db "$d/clock.db" --quiet 2>/dev/null || {
			echo "determinism.sh: $name: run without SOURCE_DATE_EPOCH failed"
			fail=1
			return
		}
		sqlite3 "$d/clock.db" .dump |
			sed -E "s/'[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z'\);$/'<created_at>');/" \
				>"$d/clock.sql"
	done
	if ! cmp -s "$a/pinned.db" "$b/pinned.db"; then
		echo "determinism.sh: $name: results databases differ (SOURCE_DATE_EPOCH set)"
		diff <(sqlite3 "$a/pinned.db" .dump) <(sqlite3 "$b/pinned.db" .dump) | head -10
		fail=1
	fi
	if ! diff -u "$a/clock.sql" "$b/clock.sql" >"$tmp/diff"; then
		echo "determinism.sh: $name: database dumps differ apart from created_at"
		head -20 "$tmp/diff"
		fail=1
	fi
	if ! grep -q "<created_at>" "$a/clock.sql"; then
		echo "determinism.sh: $name: created_at not found in the dump (did the schema change?)"
		fail=1
	fi
	for f in summary.txt stderr.txt timeline.csv csv; do
		if ! diff -r "$a/$f" "$b/$f" >"$tmp/diff"; then
			echo "determinism.sh: $name: $f differs"
			head -10 "$tmp/diff"
			fail=1
		fi
	done
	# the two runs in one database: the same rows apart from run_id (the first column)
	for t in energy residency policy_stats task_stats uclamp_stats timeline work; do
		if ! diff <(sqlite3 "$a/clock.db" "SELECT * FROM $t WHERE run_id = 1" | cut -d'|' -f2-) \
			<(sqlite3 "$a/clock.db" "SELECT * FROM $t WHERE run_id = 2" | cut -d'|' -f2-) \
			>"$tmp/diff"; then
			echo "determinism.sh: $name: table $t: a second run into one database wrote other rows"
			head -6 "$tmp/diff"
			fail=1
		fi
	done
}

sf=traces/android-8cpu/surfaceflinger.txt
rtapp=traces/juno-r0/rtapp_switch/trace.txt
same sf-schedutil-work $sf
same sf-policy-baselines $sf --policy tests/fixtures/policies/top-app.txt --baselines
same sf-traced-costs $sf --timing traced --power-model costs
same sf-ondemand $sf --governor ondemand --set up_threshold=80
same rtapp-juno $rtapp --platform juno-r0 --action 'setattr comm=* uclamp_min=100 uclamp_max=900'
same dat-trace-util traces/juno-r0/sched_load/trace.dat --platform juno-r0 --util-source trace
same unsorted-text traces/formats/trace_idle_unsorted.txt --timing traced
same csv-util "$tmp/util.csv" --util-source trace

echo "determinism.sh: $n configurations"
exit $fail
