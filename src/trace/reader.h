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
	TRACE_FMT_PERFETTO, /* Perfetto protobuf (trace/perfetto/) */
	TRACE_FMT_SYSTRACE, /* Android systrace: HTML trace-data blocks, Chrome JSON (text/) */
};
const char *trace_format_name(enum trace_format f);
/* "ftrace", "tracecmd", "dat", ... -> *out and true; false if unknown (*out untouched).
 * "trace-cmd" is taken as "tracecmd". */
bool trace_format_from_name(const char *name, enum trace_format *out);
/* For an unknown format name: "; did you mean 'X'?" naming the nearest format, or "" (a static
 * buffer, valid until the next call). */
const char *trace_format_hint(const char *name);

struct reader_opts {
	enum trace_format format; /* AUTO: detect */
	bool strict;              /* first malformed line fails the read (GS_ETRACE) */
	u64 reorder_window_ns;    /* 0: default (see reader.c) */
	bool allow_markers_only;  /* a trace with trace markers but no usable event ends normally
				   * (trace info of an atrace-only trace) instead of failing "no
				   * usable event" */
	const char *name;         /* the trace's name in messages; NULL: the path opened (a
				   * spooled copy is opened by its own path, see spool.h) */
};

#define READER_MAX_REPORTED 5 /* malformed lines kept verbatim */

/* Trace markers (trace_marker writes: ftrace `print`, `tracing_mark_write`), by kind. Markers
 * are the tracer's or the application's notes, never kernel decisions; the devlib frequency
 * markers also become FREQ_MARKER events (initial frequencies). */
#define TRACE_MARKER_KINDS(X)                                                   \
	X(ATRACE_BEGIN, "atrace B (slice begin)")                               \
	X(ATRACE_END, "atrace E (slice end)")                                   \
	X(ATRACE_COUNTER, "atrace C (counter)")                                 \
	X(ATRACE_ASYNC_BEGIN, "atrace S (async begin)")                         \
	X(ATRACE_ASYNC_END, "atrace F (async end)")                             \
	X(DEVLIB_FREQ, "devlib cpu_frequency")                                  \
	X(RTAPP, "rt-app")                                                      \
	X(OTHER, "other text")
enum trace_marker_kind {
#define GS_MARKER_ENUM(name, str) MARKER_##name,
	TRACE_MARKER_KINDS(GS_MARKER_ENUM)
#undef GS_MARKER_ENUM
	MARKER__COUNT
};
const char *trace_marker_kind_name(enum trace_marker_kind k);

/* What a trace says about one CPU (Perfetto cpu_info): arch capacity and available OPPs. */
#define TRACE_CPU_MAX_FREQS 32
struct trace_cpu_info {
	u32 capacity; /* 0 when not recorded */
	u32 nr_freqs;
	u32 freqs_khz[TRACE_CPU_MAX_FREQS];
};

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
	u64 markers[MARKER__COUNT]; /* trace markers by kind (not counted as unknown events) */
	/* Data loss the tracer recorded (Perfetto: bundles with lost_events, a bundle whose
	 * previous_bundle_end_timestamp says events of its CPU were lost, dropped packets). */
	u64 data_loss;
	u64 raw_prev_state; /* sched_switch prev_state outside the kernel's encoding (raw task
			     * state): only the S D T t X Z bits, the same on every kernel, kept */
	int nr_cpu_info;    /* CPUs described by the trace (Perfetto cpu_info); 0 if none */
	struct trace_cpu_info cpu_info[GS_MAX_CPUS];
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

/* trace_reader_next() without the copy: *ev points at the event where the reader holds it,
 * valid until the next call on r (or trace_reader_free()). A caller that reads a few fields of
 * each event saves copying all of them, and the cache misses of the ones it never reads. */
int trace_reader_next_ref(struct trace_reader *r, const struct event **ev, struct gs_error *err);

const struct trace_stats *trace_reader_stats(const struct trace_reader *r);
const char *trace_reader_path(const struct trace_reader *r);

void trace_reader_free(struct trace_reader *r);

#endif
