/*
 * fuzz_dat_format.c - libFuzzer target for the event-format pre-check (dat_format.c) against
 * the parser it protects: libtraceevent's tep_parse_event().
 *
 * The property: a set of event formats that dat_format_check() lets through never crashes
 * tep_parse_event() (address, undefined). fuzz_dat reaches the same code through a whole
 * trace.dat at ~35 inputs/s; here the formats alone run some thousand times faster, so the
 * grammar the pre-check must cover (event_read_fields(), the print fmt parser) is explored in
 * minutes.
 *
 * Input: formats separated by a line "@@" ("\n@@\n"), parsed in order into one tep handle as
 * libtracecmd does (read_event_files(): one handle, every format of the file, so libtraceevent's
 * file-static parser state carries from one event to the next). The first byte chooses the
 * system: odd "ftrace" (TEP_EVENT_FL_ISFTRACE: "field special:" and '.' in field names are
 * accepted), even "sched"; it is not part of the first format. A format the pre-check refuses
 * stops the input, as dat_check() stops the file.
 */
#include <string.h>
#include <traceevent/event-parse.h>

#include "fuzz_input.h"
#include "trace/reader_priv.h"

#define SEP "\n@@\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	const char *sys;
	struct tep_handle *tep;
	char why[256];

	if (size < 1)
		return 0;
	sys = data[0] & 1 ? "ftrace" : "sched";
	tep = tep_alloc();
	if (!tep)
		return 0;
	while (p < end) {
		const char *next = memmem(p, (size_t)(end - p), SEP, sizeof(SEP) - 1);
		size_t len = (size_t)((next ? next : end) - p);

		why[0] = '\0';
		if (dat_format_check(p, len, sys, why, sizeof(why)) != 0) {
			fuzz_check(why[0] != '\0', "a refused format without a reason");
			break;
		}
		tep_parse_event(tep, p, (unsigned long)len, sys);
		p = next ? next + sizeof(SEP) - 1 : end;
	}
	tep_free(tep);
	return 0;
}
