#!/bin/bash
# tune.sh - `govsim tune` on a synthetic trace whose answers are computed here, by hand, from
# Hikey960's OPP table and schedutil's formula (Linux v5.9), not from what govsim printed.
#
# The trace: one rt-app-like task `rtapp` on CPU 0 (the A53 cluster, capacity 462, OPPs 533,
# 999, 1402, 1709, 1844 MHz), 4 ms of work at 1844 MHz every 16 ms. With uclamp_min = u above
# the task's own util (about a quarter of 462), schedutil asks for
#     freq = (f_max + f_max/4) * u / capacity        (get_next_freq, map_util_freq)
# and the cpufreq core takes the lowest OPP >= freq (CPUFREQ_RELATION_L). The work takes
# 4 ms * 1844 / f: 7.38 ms at 999 MHz, 5.26 ms at 1402 MHz. A 6 ms deadline therefore needs
# 1402 MHz, i.e. freq > 999000 kHz: the smallest u is floor(999000 * 462 / 2305000) + 1.
# Under the em model energy per unit of work grows with the OPP (em cost 96, 129, 163, ...),
# so the least energy meeting the deadline is also at that u (the lowest value of its plateau).
#
# Checks: --find smallest and --minimize energy give that u (two traces: the larger of
# theirs; a cgroup's percent: the one that rounds to it); the margin names u - 1 as failing;
# a relative target against governor=performance; an infeasible target exits 1 with the best
# found; --jobs 1 and --jobs 2 give the same answer, the same table and the same database rows;
# malformed specs exit 2 quoting the offending text.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init tune

"$bin" gen periodic -o "$tmp/p.txt" --platform hikey960 \
	--task name=rtapp,period_ms=16,duty=0.25,cpu=0,count=20 >/dev/null || golden_fail "gen failed"

# the hand computation, from the platform's own table (platforms show --json)
"$bin" platforms show hikey960 --json >"$tmp/plat.json" || golden_fail "platforms show failed"
read -r cap fmax below below2 <<<"$(python3 - "$tmp/plat.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
pol = [x for x in p["policies"] if 0 in x["cpus"]][0]
opps = sorted(o["khz"] for o in pol["opps"])
cap = [c["capacity"] for c in p["cpus"] if c["cpu"] == 0][0]
fmax = opps[-1]
out = [cap, fmax]
for work_ms in (4.0, 4.8):                    # duty 0.25 and 0.3 of 16 ms, at fmax
    need = work_ms * fmax / 6.0               # kHz to do it within 6 ms
    target = min(o for o in opps if o >= need)    # the OPP it takes
    out.append(max(o for o in opps if o < target))  # the OPP under it
print(*out)
EOF
)"
# smallest u with (fmax + fmax/4) * u / cap > below, in the kernel's integer arithmetic
want=$(( below * cap / (fmax + fmax / 4) + 1 ))
want2=$(( below2 * cap / (fmax + fmax / 4) + 1 ))
[ "$want $want2" = "201 282" ] || golden_fail "hand computation gave $want $want2 (expected 201 282 for hikey960)"

vary='setattr comm=rtapp uclamp_min=?'
deadline='response_max(comm=rtapp) <= 6ms'

# --find smallest, with the margin
out=$("$bin" tune "$tmp/p.txt" --vary "$vary" --find smallest --subject-to "$deadline" \
	--db "$tmp/j2.db" --jobs 2 --quiet)
rc=$?
[ $rc = 0 ] || golden_fail "--find exit $rc"
grep -q "^answer:   uclamp_min=$want\$" <<<"$out" || golden_fail "--find: expected uclamp_min=$want: $out"
grep -q "uclamp_min=$((want - 1)) fails:" <<<"$out" || golden_fail "--find: margin not u-1: $out"

# the same with --jobs 1: same output, same rows
out1=$("$bin" tune "$tmp/p.txt" --vary "$vary" --find smallest --subject-to "$deadline" \
	--db "$tmp/j1.db" --jobs 1 --quiet --plot "$tmp/t.png")
