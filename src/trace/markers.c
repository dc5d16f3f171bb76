/*
 * markers.c - trace_marker writes (print, bprint, tracing_mark_write events of a text trace,
 * and the same events of trace.dat and Perfetto traces): devlib's frequency markers become
 * events, the others (atrace, rt-app, anything else) are counted by kind.
 */
#include "trace/backend.h"
#include "trace/fields.h"

#include <stdio.h>
#include <string.h>

/* The marker's own text: after "tracing_mark_write: ", as ftrace prints a trace_marker write
 * (the ip's symbol), when present. */
static const char *marker_text(const char *p, const char *end)
{
	static const char tmw[] = "tracing_mark_write:";
	const size_t tl = sizeof(tmw) - 1;

	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) >= tl && memcmp(p, tmw, tl) == 0) {
		p += tl;
		while (p < end && *p == ' ')
			p++;
	}
	return p;
}

/*
 * A devlib frequency marker: "cpu_frequency_devlib: state=N cpu_id=N" anywhere in the text, or
 * the older devlib form "cpu_frequency: state=N cpu_id=N" as the marker's whole text (devlib
 * wrote it with the kernel event's name; it is still the tracer's start/stop note, not a
 * governor decision).
 */
int marker_parse_devlib(const char *body, const char *end, struct event *ev, const char **why,
			char *whybuf, size_t whysize)
{
	static const char tag[] = "cpu_frequency_devlib:";
	static const char old_tag[] = "cpu_frequency:";
	const size_t tl = sizeof(tag) - 1, otl = sizeof(old_tag) - 1;
	const char *p = body, *t;
	struct fieldset fs;

	while (end > body && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	t = marker_text(body, end);
	if ((size_t)(end - t) > otl && memcmp(t, old_tag, otl) == 0) {
		p = t + otl;
	} else {
		for (;;) {
			p = memchr(p, 'c', (size_t)(end - p));
			if (!p || (size_t)(end - p) < tl)
				return 0;
			if (memcmp(p, tag, tl) == 0)
				break;
			p++;
		}
		p += tl;
	}
	fieldset_split(&fs, p, end);
	*why = event_from_fields(EV_FREQ_MARKER, &fs, ev, whybuf, whysize);
	return *why ? -1 : 1;
}

static const char *const marker_kind_names[] = {
#define GS_MARKER_NAME(name, str) str,
	TRACE_MARKER_KINDS(GS_MARKER_NAME)
#undef GS_MARKER_NAME
};

const char *trace_marker_kind_name(enum trace_marker_kind k)
{
	if ((unsigned)k >= GS_ARRAY_SIZE(marker_kind_names))
		return "?";
	return marker_kind_names[k];
}

/* atrace (Android's libcutils trace.h, Perfetto's atrace parser): "B|pid|name", "E|pid" (or
 * a bare "E"), "C|pid|name|value", "S|pid|name|cookie", "F|pid|name|cookie". */
static enum trace_marker_kind marker_kind(const char *p, const char *end)
{
	size_t n = (size_t)(end - p);

	if (n >= 2 && p[1] == '|') {
		switch (p[0]) {
		case 'B': return MARKER_ATRACE_BEGIN;
		case 'E': return MARKER_ATRACE_END;
		case 'C': return MARKER_ATRACE_COUNTER;
		case 'S': return MARKER_ATRACE_ASYNC_BEGIN;
		case 'F': return MARKER_ATRACE_ASYNC_END;
		default: break;
		}
	}
	if (n == 1 && p[0] == 'E')
		return MARKER_ATRACE_END;
	if (n >= 6 && memcmp(p, "rtapp_", 6) == 0)
		return MARKER_RTAPP;
	return MARKER_OTHER;
}

/*
 * The lab's snapshot of the kernel's PELT state as tracing starts (tools/lab/init writes one
 * marker per task and per root cfs_rq): "lab: start_se cpu=C pid=P load=L runnable=R util=U
 * update_time=T enqueued=E [ewma=W] [comm=X]" (a task's se.avg from /proc/P/sched, T its
 * last_update_time on the CPU's PELT clock) and "lab: start_cfs cpu=C load=L runnable=R
 * util=U enqueued=E" (the root cfs_rq's, from the scheduler's debug file). 0: not such a
 * marker; -1: one whose fields do not parse (*why says which).
 */
static int marker_parse_lab_start(const char *t, const char *end, struct event *ev,
				  const char **why, char *whybuf, size_t whysize)
{
	static const char se[] = "lab: start_se ", cfs[] = "lab: start_cfs ";
	const size_t sl = sizeof(se) - 1, cl = sizeof(cfs) - 1;
	struct fieldset fs;
	int type;

	if ((size_t)(end - t) > sl && memcmp(t, se, sl) == 0) {
		type = EV_START_SE;
		t += sl;
	} else if ((size_t)(end - t) > cl && memcmp(t, cfs, cl) == 0) {
		type = EV_START_CFS;
		t += cl;
	} else {
		return 0;
	}
	fieldset_split(&fs, t, end);
	*why = event_from_fields(type, &fs, ev, whybuf, whysize);
	return *why ? -1 : 1;
}

int reader_marker(struct trace_reader *r, const char *body, const char *end, struct event *ev,
		  const char **why)
{
	int m = marker_parse_devlib(body, end, ev, why, r->marker_why, sizeof(r->marker_why));
	const char *t;

	if (m != 0) {
		r->st.markers[MARKER_DEVLIB_FREQ]++;
		return m;
	}
	while (end > body && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	t = marker_text(body, end);
	m = marker_parse_lab_start(t, end, ev, why, r->marker_why, sizeof(r->marker_why));
	if (m != 0)
		return m;
	r->st.markers[marker_kind(t, end)]++;
	return 0;
}

/* A trace_marker write whose ip the kernel could not name prints the ip instead of
 * "tracing_mark_write" ("0: B|123|name", "0xffffff8008123456: E|123"): a marker, not an
 * event called "0". */
bool is_unresolved_ip(const char *name, size_t len)
{
	size_t i = 0;

	if (len > 2 && name[0] == '0' && name[1] == 'x')
		i = 2;
	if (i == len)
		return false;
	for (; i < len; i++)
		if (!is_digit(name[i]) && !(name[i] >= 'a' && name[i] <= 'f'))
			return false;
	return true;
}
