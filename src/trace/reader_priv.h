/*
 * reader_priv.h - what the reader's format back ends (text.c, dat.c, csv.c) share with reader.c.
 *
 * Not a public API: only src/trace/ includes it. reader.c owns the handle, the input buffer and
 * the re-ordering stage; a back end parses one line / record / chunk at a time into the slot
 * reader_slot() hands out and calls reader_commit() for each event it produced.
 */
#ifndef GOVSIM_TRACE_READER_PRIV_H
#define GOVSIM_TRACE_READER_PRIV_H

#include <zlib.h>

#include "trace/reader.h"

struct tracecmd_input;
struct tep_record;
struct csv_parser;

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

/* Decompression bombs: what a file may decompress to in total (gzip text, and Perfetto's
 * compressed packets together): READER_INFLATE_RATIO times its size on disk, and at least
 * READER_INFLATE_MIN bytes. Traces compress 10 to 35 times (ftrace text, trace-cmd report, the
 * generator's periodic and pipe workloads); deflate's ceiling is about 1030, reached by runs of
 * one byte (a 4 MB file of 4 GiB of newlines), which hold no event. Past the limit the read
 * fails (GS_ETRACE) rather than spend minutes on what cannot be a trace. */
#define READER_INFLATE_RATIO 100u
#define READER_INFLATE_MIN   (64ull << 20)

/* One key=value pair of an event's payload, pointing into the line (not NUL-terminated). */
struct field_span {
	const char *key;
	const char *val;
	u32 klen;
	u32 vlen;
};

#define FIELDSET_MAX 32
struct fieldset {
	int n;
	struct field_span f[FIELDSET_MAX];
};

struct heap_item {
	u64 ts_ns;
	u64 seq;
	u32 slot;
};

enum reader_backend {
	BACKEND_TEXT,
	BACKEND_DAT,
	BACKEND_CSV,
	BACKEND_PERFETTO,
	BACKEND_SYSTRACE,
};

struct csv_state; /* csv.c */
struct pf_state;  /* perfetto.c */
struct sys_state; /* systrace.c */

struct trace_reader {
	char *path; /* the name in messages (reader_opts.name) */
	char *file; /* the file opened */
	struct reader_opts opts;
	struct trace_stats st;
	enum reader_backend backend;
	/* why a marker is malformed (text_parse_marker()): the reader's own, not a static buffer,
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
	bool seen_event_line;

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

	/* trace.dat */
	struct tracecmd_input *tc;
	struct tep_record **pending; /* one record per CPU */
	int dat_cpus;
	char *scratch; /* fields rendered as text */
	size_t scratch_cap;

	/* CSV */
	struct csv_state *csv;

	/* Perfetto protobuf, systrace */
	struct pf_state *pf;
	struct sys_state *sys;
};

