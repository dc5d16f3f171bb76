# lib/update_gate.sh (not a test itself: ctest runs golden/*.sh) - sourced (after `cd` to the source tree) by the golden scripts that rewrite
# their expected files when GOVSIM_GOLDEN_UPDATE=1: an update is refused unless the invariants
# every run must satisfy hold (tests/golden/invariants.sh: residency = span per policy, work in
# = work out, key off => no aggregation, energy = busy x EM power), so a regenerated expectation
# cannot pin a broken model. Without GOVSIM_GOLDEN_UPDATE it does nothing.
if [ "${GOVSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
	if ! GOVSIM_GOLDEN_UPDATE=0 bash tests/golden/invariants.sh >&2; then
		echo "golden update refused: tests/golden/invariants.sh fails (see above)" >&2
		exit 1
	fi
fi
