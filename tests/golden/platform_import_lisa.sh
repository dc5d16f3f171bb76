#!/bin/bash
# platform_import_lisa.sh - `govsim platforms import plat_info.yml` on the Juno r0 plat_info.yml
# bundled with the Juno traces (traces/juno-r0/sched_load/, from ARM-software/lisa; provenance
# in traces/README.md), held against models/juno-r0.sql, written by hand from the same file:
# capacities, policies, OPPs, em powers and costs, EAS v1 busy and idle costs equal; the
# differences are exactly those the import's rules state (the transition latency, which the file
# does not give: 0 ns unless --transition-latency-us; idle latencies, not in the file: 0 us where
# the hand-written model took them from the Juno device tree). The comparison reads both models'
# `platforms show --json` with python3's json, and replays the Juno trace on both. Also: bad
# files exit 3 naming the file and line and leave no output; command-line mistakes exit 2.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init platform_import_lisa.sh
py=/usr/bin/python3
pi=traces/juno-r0/sched_load/plat_info.yml

"$bin" platforms import "$pi" -o "$tmp/juno.sql" >"$tmp/out.txt" 2>&1 || golden_fail "import failed: $(cat "$tmp/out.txt")"
"$bin" platforms import "$pi" -o "$tmp/juno1450.sql" --transition-latency-us 1450 --name juno-pi \
	>/dev/null 2>&1 || golden_fail "import with --transition-latency-us failed"
grep -q "^wrote '$tmp/juno.sql': platform 'juno', 6 CPUs, 2 cpufreq policies" "$tmp/out.txt" ||
	golden_fail "unexpected summary: $(cat "$tmp/out.txt")"
"$bin" platforms validate "$tmp/juno.sql" >/dev/null || golden_fail "the imported model does not validate"
"$bin" platforms show juno-r0 --json >"$tmp/ref.json"
"$bin" platforms show "$tmp/juno.sql" --json >"$tmp/imp.json"
"$bin" platforms show "$tmp/juno1450.sql" --json >"$tmp/imp1450.json"

# every source row names the file (and line) or an ASSUMED rule
if grep -E "^\([0-9]" "$tmp/juno.sql" | grep -v -e "$pi:[0-9]" -e "ASSUMED" | grep -q .; then
	golden_fail "a row without a file:line or ASSUMED source"
fi

"$py" - "$tmp/ref.json" "$tmp/imp.json" "$tmp/imp1450.json" <<'PY' || golden_fail "the Python check of $tmp/ref.json $tmp/imp.json failed"
import json, sys
ref, imp, imp1450 = (json.load(open(f)) for f in sys.argv[1:4])
bad = []
def same(what, a, b):
    if a != b:
        bad.append(f"{what}: juno-r0 {a!r}, imported {b!r}")
same("cpus", ref["cpus"], imp["cpus"])
same("cost_unit", ref["cost_unit"], imp["cost_unit"])
same("policies", len(ref["policies"]), len(imp["policies"]))
for r, i, i2 in zip(ref["policies"], imp["policies"], imp1450["policies"]):
    p = r["policy"]
    for k in ("policy", "cluster", "cpus", "dyn_power_coeff", "opps"):
        same(f"policy{p} {k}", r[k], i[k])
    # the listed differences, and nothing else
    same(f"policy{p} transition_latency_ns (not in plat_info: 0)", 0, i["transition_latency_ns"])
    same(f"policy{p} transition_latency_ns (--transition-latency-us 1450)",
         r["transition_latency_ns"], i2["transition_latency_ns"])
    same(f"policy{p} idle states", len(r["idle_states"]), len(i["idle_states"]))
    for rs, s in zip(r["idle_states"], i["idle_states"]):
        for k in ("index", "name", "cluster_level", "cost_cpu_idle", "cost_cluster_idle"):
            same(f"policy{p} idle {rs['name']} {k}", rs[k], s[k])
        same(f"policy{p} idle {rs['name']} exit latency (not in plat_info: 0)", 0,
             s["exit_latency_us"])
        same(f"policy{p} idle {rs['name']} target residency (not in plat_info: 0)", 0,
             s["target_residency_us"])
