"""The Python layer (src/python/govsim) against the govsim program it drives.

Checks that what the DataFrames hold agrees with figures obtained without the package: the
program's own `run --json` / `tune --json` output read here with json, the database read with
sqlite3, and invariants of the replay (each policy's residency sums to the run's span, the
clusters' energy to the total). Checks errors carry govsim's message and exit status. Does not
check the replay's figures themselves (the golden tests do).
"""
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import govsim

ROOT = Path(os.environ.get("GOVSIM_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TRACE = str(ROOT / "traces/android-8cpu/surfaceflinger.txt")
JUNO = str(ROOT / "traces/juno-r0/sched_load/trace.dat")


def cli_json(*args):
    """govsim's own --json answer, run without the package."""
    out = subprocess.run([govsim.binary(), *args, "--json"], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def test_run_tables_have_units_and_residency_sums_to_span():
    r = govsim.run(TRACE, platform="hikey960", rate_limit_us=2000)
    cli = cli_json("run", TRACE, "--platform", "hikey960", "--set", "rate_limit_us=2000")
    assert r.span_s == pytest.approx(cli["span_s"], abs=1e-9)
    sums = r.residency.groupby("policy")["time_s"].sum()
    assert list(sums.index) == [0, 4]
    for s in sums:
        assert s == pytest.approx(cli["span_s"], rel=1e-6)
    assert {"time_s", "freq_khz", "policy"} <= set(r.timeline.columns)
    assert {"energy_j", "scope", "name"} <= set(r.energy.columns)
    assert {"pid", "comm", "runtime_s", "delay_s", "max_delay_s"} <= set(r.tasks.columns)
    assert "throughput_per_s" in r.activations.columns


def test_energy_equals_what_run_json_prints():
    r = govsim.run(TRACE, actions=["setattr comm=surfaceflinger uclamp_min=512"])
    cli = cli_json("run", TRACE, "--action", "setattr comm=surfaceflinger uclamp_min=512")
    assert r.energy_j == pytest.approx(cli["energy_j"], rel=1e-12)
    e = r.energy
    clusters = e[e["scope"] == "cluster"].sort_values("name")["energy_j"].tolist()
    assert clusters == pytest.approx([c["energy_j"] for c in cli["energy_by_cluster"]], rel=1e-12)
    assert sum(clusters) == pytest.approx(r.energy_j, rel=1e-9)
    assert r.runs["params"].iloc[0] == cli["params"]


def test_activations_of_all_tasks_and_per_task():
    r = govsim.run(TRACE)
    a = r.activations
    total = a[a["seq"] == -1]
    assert len(total) == 1 and pd.isna(total["comm"].iloc[0])
    per_task = a[a["seq"] >= 0]
    assert per_task["comm"].notna().all()
    cli = cli_json("run", TRACE)
    assert int(total["activations"].iloc[0]) == cli["activity"]["activations"]


def test_bad_trace_raises_with_exit_status_3(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("garbage line\n")
    with pytest.raises(govsim.GovsimError) as e:
        govsim.run(bad, strict=True)
    assert e.value.status == 3
    assert f"'{bad}':1:" in e.value.message
    assert e.value.message.startswith("govsim: ")


def test_unknown_tunable_is_a_usage_error():
    with pytest.raises(govsim.GovsimError) as e:
        govsim.run(TRACE, no_such_tunable=1)
    assert e.value.status == 2
    assert "no_such_tunable" in e.value.stderr


def test_sweep_runs_each_value_and_matches_single_runs(tmp_path):
    db = tmp_path / "sweep.db"
    res = govsim.sweep(TRACE, db=db, rate_limit_us=[0, 4000], jobs=1)
    assert len(res) == 2
    with sqlite3.connect(db) as c:
        direct = dict(c.execute("SELECT r.label, e.joules FROM runs r JOIN energy e "
                                "USING (run_id) WHERE e.scope = 'total'").fetchall())
    s = res.summary()
    assert sorted(s["label"]) == ["rate_limit_us=0", "rate_limit_us=4000"]
    for label, joules in direct.items():
        assert s.loc[s["label"] == label, "energy_j"].iloc[0] == joules
    cli = cli_json("run", TRACE, "--set", "rate_limit_us=4000")
    assert direct["rate_limit_us=4000"] == pytest.approx(cli["energy_j"], rel=1e-12)
    assert res.run(res.run_ids[0]).label == "rate_limit_us=0"


def test_tune_answer_and_points():
    t = govsim.tune(TRACE, vary="rate_limit_us=?[0:20000:5000]", find="smallest",
                    subject_to=["response_p95 <= +20% vs base"], jobs=1)
    assert t.feasible
    assert t.answer == {"rate_limit_us": t.summary["answer"]["values"]["rate_limit_us"]}
    # --find smallest: every point at or above the answer holds, every one below fails
    above = t.points[t.points["rate_limit_us"] >= t.answer["rate_limit_us"]]
    below = t.points[t.points["rate_limit_us"] < t.answer["rate_limit_us"]]
    assert above["feasible"].all() and not below["feasible"].any()
    assert len(t.results) == t.summary["replays"]


def test_tune_without_a_feasible_value_is_a_result():
    t = govsim.tune(TRACE, vary="rate_limit_us=?[0:20000:10000]", find="smallest",
                    subject_to=["energy <= -99% vs base"], jobs=1)
    assert not t.feasible and t.answer is None
    assert t.best == t.summary["answer"]["values"]


def test_validate_rows_per_policy():
    v = govsim.validate(JUNO, platform="juno-r0")
    df = v.validate
    assert list(df["policy"]) == [0, 1]
    cli = cli_json("validate", JUNO, "--platform", "juno-r0")
    pol = cli["traces"][0]["kernels"][0]["policies"]
    assert list(df["recall_share"]) == [p["recall"] for p in pol]
    assert list(df["kernel_decisions"]) == [p["kernel_decisions"] for p in pol]


def test_open_reads_a_database_the_cli_wrote(tmp_path):
    db = tmp_path / "cli.db"
    subprocess.run([govsim.binary(), "run", TRACE, "--db", str(db), "--label", "a", "--quiet"],
                   check=True)
    subprocess.run([govsim.binary(), "run", TRACE, "--db", str(db), "--label", "b", "--quiet",
                    "--governor", "performance"], check=True)
    res = govsim.open(db)
    assert res.run_ids == [1, 2]
    with sqlite3.connect(db) as c:
        n = c.execute("SELECT count(*) FROM timeline").fetchone()[0]
    assert len(res.timeline) == n
    assert list(res.run(2).runs["governor"]) == ["performance"]


def test_open_refuses_what_is_not_a_results_database(tmp_path):
    with pytest.raises(govsim.GovsimError) as e:
        govsim.open(tmp_path / "missing.db")
    assert e.value.status == 3
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as c:
        c.execute("CREATE TABLE t (x)")
    with pytest.raises(govsim.GovsimError) as e:
        govsim.open(foreign)
    assert e.value.status == 3


def test_installed_package_imports_from_the_install_prefix(tmp_path):
    build = Path(govsim.binary()).parent
    if not (build / "cmake_install.cmake").is_file():
        pytest.skip("GOVSIM_BIN is not in a CMake build tree")
    subprocess.run(["cmake", "--install", str(build), "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    found = list(tmp_path.glob("lib/python3*/*-packages/govsim/__init__.py"))
    assert len(found) == 1
    env = dict(os.environ, PYTHONPATH=str(found[0].parents[1]), PYTHONDONTWRITEBYTECODE="1",
               GOVSIM_BIN=str(tmp_path / "bin/govsim"))
    out = subprocess.run([sys.executable, "-c", "import govsim; print(govsim.__file__); "
                          "print(govsim.run(%r).energy_j)" % TRACE], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[0].startswith(str(tmp_path))
