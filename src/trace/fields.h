/*
 * fields.h - the vocabulary every back end maps its events onto (fields.c, markers.c): numbers,
 * prev_state, an event payload's key=value pairs, the tracepoint names the stream knows, and
 * trace_marker writes. Plain functions of their arguments: no reader state.
 */
#ifndef GOVSIM_TRACE_FIELDS_H
#define GOVSIM_TRACE_FIELDS_H

#include <stddef.h>

#include "core/event.h"
#include "core/types.h"

static const unsigned char ident_tab[256] = {
#define R10(c) [c] = 1, [c + 1] = 1, [c + 2] = 1, [c + 3] = 1, [c + 4] = 1, [c + 5] = 1, \
	       [c + 6] = 1, [c + 7] = 1, [c + 8] = 1, [c + 9] = 1
	R10('0'),
	R10('A'), R10('K'), [('U')] = 1, [('V')] = 1, [('W')] = 1, [('X')] = 1, [('Y')] = 1,
	[('Z')] = 1,
	R10('a'), R10('k'), [('u')] = 1, [('v')] = 1, [('w')] = 1, [('x')] = 1, [('y')] = 1,
	[('z')] = 1,
	['_'] = 1,
#undef R10
};

/* A letter, digit or '_' (the characters of a C identifier). */
static inline __attribute__((always_inline)) bool is_ident(char c)
{
	return ident_tab[(unsigned char)c];
}

static inline __attribute__((always_inline)) bool is_digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

/* Decimal (leading zeros are decimal: target_cpu=006) or 0x-hex; the whole span must be used. */
bool span_u64(const char *s, size_t n, u64 *out);
/* span_u64() with an optional leading '-', within s64. */
bool span_s64(const char *s, size_t n, s64 *out);

/* prev_state text ("S", "R+", "D|W", "256") to v5.9 TASK_REPORT bits; -1 if invalid. */
s64 prev_state_parse(const char *s, size_t len);
/* A numeric prev_state from any kernel to v5.9 TASK_REPORT bits. */
u32 prev_state_from_number(u64 n);

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

/* A comm field into dst (TASK_COMM_LEN bytes): truncated, NUL-padded, so that equal events are
 * equal bytes. */
void copy_comm(char *dst, const struct field_span *f);

/* Split an event payload into key=value pairs (values may hold spaces, as comms do). */
void fieldset_split(struct fieldset *fs, const char *p, const char *end);

/* Fill ev (type, union) from the payload of event `type`. NULL on success, or a static/`why`-
 * buffer description of the problem ("sched_switch without next_pid"). */
const char *event_from_fields(int type, const struct fieldset *fs, struct event *ev, char *why,
			      size_t why_size);

/* sugov_set_iowait_boost's printed text, "doing iow boost" or "skipping iow boost", into
 * ev->iowait. NULL, or what was wrong. */
const char *iowait_boost_from_text(const char *p, const char *end, struct event *ev);

/* The event type of a tracepoint name, including aliases ("lisa__sched_pelt_cfs"); -1 for
 * events not turned into the stream; EVNAME_MARKER for print-like events that may carry a
 * cpu_frequency_devlib marker. */
#define EVNAME_MARKER (-2)
int tracepoint_type(const char *name, size_t len);

/* markers.c: a print/bprint/tracing_mark_write body; 1 and ev filled when it is a
 * "cpu_frequency_devlib: state=N cpu_id=N" marker, 0 when it is another print, or a negative
 * value with *why set when the marker is broken (the message is written to whybuf). */
int marker_parse_devlib(const char *body, const char *end, struct event *ev, const char **why,
			char *whybuf, size_t whysize);

/* markers.c: an event name that is an unresolved ip ("0", "0xffffff8008123456"): a
 * trace_marker write. */
bool is_unresolved_ip(const char *name, size_t len);

#endif
