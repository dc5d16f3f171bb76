/*
 * reader.c - the reader core: the handle, picking a format back end from its table, the input
 * buffer and its lines, the re-ordering stage and the statistics. The formats themselves are
 * the back ends of text/, dat/, perfetto/ and csv/, reached only through their struct
 * trace_backend (backend.h).
 *
 * Re-ordering. Lines of a text trace can be slightly out of time order (per-CPU buffers merged
 * by hand, traces/formats/trace_idle_unsorted.txt). An event is held back until an event at least
 * `window` later has been read (default 10 ms of trace time), or until READER_MAX_HELD (32768)
 * events are held, or the input ends; then events leave in (timestamp, file order) order, so
 * equal timestamps keep their file order. In-order events wait in a FIFO (no per-event cost
 * beyond one copy); only events older than the newest held one go through a binary heap keyed
 * (ts, seq). An event older than one already delivered is beyond the window: it is delivered
 * late (next), counted in disorder_beyond_window and reported, never silently accepted.
 */
#include "trace/backend.h"

#include "core/suggest.h"
#include "trace/fields.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const format_names[] = {
	[TRACE_FMT_AUTO] = "auto",
	[TRACE_FMT_FTRACE] = "ftrace",
	[TRACE_FMT_TRACECMD] = "tracecmd",
	[TRACE_FMT_DAT] = "dat",
	[TRACE_FMT_CSV] = "csv",
	[TRACE_FMT_PERFETTO] = "perfetto",
	[TRACE_FMT_SYSTRACE] = "systrace",
	NULL, /* for gs_suggest() */
};

/* The back ends, in the order they are offered an input (see struct trace_backend): the last
 * takes whatever the others did not. */
static const struct trace_backend *const backends[] = {
	&trace_backend_dat, &trace_backend_perfetto, &trace_backend_systrace, &trace_backend_csv,
	&trace_backend_text,
};

const char *trace_format_name(enum trace_format f)
{
	if ((unsigned)f >= GS_ARRAY_SIZE(format_names) - 1)
		return "?";
	return format_names[f];
}

bool trace_format_from_name(const char *name, enum trace_format *out)
{
	if (strcmp(name, "trace-cmd") == 0) { /* the program's own name, taken as an alias */
		*out = TRACE_FMT_TRACECMD;
		return true;
	}
	for (size_t i = 0; format_names[i]; i++)
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum trace_format)i;
			return true;
		}
	return false;
}

const char *trace_format_hint(const char *name)
{
	static char hint[64];

	if (!name)
		return "";
	return gs_suggest_hint(hint, sizeof(hint), name, format_names, NULL);
}

/* ---- statistics helpers used by the back ends ---------------------------------------------- */

int reader_malformed(struct trace_reader *r, u64 line, struct gs_error *err, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	r->st.malformed++;
	if (r->st.nr_reported < READER_MAX_REPORTED)
		snprintf(r->st.reported[r->st.nr_reported++], sizeof(r->st.reported[0]),
			 "'%s':%llu: %s", r->path, (unsigned long long)line, why);
	if (r->opts.strict)
		return gs_error_set(err, GS_ETRACE, "'%s':%llu: %s", r->path,
				    (unsigned long long)line, why);
	return 0;
}

void reader_count_unknown(struct trace_reader *r, const char *name, size_t len)
{
	struct trace_stats *st = &r->st;

	if (len >= sizeof(st->unknown[0].name))
		len = sizeof(st->unknown[0].name) - 1;
	for (int i = 0; i < st->nr_unknown; i++) {
		if (strncmp(st->unknown[i].name, name, len) == 0 && st->unknown[i].name[len] == '\0') {
			st->unknown[i].count++;
			return;
		}
	}
	if (st->nr_unknown >= (int)GS_ARRAY_SIZE(st->unknown)) {
		st->unknown_other++;
		return;
	}
	memcpy(st->unknown[st->nr_unknown].name, name, len);
	st->unknown[st->nr_unknown].name[len] = '\0';
	st->unknown[st->nr_unknown].count = 1;
	st->nr_unknown++;
}

