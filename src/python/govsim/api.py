"""The functions and result classes of the govsim package (see the package's docstring)."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import weakref
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

import pandas as pd

PathLike = Union[str, os.PathLike]


class GovsimError(Exception):
    """govsim failed: ``message`` is what it said (its ``govsim: ...`` lines), ``status`` its
    exit status (1 runtime failure, 2 bad command line, 3 bad input), ``stderr`` all it wrote
    there and ``args_`` the command line."""

    def __init__(self, message: str, status: Optional[int], stderr: str = "",
                 args_: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        self.status = status
        self.stderr = stderr
        self.args_ = list(args_)

    def __str__(self) -> str:
        return f"{self.message} (exit status {self.status})"


def binary() -> str:
    """The govsim program this package runs: $GOVSIM_BIN, else build/govsim of the source tree
    holding this package, else govsim on PATH."""
    env = os.environ.get("GOVSIM_BIN")
    if env:
        return env
    here = Path(__file__).resolve()
    if len(here.parents) > 3:
        root = here.parents[3]
        candidate = root / "build" / "govsim"
        if (root / "CMakeLists.txt").is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("govsim")
    if found:
        return found
    raise GovsimError("govsim program not found: set GOVSIM_BIN, build it as build/govsim, "
                      "or install it on PATH", 127)


def _message(stderr: str) -> str:
    lines = [l for l in stderr.splitlines() if l.strip()]
    own = [l for l in lines if l.startswith("govsim:") or l.startswith("usage:")]
    return "\n".join(own or lines[-1:]) or "govsim failed without a message"


def _exec(args: Sequence[str], ok: Iterable[int] = (0,)) -> subprocess.CompletedProcess:
    argv = [binary(), *args]
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    except OSError as e:
        raise GovsimError(f"cannot run '{argv[0]}': {e.strerror}", 127, "", argv) from e
    if proc.returncode not in ok:
        raise GovsimError(_message(proc.stderr), proc.returncode, proc.stderr, argv)
    return proc


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def _list(v: Any) -> List[Any]:
    if v is None:
        return []
    if isinstance(v, (str, bytes, os.PathLike)) or not isinstance(v, Iterable):
        return [v]
    return list(v)


def _run_options(platform=None, governor=None, actions=(), policies=(), kernel=None,
                 timing=None, util_source=None, power_model=None, placement=None,
                 warmup_ms=None, seed_util=False, trace_format=None, strict=False,
                 tunables: Optional[Mapping[str, Any]] = None, label=None) -> List[str]:
    """The options every replay command shares, as govsim spells them."""
    a: List[str] = []
    for opt, v in (("--platform", platform), ("--governor", governor), ("--kernel", kernel),
                   ("--timing", timing), ("--util-source", util_source),
                   ("--power-model", power_model), ("--placement", placement),
                   ("--warmup-ms", warmup_ms), ("--format", trace_format), ("--label", label)):
        if v is not None:
            a += [opt, ",".join(map(_value, v)) if isinstance(v, (list, tuple)) else _value(v)]
    for p in _list(policies):
        a += ["--policy", os.fspath(p)]
    for line in _list(actions):
        a += ["--action", line]
    for k, v in (tunables or {}).items():
        vals = _list(v) if isinstance(v, (list, tuple)) else [v]
        a += ["--set", f"{k}=" + ",".join(map(_value, vals))]
    if seed_util:
        a.append("--seed-util")
    if strict:
        a.append("--strict")
    return a


class _TempDir:
    """A directory removed when the object holding it is collected."""

    def __init__(self, owner: object):
        self.path = tempfile.mkdtemp(prefix="govsim-py-")
        weakref.finalize(owner, shutil.rmtree, self.path, True)


# Each table of the results database as a DataFrame: (SQL over the columns with units in
# their names, the columns to order by). `r` is runs, joined for the label.
_TABLES: Dict[str, tuple] = {
    "runs": ("SELECT run_id, label, trace, platform, governor, kernel, timing, util_source, "
             "power_model, policy, params, start_s, span_s, events, nr_cpus, nr_clusters, "
             "notes, govsim_version, created_at FROM runs r", "run_id"),
    "energy": ("SELECT t.run_id, r.label, t.scope, t.name, t.joules AS energy_j "
               "FROM energy t JOIN runs r USING (run_id)", "t.run_id, t.scope, t.name"),
    "residency": ("SELECT t.run_id, r.label, t.policy, t.freq_khz, t.seconds AS time_s "
                  "FROM residency t JOIN runs r USING (run_id)", "t.run_id, t.policy, t.freq_khz"),
    "policies": ("SELECT t.run_id, r.label, t.policy, t.cluster, t.transitions, t.avg_freq_khz, "
                 "t.busy_s, t.overutilized_s FROM policy_stats t JOIN runs r USING (run_id)",
                 "t.run_id, t.policy"),
    "timeline": ("SELECT t.run_id, r.label, t.seq, t.time_s, t.policy, t.freq_khz, "
                 "t.traced_khz, t.util, t.capacity FROM timeline t JOIN runs r USING (run_id)",
                 "t.run_id, t.seq"),
    "tasks": ("SELECT t.run_id, r.label, t.seq, t.pid, t.comm, t.runtime_s, t.delay_s, "
              "t.max_delay_s FROM task_stats t JOIN runs r USING (run_id)", "t.run_id, t.seq"),
    "activations": ("SELECT t.run_id, r.label, t.seq, k.pid, k.comm, t.activations, "
                    "t.throughput AS throughput_per_s, t.latency_mean_s, t.latency_p95_s, "
                    "t.latency_max_s, t.response_mean_s, t.response_p95_s, t.response_max_s, "
                    "t.lateness_mean_s, t.lateness_p95_s, t.lateness_max_s "
                    "FROM activity t JOIN runs r USING (run_id) "
                    "LEFT JOIN task_stats k ON k.run_id = t.run_id AND k.seq = t.seq",
                    "t.run_id, t.seq"),
    "placement": ("SELECT t.run_id, r.label, t.seq, t.pid, t.cpu, t.start_s, t.end_s "
                  "FROM placement_slices t JOIN runs r USING (run_id)", "t.run_id, t.seq"),
    "placement_tasks": ("SELECT t.run_id, r.label, t.seq, k.pid, k.comm, t.cluster, "
                        "t.runtime_s, t.migrations FROM placement_tasks t "
                        "JOIN runs r USING (run_id) LEFT JOIN task_stats k "
                        "ON k.run_id = t.run_id AND k.seq = t.seq",
                        "t.run_id, t.seq, t.cluster"),
    "kernel_overhead": ("SELECT t.run_id, r.label, t.operation, t.calls, t.time_s "
                        "FROM kernel_overhead t JOIN runs r USING (run_id)",
                        "t.run_id, t.operation"),
}


class Results:
    """Runs in a govsim results database, read-only: each table a DataFrame over the runs
    (``run_id`` and ``label`` first). ``results.run(run_id)`` is one of them; ``len()`` and
    iteration give the runs in run_id order."""

    def __init__(self, db: PathLike, run_ids: Optional[Sequence[int]] = None,
                 _keep: object = None):
        self.db = os.fspath(db)
        self._keep = _keep  # a temporary directory the database lives in
        self._check()
        self._run_ids = list(run_ids) if run_ids is not None else None

    def _connect(self) -> sqlite3.Connection:
        uri = "file:" + Path(self.db).resolve().as_posix() + "?mode=ro"
        return sqlite3.connect(uri, uri=True)

    def _check(self) -> None:
        if not Path(self.db).is_file():
            raise GovsimError(f"'{self.db}': no such results database", 3)
        try:
            with self._connect() as c:
                version = c.execute("PRAGMA user_version").fetchone()[0]
                c.execute("SELECT run_id, label FROM runs LIMIT 0")
        except sqlite3.DatabaseError as e:
            raise GovsimError(f"'{self.db}': not a govsim results database: {e}", 3) from e
        if version < 1:
            raise GovsimError(f"'{self.db}': not a govsim results database", 3)

    def table(self, name: str) -> pd.DataFrame:
        """The table `name` (one of ``Results.tables()``) for these runs."""
        if name not in _TABLES:
            raise KeyError(f"no table '{name}': one of {', '.join(_TABLES)}")
        sql, order = _TABLES[name]
        params: List[int] = []
        if self._run_ids is not None:
            sql += " WHERE r.run_id IN (%s)" % ",".join("?" * len(self._run_ids))
            params = self._run_ids
        with self._connect() as c:
            return pd.read_sql_query(f"{sql} ORDER BY {order}", c, params=params)

    @staticmethod
    def tables() -> List[str]:
        return list(_TABLES)

    @property
    def runs(self) -> pd.DataFrame:
        return self.table("runs")

    @property
    def energy(self) -> pd.DataFrame:
        return self.table("energy")

    @property
    def residency(self) -> pd.DataFrame:
        return self.table("residency")

    @property
    def policies(self) -> pd.DataFrame:
        return self.table("policies")

    @property
    def timeline(self) -> pd.DataFrame:
        return self.table("timeline")

    @property
    def tasks(self) -> pd.DataFrame:
        return self.table("tasks")

    @property
    def activations(self) -> pd.DataFrame:
        return self.table("activations")

    @property
    def placement(self) -> pd.DataFrame:
        return self.table("placement")

    @property
    def placement_tasks(self) -> pd.DataFrame:
        return self.table("placement_tasks")

    @property
    def kernel_overhead(self) -> pd.DataFrame:
        return self.table("kernel_overhead")

    @property
    def run_ids(self) -> List[int]:
        return [int(i) for i in self.runs["run_id"]]

    def run(self, run_id: int) -> "Run":
        if run_id not in self.run_ids:
            raise KeyError(f"no run {run_id} in '{self.db}'")
        return Run(self.db, run_id, _keep=self._keep)

    def __len__(self) -> int:
        return len(self.run_ids)

    def __iter__(self):
        return (self.run(i) for i in self.run_ids)

    def summary(self) -> pd.DataFrame:
        """One row per run: label, total energy_j, span_s and avg_power_w."""
        runs = self.runs[["run_id", "label", "trace", "governor", "params", "span_s"]]
        e = self.energy
        total = e[e["scope"] == "total"][["run_id", "energy_j"]]
        out = runs.merge(total, on="run_id", how="left")
        out["avg_power_w"] = out["energy_j"] / out["span_s"]
        return out

    def __repr__(self) -> str:
        return f"<govsim.Results '{self.db}', {len(self)} runs>"


class Run(Results):
    """One run: its tables as DataFrames, ``energy_j`` (total), ``span_s``, and ``summary``,
    the object ``govsim run --json`` printed (None for a run read back with open())."""

    def __init__(self, db: PathLike, run_id: int, summary: Optional[dict] = None,
                 warnings: str = "", _keep: object = None):
        super().__init__(db, [run_id], _keep=_keep)
        self.run_id = run_id
        self.summary_json = summary
        self.warnings = warnings

    @property
    def energy_j(self) -> float:
        e = self.energy
        return float(e[e["scope"] == "total"]["energy_j"].iloc[0])

    @property
    def span_s(self) -> float:
        return float(self.runs["span_s"].iloc[0])

    @property
    def label(self) -> str:
        return str(self.runs["label"].iloc[0])

    def __repr__(self) -> str:
        return f"<govsim.Run {self.run_id} of '{self.db}'>"


def _last_run_id(db: str) -> int:
    with sqlite3.connect("file:" + Path(db).resolve().as_posix() + "?mode=ro", uri=True) as c:
        return int(c.execute("SELECT max(run_id) FROM runs").fetchone()[0])


def _db_path(db: Optional[PathLike], holder: object):
    if db is not None:
        return os.fspath(db), None
    tmp = _TempDir(holder)
    return os.path.join(tmp.path, "results.db"), tmp


def run(trace: PathLike, platform: Optional[str] = None, governor: Optional[str] = None,
        actions: Sequence[str] = (), policies: Sequence[PathLike] = (),
        kernel: Optional[str] = None, db: Optional[PathLike] = None,
        label: Optional[str] = None, timing: Optional[str] = None,
        util_source: Optional[str] = None, power_model: Optional[str] = None,
        placement: Optional[str] = None, warmup_ms: Optional[float] = None,
        seed_util: bool = False, trace_format: Optional[str] = None, strict: bool = False,
        **tunables: Any) -> Run:
    """``govsim run TRACE --db DB --json`` with these options (each tunable a ``--set
    KEY=VALUE``); the run stored in `db` (a temporary file, removed with the result, when
    None). Returns the Run; GovsimError when govsim fails."""
    keep = type("_Keep", (), {})()
    path, tmp = _db_path(db, keep)
    args = ["run", os.fspath(trace), "--db", path, "--json"]
    args += _run_options(platform, governor, actions, policies, kernel, timing, util_source,
                         power_model, placement, warmup_ms, seed_util, trace_format, strict,
                         tunables, label)
    proc = _exec(args)
    return Run(path, _last_run_id(path), json.loads(proc.stdout), proc.stderr,
               _keep=(keep, tmp))


def sweep(traces: Union[PathLike, Sequence[PathLike]], db: Optional[PathLike] = None,
          governors: Sequence[str] = (), policies: Sequence[PathLike] = (),
          actions: Sequence[str] = (), no_policy: bool = False,
          kernel: Union[None, str, Sequence[str]] = None, jobs: Optional[int] = None,
          label: Optional[str] = None, platform: Optional[str] = None,
          timing: Optional[str] = None, util_source: Optional[str] = None,
          power_model: Optional[str] = None, placement: Union[None, str, Sequence[str]] = None,
          seed_util: bool = False, trace_format: Optional[str] = None, strict: bool = False,
          **tunables: Any) -> Results:
    """``govsim sweep``: every trace x policy variant x governor x tunable value (a tunable
    given a list varies over it, ``rate_limit_us=[0, 1000]``), stored in `db` (temporary when
    None). Returns the Results of the whole database."""
    keep = type("_Keep", (), {})()
    path, tmp = _db_path(db, keep)
    args = ["sweep", *map(os.fspath, _list(traces)), "--db", path, "--quiet"]
    for g in _list(governors):
        args += ["--governor", g]
    if no_policy:
        args.append("--no-policy")
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    args += _run_options(platform, None, actions, policies, kernel, timing, util_source,
                         power_model, placement, None, seed_util, trace_format, strict,
                         tunables, label)
    _exec(args)
    return Results(path, _keep=(keep, tmp))


class TuneResult:
    """What ``govsim tune --json`` answered: ``feasible``, ``answer`` (the value of each
    unknown; None when no value is feasible), ``best`` (the answer, or the best infeasible
    point govsim found), ``points`` (a DataFrame: each unknown's value, round, feasible,
    objective), ``summary`` (the whole JSON object) and ``results``, the stored replays."""

    def __init__(self, summary: dict, results: Results):
        self.summary = summary
        self.results = results
        self.feasible = bool(summary.get("feasible"))
        ans = summary.get("answer")
        self.best = dict(ans["values"]) if ans else None
        self.answer = self.best if self.feasible else None
        rows = []
        for p in summary.get("points", []):
            row = dict(p["values"])
            row.update(round=p["round"], feasible=p["feasible"], objective=p.get("objective"))
            rows.append(row)
        self.points = pd.DataFrame(rows)

    def __repr__(self) -> str:
        return f"<govsim.TuneResult feasible={self.feasible} answer={self.answer}>"


def tune(traces: Union[PathLike, Sequence[PathLike]], vary: Union[str, Sequence[str]],
         find: Optional[str] = None, minimize: Optional[str] = None,
         maximize: Optional[str] = None, subject_to: Sequence[str] = (),
         db: Optional[PathLike] = None, jobs: Optional[int] = None,
         batch: Optional[int] = None, grid: Optional[int] = None,
         plot: Optional[PathLike] = None, platform: Optional[str] = None,
         governor: Optional[str] = None, actions: Sequence[str] = (),
         policies: Sequence[PathLike] = (), kernel: Optional[str] = None,
         timing: Optional[str] = None, util_source: Optional[str] = None,
         power_model: Optional[str] = None, **tunables: Any) -> TuneResult:
    """``govsim tune --json``: the value of `vary` (a spec with ``?``) that meets the target.
    No feasible value is a result (``feasible`` False), not an error."""
    keep = type("_Keep", (), {})()
    path, tmp = _db_path(db, keep)
    args = ["tune", *map(os.fspath, _list(traces)), "--db", path, "--json", "--quiet"]
    for v in _list(vary):
        args += ["--vary", v]
    for opt, v in (("--find", find), ("--minimize", minimize), ("--maximize", maximize),
                   ("--jobs", jobs), ("--batch", batch), ("--grid", grid), ("--plot", plot)):
        if v is not None:
            args += [opt, os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
    for c in _list(subject_to):
        args += ["--subject-to", c]
    args += _run_options(platform, governor, actions, policies, kernel, timing, util_source,
                         power_model, tunables=tunables)
    proc = _exec(args, ok=(0, 1))
    try:
        summary = json.loads(proc.stdout)
    except ValueError:
        summary = None
    if proc.returncode != 0 and not (summary and summary.get("feasible") is False):
        raise GovsimError(_message(proc.stderr), proc.returncode, proc.stderr, args)
    return TuneResult(summary, Results(path, _keep=(keep, tmp)))


class Validation:
    """What ``govsim validate --json`` answered: ``validate``, a DataFrame with one row per
    trace, kernel profile and policy (shares 0..1 named ``*_share``; ``miss_*`` the misses by
    cause), and ``summary``, the JSON object."""

    _RENAME = {"busy": "busy_share", "time": "time_share",
               "time_util_trace": "time_util_trace_share", "recall": "recall_share",
               "precision": "precision_share", "decisions_agree": "decisions_agree_share"}

    def __init__(self, summary: dict):
        self.summary = summary
        rows = []
        for t in summary.get("traces", []):
            for k in t.get("kernels", []):
                for p in k.get("policies", []):
                    row = {"trace": t["trace"], "kernel": k["kernel"]}
                    for key, v in p.items():
                        if isinstance(v, dict):
                            row.update({f"miss_{m}": n for m, n in v.items()})
                        else:
                            row[self._RENAME.get(key, key)] = v
                    rows.append(row)
        self.validate = pd.DataFrame(rows)

    def __repr__(self) -> str:
        return f"<govsim.Validation {len(self.validate)} policy rows>"


def validate(traces: Union[PathLike, Sequence[PathLike]], platform: Optional[str] = None,
             kernel: Union[None, str, Sequence[str]] = None, governor: Optional[str] = None,
             window_ms: Optional[float] = None, timing: Optional[str] = None,
             util_source: Optional[str] = None, trace_format: Optional[str] = None,
             strict: bool = False, **tunables: Any) -> Validation:
    """``govsim validate --json``: how close the emulation is to the traced kernel."""
    args = ["validate", *map(os.fspath, _list(traces)), "--json"]
    if window_ms is not None:
        args += ["--window-ms", str(window_ms)]
    args += _run_options(platform, governor, (), (), kernel, timing, util_source,
                         trace_format=trace_format, strict=strict, tunables=tunables)
    proc = _exec(args)
    return Validation(json.loads(proc.stdout))


def open(db: PathLike) -> Results:
    """The runs of an existing results database (read-only)."""
    return Results(db)


