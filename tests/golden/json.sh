#!/bin/bash
# json.sh - `--json` outputs parse as one JSON object and agree with the text outputs.
#
# run: the keys README lists, and values read off the text summary of the same run (energy,
# per-policy average MHz and transitions, task count, static key) and off the residency table
# (each policy's residency sums to span_s). compare: the pooled table, a per-trace entry per
# trace in common whose energy means are the energies of the runs of that trace (from run
# --json), and a --fail-on crossed by one trace only that makes compare exit 1 naming it.
# Does not check the figures themselves (run.sh, compare.sh do).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init json
py() { python3 - "$@" || golden_fail "the Python check of $1 failed"; }

sf=traces/android-8cpu/surfaceflinger.txt
"$bin" run $sf --action 'setattr comm=nobody uclamp_min=5' --json >"$tmp/run.json" 2>/dev/null ||
	golden_fail "run $sf --action setattr comm=nobody uclamp_min=5: exit $?"
"$bin" run $sf --action 'setattr comm=nobody uclamp_min=5' >"$tmp/run.txt" 2>/dev/null ||
	golden_fail "run $sf --action setattr comm=nobody uclamp_min=5: exit $?"
py "$tmp/run.json" "$tmp/run.txt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
need = ["trace", "platform", "governor", "kernel", "timing", "traced_span_s", "span_s",
        "energy_j", "energy_by_cluster", "policies", "tasks", "uclamp", "notes"]
missing = [k for k in need if k not in d]
assert not missing, missing
assert d["trace"] == "traces/android-8cpu/surfaceflinger.txt" and d["platform"] == "hikey960"
assert d["governor"] == "schedutil" and d["kernel"] == "v5.9" and d["timing"] == "work"
assert d["traced_span_s"] == d["span_s"]
total = float(re.search(r"^  total +([0-9.]+)", txt, re.M).group(1))
assert abs(d["energy_j"] - total) < 5e-7, (d["energy_j"], total)
assert abs(sum(c["energy_j"] for c in d["energy_by_cluster"]) - d["energy_j"]) < 1e-12
for p in d["policies"]:
    m = re.search(r"^policy%d: avg ([0-9.]+) MHz, (\d+) transitions?" % p["policy"], txt, re.M)
    assert m, p["policy"]
    assert abs(p["avg_khz"] / 1000 - float(m.group(1))) < 0.05
    assert p["transitions"] == int(m.group(2))
    assert abs(sum(x["s"] for x in p["residency"]) - d["span_s"]) < 1e-6
    assert all(set(x) == {"khz", "s"} for x in p["residency"])
    assert {"policy", "busy_s", "avg_khz", "transitions", "residency"} <= set(p)
n = int(re.search(r"^tasks: (\d+)", txt, re.M).group(1))
assert d["tasks"]["count"] == n == len(d["tasks"]["list"])
u = d["uclamp"]
assert u["static_key"] == "off" and u["on_since_s"] is None
assert {"aggregations_run", "aggregations_skipped", "clamped_up_s", "clamped_down_s"} <= set(u)
assert u["actions"][0]["matched"] == 0 and u["actions"][0]["ran"] is True
assert "'--action':1: 'setattr comm=nobody uclamp_min=5' matched no task" in d["notes"]
# work timing's activations, as the text prints them
a = d["activity"]
m = re.search(r"^activations: (\d+), throughput ([0-9.]+) /s", txt, re.M)
assert a["activations"] == int(m.group(1)) and abs(a["throughput_per_s"] - float(m.group(2))) < 5e-4
for k in ("latency", "response", "lateness"):
    m = re.search(r"^  %s +mean +(-?[0-9.]+) s, p95 +(-?[0-9.]+) s, max +(-?[0-9.]+) s" % k, txt, re.M)
    assert m, k
    for i, f in enumerate(("mean_s", "p95_s", "max_s")):
        assert abs(a[k][f] - float(m.group(i + 1))) < 5e-7, (k, f)
assert sum(t["activity"]["activations"] for t in d["tasks"]["list"]) == a["activations"]
assert d["stretch"] == 1
PY

# a replay that ends after its trace: both spans and the stretch, as the text's second line
rt=traces/juno-r0/rtapp_switch/trace.txt
"$bin" run $rt --platform juno-r0 --json >"$tmp/rt.json" 2>/dev/null ||
	golden_fail "run $rt --platform juno-r0 --json: exit $?"
"$bin" run $rt --platform juno-r0 >"$tmp/rt.txt" 2>/dev/null ||
	golden_fail "run $rt --platform juno-r0: exit $?"
