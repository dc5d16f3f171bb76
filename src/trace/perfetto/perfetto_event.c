/*
 * perfetto_event.c - one FtraceEvent of a bundle, from its bytes, when the walk of the bundle
 * reaches it, so that the reader's CPU per event is no more than the text reader's.
 *
 * The reader unpacks a packet as TracePacketLazy (perfetto.proto), whose bundle keeps its events
 * as `bytes`: protobuf-c then does not build the bundle's thousands of messages at once (a
 * previous profile put 28 % of the reader's CPU in protobuf_c_message_unpack; half the reader's
 * time went there on the benchmark trace). Each event is decoded here:
 *
 *  - The five events that are most of any scheduler trace (sched_switch, sched_wakeup,
 *    sched_waking, sched_wakeup_new, cpu_frequency, cpu_idle) whose bytes hold only the fields
 *    perfetto.proto declares, each once, with the wire types it declares, are read straight
 *    into what the handlers in perfetto_ftrace.c read of them (struct pf_fast_event: the
 *    scalars, and the comms as where their bytes are in the packet, copied once, into the
 *    event). The handlers take the same from the structs protobuf-c builds for the others.
 *  - Everything else (other events, unknown fields, a field twice, a wire type that is not the
 *    declared one, anything malformed) goes through pftrace__ftrace_event__unpack() into the
 *    packet's arena, which decides, as before.
 *
 * Scalars follow protobuf-c: int32/uint32 are the low 32 bits of the varint, int64/uint64 all
 * of it; the last occurrence of a scalar field wins. An event whose bytes are not a valid
 * FtraceEvent is malformed input (and skipped when that is tolerated).
 */
#include "trace/perfetto/perfetto_priv.h"

#include <stdlib.h>
#include <string.h>

/* A step of the in-order path that nearly every event takes, inlined into pf_decode_event()
 * whatever the compiler's size limits: the calls and their register saves cost 1.4 % of the
 * reader's instructions on bench.sh's trace. */
#define PF_HOT static inline __attribute__((always_inline))

/*
 * The payload parsers read `hot` where PF_HOT_MARGIN bytes of the bundle follow the event: then
 * a field's tag and a varint of one or two bytes are read with no check against the event's end
 * (a string's length is still checked, with a signed compare). A varint may so be read past the
 * end, by at most 3 bytes a field; the payload's last check, that it ends exactly at the event's
 * end, then refuses it, as the checked read would have (it ends no field past the end), and the
 * other paths decide. Seven fields (a switch's) read at most 23 bytes past the end.
 */
#define PF_HOT_MARGIN 32

/* FtraceEvent fields (ftrace_event.proto) */
#define FE_TIMESTAMP    1
#define FE_PID          2
#define FE_COMMON_FLAGS 5

struct pf_wire {
	const unsigned char *p, *end;
};

/* The next field of w: its number, wire type, varint value or bytes (a fixed64/fixed32 is
 * skipped, *v 0). false at the end of w, or when the field is a group or is cut (*bad set
 * then). */
/* The wire of a bytes field; an empty one may have no data at all (NULL + 0 is undefined). */
static inline struct pf_wire wire_of(const ProtobufCBinaryData *d)
{
	struct pf_wire w = {d->data, d->data};

	if (d->data)
		w.end = d->data + d->len;
	return w;
}

static inline bool wire_next(struct pf_wire *w, u32 *num, u32 *wt, u64 *v,
			     const unsigned char **s, size_t *len, bool *bad)
{
	u64 tag;
	size_t k;

	if (w->p >= w->end)
		return false;
	k = pf_varint(w->p, w->end, &tag);
	if (!k || (tag >> 3) == 0 || (tag >> 3) > UINT32_MAX)
		goto bad;
	w->p += k;
	*num = (u32)(tag >> 3);
	*wt = (u32)(tag & 7);
	if (*wt == 1 || *wt == 5) { /* fixed64, fixed32: skipped (no hot field is one) */
		k = *wt == 1 ? 8 : 4;
		if ((size_t)(w->end - w->p) < k)
			goto bad;
		w->p += k;
		*v = 0;
		return true;
	}
	k = (*wt == 0 || *wt == 2) ? pf_varint(w->p, w->end, v) : 0;
	if (!k)
		goto bad;
	w->p += k;
	if (*wt == 2) {
		if (*v > (u64)(w->end - w->p))
			goto bad;
		*s = w->p;
		*len = (size_t)*v;
		w->p += *len;
	}
	return true;
bad:
	*bad = true;
	return false;
}

