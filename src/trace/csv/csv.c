/*
 * csv.c - CSV utilization traces through libcsv (format: tests/fixtures/traces/README-csv.md).
 *
 * A header row names the columns, in any order: time_s, cpu and util are required; util_rt,
 * util_dl, util_est, freq_khz and idle_state are optional (an empty cell is "absent"). Any
 * other column name is an error; a UTF-8 byte order mark before the header is skipped. Each
 * data row becomes one EV_CSV_UTIL event. Rows are numbered from 1 (the header) and reported
 * as "'file':row: why"; for a file without quoted newlines a row number is its line number.
 */
#define _GNU_SOURCE /* memmem */
#include "trace/backend.h"
#include "trace/csv/csv_priv.h"

#include <csv.h>
#include <stdlib.h>
#include <string.h>

#define CSV_CHUNK 4096

enum csv_col {
	COL_TIME,
	COL_CPU,
	COL_UTIL,
	COL_UTIL_RT,
	COL_UTIL_DL,
	COL_UTIL_EST,
	COL_FREQ,
	COL_IDLE,
	COL__COUNT,
	COL_NONE = -1,
};

static const char *const col_names[COL__COUNT] = {
	"time_s", "cpu", "util", "util_rt", "util_dl", "util_est", "freq_khz", "idle_state",
};

#define CSV_MAX_COLS 32

struct csv_state {
	struct csv_parser p;
	bool header_done;
	int ncols;
	signed char col[CSV_MAX_COLS]; /* column index -> enum csv_col */
	int cur;                       /* cell index in the current row */
	u64 row;                       /* current row number, 1 = header */
	char why[160];                 /* first problem of the current row */
	bool bad;
	int ret;                       /* a strict-mode failure inside a callback */
	struct gs_error *err;
	struct trace_reader *r;
	struct event ev;
	bool seen[COL__COUNT];
};

static struct csv_state *csv_of(const struct trace_reader *r)
{
	return r->state;
}

/* Seconds with up to 9 decimals to ns, exactly. */
static bool parse_seconds(const char *s, size_t n, u64 *ns)
{
	u64 sec = 0, frac = 0, scale = NSEC_PER_SEC;
	size_t i = 0;
	int nd = 0;

	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
		if (nd > 11)
			return false;
		sec = sec * 10 + (u64)(s[i] - '0');
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, nd++) {
			if (scale > 1) {
				scale /= 10;
				frac += (u64)(s[i] - '0') * scale;
			}
		}
	}
	if (i != n || nd == 0)
		return false;
	if (sec > READER_MAX_TS_NS / NSEC_PER_SEC || frac > READER_MAX_TS_NS - sec * NSEC_PER_SEC)
		return false; /* beyond 2^63 ns: out of range, never wrapped */
	*ns = sec * NSEC_PER_SEC + frac;
	return true;
}

static bool parse_u64(const char *s, size_t n, u64 *out)
{
	u64 v = 0;
	if (n == 0 || n > 19)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (u64)(s[i] - '0');
	}
	*out = v;
	return true;
}

static void row_problem(struct csv_state *c, const char *what, const char *cell, size_t n)
{
	if (c->bad)
		return;
	c->bad = true;
	snprintf(c->why, sizeof(c->why), "%s '%.*s'", what, (int)(n > 40 ? 40 : n), cell);
}

/* A cell of the header row: the column it names. */
static void header_cell(struct csv_state *c, int idx, const char *cell, size_t n)
{
	int col = COL_NONE;

	if (idx >= CSV_MAX_COLS) {
		row_problem(c, "too many columns at", cell, n);
		return;
	}
	for (int i = 0; i < COL__COUNT; i++)
		if (strlen(col_names[i]) == n && memcmp(col_names[i], cell, n) == 0)
			col = i;
	if (col == COL_NONE) {
		row_problem(c, "unknown column", cell, n);
		return;
	}
	if (c->seen[col]) {
		row_problem(c, "duplicate column", cell, n);
		return;
	}
	c->seen[col] = true;
	c->col[idx] = (signed char)col;
}

