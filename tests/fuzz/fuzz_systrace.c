/*
 * fuzz_systrace.c - libFuzzer target for the Android systrace reader, HTML and Chrome JSON (src/trace/systrace.c), format forced.
 * See fuzz_reader.h for what is checked beyond the sanitizers.
 */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_trace(data, size, TRACE_FMT_SYSTRACE);
	return 0;
}
