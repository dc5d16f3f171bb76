#!/bin/bash
# lab_floors.sh - tools/lab/measure --check: a kernel's totals are floors without tolerance; a
# recording's figures may fall up to --tolerance points (5) below their own floors. On one
# recording (5.10 periodic): the floors it writes pass; a recording floor raised by 4.9 points
# still passes, by 5.2 fails; a total raised by 0.2 fails (the written floors are the figures
# rounded down to 0.1, so +0.2 is above the figure). A recording without the probes prints "-"
# for its kernel evaluations' pairing, not nan. A total's energy floor (within 1 %) is checked
# too, and a traced energy that differs from the one measure counts from the text fails.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init lab_floors.sh
rec=traces/lab/5.10/periodic.txt.gz
m() { tools/lab/measure --govsim "$bin" "$@" "$rec" >"$tmp/out" 2>&1; }
m --write-thresholds "$tmp/th.tsv" || { echo "lab_floors.sh: measure failed: $(cat "$tmp/out")"; exit 1; }
# raise field F (4 recall, 5 precision) of the rows matching awk condition C by D
raise() {
	awk -F'\t' -v OFS='\t' -v f="$1" -v d="$3" "/^#/ { print; next } $2 { \$f = sprintf(\"%.1f\", \$f + d) } { print }" \
		"$tmp/th.tsv" >"$tmp/th2.tsv"
}
expect() {
	m --check "$tmp/th2.tsv"
	local st=$?
	[ "$st" = "$2" ] || golden_fail "$1: exit $st, want $2: $(cat "$tmp/out")"
}
cp "$tmp/th.tsv" "$tmp/th2.tsv"
expect "the written floors" 0
raise 4 '$2 == "periodic" && $3 == "policy0"' 4.9
expect "a recording 4.9 below its floor" 0
raise 4 '$2 == "periodic" && $3 == "policy0"' 5.2
expect "a recording 5.2 below its floor" 1
grep -q "more than 5 below its floor" "$tmp/out" || golden_fail "no message: $(cat "$tmp/out")"
raise 5 '$2 == "*"' 0.2
expect "a total 0.2 below its floor" 1
grep -q "^measure: 5.10 total: precision .* is below its floor" "$tmp/out" ||
	golden_fail "no total message: $(cat "$tmp/out")"
# a total's energy floor: the written one is within 1 % (99.0); 100.0 asks for an exact match
awk -F'\t' -v OFS='\t' '/^#/ { print; next } $2 == "*" { $7 = "100.0" } { print }' "$tmp/th.tsv" >"$tmp/th2.tsv"
expect "a total energy floor of 100.0" 1
grep -q "^measure: 5.10 total: energy .* is below its floor 100.0" "$tmp/out" ||
	golden_fail "no energy message: $(cat "$tmp/out")"
# the traced energy, counted again from the text: facts whose 3 GHz P-state draws a third more
# than the platform govsim replays on (30000 mW) disagree with govsim's by more than 2 %
zcat "$rec" | gzip >"$tmp/pw.txt.gz"
sed 's/^pstates_mhz_mw = 3000:30000,/pstates_mhz_mw = 3000:40000,/' "${rec%.txt.gz}.facts" >"$tmp/pw.facts"
grep -q '^pstates_mhz_mw = 3000:40000,' "$tmp/pw.facts" || golden_fail "the facts' P-states moved"
tools/lab/measure --govsim "$bin" "$tmp/pw.txt.gz" >"$tmp/pw.out" 2>&1 &&
	golden_fail "measure accepted an energy it counts otherwise: $(cat "$tmp/pw.out")"
grep -q "govsim's energy at the traced frequencies is .* mJ, the trace text's .* mJ" "$tmp/pw.out" ||
	golden_fail "no energy count message: $(cat "$tmp/pw.out")"
# a recording without the probes has no kernel evaluations to pair: '-', not nan
zcat "$rec" | grep -v -e ' resolve_freq: ' -e ' sugov_update_' -e ' idle_calls: ' \
	-e ' update_blocked_averages: ' | gzip >"$tmp/np.txt.gz"
cp "${rec%.txt.gz}.facts" "$tmp/np.facts"
tools/lab/measure --govsim "$bin" "$tmp/np.txt.gz" >"$tmp/np.out" 2>&1 ||
	golden_fail "measure without probes failed: $(cat "$tmp/np.out")"
grep -q 'kernel evaluations 0, paired -, util within 10 -, busy hold agrees -;' "$tmp/np.out" && ! grep -q nan "$tmp/np.out" ||
	golden_fail "without probes: $(tail -1 "$tmp/np.out")"
exit $fail