void reader_set_kernel(struct trace_reader *r, const char *release, size_t rlen,
		       const char *version, size_t vlen)
{
	static const char tag[] = " Debian ";
	const size_t tl = sizeof(tag) - 1;
	char *dst = r->st.kernel_release;
	const size_t cap = sizeof(r->st.kernel_release);
	const char *end = version + vlen;

	if (dst[0] || rlen == 0 || rlen >= cap)
		return;
	snprintf(dst, cap, "%.*s", (int)rlen, release);
	for (const char *p = version; vlen >= tl && p + tl < end; p++) {
		const char *v = p + tl, *e = v;
		if (memcmp(p, tag, tl) != 0 || !is_digit(*v))
			continue;
		while (e < end && (is_digit(*e) || *e == '.'))
			e++;
		if (rlen + (size_t)(e - v) + 10 < cap)
			snprintf(dst + rlen, cap - rlen, " (Debian %.*s)", (int)(e - v), v);
		return;
	}
}

void reader_add_header(struct trace_reader *r, const char *fmt, ...)
{
	size_t used = strlen(r->st.header);
	va_list ap;

	if (used + 3 >= sizeof(r->st.header))
		return;
	if (used) {
		memcpy(r->st.header + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->st.header + used, sizeof(r->st.header) - used, fmt, ap);
	va_end(ap);
}

/* ---- re-ordering --------------------------------------------------------------------------- */

/* Ring index i places after the head; i <= ring_cap, so one subtraction wraps it (no division
 * on the per-event path). */
static inline u32 ring_index(const struct trace_reader *r, u32 i)
{
	u32 k = r->ring_head + i;
	return k >= r->ring_cap ? k - r->ring_cap : k;
}

/*
 * The ring starts small and doubles when a fill could overflow it, up to max_held slots: a trace
 * holds a few hundred events in its window, and a ring that small stays in the CPU's cache,
 * where one of max_held slots (5 MB) would be written cold for every event.
 */
#define RING_INITIAL_CAP 256u

static int ring_grow(struct trace_reader *r, u32 need)
{
	u32 cap = r->ring_cap ? r->ring_cap : RING_INITIAL_CAP;
	struct event *ring;
	u64 *seq;

	while (cap < need)
		cap *= 2;
	if (cap > r->max_held)
		cap = r->max_held;
	if (cap <= r->ring_cap)
		return 0;
	ring = malloc((size_t)cap * sizeof(*ring));
	seq = malloc((size_t)cap * sizeof(*seq));
	if (!ring || !seq) {
		free(ring);
		free(seq);
		return GS_ENOMEM;
	}
	for (u32 i = 0; i < r->ring_count; i++) {
		u32 k = ring_index(r, i);
		ring[i] = r->ring[k];
		seq[i] = r->ring_seq[k];
	}
	free(r->ring);
	free(r->ring_seq);
	r->ring = ring;
	r->ring_seq = seq;
	r->ring_cap = cap;
	r->ring_head = 0;
	return 0;
}

int reader_reserve(struct trace_reader *r, u32 n)
{
	if (r->ring_count + n <= r->ring_cap)
		return 0;
	if (r->ring_count + r->heap_n + n > r->max_held)
		return GS_ENOMEM;
	return ring_grow(r, r->ring_count + n);
}

static bool item_less(const struct heap_item *a, const struct heap_item *b)
{
	return a->ts_ns < b->ts_ns || (a->ts_ns == b->ts_ns && a->seq < b->seq);
}

/*
 * Room in the heap's storage for one more event: allocated on the first event out of order
 * (most traces never need it) and doubled from HEAP_INITIAL_CAP slots up to max_held as
 * needed: all max_held slots (6 MB) at once would make every short read cost milliseconds
 * under the sanitizers, as a fuzz target does per input. Slots are
 * handed out in order until the first one comes back (pool_used), so the free list needs no
 * filling; slots are indices, so they survive the realloc.
 */
#define HEAP_INITIAL_CAP 256u

static bool heap_reserve(struct trace_reader *r)
{
	u32 cap;
	void *p;

	if (r->pool_nfree || r->pool_used < r->pool_cap)
		return true;
	cap = r->pool_cap ? r->pool_cap * 2 : HEAP_INITIAL_CAP;
	if (cap > r->max_held)
		cap = r->max_held;
	if (cap <= r->pool_cap)
		return false; /* cannot happen: order_held() <= max_held */
	if (!(p = realloc(r->pool, (size_t)cap * sizeof(struct event))))
		return false;
	r->pool = p;
	if (!(p = realloc(r->pool_free, (size_t)cap * sizeof(u32))))
		return false;
	r->pool_free = p;
	if (!(p = realloc(r->heap, (size_t)cap * sizeof(struct heap_item))))
		return false;
	r->heap = p;
	r->pool_cap = cap;
	return true;
}

static void heap_push(struct trace_reader *r, const struct event *ev, u64 seq)
{
	u32 slot = r->pool_nfree ? r->pool_free[--r->pool_nfree] : r->pool_used++;
	u32 i = r->heap_n++;

	r->pool[slot] = *ev;
	r->heap[i] = (struct heap_item){ev->ts_ns, seq, slot};
	while (i > 0) {
		u32 parent = (i - 1) / 2;
		struct heap_item tmp;
		if (!item_less(&r->heap[i], &r->heap[parent]))
			break;
		tmp = r->heap[i];
		r->heap[i] = r->heap[parent];
		r->heap[parent] = tmp;
		i = parent;
	}
}

/* The earliest held-back event, out of the heap: its pool slot stays as it is until the next
 * heap_push(). */
static const struct event *heap_pop(struct trace_reader *r)
{
	const struct event *out = &r->pool[r->heap[0].slot];
	u32 i = 0;

	r->pool_free[r->pool_nfree++] = r->heap[0].slot;
	r->heap[0] = r->heap[--r->heap_n];
	for (;;) {
		u32 l = 2 * i + 1, m = i;
		struct heap_item tmp;
		if (l < r->heap_n && item_less(&r->heap[l], &r->heap[m]))
			m = l;
		if (l + 1 < r->heap_n && item_less(&r->heap[l + 1], &r->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		tmp = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = tmp;
		i = m;
	}
	return out;
}

void reader_commit_any(struct trace_reader *r)
{
	struct event *ev = reader_slot(r);
	u64 seq = r->seq++;

	if (r->have_out && ev->ts_ns < r->last_out_ts_ns) {
		r->st.disorder_beyond_window++;
		if (r->st.nr_reported < READER_MAX_REPORTED)
			snprintf(r->st.reported[r->st.nr_reported++], sizeof(r->st.reported[0]),
				 "'%s':%llu: %s at %llu.%09llu is older than an event already "
				 "delivered (beyond the re-ordering window)",
				 r->path, (unsigned long long)ev->line, event_type_name(ev->type),
				 (unsigned long long)(ev->ts_ns / NSEC_PER_SEC),
				 (unsigned long long)(ev->ts_ns % NSEC_PER_SEC));
	}
	if (r->have_max && ev->ts_ns < r->max_ts_ns)
		r->st.reordered++;
	if (!r->have_max || ev->ts_ns > r->max_ts_ns) {
		r->max_ts_ns = ev->ts_ns;
		r->have_max = true;
	}

	if (r->ring_count > 0) {
		const struct event *tail = &r->ring[ring_index(r, r->ring_count - 1)];
		if (ev->ts_ns < tail->ts_ns) {
			if (!heap_reserve(r)) {
				r->oom = true; /* trace_reader_next() fails */
				return;
			}
			heap_push(r, ev, seq);
			return;
		}
	}
	r->ring_seq[ring_index(r, r->ring_count)] = seq;
	r->ring_count++;
}

static int alloc_order(struct trace_reader *r)
{
	if (ring_grow(r, RING_INITIAL_CAP) < 0 || !r->ring)
		return GS_ENOMEM;
	return 0; /* the heap: heap_reserve(), when first needed */
}

/* The events held for re-ordering: the ring's and the heap's. */
static u32 order_held(const struct trace_reader *r)
{
	return r->ring_count + r->heap_n;
}

/* The next event in (ts, seq) order among the held ones: 0 ring, 1 heap. */
static int order_earliest(const struct trace_reader *r, u64 *ts)
{
	if (r->ring_count && r->heap_n) {
		const struct event *head = &r->ring[r->ring_head];
		struct heap_item h = {head->ts_ns, r->ring_seq[r->ring_head], 0};
		if (item_less(&r->heap[0], &h)) {
			*ts = r->heap[0].ts_ns;
			return 1;
		}
		*ts = head->ts_ns;
		return 0;
	}
	if (r->ring_count) {
		*ts = r->ring[r->ring_head].ts_ns;
		return 0;
	}
	*ts = r->heap[0].ts_ns;
	return 1;
}

/* Whether an event may leave now; *from says from where (see order_earliest()). */
static bool order_may_deliver(const struct trace_reader *r, int *from)
{
	u64 ts;

	if (order_held(r) == 0)
		return false;
	*from = order_earliest(r, &ts);
	if (r->done || order_held(r) + r->slack > r->max_held)
		return true;
	/* ts + window <= max, written so that it cannot wrap */
	return r->max_ts_ns >= ts && r->max_ts_ns - ts >= r->window_ns;
}

/* The next event out, where it is held (a ring or pool slot that nothing writes before the
 * next fill): `from` is order_earliest()'s answer (0 ring, 1 heap). */
static inline const struct event *deliver(struct trace_reader *r, int from)
{
	struct trace_stats *st = &r->st;
	const struct event *ev;

	if (from == 1) {
		ev = heap_pop(r);
	} else {
		ev = &r->ring[r->ring_head];
		r->ring_head = ring_index(r, 1);
		r->ring_count--;
	}
	/* last_out_ts_ns and last_ts_ns are both the latest time delivered, first_ts_ns the
	 * earliest: a maximum and a minimum with no branch on the order of the times (an event
	 * at the time of the one before it, then a later one, in no pattern a branch predictor
	 * learns: most of a trace's events share their time with another) */
	if (st->events == 0) {
		st->first_ts_ns = st->last_ts_ns = ev->ts_ns;
		r->have_out = true;
	}
	st->last_ts_ns = ev->ts_ns > st->last_ts_ns ? ev->ts_ns : st->last_ts_ns;
	st->first_ts_ns = ev->ts_ns < st->first_ts_ns ? ev->ts_ns : st->first_ts_ns;
	r->last_out_ts_ns = st->last_ts_ns;
	st->events++;
	st->by_type[ev->type]++;
	if (ev->cpu >= 0) {
		if (ev->cpu > st->max_cpu)
			st->max_cpu = ev->cpu;
		if (ev->cpu < 64)
			st->cpus_seen_mask |= 1ull << ev->cpu;
	}
	return ev;
}

/* ---- input --------------------------------------------------------------------------------- */

/*
 * A file is read() into the buffer, not mapped. The kernel's copy costs what `wc -l` pays for the
 * same file; a mapping saves it, but on a hypervisor guest each first touch of a mapped 4 KiB
 * page can cost a trap (its page-table walk): on the 2-core build machine `trace read` of the
 * 125 MB benchmark trace took about twice the CPU time mapped as read().
 */
static ssize_t raw_read(struct trace_reader *r, char *dst, size_t n)
{
	if (r->gz) {
		int got = gzread(r->gz, dst, (unsigned)n);
		return got;
	}
	for (;;) {
		ssize_t got = read(r->fd, dst, n);
		if (got < 0 && errno == EINTR)
			continue;
		return got;
	}
}

int reader_inflated(struct trace_reader *r, u64 n, struct gs_error *err)
{
	r->inflated += n;
	if (r->inflated <= r->inflate_limit)
		return 0;
	return gs_error_set(err, GS_ETRACE,
			    "'%s': decompresses to more than %llu bytes, the limit for a %llu-byte "
			    "file (%u times its size, at least %llu MiB): not a trace, or a "
			    "decompression bomb",
			    r->path, (unsigned long long)r->inflate_limit,
			    (unsigned long long)r->file_size, READER_INFLATE_RATIO,
			    (unsigned long long)(READER_INFLATE_MIN >> 20));
}

/* The file's size and what it may decompress to (READER_INFLATE_*). */
static void reader_set_inflate_limit(struct trace_reader *r)
{
	struct stat sb;

	r->file_size = fstat(r->fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (u64)sb.st_size : 0;
	r->inflate_limit = READER_INFLATE_MIN;
	if (r->file_size > r->inflate_limit / READER_INFLATE_RATIO)
		r->inflate_limit = r->file_size <= UINT64_MAX / READER_INFLATE_RATIO
					   ? r->file_size * READER_INFLATE_RATIO
					   : UINT64_MAX;
}

int reader_refill(struct trace_reader *r, struct gs_error *err)
{
	ssize_t got;

	if (r->buf_pos > 0) {
		memmove(r->buf, r->buf + r->buf_pos, r->buf_len - r->buf_pos);
		r->buf_len -= r->buf_pos;
		r->buf_pos = 0;
	}
	if (r->in_eof || r->buf_len == READER_BUF_SIZE)
		return 0;
	if (r->buf_len == r->buf_cap) { /* full below the largest size: grow (x4) */
		size_t cap = r->buf_cap * 4 < READER_BUF_SIZE ? r->buf_cap * 4 : READER_BUF_SIZE;
		char *buf = realloc(r->buf, cap + 1);

		if (!buf)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		r->buf = buf;
		r->buf_cap = cap;
	}
	got = raw_read(r, r->buf + r->buf_len, r->buf_cap - r->buf_len);
	if (got < 0 && r->gz) {
		int zerr;
		const char *why = gzerror(r->gz, &zerr);
		const char *colon = strstr(why, ": ");
		if (strncmp(why, "<fd:", 4) == 0 && colon) /* zlib names the stream "<fd:N>" */
			why = colon + 2;
		if (zerr == Z_ERRNO)
			return gs_error_set(err, GS_EIO, "'%s': read error: %s", r->path,
					    strerror(errno));
		/* a flipped byte: bad data (Z_DATA_ERROR), the CRC or length check failed */
		return gs_error_set(err, GS_ETRACE, "'%s': corrupt gzip stream: %s", r->path, why);
	}
	if (got < 0)
		return gs_error_set(err, GS_EIO, "'%s': read error: %s", r->path, strerror(errno));
	if (got == 0 && r->gz && r->st.gzip) {
		int zerr;
		gzerror(r->gz, &zerr);
		/* zlib ends a stream cut short (no trailer, so no CRC check) with Z_BUF_ERROR */
		if (zerr == Z_BUF_ERROR)
			return gs_error_set(err, GS_ETRACE,
					    "'%s': truncated gzip stream (it ends before its "
					    "trailer and CRC)", r->path);
	}
	if (got == 0)
		r->in_eof = true;
	r->buf_len += (size_t)got;
	if (got > 0 && r->gz && !gzdirect(r->gz))
		return reader_inflated(r, (u64)got, err);
	return 0;
}

int reader_next_line(struct trace_reader *r, char **line, size_t *len, struct gs_error *err)
{
	for (;;) {
		char *start = r->buf + r->buf_pos;
		size_t avail = r->buf_len - r->buf_pos;
		char *nl = memchr(start, '\n', avail);
		int ret;

		if (nl) {
			*len = (size_t)(nl - start);
			r->buf_pos += *len + 1;
			r->lineno++;
			r->st.lines++;
			*nl = '\0';
			*line = start;
			return 1;
		}
		if (r->in_eof) {
			if (avail == 0) {
				r->done = true;
				return 0;
			}
			/* a last line without its newline: taken as it is */
			r->buf_pos = r->buf_len;
			r->lineno++;
			r->st.lines++;
			r->buf[r->buf_len] = '\0';
			*line = start;
			*len = avail;
			return 1;
		}
		if (r->buf_pos == 0 && r->buf_len == READER_BUF_SIZE) {
			/* a line longer than the buffer: skipped up to its newline */
			r->lineno++;
			r->st.lines++;
			for (;;) {
				r->buf_len = 0;
				ret = reader_refill(r, err);
				if (ret < 0)
					return ret;
				nl = memchr(r->buf, '\n', r->buf_len);
				if (nl) {
					r->buf_pos = (size_t)(nl - r->buf) + 1;
					break;
				}
				if (r->in_eof) {
					r->buf_len = r->buf_pos = 0;
					break;
				}
			}
			return READER_LINE_TOO_LONG;
		}
		ret = reader_refill(r, err);
		if (ret < 0)
			return ret;
	}
}

/* ---- detection ----------------------------------------------------------------------------- */

static bool looks_binary(const char *p, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == 0)
			return true;
		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v')
			bad++;
	}
	return bad * 20 > n; /* more than 5% control characters */
}

bool reader_first_line(const char *p, size_t n, const char **s, const char **e)
{
	const char *end = p + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < le) {
			*s = q;
			*e = le;
			return true;
		}
		p = le + 1;
	}
	return false;
}

