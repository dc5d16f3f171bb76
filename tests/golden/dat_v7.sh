#!/bin/bash
# dat_v7.sh - govsim's trace.dat version-7 path, on real version-7 files.
#
# govsim has no version-7 recording, so the two version-6 inputs (the real juno-r0 sched_load
# trace and the corpus' one-page cut of it) are rewritten as version 7 by
# tests/golden/lib/dat_v7.py, a second implementation of trace-cmd's layouts written apart from
# src/trace/dat/dat_check.c; and, where trace-cmd is installed (tools/setup.sh installs it), also by
# `trace-cmd convert` (trace-cmd 3.1.6, the same release as the libtracecmd govsim links),
# uncompressed and zstd-compressed. Checked:
#  - each conversion replays to exactly the results of its version-6 original (`run --json`,
#    the "trace" field, the file's name, left out; "events" is the number of events read) and
#    reads to the same `trace info`: libtracecmd reads it and dat_check accepts it;
#  - damaged version-7 files exit 3 with the message the layout calls for, and never crash
#    (a sanitizer report fails the case too, so under build-san this covers ASan/UBSan).
#    The offsets and the expected messages come from the layout of the converted file, read
#    here by a third, small reader (`at` below), not from what govsim printed.
# Run from the source root with GOVSIM_BIN set (see tests/CMakeLists.txt).
set -u
. "${GOVSIM_SOURCE_DIR:?}/tests/golden/lib/golden.sh"
golden_init dat_v7

full=traces/juno-r0/sched_load/trace.dat
seed=tests/fuzz/corpus/dat/juno-sched-load-1page.dat
python3 tests/golden/lib/dat_v7.py "$full" "$tmp/full-v7.dat" || golden_fail "dat_v7.py $full failed"
python3 tests/golden/lib/dat_v7.py "$seed" "$tmp/seed-v7.dat" || golden_fail "dat_v7.py $seed failed"

# replays_as_v6 V6 V7 WHAT: the v7 file replays and reads exactly as the v6 one
replays_as_v6() {
	local v6=$1 v7=$2 what=$3 a b k
	for k in 6 7; do
		[ $k = 6 ] && f=$v6 || f=$v7
		"$bin" run "$f" --platform juno-r0 --json 2>"$tmp/err" | jq -S 'del(.trace)' >"$tmp/v$k.json"
		[ "${PIPESTATUS[0]}" = 0 ] || { cat "$tmp/err"; golden_fail "$what: run $f failed"; }
		"$bin" trace info "$f" 2>&1 | grep -v '^file:' >"$tmp/v$k.info"
	done
	v6=$tmp/v6 v7=$tmp/v7
	a=$(jq .events "$v6.json") b=$(jq .events "$v7.json")
	if [ -z "$a" ] || [ "$a" = null ] || [ "$a" -eq 0 ]; then
		golden_fail "$what: the version-6 run read no events"
	fi
	golden_same "$what: the version-7 replay ($b events, $a in version 6)" "$v6.json" "$v7.json"
	golden_same "$what: trace info" "$v6.info" "$v7.info"
}
replays_as_v6 "$full" "$tmp/full-v7.dat" "dat_v7.py, sched_load"
replays_as_v6 "$seed" "$tmp/seed-v7.dat" "dat_v7.py, one-page seed"
# corpus NAME FILE: the committed tests/fuzz/corpus/dat/NAME.dat is FILE (DAT_V7_CORPUS=write
# rewrites it: then review and commit it)
corpus() {
	if [ "${DAT_V7_CORPUS:-}" = write ]; then
		cp "$2" "tests/fuzz/corpus/dat/$1.dat"
	elif ! cmp -s "$2" "tests/fuzz/corpus/dat/$1.dat"; then
		golden_fail "tests/fuzz/corpus/dat/$1.dat is not what this test makes (DAT_V7_CORPUS=write)"
	fi
}
corpus v7-juno-1page "$tmp/seed-v7.dat"

