/*
 * fuzz_reader.h - one streaming read of the fuzz input with the format forced, shared by the
 * text and CSV reader targets (each is this one function with its format).
 *
 * Checks, besides the sanitizers: every call returns 1, 0 or a negative GS_E* code with a
 * message; the number of events delivered equals stats.events; an event older than the one
 * before it is only ever delivered when the reader counted it in disorder_beyond_window (the
 * re-ordering stage never reorders silently); reported lines are bounded and terminated.
 */
#ifndef GOVSIM_FUZZ_READER_H
#define GOVSIM_FUZZ_READER_H

#include <string.h>

#include "fuzz_input.h"
#include "trace/reader.h"

static inline void fuzz_read_trace(const uint8_t *data, size_t size, enum trace_format format)
{
	struct reader_opts opts = {.format = format};
	struct trace_reader *r = NULL;
	struct gs_error err;
	struct event ev;
	u64 n = 0, backwards = 0, prev_ts = 0;
	const struct trace_stats *st;
	int rc;

	gs_error_clear(&err);
	rc = trace_reader_open(fuzz_input_path(data, size), &opts, &r, &err);
	if (rc < 0) {
		fuzz_check(err.code == rc && err.msg[0] != '\0', "open failure without a message");
		trace_reader_free(r);
		return;
	}
	while ((rc = trace_reader_next(r, &ev, &err)) == 1) {
		if (n > 0 && ev.ts_ns < prev_ts)
			backwards++;
		prev_ts = ev.ts_ns;
		n++;
	}
	fuzz_check(rc == 0 || (rc < 0 && err.code == rc && err.msg[0] != '\0'),
		   "next failed without a message");
	st = trace_reader_stats(r);
	fuzz_check(st->events == n, "stats.events differs from the events delivered");
	fuzz_check(backwards <= st->disorder_beyond_window,
		   "an event went back in time without being counted");
	fuzz_check(st->nr_reported >= 0 && st->nr_reported <= READER_MAX_REPORTED,
		   "nr_reported out of range");
	for (int i = 0; i < st->nr_reported; i++)
		fuzz_check(memchr(st->reported[i], '\0', sizeof(st->reported[i])) != NULL,
			   "a reported line is not terminated");
	trace_reader_free(r);
}

#endif