/* A string field's bytes. */
static inline struct pf_str str_of(const unsigned char *p, size_t n)
{
	struct pf_str c = {(const char *)p, n};
	return c;
}

/* Bit of each declared field of a message, and whether it is a string (wire type 2). */
struct fast_layout {
	u32 declared; /* bit n: field n is declared */
	u32 strings;  /* bit n: field n is a string */
};

static const struct fast_layout switch_layout = {0xfe, (1u << 1) | (1u << 5)};
static const struct fast_layout wakeup_layout = {0x3e, 1u << 1};
static const struct fast_layout power_layout = {0x06, 0};

/*
 * The fields of a small message [p, p + len) of the given layout: vals[n] the varint of field n,
 * strs[n]/lens[n] its bytes; bit n of *seen when present. false when the message has a field
 * the layout does not declare, a field twice, or a wire type that is not the declared one.
 */
static bool fast_fields(const unsigned char *p, size_t len, const struct fast_layout *lay,
			u64 vals[8], const unsigned char *strs[8], size_t lens[8], u32 *seen)
{
	const unsigned char *end = p + len;
	u32 got = 0;

	while (p < end) {
		u32 num = *p >> 3, wt = *p & 7, bit = 1u << (num & 31);
		size_t k;
		u64 l;

		/* every declared field has a one-byte tag */
		if ((*p & 0x80) || num >= 8 || !(lay->declared & bit) || (got & bit))
			return false;
		p++;
		if (wt == 0 && !(lay->strings & bit)) {
			k = pf_varint(p, end, &vals[num]);
			if (!k)
				return false;
			p += k;
		} else if (wt == 2 && (lay->strings & bit)) {
			k = pf_varint(p, end, &l);
			if (!k || l > (u64)(end - p) - k)
				return false;
			strs[num] = p + k;
			lens[num] = (size_t)l;
			p += k + l;
		} else {
			return false;
		}
		got |= bit;
	}
	*seen = got;
	return true;
}

/* The order traced_probes writes, every declared field once in the order of their numbers 1, 2,
 * ... (the order of the message's declaration), spelt out for each hot message: field `tag` (its
 * one-byte tag) next at *pp, a varint into *v or a string into *s and *n, *pp advanced past it;
 * false, with nothing read, otherwise. A message read to its end by these is one fast_fields()
 * accepts with every field seen, to the same values: the caller tries this first and falls back
 * to fast_fields() for any other layout. */
static inline bool next_varint(const unsigned char **pp, const unsigned char *end, unsigned tag,
			       u64 *v, bool hot)
{
	const unsigned char *p = *pp;
	size_t k;

	if ((!hot && p >= end) || *p != tag)
		return false;
	if (hot) {
		/* one and two bytes without a check against end (see PF_HOT_MARGIN) */
		u64 b0 = p[1], b1 = p[2];
		if (!(b0 & 0x80)) {
			*v = b0;
			*pp = p + 2;
			return true;
		}
		if (!(b1 & 0x80)) {
			*v = (b0 & 0x7f) | b1 << 7;
			*pp = p + 3;
			return true;
		}
		if (p >= end)
			return false;
	}
	k = pf_varint(p + 1, end, v);
	if (!k)
		return false;
	*pp = p + 1 + k;
	return true;
}

static inline bool next_string(const unsigned char **pp, const unsigned char *end, unsigned tag,
			       const unsigned char **s, size_t *n, bool hot)
{
	const unsigned char *p = *pp;
	size_t k;
	u64 l;

	if ((!hot && p >= end) || *p != tag)
		return false;
	if (hot && !(p[1] & 0x80)) {
		/* a length of one byte; p may be past end (a varint before read past it): the
		 * signed compare refuses the string then */
		l = p[1];
		if ((ptrdiff_t)l > end - p - 2)
			return false;
		*s = p + 2;
		*n = (size_t)l;
		*pp = p + 2 + l;
		return true;
	}
	if (hot && p >= end)
		return false;
	p++;
	k = pf_varint(p, end, &l);
	if (!k || l > (u64)(end - p) - k)
		return false;
	*s = p + k;
	*n = (size_t)l;
	*pp = p + k + l;
	return true;
}

/* The one-byte tag of field num: a string (wire type 2) or a varint (0). */
static inline unsigned tag_string(unsigned num)
{
	return (num << 3) | 2u;
}

static inline unsigned tag_varint(unsigned num)
{
	return num << 3;
}