# a version-6 file with options (the inputs above have none): the seed with UNAME, TRACECLOCK
# and a CPUSTAT per CPU added, written back as version 6; govsim reports the uname's kernel
# release, so a UNAME option lost or mangled by the conversion shows in the comparison
python3 - "$seed" "$tmp/opts-v6.dat" <<'PY' || golden_fail "the seed with options not written"
import sys
sys.path.insert(0, 'tests/golden/lib')
from dat_v6 import V6
v6 = V6(open(sys.argv[1], 'rb').read())
assert v6.e == '<' and not v6.options
v6.options = [(5, b'Linux juno 5.4.0-rc3 #1 SMP PREEMPT aarch64\0'), (4, b'[local] global counter\0')]
v6.options += [(2, b'CPU: %d\nentries: 0\noverrun: 0\n\0' % c) for c in range(v6.cpus)]
open(sys.argv[2], 'wb').write(v6.write())
PY
python3 tests/golden/lib/dat_v7.py "$tmp/opts-v6.dat" "$tmp/opts-v7.dat" ||
	golden_fail "dat_v7.py of the seed with options failed"
replays_as_v6 "$tmp/opts-v6.dat" "$tmp/opts-v7.dat" "dat_v7.py, seed with v6 options"
grep -qF 'the trace records kernel 5.4.0-rc3' "$tmp/v7.json" ||
	golden_fail "the UNAME option's release is not in the version-7 run"

if command -v trace-cmd >/dev/null; then
	for z in none zstd; do
		if trace-cmd convert -i "$full" -o "$tmp/tc-$z.dat" --file-version 7 --compression $z \
			>"$tmp/tc.log" 2>&1; then
			replays_as_v6 "$full" "$tmp/tc-$z.dat" "trace-cmd convert --compression $z"
		else
			cat "$tmp/tc.log"; golden_fail "trace-cmd convert --compression $z failed"
		fi
	done
else
	golden_fail "trace-cmd is not installed (tools/setup.sh): its conversions are not checked"
fi

# layout FILE: the byte offsets of a little-endian, uncompressed v7 file, from its layout, as
# shell assignments:
#   opts_field        the file header's first-options offset
#   sec_ID            the first section of id ID (following the sections back to back)
#   opts_N            the N-th options section (from the file header, through the DONE options)
#   done_N            the 8-byte next-offset of the N-th options section's DONE option
#   cpu_CPU_off/size  the offset/size field of CPU's entry in the BUFFER option
#   optid_ID          the id field of the first option of id ID
layout() {
	python3 - "$@" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
pos = b.index(b'\0', 10) + 1 + 6          # version, endianness, long size, page size
pos = b.index(b'\0', pos) + 1             # compression name
pos = b.index(b'\0', pos) + 1             # compression version
found = {'opts_field': pos}
first = struct.unpack_from('<Q', b, pos)[0]
s = pos + 8
while s + 16 <= len(b):
    sid, _, _, size = struct.unpack_from('<HHIQ', b, s)
    found.setdefault('sec_%d' % sid, s)
    s += 16 + size
n, o = 0, first
while o:
    found['opts_%d' % n] = o
    _, _, _, size = struct.unpack_from('<HHIQ', b, o)
    p, end, o = o + 16, o + 16 + size, 0
    while p < end:
        oid, osz = struct.unpack_from('<HI', b, p)
        found.setdefault('optid_%d' % oid, p)
        d = p + 6
        if oid == 0:
            found['done_%d' % n] = d
            o = struct.unpack_from('<Q', b, d)[0]
            break
        if oid == 3:
            q = b.index(b'\0', b.index(b'\0', d + 8) + 1) + 1 + 4   # name, clock, page size
            for i in range(struct.unpack_from('<I', b, q)[0]):
                e = q + 4 + 20 * i
                cpu = struct.unpack_from('<I', b, e)[0]
                found['cpu_%d_off' % cpu], found['cpu_%d_size' % cpu] = e + 4, e + 12
        p = d + osz
    n += 1
for k, v in found.items():
    print('%s=%d' % (k, v))
PY
}
# u64 FILE AT: the little-endian u64 at byte AT
u64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
# put FILE AT VALUE [BYTES]: write VALUE as a little-endian number of BYTES (8) at byte AT
put() {
	local s="" i
	for i in $(seq 0 $((${4:-8} - 1))); do
		s="$s$(printf '\\%03o' $((($3 >> (8 * i)) & 255)))"
	done
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# damaged NAME FILE MESSAGE: govsim run exits 3 with "govsim: 'FILE': damaged trace.dat: MESSAGE"
damaged() {
	local name=$1 file=$2 msg=$3 st
	(cd "$tmp" && "$bin" run --quiet --platform juno-r0 "$file") >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -ne 3 ]; then
		sed 's/^/  stderr: /' "$tmp/err" | head -5; golden_fail "$name: exit status $st, expected 3"
	elif ! grep -qxF -- "govsim: '$file': damaged trace.dat: $msg" "$tmp/err"; then
		sed 's/^/  stderr: /' "$tmp/err" | head -5
		golden_fail "$name: no message 'govsim: '$file': damaged trace.dat: $msg'"
	elif grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
		head -20 "$tmp/err"; golden_fail "$name: sanitizer report"
	fi
}