[ "$out" = "$(sed "s|j1.db|j2.db|" <<<"$out1")" ] || golden_fail "--jobs 1 and 2 answer differently"
diff <(golden_db_dump "$tmp/j1.db") <(golden_db_dump "$tmp/j2.db") >/dev/null || golden_fail "--jobs 1 and 2 store different rows"
n=$(sqlite3 "$tmp/j2.db" "SELECT count(*) FROM runs WHERE label LIKE 'action=\"setattr comm=rtapp uclamp_min=%'")
pts=$(sed -n 's/^runs: *\([0-9]*\) points.*/\1/p' <<<"$out")
[ "$n" = "$pts" ] && [ "$n" -gt 2 ] || golden_fail "stored $n runs for $pts points"
# compare finds the path by the label sweep writes
"$bin" compare --db "$tmp/j2.db" --base "action=setattr comm=rtapp uclamp_min=$((want - 1))" \
	--new "action=setattr comm=rtapp uclamp_min=$want" >/dev/null || golden_fail "compare of the path failed"

# a cgroup's cpu.uclamp.min (percent, 0.01 steps): the kernel's capacity_from_percent() rounds
# percent x 100 x 1024 / 10000 to the closest, so the smallest percent giving u >= want
pct=$(python3 -c "print(next(p for p in range(10001) if (p * 1024 + 5000) // 10000 >= $want) / 100)")
out=$("$bin" tune "$tmp/p.txt" --action 'cgroup /top-app' --action 'attach comm=rtapp /top-app' --quiet \
	--vary 'cgroup /top-app cpu.uclamp.min ?' --find smallest --subject-to "$deadline") ||
	golden_fail "cgroup: exit $?"
grep -q "^answer:   cpu.uclamp.min=$pct\$" <<<"$out" || golden_fail "cgroup: expected $pct: $out"

# --plot through the cairo plot code: PNG (the --jobs 1 run above) and SVG
[ "$(head -c 4 "$tmp/t.png" | od -An -c | tr -d ' ')" = '211PNG' ] || golden_fail "--plot wrote no PNG"
"$bin" tune "$tmp/p.txt" --vary 'setattr comm=rtapp uclamp_min=?[0:400:1]' --find smallest \
	--subject-to "$deadline" --quiet --plot "$tmp/t.svg" >/dev/null || golden_fail "--plot svg: exit $?"
grep -q '<svg' "$tmp/t.svg" || golden_fail "--plot wrote no SVG"

# two traces: a value must meet the deadline on both; the second task's 4.8 ms of work need
# 1709 MHz (1402 does it in 6.31 ms), so u > 1402000 * 462 / 2305000
"$bin" gen periodic -o "$tmp/p30.txt" --platform hikey960 \
	--task name=rtapp,period_ms=16,duty=0.3,cpu=0,count=20 >/dev/null || golden_fail "gen p30 failed"
out=$("$bin" tune "$tmp/p.txt" "$tmp/p30.txt" --vary "$vary" --find smallest \
	--subject-to "$deadline" --quiet) || golden_fail "two traces: exit $?"
grep -q "^answer:   uclamp_min=$want2\$" <<<"$out" || golden_fail "two traces: expected $want2: $out"
grep -q "uclamp_min=$((want2 - 1)) fails:" <<<"$out" || golden_fail "two traces: margin: $out"

# --minimize energy under the same deadline: the same value (the cheapest feasible OPP)
out=$("$bin" tune "$tmp/p.txt" --vary "$vary" --minimize energy --subject-to "$deadline" \
	--quiet --json) || golden_fail "--minimize exit $?"
got=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(int(d["answer"]["values"]["uclamp_min"]), d["feasible"])' <<<"$out")
[ "$got" = "$want True" ] || golden_fail "--minimize energy: got '$got', expected '$want True'"

# a relative target: within +40% of performance's p95 (4 ms of work at max) needs the same OPP
# (5.26 ms at 1402 is +32%, 7.38 ms at 999 +85%); the same against the task boosted to 1024 (at
# the maximum too): two constraints, two baselines
out=$("$bin" tune "$tmp/p.txt" --vary "$vary" --find smallest --quiet --db "$tmp/rel.db" \
	--subject-to 'response_p95(comm=rtapp) <= +40% vs governor=performance' \
	--subject-to "response_p95(comm=rtapp) <= +40% vs action='setattr comm=rtapp uclamp_min=1024'") ||
	golden_fail "relative: exit $?"
grep -q "^answer:   uclamp_min=$want\$" <<<"$out" || golden_fail "relative: expected $want: $out"
[ "$(sqlite3 "$tmp/rel.db" "SELECT count(*) FROM runs WHERE label LIKE 'baseline %'")" = 2 ] ||
	golden_fail "relative: not two baseline runs stored"