"$bin" run $rt --platform juno-r0 --timing traced --json >"$tmp/rt_traced.json" 2>/dev/null ||
	golden_fail "run $rt --platform juno-r0 --timing traced: exit $?"
py "$tmp/rt.json" "$tmp/rt.txt" "$tmp/rt_traced.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
m = re.search(r"([0-9.]+) s traced, ([0-9.]+) s replayed \(stretch ([0-9.]+)\)", txt)
assert m, "no traced/replayed line"
assert abs(d["traced_span_s"] - float(m.group(1))) < 5e-7
assert abs(d["span_s"] - float(m.group(2))) < 5e-7
assert d["span_s"] > d["traced_span_s"]
assert abs(d["stretch"] - d["span_s"] / d["traced_span_s"]) < 1e-12
assert abs(d["stretch"] - float(m.group(3))) < 5e-4
t = json.load(open(sys.argv[3]))
assert t["timing"] == "traced" and t["activity"] is None
assert all(x["activity"] is None for x in t["tasks"]["list"])
PY

# compare: two traces, a policy that raises delay on one of them only (per-trace means checked
# against the stored energies, read from the database directly)
db="$tmp/c.db"
printf 'setattr comm=* uclamp_max=300\n' >"$tmp/cap.txt"
for t in traces/juno-r0/rtapp_switch/trace.txt traces/juno-r0/sched_load/trace.dat; do
	"$bin" run $t --platform juno-r0 --db "$db" --quiet ||
		golden_fail "run $t, no policy: exit $?"
	"$bin" run $t --platform juno-r0 --db "$db" --quiet --policy "$tmp/cap.txt" ||
		golden_fail "run $t --policy cap.txt: exit $?"
done
"$bin" compare --db "$db" --base policy=none --new "policy=$tmp/cap.txt" --json \
	--fail-on 'delay>+50%' >"$tmp/cmp.json" 2>"$tmp/cmp.err"
st=$?
[ $st = 1 ] || golden_fail "compare --fail-on exit $st, want 1"
py "$tmp/cmp.json" "$db" <<'PY'
import json, sqlite3, sys
d = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
# the stored runs' own energies, read straight from the database (not through compare)
energy = {(trace, policy != ""): e for trace, policy, e in db.execute(
    "SELECT r.trace, r.policy, e.joules FROM runs r JOIN energy e USING (run_id) "
    "WHERE e.scope = 'total'")}
assert d["traces"] == 2 and d["base_runs"] == 2 and d["new_runs"] == 2
assert len(d["per_trace"]) == 2
for t in d["per_trace"]:
    e = {m["metric"]: m for m in t["metrics"]}["energy"]
    b, n = energy[(t["trace"], False)], energy[(t["trace"], True)]
    assert e["base"]["amean"] == b and e["new"]["amean"] == n, (t["trace"], e, b, n)
f = d["fail_on"][0]
assert f["threshold"] == "delay>+50%" and f["crossed"] is True
assert f["traces_crossed"] == ["traces/juno-r0/rtapp_switch/trace.txt"], f
PY
grep -qF "on trace 'traces/juno-r0/rtapp_switch/trace.txt': over the limit 'delay>+50%'" "$tmp/cmp.err" ||
	{ golden_fail "compare does not name the trace that crossed"; cat "$tmp/cmp.err" >&2; }
# the text form has the per-trace rows too
"$bin" compare --db "$db" --base policy=none --new "policy=$tmp/cap.txt" >"$tmp/cmp.txt" 2>&1
grep -q "^per trace (means of its runs):" "$tmp/cmp.txt" || golden_fail "no per-trace rows"
# compare selects runs by a tunable and by action=; a key no run has is an
# unknown selector key
sel="$tmp/sel.db"
sl=traces/juno-r0/sched_load/trace.dat
"$bin" run $sl --platform juno-r0 --db "$sel" --quiet --set rate_limit_us=1000 ||
	golden_fail "run $sl rate_limit_us=1000: exit $?"
"$bin" run $sl --platform juno-r0 --db "$sel" --quiet --set rate_limit_us=10000 ||
	golden_fail "run $sl rate_limit_us=10000: exit $?"
"$bin" run $sl --platform juno-r0 --db "$sel" --quiet --set rate_limit_us=1000 \
	--action 'setattr comm=sh  uclamp_min=512' ||
	golden_fail "run $sl rate_limit_us=1000 with an action: exit $?"
"$bin" compare --db "$sel" --base rate_limit_us=1000,policy=none --new rate_limit_us=10000 --json \
	>"$tmp/sel1.json" || golden_fail "compare --new rate_limit_us=10000 (sel1): exit $?"
