#!/bin/bash
# invariants.sh - what must hold for every run on the real traces, checked from the run's own
# CSV tables and the platform's SQL (computed here, independently of govsim):
#  1. residency sums to the replay's span, per policy;
#  2. work timing: work in = work out, per CPU;
#  3. the static key off (no policy) => no uclamp aggregation ran; a clamp policy => it ran;
#  4. energy (em model) at a fixed OPP (performance; userspace at the second-highest OPP)
#     equals busy time x C x mV^2 x MHz / 1e9 mW per cluster, the power computed here from the
#     model's dynamic-power-coefficient and voltages (truncated as the kernel's EM does; or the
#     EM power the model states, where it gives no coefficient), and the clusters' energies add
#     up to the total (every configuration).
# Does not check: frequencies chosen by schedutil (unit tests and validate), other power models.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init invariants
command -v sqlite3 >/dev/null || { golden_fail "sqlite3 not found (tools/setup.sh)"; exit 1; }

# trace|platform
cases="traces/android-8cpu/surfaceflinger.txt|hikey960
traces/juno-r0/sched_load/trace.dat|juno-r0
traces/juno-r0/rtapp_switch/trace.txt|juno-r0
traces/android-8cpu/surfaceflinger.txt|hikey"

# model.db per platform, for the power computed here
for p in hikey960 juno-r0 hikey; do
	sqlite3 "$tmp/$p.db" <models/schema.sql && sqlite3 "$tmp/$p.db" <"models/$p.sql" || {
		golden_fail "cannot load models/$p.sql"; exit 1; }
done

invariants_hold() { # dir platform mode(opp|free) [expect_key on|off]
	python3 - "$1" "$tmp/$2.db" "$3" "${4:-off}" <<'PY'
import csv, sqlite3, sys
d, model, mode, key = sys.argv[1:5]
rows = lambda t: list(csv.DictReader(open(f"{d}/{t}.csv")))
bad = []
run = rows("runs")[0]
span = float(run["span_s"])
res = {}
for r in rows("residency"):
    res.setdefault(int(r["policy"]), []).append((int(r["freq_khz"]), float(r["seconds"])))
for pol, opps in res.items():
    tot = sum(s for _, s in opps)
    if abs(tot - span) > 1e-9 * max(1.0, span) + 1e-12:
        bad.append(f"policy{pol}: residency sums to {tot!r}, span {span!r}")
if run["timing"] == "work":
    for w in rows("work"):
        a, b = float(w["work_in_s"]), float(w["work_out_s"])
        if abs(a - b) > 1e-9 * max(1.0, a):
            bad.append(f"cpu{w['cpu']}: work in {a!r} != work out {b!r}")
uc = rows("uclamp_stats")[0]
if key == "off" and (int(uc["agg_ops"]) != 0 or uc["key_on_at_s"] != ""):
    bad.append(f"key off but agg_ops {uc['agg_ops']}, key on at '{uc['key_on_at_s']}'")
if key == "on" and (int(uc["agg_ops"]) == 0 or uc["key_on_at_s"] == ""):
    bad.append("a clamp policy ran no aggregation")
energy = {(e["scope"], e["name"]): float(e["joules"]) for e in rows("energy")}
clusters = [k for k in energy if k[0] == "cluster"]
if abs(sum(energy[k] for k in clusters) - energy[("total", "total")]) > 1e-12 + 1e-9 * energy[("total", "total")]:
    bad.append("cluster energies do not add up to the total")
if mode == "opp":
    db = sqlite3.connect(model)
    if not rows("policy_stats"):
        bad.append("no policy to check the energy of")
    for ps in rows("policy_stats"):
        pol, cl = int(ps["policy"]), int(ps["cluster"])
        used = [(f, s) for f, s in res[pol] if s > 0]
        if len(used) != 1:
            bad.append(f"policy{pol}: expected one OPP, residency {used}")
            continue
        f = used[0][0]
        c, = db.execute("SELECT dyn_power_coeff FROM clusters WHERE cluster=?", (cl,)).fetchone()
        uv, given = db.execute("SELECT volt_uv, em_power_mw_given FROM opps"
                               " WHERE cluster=? AND freq_khz=?", (cl, f)).fetchone()
        if c is not None and uv is not None:
            mw = c * (uv // 1000) ** 2 * (f // 1000) // 10**9   # the EM's power, truncated
        else:
            mw = given   # the model states the EM power itself
        want = float(ps["busy_s"]) * mw / 1000.0
        got = energy[("cluster", f"cluster{cl}")]
        if abs(got - want) > 1e-9 * max(want, 1e-6):
            bad.append(f"cluster{cl} at {f} kHz: energy {got!r} J, busy x power = {want!r} J")
for b in bad:
    print(f"{d}: {b}")
sys.exit(1 if bad else 0)
PY
}

n=0
while IFS='|' read -r trace plat; do
	n=$((n + 1))
	second=$(sqlite3 "$tmp/$plat.db" "SELECT freq_khz FROM opps WHERE cluster = 0 ORDER BY freq_khz DESC LIMIT 1 OFFSET 1")
	for mode in schedutil performance userspace traced clamp; do
		out="$tmp/$n-$mode"
		case $mode in
		schedutil) args=() ;;
		performance) args=(--governor performance) ;;
		userspace) args=(--governor userspace --set "freq_khz=$second") ;;
		traced) args=(--timing traced) ;;
		clamp) args=(--action 'setattr comm=* uclamp_max=300') ;;
		esac
		if ! "$bin" run "$trace" --platform "$plat" --quiet --csv "$out" "${args[@]}" 2>"$tmp/err"; then
			golden_fail "$trace $mode: run failed: $(cat "$tmp/err")"
			continue
		fi
		kind=free
		[ $mode = performance ] && kind=opp
		key=off
		[ $mode = clamp ] && key=on
		invariants_hold "$out" "$plat" "$kind" "$key" || golden_fail "$trace $mode: an invariant fails"
	done
done <<<"$cases"

[ $fail -eq 0 ] && echo "$me: every invariant holds on $n traces x 5 configurations"
exit $fail
