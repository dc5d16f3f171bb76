#!/bin/bash
# platforms.sh - `govsim platforms`: list, show (built-in and a user file) and validate, against
# reviewed outputs in tests/golden/expected/platforms_*.txt. The broken models are made from the
# real models/hikey960.sql by one substitution each, so they follow it; plus fixtures in
# tests/fixtures/platforms/. Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt).
set -u
cd "${GOVSIM_SOURCE_DIR:-.}" || exit 1
bin=${GOVSIM_BIN:?GOVSIM_BIN is not set}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# check NAME EXPECTED_STATUS CMD...: stdout+stderr and the exit status against expected/NAME.txt
check() {
	local name=$1 want=$2
	shift 2
	local out="$tmp/$name.txt" status
	(cd "$tmp" && "$@") >"$out" 2>&1
	status=$?
	echo "exit $status" >>"$out"
	if [ "$status" -ne "$want" ]; then
		echo "platforms.sh: $name: exit status $status, expected $want"
		fail=1
	fi
	if ! diff -u "tests/golden/expected/$name.txt" "$out"; then
		echo "platforms.sh: $name: output differs from tests/golden/expected/$name.txt"
		fail=1
	fi
}

# Two OPPs swapped (cluster 0: 999000 and 1402000): the row out of order is named.
sed -e "s/^(0,  999000,  800000, NULL, 'DT v5.9 cluster0 opp01'),/@A@/" \
    -e "s/^(0, 1402000,  900000, NULL, 'DT v5.9 cluster0 opp02'),/(0,  999000,  800000, NULL, 'DT v5.9 cluster0 opp01'),/" \
    -e "s/^@A@/(0, 1402000,  900000, NULL, 'DT v5.9 cluster0 opp02'),/" \
    models/hikey960.sql >"$tmp/copy.sql"
# A typo in a statement: SQLite's message with the file and line.
sed -e "s/^INSERT INTO cost_idle /INSERTT INTO cost_idle /" models/hikey960.sql >"$tmp/typo.sql"
cp tests/fixtures/platforms/*.sql "$tmp/"

check platforms_list 0 "$bin" platforms list
check platforms_show_hikey960 0 "$bin" platforms show hikey960
check platforms_show_juno-r0 0 "$bin" platforms show juno-r0
check platforms_show_minimal 0 "$bin" platforms show minimal.sql
cp models/hikey960.sql "$tmp/"
check platforms_validate_ok 0 "$bin" platforms validate hikey960.sql
check platforms_validate_swapped 3 "$bin" platforms validate copy.sql
check platforms_validate_typo 3 "$bin" platforms validate typo.sql
check platforms_validate_two_policies 3 "$bin" platforms validate two_policies_one_cpu.sql
check platforms_show_unknown 3 "$bin" platforms show no-such-board
check platforms_usage 2 "$bin" platforms frob
exit $fail
