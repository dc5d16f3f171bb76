#!/bin/bash
# platform_import_sysfs.sh - tools/collect-platform.sh and `govsim platforms import DIR`.
#
# Device trees are made here, each file meaning one thing:
#   - the lab guest, 2 vCPUs a policy each and 4 vCPUs in one shared policy, from what the
#     guest itself printed (traces/lab/6.1/burst.facts, traces/lab/5.10/periodic4-shared.facts:
#     policyN.* are its cpufreq files; no cpuidle driver; a QEMU Nehalem CPU without aperfmperf)
#     and held against the hand-written models/lab-2cpu.sql and lab-4cpu-shared.sql: the same
#     CPUs, policies, OPPs, transition latency, idle states and frequency invariance, so a lab
#     trace replays to the same frequency residency; the powers differ as stated (no energy
#     model on x86: the f^3 rule, computed here in python, instead of the lab's _PSS column);
#   - an arm big.LITTLE board with an energy model in debugfs, once as Linux 6.1 (power in uW)
#     and once as 5.10 (mW), a policy whose OPPs are only in stats/time_in_state, cpu_capacity,
#     cpuidle states with latencies: every figure checked against the values written here.
# collect-platform.sh runs under busybox sh with -r on each tree; its output is what is
# imported. Bad trees exit 3 naming the file.
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init platform_import_sysfs.sh
py=/usr/bin/python3
collect=$PWD/tools/collect-platform.sh
shell=sh
if command -v busybox >/dev/null 2>&1; then shell="busybox sh"; fi

# put ROOT PATH VALUE: a file of the device tree
put() { mkdir -p "$1/$(dirname "$2")" && printf '%s\n' "$3" >"$1/$2"; }

# lab_root FACTS ROOT: the guest's tree from its facts file
lab_root() {
	local facts=$1 root=$2
	awk -v root="$root" '
	/^policy[0-9]+\.[a-z_]+ = / {
		split($1, k, "."); v = $0; sub(/^[^=]*= /, "", v); sub(/ +$/, "", v)
		f = root "/sys/devices/system/cpu/cpufreq/" k[1] "/" k[2]
		system("mkdir -p \"" root "/sys/devices/system/cpu/cpufreq/" k[1] "\"")
		print v > f; close(f)
	}
	/^kernel_release = / { f = root "/proc/sys/kernel/osrelease"; system("mkdir -p \"" root "/proc/sys/kernel\""); print $3 > f; close(f) }
	/^cpus = / { for (c = 0; c < $3; c++) system("mkdir -p \"" root "/sys/devices/system/cpu/cpu" c "\"") }
	' "$facts"
	put "$root" sys/devices/system/cpu/cpuidle/current_driver none
	put "$root" proc/cpuinfo "processor	: 0
model name	: Intel Core i7 9xx (Nehalem Class Core i7)
flags		: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 syscall nx lm constant_tsc rep_good nopl xtopology cpuid tsc_known_freq pni ssse3 cx16 sse4_1 sse4_2 x2apic popcnt hypervisor lahf_lm"
}

# import_tree NAME ROOT: collect-platform.sh -r ROOT into $tmp/NAME.d, then the import
import_tree() {
	$shell "$collect" -r "$2" "$tmp/$1.d" >"$tmp/$1.collect" 2>&1 || golden_fail "$1: collect-platform.sh failed: $(cat "$tmp/$1.collect")"
	"$bin" platforms import "$tmp/$1.d" -o "$tmp/$1.sql" >"$tmp/$1.out" 2>&1 ||
		golden_fail "$1: import failed: $(cat "$tmp/$1.out")"
	"$bin" platforms show "$tmp/$1.sql" --json >"$tmp/$1.json" 2>/dev/null || golden_fail "$1: show failed"
}