static void reader_init_stats(struct trace_reader *r)
{
	memset(&r->st, 0, sizeof(r->st));
	r->st.max_cpu = -1;
	r->st.header_cpus = -1;
}

/* The handle, before anything is opened; *out is set (to free) even on failure. */
static int reader_new(const char *path, const char *file, const struct reader_opts *opts,
		      struct trace_reader **out, struct gs_error *err)
{
	struct trace_reader *r = calloc(1, sizeof(*r));

	*out = r;
	if (!r)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	r->fd = -1;
	r->opts = *opts;
	r->path = strdup(path);
	r->file = strdup(file);
	if (!r->path || !r->file)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	reader_init_stats(r);
	r->window_ns = opts->reorder_window_ns ? opts->reorder_window_ns : READER_DEFAULT_WINDOW_NS;
	r->max_held = READER_MAX_HELD;
	r->slack = 1;
	return 0;
}

/* Opens r->file (not stdin) and reads its first bytes, *nmagic of them, into magic. */
static int reader_open_file(struct trace_reader *r, unsigned char *magic, size_t size,
			    ssize_t *nmagic, struct gs_error *err)
{
	struct stat sb;

	r->fd = open(r->file, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", r->path,
				    strerror(errno));
	if (fstat(r->fd, &sb) != 0)
		return gs_error_set(err, GS_EIO, "'%s': %s", r->path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return gs_error_set(err, GS_EINPUT, "'%s': is a directory", r->path);
	if (S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode))
		return gs_error_set(err, GS_EINPUT,
				    "'%s': is a %s device, not a trace (a file, a pipe or a FIFO is "
				    "read)",
				    r->path, S_ISCHR(sb.st_mode) ? "character" : "block");
	*nmagic = pread(r->fd, magic, size, 0);
	if (*nmagic == 0)
		return gs_error_set(err, GS_ETRACE, "'%s': empty trace", r->path);
	return 0;
}

