#!/usr/bin/env bash
# seeds_overhead.sh - the seeds' overhead figures (issue #16, README 'Kernel overhead'):
# tools/seeds-overhead.py replays `gen pipe` traces (5000 rounds; the README's table uses
# 100000) in the configurations of seeds 000, 003 and 001 and fails when a relative figure the
# cost table targets is more than 0.5 percentage point from the document's. The documented
# misses (seed 003's uclamp columns, seed 001's performance run) are printed, not checked.
set -eu
cd "${GOVSIM_SOURCE_DIR:?}"
python3 tools/seeds-overhead.py --govsim "${GOVSIM_BIN:?}" --loops 5000 --check