v7=$tmp/seed-v7.dat
size=$(stat -c %s "$v7")
eval "$(layout "$v7")"
opts0=$opts_0 opts1=$opts_1 field=$opts_field strings=$sec_15 events=$sec_18
cpu5=$(u64 "$v7" "$cpu_5_off")
# cut KEEP NAME: the first KEEP bytes of the converted seed
cut_() { head -c "$1" "$v7" >"$tmp/$2"; }

# truncated inside the file header: the first options offset (8 bytes at `field`) is cut
cut_ $((field + 4)) cut-header.dat
damaged cut-header cut-header.dat "the first options section's offset at byte $field runs past the end of the file ($((field + 4)) bytes; truncated?)"
# inside the first options section: its header says more bytes than are left
cut_ $((opts0 + 20)) cut-options.dat
damaged cut-options cut-options.dat "section 0 at byte $opts0 says $(($(u64 "$v7" $((opts0 + 8))))) bytes, past the end of the file ($((opts0 + 20)) bytes; truncated or corrupt)"
# inside the event formats section: the options sections, after it, are gone
cut_ $((events + 1000)) cut-events.dat
damaged cut-events cut-events.dat "a section at byte $opts0, past the end of the file ($((events + 1000)) bytes; truncated?)"
# inside CPU 5's data (the last CPU's): the options section with the BUFFER option is gone
cut_ $((cpu5 + 100)) cut-cpu-data.dat
damaged cut-cpu-data cut-cpu-data.dat "a section at byte $opts1, past the end of the file ($((cpu5 + 100)) bytes; truncated?)"
# the last byte: the strings section, written last, is one byte short
cut_ $((size - 1)) cut-last-byte.dat
damaged cut-last-byte cut-last-byte.dat "section 15 at byte $strings says $((size - strings - 16)) bytes, past the end of the file ($((size - 1)) bytes; truncated or corrupt)"

