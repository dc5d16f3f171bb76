#!/usr/bin/env python3
"""wattson-model.py NAME... - write models/NAME.sql for the devices Perfetto's Wattson covers and
no device tree of ours does (everything but tensor, which is written by hand from gs101.dtsi).

The CPU -> policy maps, deep-idle exit offsets, idle-state maps and vote modes are Wattson's
(perfetto ec5d16b stdlib/wattson/device_infos.sql); the OPPs
are the frequencies of the curves (models/wattson/*_cpu_{1d,2d}.csv); the curves themselves are the
block tools/wattson-sql.sh generates. What no source gives is written as an assumption, in the row:
capacities (from the maximum frequencies, equal per-MHz performance, unless the DT gives
capacity-dmips-mhz), transition latencies, idle-state latencies, and the em power (the Wattson
active power of one CPU, made non-decreasing). Run from the source root:
    tools/wattson-model.py tensor-g4 tensor-g5 mt6858 mt6897 sm8750 sxr2230p monaco neo
"""
import csv, os, subprocess, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
W = "perfetto ec5d16b"
INFOS = W + " src/trace_processor/perfetto_sql/stdlib/wattson/device_infos.sql"

# name: folder, device string, description, policies {first cpu: [cpus]}, extras
DEVICES = {
    "tensor-g4": dict(folder="Tensor_G4", device="Tensor G4",
        desc="Google Tensor G4 (zumapro): 4+3+1 CPUs, Wattson curves",
        policies={0: [0, 1, 2, 3], 4: [4, 5, 6], 7: [7]},
        offsets={4: 110000, 5: 110000, 6: 110000, 7: 400000},
        dmips={0: (193, "70"), 4: (927, "513"), 7: (1024, "757")},
        dmips_src="GrapheneOS/kernel_google-modules_soc_gs-zumapro 033bd9733fc6 arch/arm64/boot/dts/google/zumapro-cpu.dtsi"),
    "tensor-g5": dict(folder="Tensor_G5", device="Tensor G5",
        desc="Google Tensor G5: 2+3+2+1 CPUs, Wattson curves (capacities assumed)",
        policies={0: [0, 1], 2: [2, 3, 4], 5: [5, 6], 7: [7]}, vote_by_freq=[5, 6, 7]),
    "mt6858": dict(folder="MT6858", device="MT6858",
        desc="MediaTek MT6858: 4+4 CPUs, Wattson curves (capacities assumed)",
        policies={0: [0, 1, 2, 3], 4: [4, 5, 6, 7]}, idle_map=5),
    "mt6897": dict(folder="MT6897", device="MT6897",
        desc="MediaTek MT6897: 4+3+1 CPUs, Wattson curves (capacities assumed)",
        policies={0: [0, 1, 2, 3], 4: [4, 5, 6], 7: [7]}, idle_map=8),
    "sm8750": dict(folder="SM8750", device="SM8750",
        desc="Qualcomm SM8750: 6+2 CPUs, Wattson curves (capacities assumed)",
        policies={0: [0, 1, 2, 3, 4, 5], 6: [6, 7]}),
    "sxr2230p": dict(folder="SXR2230P", device="SXR2230P",
        desc="Qualcomm SXR2230P: 2+4 CPUs, Wattson curves (capacities assumed)",
        policies={0: [0, 1], 2: [2, 3, 4, 5]}, idle_map=2),
    "monaco": dict(folder="monaco", device="monaco",
        desc="Qualcomm monaco (Pixel Watch): 4 CPUs, Wattson curves (capacity assumed)",
        policies={0: [0, 1, 2, 3]}, offsets={0: 450000, 1: 450000, 2: 450000, 3: 450000}),
    "neo": dict(folder="neo", device="neo",
        desc="Qualcomm neo: 4 CPUs, Wattson curves (capacity assumed)",
        policies={0: [0, 1, 2, 3]}, offsets={0: 100000, 1: 100000, 2: 100000, 3: 100000},
        idle_map=2),
}


