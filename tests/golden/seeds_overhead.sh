#!/usr/bin/env bash
# seeds_overhead.sh - the seeds' overhead figures (README 'Kernel overhead'):
# tools/seeds-overhead.py replays `gen pipe` traces (5000 rounds; the README's table uses
# 100000) in the configurations of seeds 000 and 001 (on hikey960) and 003 (on hikey, the board
# it ran on) and fails when a relative figure a cost table targets is more than 0.5 percentage
# point from the document's. The documented misses (seed 003's key-less uclamp rows at depths 1
# and 3, 0.52 pp; seed 001's performance run) are printed, not checked.
set -eu
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init seeds_overhead
python3 tools/seeds-overhead.py --govsim "${GOVSIM_BIN:?}" --loops 5000 --check
# models/hikey.sql's seed-003 rows are what the stated rules give (a second implementation of
# the derivation, on govsim's own 100000-round HiKey round: one replay)
python3 tools/kcost-fit.py --govsim "${GOVSIM_BIN:?}" --check models/hikey.sql