static bool forces(const struct trace_backend *b, enum trace_format f)
{
	return f != TRACE_FMT_AUTO && (b->formats & (1u << f));
}

/* A back end that reads the file itself, by its first bytes (magic, nmagic of them): *out, or
 * NULL when none takes it; refused when it is one's and another format is forced, or one's
 * format is forced and it is not. */
static int whole_file_backend(struct trace_reader *r, const unsigned char *magic, ssize_t nmagic,
			      const struct trace_backend **out, struct gs_error *err)
{
	enum trace_format forced = r->opts.format;

	*out = NULL;
	for (size_t i = 0; i < GS_ARRAY_SIZE(backends); i++) {
		const struct trace_backend *b = backends[i];
		if (!b->whole_file)
			continue;
		if (nmagic > 0 && b->sniff((const char *)magic, (size_t)nmagic, false)) {
			if (forced != TRACE_FMT_AUTO && !forces(b, forced))
				return gs_error_set(err, GS_ETRACE, "'%s': a %s file, not %s text",
						    r->path, b->name, trace_format_name(forced));
			*out = b;
			return 0;
		}
		if (forces(b, forced))
			return gs_error_set(err, GS_ETRACE, "'%s': not a %s file", r->path, b->name);
	}
	return 0;
}

/* The back end of a stream whose first buffer is read (see struct trace_backend). */
static int stream_backend(struct trace_reader *r, struct gs_error *err)
{
	enum trace_format forced = r->opts.format;
	bool text_checked = false;

	for (size_t i = 0; i < GS_ARRAY_SIZE(backends); i++) {
		const struct trace_backend *b = backends[i];
		bool last = i + 1 == GS_ARRAY_SIZE(backends);

		if (b->whole_file)
			continue;
		if (!b->binary && !text_checked) {
			if (looks_binary(r->buf, r->buf_len < 65536 ? r->buf_len : 65536))
				return gs_error_set(err, GS_ETRACE, "'%s': not a trace (binary data)",
						    r->path);
			text_checked = true;
		}
		if (last || forces(b, forced) ||
		    ((forced == TRACE_FMT_AUTO || b->binary) &&
		     b->sniff(r->buf, r->buf_len, r->in_eof))) {
			r->backend = b;
			return b->open(r, err);
		}
	}
	return gs_error_set(err, GS_ETRACE, "'%s': no reader for this trace", r->path);
}