/* A cell of a data row, into the row's event by its column. */
static void data_cell(struct csv_state *c, int idx, const char *cell, size_t n)
{
	struct event *ev = &c->ev;
	u64 v;

	switch (c->col[idx]) {
	case COL_TIME:
		if (!parse_seconds(cell, n, &ev->ts_ns))
			row_problem(c, "bad time_s", cell, n);
		break;
	case COL_CPU:
		if (!parse_u64(cell, n, &v) || v >= 4096)
			row_problem(c, "bad cpu", cell, n);
		else
			ev->cpu = ev->util.cpu = (s32)v;
		break;
	case COL_UTIL:
		if (!parse_u64(cell, n, &ev->util.util) || ev->util.util > SCHED_CAPACITY_SCALE)
			row_problem(c, "bad util (want 0..1024)", cell, n);
		break;
	case COL_UTIL_RT:
		if (n && (!parse_u64(cell, n, &ev->util.util_rt) ||
			  ev->util.util_rt > SCHED_CAPACITY_SCALE))
			row_problem(c, "bad util_rt (want 0..1024)", cell, n);
		break;
	case COL_UTIL_DL:
		if (n && (!parse_u64(cell, n, &ev->util.util_dl) ||
			  ev->util.util_dl > SCHED_CAPACITY_SCALE))
			row_problem(c, "bad util_dl (want 0..1024)", cell, n);
		break;
	case COL_UTIL_EST:
		if (n && !parse_u64(cell, n, &ev->util.util_est_enqueued))
			row_problem(c, "bad util_est", cell, n);
		break;
	case COL_FREQ:
		if (n && !parse_u64(cell, n, &ev->util.freq_khz))
			row_problem(c, "bad freq_khz", cell, n);
		break;
	case COL_IDLE:
		if (n == 2 && cell[0] == '-' && cell[1] == '1')
			ev->util.idle_state = -1;
		else if (n && (!parse_u64(cell, n, &v) || v > 1000))
			row_problem(c, "bad idle_state", cell, n);
		else if (n)
			ev->util.idle_state = (s64)v;
		break;
	default:
		break;
	}
}

static void on_cell(void *s, size_t n, void *data)
{
	struct csv_state *c = data;
	const char *cell = s ? s : "";
	int idx = c->cur++;

	if (c->ret)
		return; /* strict mode already failed */

	if (!c->header_done) {
		header_cell(c, idx, cell, n);
		return;
	}
	if (idx >= c->ncols) {
		row_problem(c, "more cells than columns at", cell, n);
		return;
	}
	data_cell(c, idx, cell, n);
}

static void row_reset(struct csv_state *c)
{
	struct event *ev = &c->ev;

	c->cur = 0;
	c->bad = false;
	memset(ev, 0, sizeof(*ev));
	ev->type = EV_CSV_UTIL;
	ev->pid = -1;
	ev->util.pid = -1;
	ev->util.path = EV_PATH_ROOT;
	ev->util.load = ev->util.runnable = ev->util.update_time = EV_NO_VALUE;
	ev->util.util_est_enqueued = ev->util.util_est_ewma = EV_NO_VALUE;
	ev->util.util_rt = ev->util.util_dl = EV_NO_VALUE;
	ev->util.uclamp_min = ev->util.uclamp_max = EV_NO_VALUE;
	ev->util.freq_khz = EV_NO_VALUE;
	ev->util.idle_state = EV_IDLE_ABSENT;
}

static void on_row(int term, void *data)
{
	struct csv_state *c = data;
	struct trace_reader *r = c->r;

	(void)term;
	if (c->ret)
		return;
	c->row++;
	r->st.lines++;
	if (!c->header_done) {
		if (!c->bad) {
			for (int i = 0; i < 3 && !c->bad; i++)
				if (!c->seen[i]) {
					c->bad = true;
					snprintf(c->why, sizeof(c->why), "csv header without %s column",
						 col_names[i]);
				}
		}
		if (c->bad) {
			if (!c->ret)
				c->ret = gs_error_set(c->err, GS_ETRACE, "'%s':%llu: %s", r->path,
						      (unsigned long long)c->row, c->why);
		}
		c->ncols = c->cur;
		c->header_done = true;
		row_reset(c);
		return;
	}
	if (!c->bad && c->cur < c->ncols) {
		c->bad = true;
		snprintf(c->why, sizeof(c->why), "%d cells, the header has %d columns", c->cur,
			 c->ncols);
	}
	if (c->bad) {
		int ret = reader_malformed(r, c->row, c->err, "%s", c->why);
		if (ret < 0 && !c->ret)
			c->ret = ret;
	} else if (!c->ret) {
		/* A chunk is parsed whole, and the first one (csv_open()) before the fill loop
		 * has grown the ring to slack slots: make room row by row. */
		struct event *ev;
		if (reader_reserve(r, 1) < 0) {
			c->ret = gs_error_set(c->err, GS_ENOMEM, "out of memory");
			return;
		}
		ev = reader_slot(r);
		c->ev.line = c->row;
		*ev = c->ev;
		reader_commit(r);
	}
	row_reset(c);
}

