/*
 * reader.h - one streaming pass over a trace file, one time-ordered event stream out.
 *
 * Formats (detected from content, or forced): kernel ftrace text, trace-cmd report text (old
 * and new, with or without -N, and the -l latency layout), trace.dat through libtracecmd, CSV
 * util traces through libcsv; gzip-compressed text too. Lines out of time order within a bounded window are re-ordered; disorder beyond it is
 * reported. Malformed lines are counted, the first few kept as "'file':line: why", and skipped
 * (or, with strict, fail the read). Memory does not grow with the trace.
 *
 * Opaque handle: trace_reader_open()/trace_reader_free().
 */
#ifndef GOVSIM_TRACE_READER_H
#define GOVSIM_TRACE_READER_H

#include <stdio.h>

#include "core/error.h"
#include "core/event.h"
#include "core/types.h"

enum trace_format {
	TRACE_FMT_AUTO = 0,
	TRACE_FMT_FTRACE,   /* /sys/kernel/tracing/trace text */
	TRACE_FMT_TRACECMD, /* trace-cmd report text */
	TRACE_FMT_DAT,      /* trace.dat */
	TRACE_FMT_CSV,      /* CSV util trace */
};
const char *trace_format_name(enum trace_format f);
int trace_format_from_name(const char *name); /* -1 if unknown */

struct reader_opts {
	enum trace_format format; /* AUTO: detect */
	bool strict;              /* first malformed line fails the read (GS_ETRACE) */
	u64 reorder_window_ns;    /* 0: default (see reader.c) */
	const char *name;         /* the trace's name in messages; NULL: the path opened (a
				   * spooled copy is opened by its own path, see spool.h) */
};

#define READER_MAX_REPORTED 5 /* malformed lines kept verbatim */

struct trace_stats {
	enum trace_format format;
	bool gzip;
	u64 lines;            /* text lines read (records for .dat) */
	u64 events;           /* events delivered */
	u64 by_type[EV__COUNT];
	u64 malformed;
	u64 reordered;        /* events delivered out of their file order, within the window */
	u64 disorder_beyond_window; /* events older than the window allowed: delivered late and counted */
	char reported[READER_MAX_REPORTED][256]; /* "'file':line: why" */
	int nr_reported;
	u64 first_ts_ns, last_ts_ns;
	int max_cpu;          /* highest CPU seen, -1 if none */
	u64 cpus_seen_mask;   /* bit per CPU (< 64) */
	int header_cpus;      /* from "cpus=N" / "#P:N"; -1 if absent */
	char header[256];     /* tracer / version facts, e.g. "trace-cmd version 6" */
	/* What the trace says about where it was recorded; "" where it does not say. Set by the
	 * back ends as soon as they know it (headers, trace.dat options, Perfetto system_info). */
	char kernel_release[96]; /* uname -r, e.g. "5.10.157-android13-4-00003-g..." */
	char device[128];        /* SoC / board / Android build fingerprint */
	char producer[64];       /* the tracer that wrote the file, e.g. "trace-cmd", "perfetto" */
	char clock[32];          /* trace clock, e.g. "boot", "mono", "local" */
	/* Events not turned into the stream, counted by name. */
	int nr_unknown;
	struct { char name[48]; u64 count; } unknown[64];
	u64 unknown_other;    /* beyond the 64 names kept */
};

struct trace_reader;

/* Open a file ("-" for stdin, text formats only). Empty files, binary files that are not
 * trace.dat and unreadable files fail here with GS_ETRACE / GS_EIO. */
int trace_reader_open(const char *path, const struct reader_opts *opts, struct trace_reader **out,
		      struct gs_error *err);

/* The next event in time order: 1 and *ev filled, 0 at the end, or a negative code (GS_ETRACE
 * in strict mode, GS_EIO) with err set. At the end, a trace that yielded no usable event
 * returns GS_ETRACE ("no usable event"). */
int trace_reader_next(struct trace_reader *r, struct event *ev, struct gs_error *err);

const struct trace_stats *trace_reader_stats(const struct trace_reader *r);
const char *trace_reader_path(const struct trace_reader *r);

void trace_reader_free(struct trace_reader *r);

#endif