/* Text or CSV (or systrace, Perfetto), maybe gzip-compressed, from r->fd: the input buffer
 * filled once, then the back end for what it holds. */
static int stream_open(struct trace_reader *r, bool is_stdin, const unsigned char *magic,
		       ssize_t nmagic, struct gs_error *err)
{
	int ret;

	reader_set_inflate_limit(r);
	if (is_stdin || (nmagic >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)) {
		int fd2 = dup(r->fd);
		if (fd2 < 0 || !(r->gz = gzdopen(fd2, "rb"))) {
			if (fd2 >= 0)
				close(fd2);
			return gs_error_set(err, GS_EIO, "'%s': cannot open", r->path);
		}
		gzbuffer(r->gz, 256 * 1024);
		r->st.gzip = !is_stdin || !gzdirect(r->gz);
	}
	r->buf_cap = r->file_size >= READER_BUF_SIZE ? READER_BUF_LARGE : READER_BUF_INITIAL;
	r->buf = malloc(r->buf_cap + 1);
	if (!r->buf)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ret = reader_refill(r, err);
	if (ret < 0)
		return ret;
	if (r->gz && is_stdin)
		r->st.gzip = !gzdirect(r->gz);
	if (r->buf_len == 0)
		return gs_error_set(err, GS_ETRACE, "'%s': empty trace", r->path);
	for (size_t i = 0; r->gz && r->st.gzip && i < GS_ARRAY_SIZE(backends); i++)
		if (backends[i]->whole_file && backends[i]->sniff(r->buf, r->buf_len, r->in_eof))
			return gs_error_set(err, GS_ETRACE,
					    "'%s': compressed %s is not supported; decompress it first",
					    r->path, backends[i]->name);
	return stream_backend(r, err);
}

