#!/bin/bash
# setup_packages.sh - tools/setup.sh installs what each job needs and no more (--print lists
# what it would install; nothing is installed here).
#
# Checks: the plain set (the README's first command: build) has the compiler, CMake and every
# library cmake/deps.cmake requires (each 'Debian package' it names, read from that file), and
# none of Slurm, munge, GNU parallel, clang or QEMU; --test adds what the golden tests run
# (sqlite3, python3, jq); --lab adds Slurm, munge, parallel, clang, QEMU and the clang runtime
# of the installed clang's major version (read here from `clang --version`), or none when clang
# is not installed; --lab-chroot adds mmdebstrap to --lab's set (the chroot in which
# tools/lab/build-pelt-tp builds for a kernel newer than the host's compiler), which --lab
# alone does not install; an unknown option exits 2. The README's set-up block is two commands
# and its second installs the test set.
set -u
export LC_ALL=C
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init setup_packages

has() { [[ " $1 " == *" $2 "* ]]; }

plain=$(sh tools/setup.sh --print | tr '\n' ' ')
test=$(sh tools/setup.sh --print --test | tr '\n' ' ')
lab=$(sh tools/setup.sh --print --lab | tr '\n' ' ')
labchroot=$(sh tools/setup.sh --print --lab-chroot | tr '\n' ' ')
for p in build-essential cmake pkg-config protobuf-c-compiler libcmocka-dev \
	$(sed -n "s/.*install the Debian package '\([^'$]*\)'.*/\1/p" cmake/deps.cmake); do
	has "$plain" "$p" || golden_fail "plain set lacks $p"
done
for p in slurm-wlm munge parallel clang qemu-system-x86 sqlite3 jq; do
	has "$plain" "$p" && golden_fail "plain set has $p"
done
for p in sqlite3 python3 jq; do
	has "$test" "$p" || golden_fail "--test lacks $p"
done
for p in slurm-wlm munge parallel clang; do
	has "$test" "$p" && golden_fail "--test has $p"
done
for p in slurm-wlm munge parallel clang qemu-system-x86 sqlite3; do
	has "$lab" "$p" || golden_fail "--lab lacks $p"
done
has "$lab" mmdebstrap && golden_fail "--lab has mmdebstrap (the lab's chroot is an opt-in)"
for p in $lab mmdebstrap; do
	has "$labchroot" "$p" || golden_fail "--lab-chroot lacks $p"
done
v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1)
if [ -n "$v" ]; then
	has "$lab" "libclang-rt-$v-dev" || golden_fail "--lab lacks libclang-rt-$v-dev (clang $v installed): $lab"
fi
[ "$(echo "$lab" | grep -o 'libclang-rt-[0-9]*-dev' | wc -l)" -le 1 ] || golden_fail "--lab pins several clang runtimes"
sh tools/setup.sh --bogus >/dev/null 2>&1
[ $? = 2 ] || golden_fail "an unknown option does not exit 2"

# the README's set-up: two commands, the second installing the test set
block=$(sed -n '/^## Set up/,/^## A tour/p' README.md | sed -n '/^```sh$/,/^```$/p' | grep -v '^#\|^```\|^$')
[ "$(echo "$block" | wc -l)" = 2 ] || golden_fail "the README's set-up is not two commands: $block"
echo "$block" | sed -n 2p | grep -q '^tools/setup.sh --test && ' ||
	golden_fail "the README's second command does not install the test set first"
exit $fail
