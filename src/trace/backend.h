/*
 * backend.h - the seam between the reader core (src/trace/reader.c) and the format back ends
 * (src/trace/text/, dat/, perfetto/, csv/): what a back end implements (struct trace_backend)
 * and the one-way helper API of the core it may call (input lines and bytes, the event slot,
 * malformed lines, statistics).
 *
 * Not a public API: only src/trace/ and its subfolders include it. The core owns the handle,
 * the input buffer and the re-ordering stage; a back end parses one line / record / chunk at a
 * time into the slot reader_slot() hands out and calls reader_commit() for each event it
 * produced. The core never calls a back end but through its struct trace_backend, and a back end
 * never calls another back end.
 */
#ifndef GOVSIM_TRACE_BACKEND_H
#define GOVSIM_TRACE_BACKEND_H

#include <zlib.h>

#include "trace/reader.h"

struct trace_reader;

/*
 * A format back end. The core picks one per input, in the order of its table (reader.c):
 *   - `whole_file` back ends read the file themselves (r->file, by path): sniff() sees its
 *     first bytes; a forced format they read but a file that is not theirs, or a file that is
 *     theirs but another format forced, is refused by the core;
 *   - the others read the core's input buffer (plain, gzip or stdin: r->buf, reader_refill(),
 *     reader_next_line()): sniff() sees the first buffer. A `binary` one is asked first and
 *     whatever format is forced (its open() refuses a forced other format); then binary data is
 *     refused, and a text back end is asked only when no format is forced. A forced format goes
 *     to the first back end whose `formats` has it; the last back end takes what is left.
 * open() sets r->st.format and its state (r->state); fill() produces events (at most r->slack
 * per call unless it reserved room with reader_reserve()) and sets r->done after the last;
 * close() frees r->state and accepts a back end that failed half-way through open().
 */
struct trace_backend {
	const char *name; /* what it reads, in messages: "trace.dat", "Perfetto", "text" */
	unsigned formats; /* bit (1u << TRACE_FMT_x) for each format it reads */
	const char *unit; /* what r->st.lines counts: "lines", "records", "packets" */
	bool whole_file;
	bool binary;
	bool (*sniff)(const char *p, size_t n, bool eof);
	int (*open)(struct trace_reader *r, struct gs_error *err);
	int (*fill)(struct trace_reader *r, struct gs_error *err);
	void (*close)(struct trace_reader *r);
};

/* The back ends, each defined in its folder; the core's table lists them. */
extern const struct trace_backend trace_backend_dat;      /* dat/dat.c */
extern const struct trace_backend trace_backend_perfetto; /* perfetto/perfetto.c */
extern const struct trace_backend trace_backend_systrace; /* text/systrace.c */
extern const struct trace_backend trace_backend_csv;      /* csv/csv.c */
extern const struct trace_backend trace_backend_text;     /* text/text.c */

/* Default re-ordering window (see reader.c): 10 ms of trace time, and at most
 * READER_MAX_HELD events held back at once. */
#define READER_DEFAULT_WINDOW_NS (10 * NSEC_PER_MSEC)
#define READER_MAX_HELD          32768u

/* The largest timestamp accepted, 2^63 - 1 ns (292 years): what no 64-bit nanosecond clock can
 * pass is a malformed line, never wrapped; and sums of a timestamp and a window or a period
 * (the re-ordering, ticks) stay below 2^64. */
#define READER_MAX_TS_NS ((u64)INT64_MAX)

/* The text input buffer: large, so that most lines are parsed in place. It starts at
 * READER_BUF_INITIAL and grows (reader_refill()) when full, up to READER_BUF_SIZE: a reader
 * of a small input, as a fuzz target opens one per input, does not map 1 MiB. */
