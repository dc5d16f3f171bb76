#!/bin/sh
# replay_mode.sh - whose decisions a replay follows is settled once, when the replay is made.
#
# Invariant: govsim validate replays the kernel's own placement and scores the emulation against
# the kernel's frequencies; a what-if run follows the emulation's. That is the replay setting
# sim_config.decisions (SIM_DECISIONS_KERNEL or SIM_DECISIONS_EMULATED), read only where the
# replay is set up (sim.h declares it, replay.c sets it, sim.c and placement.c's init decide
# the observers and the placement driver from it). No file in src/ keeps a "validating" flag
# for the event path to test, and the accounting (account.c) does not read the setting: what
# validation counts there belongs to its observer (validate.c).
# Does not check: flags under other names, or what the observers do with their hooks.
# Usage: replay_mode.sh SOURCE_DIR
src=${1:?usage: replay_mode.sh SOURCE_DIR}
status=0
found=$(grep -rnw 'validating' "$src"/src --include='*.c' --include='*.h')
if [ -n "$found" ]; then
	echo "replay_mode: a 'validating' flag in src/ (use sim_config.decisions at set-up):"
	echo "$found"
	status=1
fi
found=$(grep -rln 'SIM_DECISIONS_\|\(cfg\.\|cfg->\)decisions' "$src"/src --include='*.c' --include='*.h' |
	sed "s|^$src/||" | grep -vxE 'src/sim/(sim\.h|sim\.c|placement\.c|replay\.c)')
if [ -n "$found" ]; then
	echo "replay_mode: the replay's decisions setting read outside its set-up:"
	echo "$found"
	status=1
fi
if ! grep -q 'SIM_DECISIONS_KERNEL' "$src"/src/sim/sim.h; then
	echo "replay_mode: src/sim/sim.h does not define the setting SIM_DECISIONS_KERNEL"
	status=1
fi
exit $status