/* A sched_switch of all seven fields in order, into f->m.sw; false when it is not one. */
PF_HOT bool switch_in_order(struct pf_fast_event *f, const unsigned char *p, size_t len, bool hot)
{
	struct pf_switch *m = &f->m.sw;
	const unsigned char *end = p + len, *c0, *c1;
	size_t n0, n1;
	u64 pid0, prio0, state, pid1, prio1;

	if (!(next_string(&p, end, tag_string(1), &c0, &n0, hot) &&
	      next_varint(&p, end, tag_varint(2), &pid0, hot) &&
	      next_varint(&p, end, tag_varint(3), &prio0, hot) &&
	      next_varint(&p, end, tag_varint(4), &state, hot) &&
	      next_string(&p, end, tag_string(5), &c1, &n1, hot) &&
	      next_varint(&p, end, tag_varint(6), &pid1, hot) &&
	      next_varint(&p, end, tag_varint(7), &prio1, hot) && p == end))
		return false;
	m->prev_comm = str_of(c0, n0);
	m->next_comm = str_of(c1, n1);
	m->has_prev_pid = m->has_next_pid = true;
	m->prev_pid = (s32)(u32)pid0;
	m->prev_prio = (s32)(u32)prio0;
	m->prev_state = (s64)state;
	m->next_pid = (s32)(u32)pid1;
	m->next_prio = (s32)(u32)prio1;
	return true;
}

/* A sched_wakeup (waking, wakeup_new) of all five fields in order, into f->m.wk. */
PF_HOT bool wakeup_in_order(struct pf_fast_event *f, const unsigned char *p, size_t len, bool hot)
{
	struct pf_wakeup *m = &f->m.wk;
	const unsigned char *end = p + len, *c;
	size_t n;
	u64 pid, prio, success, target;

	if (!(next_string(&p, end, tag_string(1), &c, &n, hot) &&
	      next_varint(&p, end, tag_varint(2), &pid, hot) &&
	      next_varint(&p, end, tag_varint(3), &prio, hot) &&
	      next_varint(&p, end, tag_varint(4), &success, hot) &&
	      next_varint(&p, end, tag_varint(5), &target, hot) && p == end))
		return false;
	m->comm = str_of(c, n);
	m->pid = (s32)(u32)pid;
	m->prio = (s32)(u32)prio;
	m->target_cpu = (s32)(u32)target;
	return true;
}

/* A sched_switch of any other layout fast_fields() takes (out of line: the in-order one is
 * nearly every event, and its path stays short). */
static __attribute__((noinline)) bool switch_any_order(struct pf_fast_event *f,
							const unsigned char *p, size_t len)
{
	struct pf_switch *m = &f->m.sw;
	u64 v[8] = {0}; /* an absent field is 0, as protobuf-c's default */
	const unsigned char *s[8] = {NULL};
	size_t n[8] = {0};
	u32 seen;

	if (!fast_fields(p, len, &switch_layout, v, s, n, &seen))
		return false;
	m->prev_comm = str_of(s[1], n[1]);
	m->next_comm = str_of(s[5], n[5]);
	m->has_prev_pid = !!(seen & (1u << 2));
	m->prev_pid = (s32)(u32)v[2];
	m->prev_prio = (s32)(u32)v[3];
	m->prev_state = (s64)v[4];
	m->has_next_pid = !!(seen & (1u << 6));
	m->next_pid = (s32)(u32)v[6];
	m->next_prio = (s32)(u32)v[7];
	return true;
}

/* A sched_wakeup (waking, wakeup_new) of any other layout, out of line as switch_any_order(). */
static __attribute__((noinline)) bool wakeup_any_order(struct pf_fast_event *f,
							const unsigned char *p, size_t len)
{
	struct pf_wakeup *m = &f->m.wk;
	u64 v[8] = {0};
	const unsigned char *s[8] = {NULL};
	size_t n[8] = {0};
	u32 seen;

	if (!fast_fields(p, len, &wakeup_layout, v, s, n, &seen))
		return false;
	m->comm = str_of(s[1], n[1]);
	m->pid = (s32)(u32)v[2];
	m->prio = (s32)(u32)v[3];
	m->target_cpu = (s32)(u32)v[5];
	return true;
}

PF_HOT bool fast_switch(struct pf_fast_event *f, const unsigned char *p, size_t len, bool hot)
{
	return switch_in_order(f, p, len, hot) || switch_any_order(f, p, len);
}