def rows(folder, kind):
    path = os.path.join(ROOT, "models", "wattson", "%s_%s.csv" % (folder, kind))
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def model(name, d):
    r1, r2 = rows(d["folder"], "cpu_1d"), rows(d["folder"], "cpu_2d")
    opps, em, src = {}, {}, {}
    for pol in d["policies"]:
        one = [r for r in r1 if int(r["policy"]) == pol]
        two = [r for r in r2 if int(r["policy"]) == pol]
        if one:
            freqs = sorted({int(r["freq_khz"]) for r in one})
            act = {int(r["freq_khz"]): float(r["active"]) for r in one}
            src[pol] = "cpu_1d.csv"
        else:
            freqs = sorted({int(r["freq_khz"]) for r in two})
            act = {}
            for f in freqs:  # the active power at the smallest dependency frequency
                rr = min((r for r in two if int(r["freq_khz"]) == f), key=lambda r: int(r["dep_freq"]))
                act[f] = float(rr["active"])
            src[pol] = "cpu_2d.csv (at the smallest dep_freq)"
        opps[pol] = freqs
        m, em[pol] = 0, {}
        for f in freqs:
            m = max(m, max(1, round(act[f])))
            em[pol][f] = m
    fmax = max(opps[p][-1] for p in opps)
    caps = {}
    if "dmips" in d:
        prod = {p: d["dmips"][p][0] * (opps[p][-1] // 1000) for p in opps}
        top = max(prod.values())
        for p in opps:
            caps[p] = (prod[p] << 10) // top
    else:
        for p in opps:
            caps[p] = (opps[p][-1] << 10) // fmax
    names = ["little", "mid", "big", "prime"] if len(opps) == 4 else ["little", "mid", "big"] if len(opps) == 3 else ["little", "big"] if len(opps) == 2 else ["cpu"]
    out = []
    w = out.append
    w("-- %s.sql - %s.\n-- Written by tools/wattson-model.py %s from Perfetto's Wattson data (%s,\n"
      "-- Apache-2.0; models/wattson/ has the CSVs, LICENSE and PROVENANCE.md).\n"
      "-- Every number no source gives is marked 'assumed' in its row: a trace's own cpu_capacity,\n"
      "-- where it has one, is the better number.\n" % (name, d["desc"], name, W))
    w("INSERT INTO platform (name, description, cost_unit, source) VALUES\n('%s', '%s', '-', '%s');\n" % (name, d["desc"], INFOS))
    w("INSERT INTO clusters (cluster, name, transition_latency_ns, dyn_power_coeff, source) VALUES")
    cl = []
    for i, p in enumerate(sorted(opps)):
        note = ""
        if "dmips" in d:
            note = "; DT dynamic-power-coefficient %s, but no OPP voltages: em power given instead" % d["dmips"][p][1]
        cl.append("(%d, '%s', 500000, NULL, 'policy %d (%s, Wattson _cpu_to_policy_map); transition latency assumed 500 us%s')" % (i, names[i], p, INFOS, note))
    w(",\n".join(cl) + ";")
    w("INSERT INTO cpus (cpu, capacity, source) VALUES")
    cr = []
    for i, p in enumerate(sorted(opps)):
        for c in d["policies"][p]:
            if "dmips" in d:
                s = "derived: DT capacity-dmips-mhz %d at %d MHz, normalised by topology_normalize_cpu_scale v5.9 (%s)" % (d["dmips"][p][0], opps[p][-1] // 1000, d["dmips_src"])
            else:
                s = "assumed: capacity-dmips-mhz unknown; equal per-MHz performance, max %d kHz of %d kHz" % (opps[p][-1], fmax)
            cr.append("(%d, %d, '%s')" % (c, caps[p], s))
    w(",\n".join(cr) + ";")
    w("INSERT INTO cluster_cpus (cluster, cpu, source) VALUES")
    w(",\n".join("(%d, %d, 'Wattson _cpu_to_policy_map: policy %d')" % (i, c, p)
                 for i, p in enumerate(sorted(opps)) for c in d["policies"][p]) + ";")
    w("-- OPPs: the frequencies of the policy's curves; em power assumed: the Wattson active mW of one\n"
      "-- CPU at the OPP (2D: at the smallest dependency frequency), rounded, made non-decreasing.")
    w("INSERT INTO opps (cluster, freq_khz, volt_uv, em_power_mw_given, source) VALUES")
    w(",\n".join("(%d, %d, NULL, %d, 'Wattson %s/%s; em power assumed from its active power')" % (i, f, em[p][f], d["folder"], src[p])
                 for i, p in enumerate(sorted(opps)) for f in opps[p]) + ";")
    w("INSERT INTO idle_states (cluster, idx, name, level, entry_latency_us, exit_latency_us,\n\t\t\t wakeup_latency_us, min_residency_us, source) VALUES")
    ir = []
    for i, p in enumerate(sorted(opps)):
        ir.append("(%d, 0, 'WFI', 'cpu', NULL, NULL, 1, 1, 'cpuidle-psci: ARM WFI state (Wattson idle0)')" % i)
        ir.append("(%d, 1, 'cpu-sleep', 'cpu', NULL, NULL, 200, 2000, 'assumed: one deep state (Wattson idle1), latencies as gs101 c2 roughly')" % i)
    w(",\n".join(ir) + ";")
    w("INSERT INTO wattson_device (device, source) VALUES\n('%s', '%s');" % (d["device"], INFOS))
    offs, vbf = d.get("offsets", {}), d.get("vote_by_freq", [])
    w("INSERT INTO wattson_cpus (cpu, deep_idle_offset_ns, vote_by_freq, source) VALUES")
    w(",\n".join("(%d, %d, %d, '%s _device_cpu_deep_idle_offsets, _vote_by_freq')" % (c, offs.get(c, 0), 1 if c in vbf else 0, INFOS)
                 for p in sorted(opps) for c in d["policies"][p]) + ";")
    if d.get("idle_map"):
        w("-- _idle_state_map: 0 -> 0, 1..%d -> 1 (an index beyond %d is taken as deepest too)" % (d["idle_map"], 7))
        w("INSERT INTO wattson_idle_map (idx, state, source) VALUES")
        w(",\n".join("(%d, %d, '%s _idle_state_map')" % (k, min(k, 1), INFOS) for k in range(0, min(d["idle_map"], 7) + 1)) + ";")
    w("")
    gen = subprocess.run([os.path.join(ROOT, "tools", "wattson-sql.sh"), d["folder"]], check=True,
                         capture_output=True, text=True).stdout
    with open(os.path.join(ROOT, "models", name + ".sql"), "w") as f:
        f.write("\n".join(out) + "\n" + gen)


for n in sys.argv[1:]:
    model(n, DEVICES[n])
