/*
 * fuzz_dat.c - libFuzzer target for the trace.dat reader (dat_check.c, then libtracecmd and
 * libtraceevent), format forced. The input goes through a memfd, as the library opens paths.
 * See fuzz_reader.h for what is checked beyond the sanitizers; a crash inside libtracecmd is a
 * govsim bug here: dat_check() must refuse what the library cannot read safely.
 */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_trace(data, size, TRACE_FMT_DAT);
	return 0;
}