PF_HOT bool fast_wakeup(struct pf_fast_event *f, const unsigned char *p, size_t len, bool hot)
{
	return wakeup_in_order(f, p, len, hot) || wakeup_any_order(f, p, len);
}

/* cpu_frequency and cpu_idle: state = 1, cpu_id = 2, both uint32 (the two messages agree). */
PF_HOT bool fast_power(struct pf_fast_event *f, const unsigned char *p, size_t len, bool hot)
{
	const unsigned char *q = p, *end = p + len;
	u64 v[8] = {0};
	const unsigned char *s[8];
	size_t n[8];
	u32 seen;

	if (!(next_varint(&q, end, tag_varint(1), &v[1], hot) &&
	      next_varint(&q, end, tag_varint(2), &v[2], hot) && q == end)) {
		v[1] = v[2] = 0;
		if (!fast_fields(p, len, &power_layout, v, s, n, &seen))
			return false;
	}
	f->m.power.state = (u32)v[1];
	f->m.power.cpu_id = (u32)v[2];
	return true;
}

/* The event's payload field, once: into f. false when it is not one of the fast ones. */
PF_HOT bool fast_payload(struct pf_fast_event *f, u32 num, const unsigned char *s, size_t len,
			 bool hot)
{
	switch (num) {
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH:
		if (!fast_switch(f, s, len, hot))
			return false;
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP:
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING:
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW:
		if (!fast_wakeup(f, s, len, hot))
			return false;
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY:
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_IDLE:
		if (!fast_power(f, s, len, hot))
			return false;
		break;
	default:
		return false;
	}
	f->e.event_case = (Pftrace__FtraceEvent__EventCase)num;
	return true;
}

/* An FtraceEvent's fields in traced_probes' order, timestamp, pid, common_flags if any, then a
 * payload that ends the event: true with them in f and the payload's field number and bytes in
 * *num, *pay and *len. false otherwise, with *pp moved only past the fields read (the caller's
 * loop then reads the rest, as it would have read them all). */
static inline bool in_order_head(struct pf_fast_event *f, const unsigned char **pp,
				 const unsigned char *end, u32 *num, const unsigned char **pay,
				 size_t *len)
{
	const unsigned char *p = *pp;
	u64 v, tag;
	size_t k;

	/* a timestamp is a varint of 5 to 8 bytes: read in one word where the event has them */
	if (end - p >= 9 && *p == tag_varint(FE_TIMESTAMP) && (k = pf_varint_word(p + 1, &v)))
		p += 1 + k;
	else if (!next_varint(&p, end, tag_varint(FE_TIMESTAMP), &v, false))
		return false;
	f->e.has_timestamp = true;
	f->e.timestamp = v;
	*pp = p;
	if (!next_varint(&p, end, tag_varint(FE_PID), &v, false))
		return false;
	f->e.has_pid = true;
	f->e.pid = (u32)v;
	*pp = p;
	if (next_varint(&p, end, tag_varint(FE_COMMON_FLAGS), &v, false)) {
		f->e.has_common_flags = true;
		f->e.common_flags = (u32)v;
		*pp = p;
	}
	/* a length-delimited field numbered 1 to 1023: tag - 8 wraps below field 1 */
	k = pf_varint(p, end, &tag);
	if (!k || (tag & 7) != 2 || tag - 8 >= (1024u << 3) - 8)
		return false;
	p += k;
	k = pf_varint(p, end, &v);
	if (!k || v != (u64)(end - p) - k)
		return false;
	*num = (u32)(tag >> 3);
	*pay = p + k;
	*len = (size_t)v;
	return true;
}

static bool fast_event_rest(struct pf_fast_event *f, const unsigned char *p,
			    const unsigned char *end);

/* The common events straight into f (see the top of the file); false for the others. The bytes
 * up to lim may be read (NULL: the event's own). */
PF_HOT bool fast_event(struct pf_fast_event *f, const unsigned char *p, size_t len,
		       const unsigned char *lim)
{
	const unsigned char *end, *pay = NULL;
	size_t pay_len = 0;
	u32 pay_num = 0;

	if (len == 0)
		return false; /* an empty event (p may be NULL: no NULL + 0): the generic path */
	end = p + len;
	/* the fields the handlers read of e (no message: theirs is in f->m) */
	f->e.has_timestamp = f->e.has_pid = f->e.has_common_flags = false;
	f->e.timestamp = 0;
	f->e.pid = f->e.common_flags = 0;
	/* as traced_probes writes it: timestamp, pid, common_flags (newer ones), the payload last;
	 * any other order goes through fast_event_rest(), which reads these the same */
	if (in_order_head(f, &p, end, &pay_num, &pay, &pay_len)) {
		/* the payload ends the event: read hot where the margin follows it */
		if (lim && lim - end >= PF_HOT_MARGIN)
			return fast_payload(f, pay_num, pay, pay_len, true);
		return fast_payload(f, pay_num, pay, pay_len, false);
	}
	return fast_event_rest(f, p, end);
}

