/*
 * text_columns.c - the lines of a text trace before its events: trace-cmd's preamble and the
 * '#' header comments; and the columns before an event's name (comm-pid, cpu, flags,
 * timestamp) in each layout text.c's fixed_prefix() does not take (see text.c's top comment).
 */
#include "trace/text/text_priv.h"

#include <stdio.h>
#include <string.h>

/* ---- lines --------------------------------------------------------------------------------- */

void header_comment(struct trace_reader *r, const char *p, const char *end)
{
	const char *q;

	for (q = p; q + 3 < end; q++) {
		if (q[0] == '#' && q[1] == 'P' && q[2] == ':' && is_digit(q[3])) {
			u64 n = 0;
			for (q += 3; q < end && is_digit(*q); q++)
				n = n * 10 + (u64)(*q - '0');
			if (n <= 4096)
				r->st.header_cpus = (int)n;
			break;
		}
	}
	q = p + 1;
	while (q < end && *q == ' ')
		q++;
	if (end - q > 7 && memcmp(q, "tracer:", 7) == 0)
		reader_add_header(r, "%.*s", (int)(end - q), q);
	/* "# Linux version 5.10.66-android12-9-... (builder@...) ...": /proc/version copied into
	 * the header; the release is its third word */
	if (end - q > 14 && memcmp(q, "Linux version ", 14) == 0 && !r->st.kernel_release[0]) {
		const char *v = q + 14, *e = v;
		while (e < end && *e != ' ' && *e != '\r')
			e++;
		reader_set_kernel(r, v, (size_t)(e - v), e, (size_t)(end - e));
	}
}

/* trace-cmd's preamble lines; true when the line was one. */
bool header_line(struct trace_reader *r, const char *p, const char *end)
{
	size_t n = (size_t)(end - p);

	if (n > 9 && memcmp(p, "version =", 9) == 0) {
		const char *v = p + 9;
		while (v < end && *v == ' ')
			v++;
		reader_add_header(r, "trace-cmd version %.*s", (int)(end - v), v);
		return true;
	}
	if (n > 5 && memcmp(p, "cpus=", 5) == 0) {
		u64 c;
		if (span_u64(p + 5, n - 5, &c) && c <= 4096) {
			r->st.header_cpus = (int)c;
			return true;
		}
		return false;
	}
	if (n > 4 && memcmp(p, "CPU", 3) == 0 && (p[3] == ' ' || is_digit(p[3]))) {
		/* "CPU 3 is empty", "CPU0 data recorded at offset=0x..." */
		const char *q = p + 3;
		while (q < end && (*q == ' ' || is_digit(*q)))
			q++;
		if (q > p + 3 && (q == end || !(*q == ']' || *q == '-')))
			return true;
	}
	return false;
}

/* "<sec>.<frac>:" at p; on success *next points after the ':'. */
bool parse_ts(const char *p, const char *end, u64 *ts_ns, const char **next)
{
	static const u64 scale[10] = {1000000000ull, 100000000ull, 10000000ull, 1000000ull,
				      100000ull,     10000ull,     1000ull,     100ull,
				      10ull,         1ull};
	u64 sec = 0, frac = 0;
	int nd = 0, nf = 0;

	while (p < end && is_digit(*p)) {
		if (nd++ > 11)
			return false;
		sec = sec * 10 + (u64)(*p++ - '0');
	}
	if (nd == 0)
		return false;
	if (p < end && *p == '.') {
		p++;
		while (p < end && is_digit(*p)) {
			if (nf < 9) {
				frac = frac * 10 + (u64)(*p - '0');
				nf++;
			}
			p++;
		}
		if (p >= end || *p != ':')
			return false;
		/* past READER_MAX_TS_NS: a timestamp, out of range (the caller reports it) */
		if (sec > READER_MAX_TS_NS / NSEC_PER_SEC ||
		    frac * scale[nf] > READER_MAX_TS_NS - sec * NSEC_PER_SEC)
			*ts_ns = UINT64_MAX;
		else
			*ts_ns = sec * NSEC_PER_SEC + frac * scale[nf];
	} else {
		if (p >= end || *p != ':')
			return false;
		*ts_ns = sec; /* a counter clock, not in us: taken as ns */
	}
	*next = p + 1;
	return true;
}