/* The slot the next event is parsed into. Always valid between fills. */
static inline struct event *reader_slot(struct trace_reader *r)
{
	u32 k = r->ring_head + r->ring_count; /* < 2 * ring_cap: one subtraction wraps it */
	return &r->ring[k >= r->ring_cap ? k - r->ring_cap : k];
}
/* Room on the ring for n more events past those it holds, for a back end that may produce more
 * events in one step than `slack` promised the fill loop (csv.c parses a whole chunk while
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

/* Append to st.header ("; "-separated). */
void reader_add_header(struct trace_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* text.c: one text line (without its newline, NUL-terminated at line[len]). Produces at most
 * one event through reader_slot()/reader_commit(). 0, or GS_ETRACE in strict mode. */
int text_parse_line(struct trace_reader *r, char *line, size_t len, struct gs_error *err);

/* text.c: the line at the start of [line, end) when it is one of the common events in the
 * kernel's layout, ends with a '\n' before end and is no older than every event before it:
 * parsed, counted and committed as text_parse_line() would, without looking for its end first.
 * The bytes used, newline included; 0 when the line must be split and go through
 * text_parse_line() (nothing counted then). Needs a free ring slot beyond reader_slot()'s. */
size_t text_parse_hot_line(struct trace_reader *r, const char *line, const char *end);

/* text.c: split an event payload into key=value pairs (values may hold spaces, as comms do). */
void fieldset_split(struct fieldset *fs, const char *p, const char *end);

/*
 * text.c: fill ev (type, union) from the payload of event `type`. Returns NULL on success or a
 * static/`why`-buffer description of the problem ("sched_switch without next_pid").
 */
const char *event_from_fields(int type, const struct fieldset *fs, struct event *ev, char *why,
			      size_t why_size);

/* text_generic.c: sugov_set_iowait_boost's printed text, "doing iow boost" or "skipping iow
 * boost", into ev->iowait. NULL, or what was wrong. */
const char *iowait_boost_from_text(const char *p, const char *end, struct event *ev);

/* text.c: the event type of a tracepoint name, including aliases ("lisa__sched_pelt_cfs");
 * -1 for events not turned into the stream. EVNAME_MARKER for print-like events that may carry
 * a cpu_frequency_devlib marker. */
#define EVNAME_MARKER (-2)
int text_event_type(const char *name, size_t len);

/* text.c: a print/bprint/tracing_mark_write body; 1 and ev filled when it is a
 * "cpu_frequency_devlib: state=N cpu_id=N" marker, 0 when it is another print, or a negative
 * value with *why set when the marker is broken (the message is written to whybuf). */
int text_parse_marker(const char *body, const char *end, struct event *ev, const char **why,
		      char *whybuf, size_t whysize);

/* text.c: prev_state text ("S", "R+", "D|W", "256") to v5.9 TASK_REPORT bits; -1 if invalid. */
s64 prev_state_parse(const char *s, size_t len);
/* text.c: a numeric prev_state from any kernel to v5.9 TASK_REPORT bits. */
u32 prev_state_from_number(u64 n);

/* dat_check.c: the file's sizes and offsets against its length, before libtracecmd trusts
 * them (`file` is opened, `name` named in messages). 0, or GS_ETRACE saying what is wrong. */
int dat_check(const char *file, const char *name, struct gs_error *err);

/* dat_format.c: one event format's text (`size` bytes, not NUL-terminated, of event system
 * `system`) before libtraceevent parses it: 0, or -1 with what is wrong in why. */
int dat_format_check(const char *text, size_t size, const char *system, char *why,
		     size_t why_size);
/* dat_format.c: the event name of a format (the identifier on its "name:" line, at most
 * DAT_FORMAT_NAME_MAX bytes, not NUL-terminated): its length, 0 and "" when there is none. */
#define DAT_FORMAT_NAME_MAX 64
int dat_format_name(const char *text, size_t size, const char **name);

/* dat_trial.c: event formats parsed by libtraceevent, then `file` (unless NULL) opened by
 * libtracecmd, in a forked child first (what the pre-checks do not know still cannot crash us).
 * dat_trial_add() copies a format (GS_ENOMEM); dat_trial_run() is 0 when the child got through,
 * -1 with why naming the format, or the open, the child died or hung in. */
struct dat_trial;
struct dat_trial *dat_trial_new(void);
void dat_trial_free(struct dat_trial *t);
int dat_trial_add(struct dat_trial *t, const char *system, const char *text, size_t size);
int dat_trial_run(const struct dat_trial *t, const char *file, char *why, size_t why_size);

/* dat.c */
int dat_open(struct trace_reader *r, struct gs_error *err);
int dat_fill(struct trace_reader *r, struct gs_error *err);
void dat_close(struct trace_reader *r);

/* csv.c */
extern unsigned long csv_realloc_calls; /* libcsv's cell-buffer reallocs, for tests */
int csv_open(struct trace_reader *r, struct gs_error *err);
int csv_fill(struct trace_reader *r, struct gs_error *err);
void csv_close(struct trace_reader *r);

/* perfetto.c: whether [p, p+n), the start of a file (n may be short of the whole file; eof
 * says whether it is the whole), is a Perfetto trace: a Trace message whose first field is a
 * TracePacket that parses as protobuf wire format. */
bool pf_sniff(const unsigned char *p, size_t n, bool eof);
/* perfetto.c: the Perfetto back end reads the input through r->buf like the text readers
 * (plain, gzip or stdin), one TracePacket at a time. */
int pf_open(struct trace_reader *r, struct gs_error *err);
int pf_fill(struct trace_reader *r, struct gs_error *err);
void pf_close(struct trace_reader *r);

/* systrace.c: whether the start of a text file is systrace HTML or a Chrome JSON trace with
 * systemTraceEvents; the back end that reads the ftrace text inside either. */
bool sys_sniff(const char *p, size_t n);
int sys_open(struct trace_reader *r, struct gs_error *err);
int sys_fill(struct trace_reader *r, struct gs_error *err);
void sys_close(struct trace_reader *r);

/* text.c: a trace marker's text (the payload of print / tracing_mark_write, with or without the
 * "tracing_mark_write: " prefix that ftrace prints): counted in r->st.markers by kind. 1 and ev
 * filled (type, power) when it is a devlib frequency marker, 0 otherwise, or a negative value
 * with *why set when such a marker is broken. */
int text_marker(struct trace_reader *r, const char *body, const char *end, struct event *ev,
		const char **why);

/* reader.c: count n more decompressed bytes; 0, or GS_ETRACE (err set) once the total passes
 * r->inflate_limit. */
int reader_inflated(struct trace_reader *r, u64 n, struct gs_error *err);

/* reader.c: read more input into buf (compacting it first); 0, or GS_EIO. Sets in_eof. */
int reader_refill(struct trace_reader *r, struct gs_error *err);

#endif