lab_root traces/lab/6.1/burst.facts "$tmp/lab2"
lab_root traces/lab/5.10/periodic4-shared.facts "$tmp/lab4"
import_tree lab2 "$tmp/lab2"
import_tree lab4 "$tmp/lab4"
[ -f "$tmp/lab2.d/sys/devices/system/cpu/cpufreq/policy1/scaling_available_frequencies" ] ||
	golden_fail "collect-platform.sh did not copy policy1's frequencies"
grep -qx "6.1.0-50-amd64" "$tmp/lab2.d/uname-r" || golden_fail "uname-r is not the tree's osrelease"

for n in lab2:lab-2cpu lab4:lab-4cpu-shared; do
	"$bin" platforms show "${n#*:}" --json >"$tmp/${n%%:*}.ref.json"
	# frequency invariance (not in show --json): the lab models say 0, from the CPU flags
	grep -q "^INSERT INTO frequency_invariance" "$tmp/${n%%:*}.sql" &&
		grep -q "^(0, 'proc/cpuinfo flags: no aperfmperf" "$tmp/${n%%:*}.sql" ||
		golden_fail "${n%%:*}: no freq_invariant 0 row from proc/cpuinfo"
	# acpi-cpufreq (the tree's scaling_driver) cannot switch from another CPU, as the lab models say
	grep -q "^('acpi-cpufreq', 0, 'sys/devices/system/cpu/cpufreq/policy0/scaling_driver" "$tmp/${n%%:*}.sql" ||
		golden_fail "${n%%:*}: no cpufreq_driver row saying acpi-cpufreq, 0"
done
"$py" - "$tmp" <<'PY' || golden_fail "the Python check of $tmp failed"
import json, sys
tmp = sys.argv[1]
bad = []
def same(what, a, b):
    if a != b:
        bad.append(f"{what}: hand-written {a!r}, imported {b!r}")
for n in ("lab2", "lab4"):
    ref = json.load(open(f"{tmp}/{n}.ref.json"))
    imp = json.load(open(f"{tmp}/{n}.json"))
    same(f"{n} cpus", ref["cpus"], imp["cpus"])
    same(f"{n} policies", [p["cpus"] for p in ref["policies"]], [p["cpus"] for p in imp["policies"]])
    for r, i in zip(ref["policies"], imp["policies"]):
        p = f"{n} policy{r['policy']}"
        same(f"{p} latency", r["transition_latency_ns"], i["transition_latency_ns"])
        same(f"{p} kHz", [o["khz"] for o in r["opps"]], [o["khz"] for o in i["opps"]])
        same(f"{p} capacity at OPPs", [o["capacity"] for o in r["opps"]], [o["capacity"] for o in i["opps"]])
        for rs, s in zip(r["idle_states"], i["idle_states"]):
            for k in ("index", "name", "exit_latency_us", "target_residency_us", "cluster_level"):
                same(f"{p} idle {k}", rs[k], s[k])
        same(f"{p} idle states", len(r["idle_states"]), len(i["idle_states"]))
        # the stated difference: no EM on x86, powers from the f^3 rule (capacity 1024)
        fmax = i["opps"][-1]["khz"]
        rule = [max(1, round(1000 * 1024 / 1024 * (o["khz"] / fmax) ** 3)) for o in i["opps"]]
        same(f"{p} em power by the rule", rule, [o["em_power_mw"] for o in i["opps"]])
for b in bad:
    print("platform_import_sysfs.sh:", b)
sys.exit(1 if bad else 0)
PY

# A lab trace on both models: the same residency and transitions (the decisions depend on
# OPPs, latency, capacities and frequency invariance, not on power). Without its facts file,
# so that the platform's frequency invariance is the one used.
cp traces/lab/6.1/burst.txt.gz "$tmp/burst.txt.gz"
for m in lab-2cpu "$tmp/lab2.sql"; do
	"$bin" run "$tmp/burst.txt.gz" --platform "$m" --json 2>/dev/null |
		"$py" -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps([[p["transitions"], p["residency"]] for p in d["policies"]]))'