# a section's size made huge: the event formats section's, 2^56
cp "$v7" "$tmp/huge-section.dat"
put "$tmp/huge-section.dat" $((events + 8)) $((1 << 56))
damaged huge-section huge-section.dat "section 18 at byte $events says $((1 << 56)) bytes, past the end of the file ($size bytes; truncated or corrupt)"
# the first options offset past the end
cp "$v7" "$tmp/options-past-end.dat"
put "$tmp/options-past-end.dat" "$field" $((size + 4096))
damaged options-past-end options-past-end.dat "a section at byte $((size + 4096)), past the end of the file ($size bytes; truncated?)"
# the first options section's DONE points to itself: a loop, cut after 256 sections
cp "$v7" "$tmp/options-loop.dat"
put "$tmp/options-loop.dat" "$done_0" "$opts0"
damaged options-loop options-loop.dat "more than 256 options sections (a loop?)"
# the BUFFER option's CPU 5 data: its size past the end of the file, then its offset
cp "$v7" "$tmp/cpu-size-past-end.dat"
put "$tmp/cpu-size-past-end.dat" "$cpu_5_size" $((size - cpu5 + 4096))
damaged cpu-size-past-end cpu-size-past-end.dat "CPU 5's data ($((size - cpu5 + 4096)) bytes at byte $cpu5) runs past the end of the file ($size bytes; truncated?)"
cp "$v7" "$tmp/cpu-offset-past-end.dat"
put "$tmp/cpu-offset-past-end.dat" "$cpu_5_off" $((1 << 40))
damaged cpu-offset-past-end cpu-offset-past-end.dat "CPU 5's data (4096 bytes at byte $((1 << 40))) runs past the end of the file ($size bytes; truncated?)"
# an event format in the v7 EVENT FORMATS section whose print fmt names no field (the v6
# analogue: bad_inputs.sh dat-print-fmt): sched_switch's REC->prev_state -> prev_statx
cp "$v7" "$tmp/print-fmt.dat"
off=$(grep -obUa '__print_flags(REC->prev_state' "$v7" | cut -d: -f1)
printf 'x' | dd of="$tmp/print-fmt.dat" bs=1 seek=$((off + 28)) conv=notrunc status=none
damaged print-fmt print-fmt.dat "event sched/sched_switch: its print fmt names REC->prev_statx, which is not one of its fields"

# what the library does not survive (found by mutating the converted seed, under ASan):
# no HEADER_INFO option (its id made unknown): the open fails half-done, tracecmd_close()
# dereferences NULL
cp "$v7" "$tmp/no-header-info.dat"
put "$tmp/no-header-info.dat" "$optid_16" 99 2
damaged no-header-info no-header-info.dat "no HEADER_INFO option (the header_page's section)"
# no top-instance BUFFER option (its id made unknown)
cp "$v7" "$tmp/no-buffer.dat"
put "$tmp/no-buffer.dat" "$optid_3" 99 2
damaged no-buffer no-buffer.dat "no BUFFER option of the top instance (its CPUs' data)"
# the last options section without its DONE (its id made unknown): the library reads on
cp "$v7" "$tmp/no-done.dat"
put "$tmp/no-done.dat" $((done_1 - 6)) 99 2
damaged no-done no-done.dat "the options section at byte $opts1 ends without a DONE option"
# CPU 1 listed as CPU 0 too
cp "$v7" "$tmp/cpu-twice.dat"
put "$tmp/cpu-twice.dat" $((cpu_1_off - 4)) 0 4
damaged cpu-twice cpu-twice.dat "a buffer lists CPU 0 twice"
# the flyrecord section flagged compressed in a file of no compression
cp "$v7" "$tmp/flagged-compressed.dat"
put "$tmp/flagged-compressed.dat" $((sec_3 + 2)) 1 2
damaged flagged-compressed flagged-compressed.dat "section 3 at byte $sec_3 is flagged compressed, in a file without compression"
# a CPUCOUNT of 2^31 - 1 (the replay then ran past 20 s)
cp "$v7" "$tmp/cpucount.dat"
put "$tmp/cpucount.dat" $((optid_8 + 6)) 2147483647 4
damaged cpucount cpucount.dat "2147483647 CPUs (expected 1..4096)"
# an UNAME option whose string is not NUL-terminated (the library strdup()s it)
cp "$tmp/opts-v7.dat" "$tmp/uname-no-nul.dat"
eval "$(layout "$tmp/opts-v7.dat" | sed 's/^/o_/')"
printf 'x' | dd of="$tmp/uname-no-nul.dat" bs=1 seek=$((o_optid_5 + 6 + $(od -An -tu4 -j $((o_optid_5 + 2)) -N4 "$tmp/opts-v7.dat") - 1)) conv=notrunc status=none
damaged uname-no-nul uname-no-nul.dat "option 5 at byte $o_optid_5 is not a NUL-terminated string"