# infeasible: 4 ms of work never fits 3 ms, even at the maximum; exit 1 with the best found
out=$("$bin" tune "$tmp/p.txt" --vary "$vary" --find smallest --quiet \
	--subject-to 'response_max(comm=rtapp) <= 3ms')
rc=$?
[ $rc = 1 ] || golden_fail "infeasible: exit $rc, expected 1"
grep -q "^answer:   none: .*best found uclamp_min=1024" <<<"$out" || golden_fail "infeasible: $out"

# two unknowns: on the grid uclamp_min 0, 100, .., 400 the deadline needs >= 201, so 300 (1709
# MHz: 2305000 * 300 / 462 = 1496753 kHz) and 400 (1844 MHz) are feasible; 300 costs less energy
out=$("$bin" tune "$tmp/p.txt" --vary 'setattr comm=rtapp uclamp_min=?[0:400:100]' \
	--vary 'rate_limit_us=?[0:20000:10000]' --minimize energy --subject-to "$deadline" --quiet) ||
	golden_fail "two unknowns: exit $?"
grep -q "^answer:   uclamp_min=300 rate_limit_us=" <<<"$out" || golden_fail "two unknowns: $out"

# The energy-optimal rate limit, against every value: a burst (20 ms at full load) then a light
# phase (30% of every 2 ms). A longer rate limit slows the burst's ramp up (less energy) but holds
# its high OPP into the light phase (more): the exhaustive sweep below has one least-energy
# value, which tune's refined grid (5 points first, 17 replays of 21) must find.
"$bin" gen periodic -o "$tmp/r.txt" --platform hikey960 \
	--task name=h,period_ms=2,phases=1.0x10/0.3x60,cpu=0,count=70 >/dev/null || golden_fail "gen r failed"
"$bin" sweep "$tmp/r.txt" --set rate_limit_us=$(seq -s, 0 2000 40000) --db "$tmp/all.db" \
	--quiet --jobs 2 || golden_fail "sweep failed"
read -r best nbest <<<"$(sqlite3 -separator ' ' "$tmp/all.db" "
	WITH e AS (SELECT r.label, t.joules FROM runs r JOIN energy t USING (run_id)
		   WHERE t.scope = 'total')
	SELECT (SELECT substr(label, 15) FROM e ORDER BY joules LIMIT 1),
	       (SELECT count(*) FROM e WHERE joules = (SELECT min(joules) FROM e))")"
[ "$nbest" = 1 ] || golden_fail "the trace's least energy is not unique ($nbest values)"
out=$("$bin" tune "$tmp/r.txt" --vary 'rate_limit_us=?[0:40000:2000]' --minimize energy \
	--grid 5 --quiet --json) || golden_fail "rate limit: exit $?"
got=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(int(d["answer"]["values"]["rate_limit_us"]), len(d["points"]))' <<<"$out")
[ "${got% *}" = "$best" ] || golden_fail "rate limit: tune found ${got% *}, the sweep's least energy is at $best"
[ "${got#* }" -lt 21 ] || golden_fail "rate limit: tune evaluated every value (${got#* })"

# malformed specs: exit 2, the offending text quoted
for args in "--vary|setattr comm=rtapp uclamp_min=5" "--vary|up_threshold=?" \
	"--vary|rate_limt_us=?[0:100:10]" \
	"--vary|rate_limit_us=?[9:1:1]" "--subject-to|respons_max <= 6ms" \
	"--subject-to|energy <= +5%" "--subject-to|energy(comm=x) <= 1"; do
	opt=${args%%|*}
	val=${args#*|}
	if [ "$opt" = --vary ]; then
		set -- --vary "$val" --find smallest --subject-to "$deadline"
	else
		set -- --vary "$vary" --find smallest --subject-to "$val"
	fi
	err=$("$bin" tune "$tmp/p.txt" "$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] || golden_fail "'$val': exit $rc, expected 2"
	grep -qF "'$val'" <<<"$err" || golden_fail "'$val': message does not quote it: $err"
done
# a closed-loop metric in traced timing would be missing at every value: refused up front
"$bin" tune "$tmp/p.txt" --timing traced --vary "$vary" --find smallest \
	--subject-to "$deadline" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || golden_fail "--timing traced with response_max: exit $rc, expected 2"

exit $fail
