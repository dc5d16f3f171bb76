#!/bin/bash
# gen_platform.sh - a generated trace is the platform's, so `run` replays it as traced.
#
# Checks, for gen without --platform (the default platform, hikey960) and with --platform
# juno-r0 and hikey: the trace's CPU count (its #P: header and the CPUs of its frequency
# markers) and each CPU's frequency equal the platform model's, read by sqlite3 from
# models/NAME.sql (the CPUs, and the highest OPP of each CPU's cluster); and `run` of the trace
# on that platform notes no what-if (the frequencies are OPPs of the platform) and no CPUs
# missing. --cpus/--max-khz still write what they say.
# Does not check: the workload itself (pipes.sh, run.sh).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init gen_platform
src=$PWD

for p in default juno-r0 hikey; do
	name=$p
	args=(--platform "$p")
	[ "$p" = default ] && { name=hikey960; args=(); }
	"$bin" gen mix "${args[@]}" -o "$tmp/$p.txt" ||
		{ golden_fail "gen mix ${args[*]} failed"; continue; }
	sqlite3 "$tmp/$name.db" <"$src/models/schema.sql" && sqlite3 "$tmp/$name.db" <"$src/models/$name.sql" ||
		{ golden_fail "cannot load models/$name.sql"; continue; }
	# cpu -> the highest OPP of its cluster, from the model
	sqlite3 -separator ' ' "$tmp/$name.db" "SELECT c.cpu, (SELECT max(o.freq_khz) FROM opps o
		WHERE o.cluster = cc.cluster) FROM cpus c JOIN cluster_cpus cc ON cc.cpu = c.cpu
		ORDER BY c.cpu" >"$tmp/want.txt" ||
		{ golden_fail "$name: cannot read the highest OPP of each CPU"; continue; }
	# the trace's frequency markers: cpu -> state
	sed -n 's/.*cpu_frequency_devlib: state=\([0-9]*\) cpu_id=\([0-9]*\).*/\2 \1/p' "$tmp/$p.txt" |
		sort -n >"$tmp/got.txt"
	diff -u "$tmp/want.txt" "$tmp/got.txt" >&2 ||
		golden_fail "$p: CPUs and frequencies differ from models/$name.sql"
	ncpu=$(sed -n 's/.*#P:\([0-9]*\).*/\1/p' "$tmp/$p.txt" | head -1)
	[ "$ncpu" = "$(wc -l <"$tmp/want.txt")" ] ||
		golden_fail "$p: #P:$ncpu, the model has $(wc -l <"$tmp/want.txt") CPUs"
	"$bin" run "$tmp/$p.txt" --platform "$name" >"$tmp/run.txt" 2>&1 || golden_fail "run on $name failed"
	if grep -E 'what-if|no OPP' "$tmp/run.txt" >&2; then
		golden_fail "$p: the replay on $name is a what-if"
	fi
done

"$bin" gen mix --cpus 2 --max-khz 1000000 -o "$tmp/c.txt" ||
	golden_fail "gen mix --cpus 2 --max-khz 1000000: exit $?"
[ "$(grep -c 'cpu_frequency_devlib: state=1000000 ' "$tmp/c.txt")" = 2 ] ||
	golden_fail "--cpus 2 --max-khz 1000000 does not write 2 CPUs at 1 GHz"
exit $fail
