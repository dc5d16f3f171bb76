# %% [markdown]
# # govsim from Python
# A notebook-style tour: each `# %%` block is a cell (Jupyter, VS Code and Spyder open the file
# as a notebook; `python3 examples/python_tour.py` runs it top to bottom, as CI does). From the
# root of the repository after building: `PYTHONPATH=src/python python3 examples/python_tour.py`.

# %%
import os
import tempfile

import govsim

TRACE = "traces/android-8cpu/surfaceflinger.txt"
print("govsim program:", govsim.binary())

# %% [markdown]
# ## One replay
# `govsim.run` replays the trace and returns a Run whose tables are DataFrames; the column
# names carry their units.

# %%
base = govsim.run(TRACE, platform="hikey960")
print(f"energy {base.energy_j:.6f} J over {base.span_s:.3f} s")
print(base.residency.pivot(index="freq_khz", columns="policy", values="time_s").fillna(0))

# %% [markdown]
# Each policy's residency adds up to the replayed span.

# %%
per_policy = base.residency.groupby("policy")["time_s"].sum()
assert (abs(per_policy - base.span_s) < 1e-6).all(), per_policy
print(per_policy)

# %% [markdown]
# ## A clamp and a tunable
# Policy lines go in `actions=[...]`, tunables as keyword arguments (`--set KEY=VALUE`).

# %%
boosted = govsim.run(TRACE, actions=["setattr comm=surfaceflinger uclamp_min=512"],
                     rate_limit_us=2000)
print(f"uclamp_min=512, rate_limit_us=2000: {boosted.energy_j:.6f} J "
      f"({100 * (boosted.energy_j / base.energy_j - 1):+.1f} % vs schedutil defaults)")
acts = boosted.activations
print(acts[acts["seq"] >= 0].nlargest(5, "response_p95_s")[["pid", "comm", "activations",
                                                             "response_p95_s"]])

# %% [markdown]
# ## The frequency decisions over time

# %%
tl = boosted.timeline
print(tl[tl["policy"] == 0][["time_s", "freq_khz", "util", "capacity"]].head(10))

# %% [markdown]
# ## A sweep into one database, read back with `govsim.open`

# %%
workdir = tempfile.mkdtemp(prefix="govsim-tour-")
db = os.path.join(workdir, "sweep.db")
swept = govsim.sweep(TRACE, db=db, rate_limit_us=[0, 2000, 10000], jobs=2)
print(swept.summary()[["label", "energy_j", "avg_power_w"]])
again = govsim.open(db)
assert again.run_ids == swept.run_ids

# %% [markdown]
# ## The smallest rate limit that keeps response p95 within 20 % of the defaults

# %%
t = govsim.tune(TRACE, vary="rate_limit_us=?[0:20000:5000]", find="smallest",
                subject_to=["response_p95 <= +20% vs base"], jobs=2)
print("feasible:", t.feasible, "answer:", t.answer)
print(t.points)

# %% [markdown]
# ## Errors carry govsim's message and exit status

# %%
bad = os.path.join(workdir, "bad.txt")
with open(bad, "w") as f:
    f.write("not a trace\n")
try:
    govsim.run(bad, strict=True)
except govsim.GovsimError as e:
    print("exit status", e.status, "-", e.message)
    assert e.status == 3

# %% [markdown]
# ## How close the emulation is to the kernel that wrote a trace

# %%
v = govsim.validate("traces/juno-r0/sched_load/trace.dat", platform="juno-r0")
print(v.validate[["kernel", "policy", "kernel_decisions", "recall_share", "time_share"]])
