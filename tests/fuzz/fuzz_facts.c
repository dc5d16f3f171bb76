/*
 * fuzz_facts.c - libFuzzer target for a recording's facts file (src/trace/facts.h), read through
 * trace_facts_find() beside a trace as the command line does.
 *
 * Checks, besides the sanitizers: a failed read returns GS_ETRACE/GS_EIO/GS_ENOMEM with a
 * message that names the file; a file that reads is marked present, and its values are in their
 * documented ranges (freq_invariant and fast_switch -1, 0 or 1; hz 0 or 100..1000).
 * Does not check: what the replay does with them (tests/unit/test_facts.c, the lab tests).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "trace/facts.h"

static char dir[64];

/* the one directory of the run, gone at exit */
static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char facts[128], trace[128];
	struct trace_facts f;
	struct gs_error err;
	FILE *out;
	int rc;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/govsim-fuzz-facts.XXXXXX");
		fuzz_check(mkdtemp(dir) != NULL, "mkdtemp");
		atexit(remove_dir);
	}
	snprintf(facts, sizeof(facts), "%s/rec.facts", dir);
	snprintf(trace, sizeof(trace), "%s/rec.txt.gz", dir);
	out = fopen(facts, "w");
	fuzz_check(out != NULL, "fopen");
	fuzz_check(fwrite(data, 1, size, out) == size, "fwrite");
	fuzz_check(fclose(out) == 0, "fclose");

	gs_error_clear(&err);
	rc = trace_facts_find(trace, &f, &err);
	unlink(facts);
	if (rc < 0) {
		fuzz_check(rc == GS_ETRACE || rc == GS_EIO || rc == GS_ENOMEM, "facts error code");
		fuzz_check(err.code == rc && strstr(err.msg, facts) != NULL,
			   "facts error message without the file name");
		return 0;
	}
	fuzz_check(rc == 0 && f.present, "facts read but not present");
	fuzz_check(f.freq_invariant >= -1 && f.freq_invariant <= 1, "freq_invariant range");
	fuzz_check(f.fast_switch >= -1 && f.fast_switch <= 1, "fast_switch range");
	fuzz_check(f.hz == 0 || (f.hz >= 100 && f.hz <= 1000), "hz range");
	fuzz_check(strlen(f.platform) < sizeof(f.platform), "platform length");
	return 0;
}