/* The rest of fast_event() for an event not in traced_probes' order: its fields from p on, in any
 * order (out of line, as switch_any_order()). */
static __attribute__((noinline)) bool fast_event_rest(struct pf_fast_event *f,
						       const unsigned char *p,
						       const unsigned char *end)
{
	const unsigned char *pay = NULL;
	size_t pay_len = 0;
	u32 pay_num = 0;

	while (p < end) {
		u64 tag, v;
		size_t k = pf_varint(p, end, &tag);
		if (!k)
			return false;
		p += k;
		k = pf_varint(p, end, &v);
		if (!k)
			return false;
		p += k;
		if (tag == ((FE_TIMESTAMP << 3) | 0)) {
			f->e.has_timestamp = true;
			f->e.timestamp = v;
		} else if (tag == ((FE_PID << 3) | 0)) {
			f->e.has_pid = true;
			f->e.pid = (u32)v;
		} else if (tag == ((FE_COMMON_FLAGS << 3) | 0)) {
			f->e.has_common_flags = true;
			f->e.common_flags = (u32)v;
		} else if ((tag & 7) == 2 && !pay_num && v <= (u64)(end - p) && (tag >> 3) < 1024) {
			pay_num = (u32)(tag >> 3);
			pay = p;
			pay_len = (size_t)v;
			p += pay_len;
		} else {
			return false;
		}
	}
	return pay_num && fast_payload(f, pay_num, pay, pay_len, false);
}

/* The timestamp of an event's bytes (field 1, its last occurrence), 0 when it has none or the
 * bytes are not well formed up to it (the event is then reported when it is decoded). */
u64 pf_event_ts(const ProtobufCBinaryData *d)
{
	struct pf_wire w = wire_of(d);
	const unsigned char *s = NULL;
	bool bad = false;
	u32 num, wt;
	u64 v, ts = 0;
	size_t n = 0;

	while (wire_next(&w, &num, &wt, &v, &s, &n, &bad))
		if (num == FE_TIMESTAMP && wt == 0)
			ts = v;
	return ts;
}