# zstd (trace-cmd convert of the seed): a compressed block's header gives its compressed and
# uncompressed sizes, which libtracecmd allocates as read (ASan: 2^64 - 1 bytes asked)
if command -v trace-cmd >/dev/null &&
	trace-cmd convert -i "$seed" -o "$tmp/z.dat" --file-version 7 --compression zstd >/dev/null 2>&1; then
	corpus v7-juno-1page-zstd "$tmp/z.dat"
	eval "$(layout "$tmp/z.dat" | sed 's/^/z_/')"
	zsize=$(stat -c %s "$tmp/z.dat")
	# the HEADER_INFO section's uncompressed size (4 bytes after its compressed size)
	cp "$tmp/z.dat" "$tmp/z-inflate.dat"
	put "$tmp/z-inflate.dat" $((z_sec_16 + 16 + 4)) 4294967295 4
	damaged z-inflate z-inflate.dat "a compressed section at byte $((z_sec_16 + 16)) uncompresses to 4294967295 bytes (at most 1073741824)"
	# CPU 0's count of chunks
	z0=$(u64 "$tmp/z.dat" "$z_cpu_0_off") z0size=$(u64 "$tmp/z.dat" "$z_cpu_0_size")
	cp "$tmp/z.dat" "$tmp/z-chunks.dat"
	put "$tmp/z-chunks.dat" "$z0" 4294967295 4
	damaged z-chunks z-chunks.dat "CPU 0's data at byte $z0 says 4294967295 compressed chunks, more than its $z0size bytes hold"
	# CPU 0's first chunk of 0 compressed bytes (the open failed, tracecmd_close() crashed)
	cp "$tmp/z.dat" "$tmp/z-empty-chunk.dat"
	put "$tmp/z-empty-chunk.dat" $((z0 + 4)) 0 4
	damaged z-empty-chunk z-empty-chunk.dat "CPU 0's compressed chunk at byte $((z0 + 4)) says 0 compressed bytes (its room: $((z0size - 8)))"
	# CPU 0's first chunk uncompressing to 1 byte, not whole pages (the open failed, and
	# tracecmd_close() crashed)
	cp "$tmp/z.dat" "$tmp/z-chunk-unaligned.dat"
	put "$tmp/z-chunk-unaligned.dat" $((z0 + 8)) 1 4
	damaged z-chunk-unaligned z-chunk-unaligned.dat "CPU 0's compressed chunk at byte $((z0 + 4)) uncompresses to 1 bytes, not whole pages of 4096"
	# the last byte (the strings section, compressed, is one byte short)
	head -c $((zsize - 1)) "$tmp/z.dat" >"$tmp/z-cut.dat"
	damaged z-cut z-cut.dat "section 15 at byte $z_sec_15 says $((zsize - z_sec_15 - 16)) bytes, past the end of the file ($((zsize - 1)) bytes; truncated or corrupt)"
fi

# the committed damaged corpus files are these cases (tests/fuzz/README.md, Version 7)
corpus v7-truncated-options "$tmp/cut-options.dat"
corpus v7-options-loop "$tmp/options-loop.dat"
corpus v7-buffer-cpu-past-end "$tmp/cpu-size-past-end.dat"
corpus v7-no-header-info "$tmp/no-header-info.dat"

[ $fail = 0 ] && echo "$me: all cases pass"
exit $fail
