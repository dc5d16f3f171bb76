/*
 * fuzz_dat_format.c - libFuzzer target for the event-format pre-check (dat_format.c) against
 * the parser it protects: libtraceevent's tep_parse_event().
 *
 * The property: formats that dat_format_check() lets through and that a sandbox parse in a child
 * (dat_sandbox.c) survives never crash tep_parse_event() in our process (address, undefined), as
 * dat_check() hands libtracecmd a file. fuzz_dat reaches the same code through a whole
 * trace.dat at ~35 inputs/s; here the formats alone run ten times faster. What the pre-check
 * alone misses (the sandbox catches it) shows as inputs the sandbox refuses: run with
 * GOVSIM_FUZZ_NO_TRIAL=1 to find those shapes (each one is a precise message the pre-check
 * could give).
 *
 * Input: formats separated by a line "@@" ("\n@@\n"), parsed in order into one tep handle as
 * libtracecmd does (read_event_files(): one handle, every format of the file, so libtraceevent's
 * file-static parser state carries from one event to the next). The first byte chooses the
 * system: odd "ftrace" (TEP_EVENT_FL_ISFTRACE: "field special:" and '.' in field names are
 * accepted), even "sched"; it is not part of the first format. A format the pre-check refuses
 * stops the input, as dat_check() stops the file.
 */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "fuzz_input.h"
#include "trace/dat/dat_priv.h"

#define SEP "\n@@\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	const char *sys;
	struct tep_handle *tep;
	struct dat_sandbox *sandbox;
	static int no_trial = -1;
	char why[256];

	if (size < 1)
		return 0;
	if (no_trial < 0)
		no_trial = getenv("GOVSIM_FUZZ_NO_TRIAL") != NULL;
	sys = data[0] & 1 ? "ftrace" : "sched";
	sandbox = dat_sandbox_new();
	fuzz_check(sandbox != NULL, "out of memory");
	for (const char *q = p; q < end;) {
		const char *next = memmem(q, (size_t)(end - q), SEP, sizeof(SEP) - 1);
		size_t len = (size_t)((next ? next : end) - q);

		why[0] = '\0';
		if (dat_format_check(q, len, sys, why, sizeof(why)) != 0) {
			fuzz_check(why[0] != '\0', "a refused format without a reason");
			dat_sandbox_free(sandbox); /* as dat_check() refuses the whole file */
			return 0;
		}
		fuzz_check(dat_sandbox_add(sandbox, sys, q, len) == 0, "out of memory");
		q = next ? next + sizeof(SEP) - 1 : end;
	}
	why[0] = '\0';
	if (!no_trial && dat_sandbox_run(sandbox, NULL, why, sizeof(why)) != 0) {
		fuzz_check(strstr(why, "libtraceevent cannot parse event") != NULL,
			   "a failed sandbox without its message");
		dat_sandbox_free(sandbox);
		return 0;
	}
	dat_sandbox_free(sandbox);
	tep = tep_alloc();
	if (!tep)
		return 0;
	while (p < end) {
		const char *next = memmem(p, (size_t)(end - p), SEP, sizeof(SEP) - 1);
		size_t len = (size_t)((next ? next : end) - p);

		tep_parse_event(tep, p, (unsigned long)len, sys);
		p = next ? next + sizeof(SEP) - 1 : end;
	}
	tep_free(tep);
	return 0;
}