int trace_reader_open(const char *path, const struct reader_opts *opts, struct trace_reader **out,
		      struct gs_error *err)
{
	struct reader_opts defaults = {0};
	struct trace_reader *r;
	unsigned char magic[16] = {0};
	ssize_t nmagic = 0;
	const char *file = path; /* opened; `path` names it in messages */
	const struct trace_backend *whole;
	bool is_stdin = strcmp(file, "-") == 0;
	int ret;

	*out = NULL;
	if (!opts)
		opts = &defaults;
	if (opts->name)
		path = opts->name;
	if ((ret = reader_new(path, file, opts, &r, err)) < 0)
		goto out_free;
	if (is_stdin)
		r->fd = STDIN_FILENO;
	else if ((ret = reader_open_file(r, magic, sizeof(magic), &nmagic, err)) < 0)
		goto out_free;
	if ((ret = whole_file_backend(r, magic, nmagic, &whole, err)) < 0)
		goto out_free;
	ret = alloc_order(r);
	if (ret < 0) {
		gs_error_set(err, ret, "out of memory");
		goto out_free;
	}
	if (whole) {
		r->backend = whole;
		close(r->fd);
		r->fd = -1;
		ret = whole->open(r, err);
	} else {
		ret = stream_open(r, is_stdin, magic, nmagic, err);
	}
	if (ret < 0)
		goto out_free;
	*out = r;
	return 0;

out_free:
	trace_reader_free(r);
	return ret;
}