"$bin" compare --db "$sel" --base rate_limit_us=1000,policy=none \
	--new 'action=setattr comm=sh uclamp_min=512' --json >"$tmp/sel2.json" ||
	golden_fail "compare --new action=... (sel2): exit $?"
"$bin" compare --db "$sel" --base colour=red --new run=1 >"$tmp/sel3.txt" 2>&1
[ $? = 2 ] && grep -q "'colour': unknown selector key" "$tmp/sel3.txt" ||
	{ golden_fail "colour= is not an unknown selector key"; cat "$tmp/sel3.txt" >&2; }
py "$tmp" <<'PY'
import json, sqlite3, sys
tmp = sys.argv[1]
db = sqlite3.connect(tmp + "/sel.db")
energy = dict(db.execute("SELECT r.run_id, e.joules FROM runs r JOIN energy e USING (run_id) WHERE e.scope = 'total'"))
for f, b, n in (("sel1", 1, 2), ("sel2", 1, 3)):
    d = json.load(open("%s/%s.json" % (tmp, f)))
    assert d["base_runs"] == 1 and d["new_runs"] == 1, (f, d["base_runs"], d["new_runs"])
    e = {m["metric"]: m for m in d["metrics"]}["energy"]
    assert e["base"]["amean"] == energy[b] and e["new"]["amean"] == energy[n], (f, e, energy)
PY

# validate, trace info, platforms show: one object each, values as in the text
"$bin" validate traces/juno-r0/sched_load/trace.dat --platform juno-r0 --json >"$tmp/val.json" ||
	golden_fail "validate traces/juno-r0/sched_load/trace.dat --platform juno-r0 ...: exit $?"
"$bin" validate traces/juno-r0/sched_load/trace.dat --platform juno-r0 >"$tmp/val.txt" ||
	golden_fail "validate traces/juno-r0/sched_load/trace.dat --platform juno-r0: exit $?"
"$bin" trace info $sf --json >"$tmp/info.json" || golden_fail "trace info $sf --json: exit $?"
"$bin" trace info $sf >"$tmp/info.txt" || golden_fail "trace info $sf: exit $?"
"$bin" platforms show hikey960 --json >"$tmp/plat.json" ||
	golden_fail "platforms show hikey960 --json: exit $?"
"$bin" platforms show hikey960 >"$tmp/plat.txt" || golden_fail "platforms show hikey960: exit $?"
py "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
v = json.load(open(tmp + "/val.json"))
vt = open(tmp + "/val.txt").read()
assert v["platform"] == "juno-r0" and len(v["traces"]) == 1
for kern in v["traces"][0]["kernels"]:
    for p in kern["policies"]:
        # text row: profile policyN kernel emulated recall precision |dt| busy time util-trace
        # E-ratio
        m = re.search(r"^ +%s +policy%d +(\d+) +(\d+) +([0-9.]+)%% +([0-9.]+)%% +\S+ +([0-9.]+)%% +"
                      r"([0-9.]+)%% +([0-9.]+)%%" % (re.escape(kern["kernel"]), p["policy"]), vt, re.M)
        assert m, (kern["kernel"], p)
        assert p["decisions"] == int(m.group(1))
        assert p["emulated_decisions"] == int(m.group(2))
        assert abs(100 * p["recall"] - float(m.group(3))) < 0.05
        assert abs(100 * p["precision"] - float(m.group(4))) < 0.05
        assert abs(100 * p["busy"] - float(m.group(5))) < 0.05
        assert abs(100 * p["time"] - float(m.group(6))) < 0.05
        assert abs(100 * p["time_util_trace"] - float(m.group(7))) < 0.05
i = json.load(open(tmp + "/info.json"))
it = open(tmp + "/info.txt").read()
assert i["events"] == int(re.search(r"^events: +(\d+)", it, re.M).group(1))
assert i["tasks"] == 82 and i["governor_tasks"] == 2
assert i["by_type"]["sched_switch"] == int(re.search(r"^  sched_switch +(\d+)", it, re.M).group(1))
assert i["cpus_seen"] == list(range(8))
p = json.load(open(tmp + "/plat.json"))
pt = open(tmp + "/plat.txt").read()
assert p["name"] == "hikey960" and p["nr_cpus"] == 8
assert [x["policy"] for x in p["policies"]] == [0, 4]
for pol in p["policies"]:
    for o in pol["opps"]:
        assert str(o["khz"]) in pt, o
PY

exit $fail