int pf_decode_event(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	const Pftrace__FtraceEventBundleLazy *b = pf->b;

	/* an event of the bundle walked in place may be read to the bundle's end */
	const unsigned char *lim = b == &pf->view ? pf->view_end : NULL;

	pf->e_next = NULL;
	pf->f_next = NULL;
	pf->fast_i = pf->fast_n = 0;
	while (pf->i_ev < b->n_event) {
		const ProtobufCBinaryData *d;
		Pftrace__FtraceEvent *e;
		size_t i = pf->i_ev;
		u32 n = 0;
		int ret;

		/* event i_ev and those after it that read fast, up to a batch */
		for (; n < PF_FAST_BATCH && i < b->n_event; n++, i++) {
			d = &b->event[i];
			if (!fast_event(&pf->fast[n], d->data, d->len, lim))
				break;
			pf->fast[n].lim = lim ? lim : d->data + d->len;
		}
		if (n) {
			pf->fast_i = 1;
			pf->fast_n = n;
			pf->f_next = &pf->fast[0];
			pf->e_next = &pf->fast[0].e;
			return 0;
		}
		d = &b->event[pf->i_ev];
		e = pftrace__ftrace_event__unpack(&pf->alloc, d->len, d->data);
		if (e) {
			pf->e_next = e;
			return 0;
		}
		pf->i_ev++;
		ret = reader_malformed(r, r->lineno, err,
				       "packet at byte %llu: event %zu of the ftrace bundle is not "
				       "a valid FtraceEvent",
				       (unsigned long long)pf->pkt_off, pf->i_ev);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* An event's bytes [s, s + n) appended to the bundle b walked in place; false and *ret
 * GS_ENOMEM when its array cannot grow. */
static inline bool add_event(struct pf_state *pf, Pftrace__FtraceEventBundleLazy *b,
			     const unsigned char *s, size_t n, int *ret)
{
	if (b->n_event == pf->slices_cap) {
		size_t cap = pf->slices_cap ? pf->slices_cap * 2 : 1024;
		ProtobufCBinaryData *sl = realloc(pf->slices, cap * sizeof(*sl));
		if (!sl) {
			*ret = GS_ENOMEM;
			return false;
		}
		pf->slices = b->event = sl;
		pf->slices_cap = cap;
	}
	b->event[b->n_event].data = (uint8_t *)s;
	b->event[b->n_event++].len = n;
	return true;
}

/* The run of events (field 2, length-delimited, tag 0x12) at w->p, most of a bundle: appended as
 * add_event() does, with the array and its count in locals (add_event() stores the count and
 * loads it back for each event), w->p moved past them. An event cut short ends the run and is
 * left to wire_next(). false and *ret GS_ENOMEM when the array cannot grow. */
static inline bool take_events(struct pf_state *pf, Pftrace__FtraceEventBundleLazy *b,
			       struct pf_wire *w, int *ret)
{
	const unsigned char *p = w->p, *end = w->end;
	size_t n = b->n_event;

	while (p < end && *p == ((2 << 3) | 2)) {
		u64 v;
		size_t k = pf_varint(p + 1, end, &v);

		if (!k || v > (u64)(end - p - 1) - k)
			break;
		if (n == pf->slices_cap) {
			b->n_event = n;
			if (!add_event(pf, b, p + 1 + k, (size_t)v, ret))
				return false;
			n = b->n_event;
		} else {
			b->event[n].data = (uint8_t *)(p + 1 + k);
			b->event[n++].len = (size_t)v;
		}
		p += 1 + k + v;
	}
	b->n_event = n;
	w->p = p;
	return true;
}

/* The fields of a bundle walked in place into pf->view (the events point into the packet's
 * bytes). false when protobuf-c should decide: a declared field with another wire type, the
 * compact_sched twice or not valid, a group, bytes cut short; 0 or GS_ENOMEM in *ret. */
static bool walk_bundle(struct pf_state *pf, const ProtobufCBinaryData *d, int *ret)
{
	Pftrace__FtraceEventBundleLazy *b = &pf->view;
	struct pf_wire w = wire_of(d);
	const unsigned char *s = NULL;
	bool bad = false;
	u32 num, wt;
	u64 v;
	size_t n = 0;

	*ret = 0;
	pftrace__ftrace_event_bundle_lazy__init(b);
	b->event = pf->slices;
	for (;;) {
		bool want_bytes;
		/* the events, taken without wire_next()'s general steps */
		if (!take_events(pf, b, &w, ret))
			return false;
		if (!wire_next(&w, &num, &wt, &v, &s, &n, &bad))
			break;
		want_bytes = num == 2 || num == 4;
		if (num > 5 && num != 10)
			continue; /* not declared: skipped, as protobuf-c does */
		if (wt != (want_bytes ? 2u : 0u))
			return false;
		switch (num) {
		case 1: b->has_cpu = true; b->cpu = (u32)v; break;
		case 3: b->has_lost_events = true; b->lost_events = v != 0; break;
		case 5: b->has_ftrace_clock = true; b->ftrace_clock = (s32)(u32)v; break;
		case 10:
			b->has_previous_bundle_end_timestamp = true;
			b->previous_bundle_end_timestamp = v;
			break;
		case 4:
			if (b->compact_sched)
				return false;
			b->compact_sched = (Pftrace__FtraceEventBundle__CompactSched *)
				protobuf_c_message_unpack(
					&pftrace__ftrace_event_bundle__compact_sched__descriptor,
					&pf->alloc, n, s);
			if (!b->compact_sched)
				return false;
			break;
		case 2:
			if (!add_event(pf, b, s, n, ret))
				return false;
			break;
		default:
			break;
		}
	}
	return !bad;
}

int pf_bundle_view(struct trace_reader *r, const ProtobufCBinaryData *d,
		   const Pftrace__FtraceEventBundleLazy **b, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	int ret;

	*b = NULL;
	if (walk_bundle(pf, d, &ret)) {
		*b = &pf->view;
		pf->view_end = d->data ? d->data + d->len : NULL; /* NULL: no event in it */
		return 0;
	}
	if (ret < 0)
		return gs_error_set(err, ret, "out of memory");
	*b = pftrace__ftrace_event_bundle_lazy__unpack(&pf->alloc, d->len, d->data);
	if (*b)
		return 0;
	return reader_malformed(r, r->lineno, err, "packet at byte %llu: not a valid TracePacket",
				(unsigned long long)pf->pkt_off);
}