/* Feed the next chunk of input to libcsv. */
static int csv_feed(struct trace_reader *r, struct gs_error *err)
{
	struct csv_state *c = csv_of(r);
	size_t n;

	c->err = err;
	if (r->buf_pos == r->buf_len) {
		int ret;
		if (r->in_eof) {
			csv_fini(&c->p, on_cell, on_row, c);
			r->done = true;
			return c->ret;
		}
		r->buf_pos = r->buf_len = 0;
		ret = reader_refill(r, err);
		if (ret < 0)
			return ret;
		return 0;
	}
	n = r->buf_len - r->buf_pos;
	if (n > CSV_CHUNK)
		n = CSV_CHUNK;
	/* libcsv grows a cell's buffer by blk_size bytes at a time (128 by default): a 10 MB cell
	 * took 80000 reallocs, each a copy, quadratic (a minute under ASan). Growing by the size
	 * already reached makes it geometric: a chunk adds at most CSV_CHUNK bytes, so a few
	 * doublings per chunk at most. */
	csv_set_blk_size(&c->p, c->p.entry_size > 128 ? c->p.entry_size : 128);
	if (csv_parse(&c->p, r->buf + r->buf_pos, n, on_cell, on_row, c) != n)
		return gs_error_set(err, GS_ETRACE, "'%s':%llu: %s", r->path,
				    (unsigned long long)c->row + 1, csv_strerror(csv_error(&c->p)));
	r->buf_pos += n;
	return c->ret;
}

unsigned long csv_realloc_calls; /* csv_priv.h */

static void *csv_realloc(void *p, size_t n)
{
	__atomic_fetch_add(&csv_realloc_calls, 1, __ATOMIC_RELAXED);
	return realloc(p, n);
}

static int csv_open(struct trace_reader *r, struct gs_error *err)
{
	struct csv_state *c = calloc(1, sizeof(*c));

	if (!c)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	r->state = c;
	r->st.format = TRACE_FMT_CSV;
	c->r = r;
	/* a chunk of CSV_CHUNK bytes holds at most CSV_CHUNK / 2 rows ("0\n" is the shortest) */
	r->slack = CSV_CHUNK / 2 + 2;
	if (csv_init(&c->p, CSV_APPEND_NULL) != 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	csv_set_realloc_func(&c->p, csv_realloc);
	row_reset(c);
	/* a UTF-8 byte order mark (as spreadsheets save CSV) is not part of the first column's name */
	if (r->buf_len - r->buf_pos >= 3 && memcmp(r->buf + r->buf_pos, "\xef\xbb\xbf", 3) == 0)
		r->buf_pos += 3;
	while (!c->header_done && !r->done) {
		int ret = csv_feed(r, err);
		if (ret < 0)
			return ret;
	}
	if (!c->header_done)
		return gs_error_set(err, GS_ETRACE, "'%s': csv without a header row", r->path);
	return 0;
}

static int csv_fill(struct trace_reader *r, struct gs_error *err)
{
	return csv_feed(r, err);
}

static void csv_close(struct trace_reader *r)
{
	struct csv_state *c = csv_of(r);

	if (!c)
		return;
	csv_free(&c->p);
	free(c);
	r->state = NULL;
}

/* A first line that is a header naming time_s, with commas and no "name: " of a text event. */
static bool csv_sniff(const char *p, size_t n, bool eof)
{
	const char *s, *e;

	(void)eof;
	if (!reader_first_line(p, n, &s, &e))
		return false;
	return memchr(s, ',', (size_t)(e - s)) && memmem(s, (size_t)(e - s), "time_s", 6) &&
	       !memmem(s, (size_t)(e - s), ": ", 2);
}

const struct trace_backend trace_backend_csv = {
	.name = "CSV",
	.formats = 1u << TRACE_FMT_CSV,
	.unit = "lines",
	.sniff = csv_sniff,
	.open = csv_open,
	.fill = csv_fill,
	.close = csv_close,
};