for b in bad:
    print("platform_import_lisa.sh:", b)
sys.exit(1 if bad else 0)
PY

# The Juno trace replayed on both models (traced timing: the latency is the imported one's
# own, given as the hand-written model's): the same energy to the last digit.
for pm in em costs; do
	a=$("$bin" run traces/juno-r0/sched_load/trace.dat --platform juno-r0 --power-model $pm \
		--timing traced --json | "$py" -c 'import json,sys; print(repr(json.load(sys.stdin)["energy_j"]))')
	b=$("$bin" run traces/juno-r0/sched_load/trace.dat --platform "$tmp/juno1450.sql" --power-model $pm \
		--timing traced --json | "$py" -c 'import json,sys; print(repr(json.load(sys.stdin)["energy_j"]))')
	[ -n "$a" ] && [ "$a" = "$b" ] || golden_fail "--power-model $pm energy: juno-r0 $a, imported $b"
done

# bad input: exit 3, the file and line named, no output file left
expect_bad() { # NAME WANT_STATUS WANT_MESSAGE ARGS...
	local name=$1 want=$2 msg=$3 status
	shift 3
	rm -f "$tmp/bad.sql"
	"$bin" platforms import "$@" >"$tmp/err.txt" 2>&1
	status=$?
	[ "$status" -eq "$want" ] || golden_fail "$name: exit $status, expected $want: $(cat "$tmp/err.txt")"
	grep -qF -- "$msg" "$tmp/err.txt" || golden_fail "$name: no '$msg' in: $(cat "$tmp/err.txt")"
	[ ! -e "$tmp/bad.sql" ] || golden_fail "$name: an output file was written"
	if ls "$tmp"/bad.sql.* >/dev/null 2>&1; then golden_fail "$name: a temporary file was left"; fi
}
printf 'platform-info:\n  conf:\n    freq-domains: [[0, 1]\n' >"$tmp/broken.yml"
expect_bad not_yaml 3 "govsim: '$tmp/broken.yml':4: not YAML" "$tmp/broken.yml" -o "$tmp/bad.sql"
printf 'platform-info:\n  conf:\n    cpus-count: 2\n' >"$tmp/nodomains.yml"
expect_bad no_domains 3 "'$tmp/nodomains.yml':3: no freq-domains" "$tmp/nodomains.yml" -o "$tmp/bad.sql"
printf 'freq-domains:\n- [0, 1]\nfreqs:\n  0: [100, fast]\n' >"$tmp/badfreq.yml"
expect_bad bad_freq 3 "'$tmp/badfreq.yml':4: freqs: a frequency in kHz expected" "$tmp/badfreq.yml" -o "$tmp/bad.sql"
printf 'freq-domains:\n- [0, 1]\n' >"$tmp/nofreqs.yml"
expect_bad no_freqs 3 "policy of CPU 0: no frequencies" "$tmp/nofreqs.yml" -o "$tmp/bad.sql"
printf 'freq-domains:\n- [0]\n- [0, 1]\nfreqs:\n  0: [100]\n  1: [100]\n' >"$tmp/twice.yml"
expect_bad cpu_twice 3 "CPU 0 is in two policies" "$tmp/twice.yml" -o "$tmp/bad.sql"
expect_bad missing 3 "'$tmp/none.yml': cannot open" "$tmp/none.yml" -o "$tmp/bad.sql"
expect_bad no_output 2 "-o FILE.sql is needed" "$pi"
expect_bad bad_latency 2 "--transition-latency-us 'x'" "$pi" -o "$tmp/bad.sql" --transition-latency-us x
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
	expect_bad unwritable 1 "'$tmp/ro/x.sql': cannot write" "$pi" -o "$tmp/ro/x.sql"
fi
expect_bad out_is_dir 1 "'$tmp/ro': write error" "$pi" -o "$tmp/ro"

exit $fail
