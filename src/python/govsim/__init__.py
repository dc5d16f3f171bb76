"""govsim from Python: replay traces with the ``govsim`` program and read its results as
pandas DataFrames.

This package is a thin layer over the command-line program and its SQLite results database:
every figure comes from ``govsim`` itself (the replay, the tune search, the validation) and
from the tables it stores; nothing is computed a second time here. Column names carry their
units (``time_s``, ``freq_khz``, ``energy_j``).

    import govsim
    r = govsim.run("traces/android-8cpu/surfaceflinger.txt", platform="hikey960",
                   actions=["setattr comm=surfaceflinger uclamp_min=512"], rate_limit_us=2000)
    r.energy_j, r.residency, r.timeline

The ``govsim`` program used is, in order: ``$GOVSIM_BIN``; ``build/govsim`` of the source
tree this package sits in (``src/python/govsim`` -> ``build/govsim``); ``govsim`` on PATH.
A failure raises :class:`GovsimError` with govsim's message and exit status (2 a bad
command line, 3 bad input, 1 a runtime failure).
"""
from govsim.api import (GovsimError, Results, Run, TuneResult, Validation, binary, open,
                        run, sweep, tune, validate)

__all__ = ["GovsimError", "Results", "Run", "TuneResult", "Validation", "binary", "open", "run",
           "sweep", "tune", "validate"]