#define READER_BUF_SIZE    (1u << 20)
#define READER_BUF_INITIAL (1u << 16)
/* A file of READER_BUF_SIZE bytes or more starts with READER_BUF_LARGE instead: a quarter as
 * many read() calls (each a system call, and a refill that moves the unread tail), and a
 * quarter as many lines at a buffer's end that the text reader's hot path reads with checks
 * (`trace read` of bench.sh's 500 MB file: 3 to 5 % less CPU time than with 64 KiB). */
#define READER_BUF_LARGE (1u << 18)

/* Decompression bombs: what a file may decompress to in total (gzip text, and Perfetto's
 * compressed packets together): READER_INFLATE_RATIO times its size on disk, and at least
 * READER_INFLATE_MIN bytes. Traces compress 10 to 35 times (ftrace text, trace-cmd report, the
 * generator's periodic and pipe workloads); deflate's ceiling is about 1030, reached by runs of
 * one byte (a 4 MB file of 4 GiB of newlines), which hold no event. Past the limit the read
 * fails (GS_ETRACE) rather than spend minutes on what cannot be a trace. */
#define READER_INFLATE_RATIO 100u
#define READER_INFLATE_MIN   (64ull << 20)

struct heap_item {
	u64 ts_ns;
	u64 seq;
	u32 slot;
};

struct trace_reader {
	char *path; /* the name in messages (reader_opts.name) */
	char *file; /* the file opened */
	struct reader_opts opts;
	struct trace_stats st;
	const struct trace_backend *backend; /* NULL until one is picked */
	void *state; /* the back end's own: its open() allocates it, its close() frees it */
	/* why a marker is malformed (marker_parse_devlib()): the reader's own, not a static buffer,
	 * as the reader may run on the prefetch thread */
	char marker_why[160];

	/* text and CSV input: plain fd or gzip stream */
	int fd;
	gzFile gz;
	char *buf;
	size_t buf_cap; /* buf holds buf_cap + 1 bytes (a NUL after the data) */
	size_t buf_len; /* bytes valid in buf */
	size_t buf_pos; /* start of the next unread line */
	bool in_eof;    /* no more bytes from the input */
	u64 inflated;       /* bytes decompressed so far (gzip, Perfetto compressed packets) */
	u64 inflate_limit;  /* and the most allowed: READER_INFLATE_* of the file's size */
	u64 file_size;      /* the input's size on disk, 0 when it has none (a pipe) */
	bool done;      /* the back end produced its last event */
	u64 lineno;

	/* re-ordering: a FIFO of in-order events plus a heap of the few that came out of order */
	u64 window_ns;
	u32 max_held;
	u32 slack;             /* events one fill may produce */
	struct event *ring;    /* ring_cap slots, grown up to max_held as more are held at once */
	u64 *ring_seq;         /* the sequence number of each ring slot */
	u32 ring_cap;
	u32 ring_head, ring_count;
	struct event *pool;    /* heap storage, pool_cap slots, allocated on first need */
	u32 *pool_free;
	u32 pool_nfree;
	u32 pool_used;         /* slots handed out at least once: the next never-used one */
	u32 pool_cap;          /* slots of pool, pool_free and heap (grows to max_held) */
	bool oom;              /* the heap could not be allocated */
	struct heap_item *heap;
	u32 heap_n;
	u64 seq;
	u64 max_ts_ns;
	bool have_max;
	u64 last_out_ts_ns;
	bool have_out;
};

/* The slot the next event is parsed into. Always valid between fills. */
static inline struct event *reader_slot(struct trace_reader *r)
{
	u32 k = r->ring_head + r->ring_count; /* < 2 * ring_cap: one subtraction wraps it */
	return &r->ring[k >= r->ring_cap ? k - r->ring_cap : k];
}
/* Room on the ring for n more events past those it holds, for a back end that may produce more
 * events in one step than `slack` promised the fill loop (csv/csv.c parses a whole chunk while
 * opening): the ring grows when needed. 0, or GS_ENOMEM when it cannot grow (memory, or more
 * than max_held events held at once). */