/* Find "[cpu]" and the "comm-pid" before it. */
static bool parse_task_cpu(const char *line, const char *end, s32 *pid, s32 *cpu,
			   const char **after)
{
	const char *b = line;

	for (;;) {
		const char *q, *cb;
		u64 v = 0;
		int nd = 0;

		b = memchr(b, '[', (size_t)(end - b));
		if (!b)
			return false;
		cb = b + 1;
		while (cb < end && is_digit(*cb)) {
			v = v * 10 + (u64)(*cb - '0');
			cb++;
			nd++;
		}
		if (nd == 0 || nd > 5 || cb >= end || *cb != ']') {
			b++;
			continue;
		}
		/* comm-pid, maybe followed by "(tgid)" */
		q = b;
		while (q > line && q[-1] == ' ')
			q--;
		if (q > line && q[-1] == ')') {
			const char *o = q - 1;
			while (o > line && *o != '(')
				o--;
			if (*o == '(') {
				q = o;
				while (q > line && q[-1] == ' ')
					q--;
			}
		}
		if (!pid_before(line, q, pid)) {
			b++;
			continue;
		}
		*cpu = (s32)v;
		*after = cb + 1;
		return true;
	}
}

/*
 * The latency layout (trace-cmd report -l, libtraceevent's "%8.8s-%-5d %3d" then the flags):
 * no brackets, the CPU number runs straight into the irq-flags column:
 *
 *       <idle>-0         3d..2  1234.567890: sched_switch: ...
 *
 * For each space that follows "-<digits>", try "<cpu><flags>" then the timestamp; the first
 * that fits wins. The flags start with the irqs-off column ('d', 'X' or '.').
 */
static bool parse_task_cpu_lat(const char *line, const char *end, s32 *pid, s32 *cpu,
			       u64 *ts_ns, const char **next, const char **flags)
{
	const char *b = line;

	while ((b = memchr(b, ' ', (size_t)(end - b))) != NULL) {
		const char *c = b, *f;
		u64 v = 0;

		b++;
		if (!pid_before(line, c, pid))
			continue;
		while (c < end && *c == ' ')
			c++;
		f = c;
		while (f < end && is_digit(*f) && f - c < 5)
			v = v * 10 + (u64)(*f++ - '0');
		if (f == c || f >= end || !(*f == 'd' || *f == 'X' || *f == '.'))
			continue;
		*flags = f;
		while (f < end && *f != ' ')
			f++;
		while (f < end && *f == ' ')
			f++;
		if (parse_ts(f, end, ts_ns, next)) {
			*cpu = (s32)v;
			return true;
		}
	}
	return false;
}

/* The columns before the event name: "comm-pid [cpu] flags ts:" in any of the layouts. NULL
 * and *next after the timestamp's ':', or why not. */
const char *parse_prefix(const char *p, const char *end, s32 *pid, s32 *cpu, u64 *ts,
				const char **next, const char **flags)
{
	const char *after, *q;

	*flags = NULL;
	if (parse_task_cpu(p, end, pid, cpu, &after)) {
		q = after;
		while (q < end && *q == ' ')
			q++;
		if (parse_ts(q, end, ts, next))
			return NULL;
		/* the irq-info flags / latency column, then the timestamp */
		*flags = q;
		while (q < end && *q != ' ')
			q++;
		while (q < end && *q == ' ')
			q++;
		if (parse_ts(q, end, ts, next))
			return NULL;
		if (parse_task_cpu_lat(p, end, pid, cpu, ts, next, flags))
			return NULL;
		return "no timestamp after the cpu column";
	}
	if (parse_task_cpu_lat(p, end, pid, cpu, ts, next, flags))
		return NULL;
	return "no 'comm-pid [cpu]' columns";
}