static bool any_marker(const struct trace_reader *r)
{
	for (int k = 0; k < MARKER__COUNT; k++)
		if (r->st.markers[k])
			return true;
	return false;
}

/* The ring's head may leave now, nothing out of order being held (nearly always):
 * order_may_deliver() for the ring's head alone. */
static inline bool ring_head_may_deliver(const struct trace_reader *r)
{
	u64 ts;

	if (r->heap_n || !r->ring_count)
		return false;
	ts = r->ring[r->ring_head].ts_ns;
	/* the usual reason first: the head is older than the newest event by the window */
	return (r->max_ts_ns >= ts && r->max_ts_ns - ts >= r->window_ns) || r->done ||
	       r->ring_count + r->slack > r->max_held;
}

/* trace_reader_next_ref() where the ring's head cannot leave at once: the heap, the fills,
 * the end. Out of line, so that the common case saves no registers. */
static __attribute__((noinline)) int next_ref_slow(struct trace_reader *r,
						   const struct event **ev, struct gs_error *err)
{
	for (;;) {
		int ret, from;
		if (!r->heap_n && r->ring_count) {
			if (ring_head_may_deliver(r)) {
				*ev = deliver(r, 0);
				return 1;
			}
		} else if (order_may_deliver(r, &from)) {
			*ev = deliver(r, from);
			return 1;
		}
		if (r->done) {
			if (r->st.events == 0 && !(r->opts.allow_markers_only && any_marker(r)))
				return gs_error_set(err, GS_ETRACE, "'%s': no usable event in %llu %s",
						    r->path, (unsigned long long)r->st.lines,
						    r->backend->unit);
			return 0;
		}
		if (r->ring_count + r->slack > r->ring_cap && r->ring_cap < r->max_held &&
		    ring_grow(r, r->ring_count + r->slack) < 0)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		ret = r->backend->fill(r, err);
		if (ret < 0)
			return ret;
		if (r->oom)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
}

int trace_reader_next_ref(struct trace_reader *r, const struct event **ev, struct gs_error *err)
{
	if (ring_head_may_deliver(r)) {
		*ev = deliver(r, 0);
		return 1;
	}
	return next_ref_slow(r, ev, err);
}

int trace_reader_next(struct trace_reader *r, struct event *ev, struct gs_error *err)
{
	const struct event *held;
	int ret = trace_reader_next_ref(r, &held, err);

	if (ret == 1)
		*ev = *held;
	return ret;
}

const struct trace_stats *trace_reader_stats(const struct trace_reader *r)
{
	return &r->st;
}

const char *trace_reader_path(const struct trace_reader *r)
{
	return r->path;
}

void trace_reader_free(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->backend)
		r->backend->close(r);
	if (r->gz)
		gzclose(r->gz);
	if (r->fd >= 0 && r->fd != STDIN_FILENO)
		close(r->fd);
	free(r->buf);
	free(r->ring);
	free(r->ring_seq);
	free(r->pool);
	free(r->pool_free);
	free(r->heap);
	free(r->path);
	free(r->file);
	free(r);
}