int reader_reserve(struct trace_reader *r, u32 n);
/* reader_commit() for any event: out of order, or the first. */
void reader_commit_any(struct trace_reader *r);

/* Hand the event in reader_slot() to the re-ordering stage. An event no older than every one
 * before it (nearly all of them) goes straight onto the ring: it cannot be late, out of order,
 * or older than the ring's tail. */
static inline void reader_commit(struct trace_reader *r)
{
	u32 k = r->ring_head + r->ring_count;
	const struct event *ev;

	k = k >= r->ring_cap ? k - r->ring_cap : k;
	ev = &r->ring[k];
	if (r->have_max && ev->ts_ns >= r->max_ts_ns) {
		r->max_ts_ns = ev->ts_ns;
		r->ring_seq[k] = r->seq++;
		r->ring_count++;
		return;
	}
	reader_commit_any(r);
}

/* A malformed line: counted, the first few kept; returns GS_ETRACE when strict (err set), else
 * 0. `fmt` describes the problem, without the "'file':line: " prefix. */
int reader_malformed(struct trace_reader *r, u64 line, struct gs_error *err, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

/* Count an event that is not turned into the stream, by name. */
void reader_count_unknown(struct trace_reader *r, const char *name, size_t len);

/*
 * The kernel the trace was recorded on, into st.kernel_release unless a release is there
 * already: release[0, rlen) is `uname -r`, version[0, vlen) the text that follows it wherever the
 * format keeps it (`uname -v`, the rest of /proc/version). Every back end goes through here, so
 * that the profile choice reads the same string whatever the format: Debian names a kernel by its
 * ABI ("5.10.0-32-amd64" for every 5.10 stable update) and its upstream version shows only in the
 * version text, "#1 SMP Debian 5.10.223-1 (2024-08-10)"; it is appended as
 * " (Debian 5.10.223)", which kernel_profile_for_release() reads. A release that is empty or does
 * not fit st.kernel_release is not taken.
 */
void reader_set_kernel(struct trace_reader *r, const char *release, size_t rlen,
		       const char *version, size_t vlen);

/* Append to st.header ("; "-separated). */
void reader_add_header(struct trace_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The next line of the input buffer: 1 with *line, NUL-terminated at (*line)[*len] (the newline
 * dropped; a last line without one is taken as it is), counted in r->lineno and r->st.lines;
 * 0 at the end of the input, with r->done set; READER_LINE_TOO_LONG for a line longer than
 * READER_BUF_SIZE, counted and skipped to its newline (the caller says whether it is
 * malformed); or a negative code (GS_EIO, GS_ETRACE from a corrupt gzip stream). The line lives
 * in r->buf until the next call. */
#define READER_LINE_TOO_LONG 2
int reader_next_line(struct trace_reader *r, char **line, size_t *len, struct gs_error *err);

/* The first line of [p, p+n) that is not blank, as [*s, *e) (its leading blanks skipped); false
 * when every line is blank. */
bool reader_first_line(const char *p, size_t n, const char **s, const char **e);

/* A trace marker's text (the payload of print / tracing_mark_write, with or without the
 * "tracing_mark_write: " prefix that ftrace prints): counted in r->st.markers by kind. 1 and ev
 * filled (type, power) when it is a devlib frequency marker, 0 otherwise, or a negative value
 * with *why set when such a marker is broken (markers.c). */
int reader_marker(struct trace_reader *r, const char *body, const char *end, struct event *ev,
		  const char **why);

/* reader.c: count n more decompressed bytes; 0, or GS_ETRACE (err set) once the total passes
 * r->inflate_limit. */
int reader_inflated(struct trace_reader *r, u64 n, struct gs_error *err);

/* reader.c: read more input into buf (compacting it first); 0, or GS_EIO. Sets in_eof. */
int reader_refill(struct trace_reader *r, struct gs_error *err);

#endif