done >"$tmp/res.txt"
[ "$(sed -n 1p "$tmp/res.txt")" = "$(sed -n 2p "$tmp/res.txt")" ] && [ -s "$tmp/res.txt" ] ||
	golden_fail "the lab trace's residency differs between lab-2cpu and the import"

# arm board with an energy model. POWERS in uW for 6.1 (rounded to mW: 42.4 -> 42, 57.6 -> 58)
arm_root() { # ROOT RELEASE UNIT(uw|mw)
	local r=$1 cpu=sys/devices/system/cpu em=sys/kernel/debug/energy_model
	put "$r" proc/sys/kernel/osrelease "$2"
	put "$r" proc/cpuinfo "processor	: 0
BogoMIPS	: 100.00
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid
CPU part	: 0xd03"
	put "$r" $cpu/cpufreq/policy0/related_cpus "0 1 2 3"
	put "$r" $cpu/cpufreq/policy0/scaling_available_frequencies "450000 575000 700000 775000 850000 "
	put "$r" $cpu/cpufreq/policy0/cpuinfo_transition_latency 1450000
	put "$r" $cpu/cpufreq/policy4/related_cpus "4 5"
	put "$r" $cpu/cpufreq/policy4/stats/time_in_state "450000 120
625000 0
800000 33
950000 0
1100000 541"
	put "$r" $cpu/cpufreq/policy4/cpuinfo_transition_latency 4294967295
	for c in 0 1 2 3; do put "$r" $cpu/cpu$c/cpu_capacity 446; done
	for c in 4 5; do put "$r" $cpu/cpu$c/cpu_capacity 1024; done
	for c in 0 4; do
		put "$r" $cpu/cpu$c/cpuidle/state0/name WFI
		put "$r" $cpu/cpu$c/cpuidle/state0/latency 1
		put "$r" $cpu/cpu$c/cpuidle/state0/residency 1
		put "$r" $cpu/cpu$c/cpuidle/state1/name cpu-sleep-0
		put "$r" $cpu/cpu$c/cpuidle/state1/latency 1500
		put "$r" $cpu/cpu$c/cpuidle/state1/residency 2000
		put "$r" $cpu/cpu$c/cpuidle/state2/name cluster-sleep-0
		put "$r" $cpu/cpu$c/cpuidle/state2/latency 1700
		put "$r" $cpu/cpu$c/cpuidle/state2/residency 2500
	done
	put "$r" $em/cpu0/cpus 0-3
	put "$r" $em/cpu4/cpus 4-5
	put "$r" $em/gpu/ps:300000/frequency 300000
	put "$r" $em/gpu/ps:300000/power 999
	set -- "$r" "$3"
	for fp in cpu0:450000:42400 cpu0:575000:57600 cpu0:700000:79000 cpu0:775000:97000 \
		cpu0:850000:119000 cpu4:450000:160000 cpu4:625000:239000 cpu4:800000:343000 \
		cpu4:950000:454000 cpu4:1100000:583000; do
		pd=${fp%%:*}; f=${fp#*:}; f=${f%%:*}; p=${fp##*:}
		[ "$2" = mw ] && p=$(( (p + 500) / 1000 ))
		put "$1" $em/$pd/ps:$f/frequency $f
		put "$1" $em/$pd/ps:$f/power $p
		put "$1" $em/$pd/ps:$f/cost 1
	done
}
arm_root "$tmp/arm61" 6.1.0-18-arm64 uw
arm_root "$tmp/arm510" 5.10.110-android12 mw
import_tree arm61 "$tmp/arm61"
import_tree arm510 "$tmp/arm510"
for n in arm61 arm510; do
	grep -q "^INSERT INTO frequency_invariance" "$tmp/$n.sql" &&
		golden_fail "$n: a frequency_invariance row for an arm CPU (the default, 1, applies)"
	"$py" - "$tmp/$n.json" "$n" <<'PY' || golden_fail "the Python check of $tmp/$n.json $n failed"
import json, sys
d = json.load(open(sys.argv[1])); n = sys.argv[2]
want = {
  "cpus": [[c, 0 if c < 4 else 1, 446 if c < 4 else 1024] for c in range(6)],
  "policies": [[0, 1, 2, 3], [4, 5]],
  "latency": [1450000, 0],  # 4294967295 (CPUFREQ_ETERNAL): unknown, 0 by the rule
  "khz": [[450000, 575000, 700000, 775000, 850000], [450000, 625000, 800000, 950000, 1100000]],
  "mw": [[42, 58, 79, 97, 119], [160, 239, 343, 454, 583]],
  "idle": [["WFI", 1, 1, False], ["cpu-sleep-0", 1500, 2000, False],
           ["cluster-sleep-0", 1700, 2500, True]],
}
got = {
  "cpus": [[c["cpu"], c["cluster"], c["capacity"]] for c in d["cpus"]],
  "policies": [p["cpus"] for p in d["policies"]],
  "latency": [p["transition_latency_ns"] for p in d["policies"]],
  "khz": [[o["khz"] for o in p["opps"]] for p in d["policies"]],
  "mw": [[o["em_power_mw"] for o in p["opps"]] for p in d["policies"]],
  "idle": [[s["name"], s["exit_latency_us"], s["target_residency_us"], s["cluster_level"]]
           for s in d["policies"][0]["idle_states"]],
}
bad = [f"platform_import_sysfs.sh: {n} {k}: want {want[k]}, got {got[k]}" for k in want if want[k] != got[k]]
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
done
grep -q "em power sys/kernel/debug/energy_model/cpu0/ps:450000/power: 42400 uW" "$tmp/arm61.sql" ||
	golden_fail "arm61: the EM row's source does not name its file and unit"

# bad trees: exit 3, the file named, nothing written
expect_bad() { # NAME MESSAGE DIR
	local status
	rm -f "$tmp/bad.sql"
	"$bin" platforms import "$3" -o "$tmp/bad.sql" >"$tmp/err.txt" 2>&1
	status=$?
	[ "$status" -eq 3 ] || golden_fail "$1: exit $status, expected 3: $(cat "$tmp/err.txt")"
	grep -qF -- "$2" "$tmp/err.txt" || golden_fail "$1: no '$2' in: $(cat "$tmp/err.txt")"
	[ ! -e "$tmp/bad.sql" ] || golden_fail "$1: an output file was written"
}
mkdir -p "$tmp/empty"
expect_bad empty "'$tmp/empty': no sys/devices/system/cpu/cpufreq/policy*" "$tmp/empty"
cp -r "$tmp/arm61.d" "$tmp/badfreq"
put "$tmp/badfreq" sys/devices/system/cpu/cpufreq/policy0/scaling_available_frequencies "450000 fast"
expect_bad bad_freq "'$tmp/badfreq/sys/devices/system/cpu/cpufreq/policy0/scaling_available_frequencies': a frequency in kHz expected: 'fast'" "$tmp/badfreq"
cp -r "$tmp/arm61.d" "$tmp/hole"
put "$tmp/hole" sys/devices/system/cpu/cpufreq/policy4/related_cpus "5"
expect_bad cpu_in_no_policy "CPU 4 is in no cpufreq policy" "$tmp/hole"
cp -r "$tmp/arm61.d" "$tmp/norel"
rm "$tmp/norel/sys/devices/system/cpu/cpufreq/policy4/related_cpus"
expect_bad no_related "'$tmp/norel/sys/devices/system/cpu/cpufreq/policy4/related_cpus': missing" "$tmp/norel"
cp -r "$tmp/arm61.d" "$tmp/badem"
put "$tmp/badem" sys/kernel/debug/energy_model/cpu4/ps:800000/power "-3"
expect_bad bad_em "energy_model/cpu4/ps:800000/power': a positive power expected" "$tmp/badem"

exit $fail
