/*
 * text.c - kernel ftrace text and trace-cmd report text, one line at a time; and the
 * payload-to-event conversion that trace.dat records share (they are rendered as key=value text).
 *
 * Line layout (facts/kernel-v5.9.md §7.3; v5.9 kernel/trace/trace_output.c
 * trace_print_context(), trace-cmd trace-read.c trace_show_data()):
 *
 *     <comm>-<pid> [(<tgid>|-----)] [<cpu>] [<irq flags>|<latency>] <sec>.<frac>: <event>: <payload>
 *
 * The comm may hold spaces and dashes ("rs:main Q:Reg", "<-transport", "<...>"): the pid is the
 * digits after the LAST '-' before the TGID/[cpu] column. The flags column is any one token that
 * is not a timestamp. Timestamps have 6 (us) or 9 (ns) decimals. trace-cmd report -l prints the
 * latency layout instead, "<comm, 8 chars>-<pid> <cpu><flags> <ts>:", CPU without brackets.
 *
 * Payload fields are looked up by name, in any order; a value runs to the next " name=" (comms
 * hold spaces), and the " ==>" of sched_switch is dropped. The common events, printed in the
 * kernel's order, take a fast path that reads the fields in that order (see "fast path" below).
 * trace-cmd report without -N prints sched_switch and sched_wakeup(_new) through libtraceevent's
 * plugin ("comm:pid [prio] S ==> comm:pid [prio]"): see "trace-cmd report with plugins".
 *
 * prev_state normalisation to v5.9 TASK_REPORT bits (include/trace/events/sched.h v5.9):
 * - numbers (old trace-cmd, -R): n & 0xff when non-zero (sleeping), 0 for 0 (R), otherwise
 *   (256, 1024, 2048, 4096: TASK_STATE_MAX = "preempted" on older kernels) TASK_REPORT_MAX (R+);
 * - letters: S=1 D=2 T=4 t=8 X=0x10 Z=0x20 P=0x40 I=0x80, '|'-joined, R = 0, '+' adds 0x100.
 *   Letters v5.9 does not print (x, K, W, N, ... of older kernels: dead, wakekill, waking,
 *   noload) become TASK_STATE_D (a sleep the task does not choose) when no v5.9 letter is
 *   present, and are ignored next to one ("D|W" = D, "R|W"... = R). Anything else is malformed.
 */
#include "trace/reader_priv.h"

#include <stdio.h>
#include <string.h>

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

/* The per-character helpers of the hot path: always inlined, so that strlen() and memcmp() of
 * literal keys fold into compares. */
#define TEXT_INLINE static inline __attribute__((always_inline))

TEXT_INLINE bool is_ident(char c)
{
	return ident_tab[(unsigned char)c];
}

TEXT_INLINE bool is_digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

/*
 * Word-at-a-time scanning for the columns of a line (the leading spaces, the event name): 8
 * bytes per step. zero_bytes() sets the high bit of each zero byte of x; only bytes above the
 * first zero one can be set falsely (by the borrow), so the lowest set bit, which is the one
 * used, is exact. Little-endian hosts only; others take the byte loops.
 */
#define BYTES_ONES 0x0101010101010101ull
#define BYTES_HIGH 0x8080808080808080ull

TEXT_INLINE u64 load8(const char *p)
{
	u64 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

TEXT_INLINE u64 zero_bytes(u64 x)
{
	return (x - BYTES_ONES) & ~x & BYTES_HIGH;
}

/* The first byte at or after p that is not a space. */
TEXT_INLINE const char *skip_spaces(const char *p, const char *end)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		u64 x = load8(p) ^ (BYTES_ONES * ' ');
		if (x)
			return p + (__builtin_ctzll(x) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* The first ':' or ' ' at or after p (the end of an event name). */
TEXT_INLINE const char *name_end(const char *p, const char *end)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		u64 v = load8(p);
		u64 m = zero_bytes(v ^ (BYTES_ONES * ':')) | zero_bytes(v ^ (BYTES_ONES * ' '));
		if (m)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p != ':' && *p != ' ')
		p++;
	return p;
}

/* ---- numbers ------------------------------------------------------------------------------- */

/* Decimal (leading zeros are decimal: target_cpu=006) or 0x-hex; the whole span must be used. */
static bool span_u64(const char *s, size_t n, u64 *out)
{
	u64 v = 0;
	size_t i = 0;

	if (n == 0)
		return false;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < n; i++) {
			char c = s[i];
			unsigned d;
			if (is_digit(c))
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				return false;
			if (v >> 60)
				return false;
			v = v << 4 | d;
		}
		*out = v;
		return true;
	}
	for (; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (d > 9)
			return false;
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool span_s64(const char *s, size_t n, s64 *out)
{
	u64 v;
	if (n > 0 && s[0] == '-') {
		if (!span_u64(s + 1, n - 1, &v) || v > (u64)INT64_MAX + 1)
			return false;
		*out = (s64)(0 - v);
		return true;
	}
	if (!span_u64(s, n, &v) || v > (u64)INT64_MAX)
		return false;
	*out = (s64)v;
	return true;
}

/* ---- prev_state ---------------------------------------------------------------------------- */

u32 prev_state_from_number(u64 n)
{
	if (n & 0xffu)
		return (u32)(n & 0xffu);
	if (n == 0)
		return 0;
	return TASK_REPORT_MAX;
}

s64 prev_state_parse(const char *s, size_t len)
{
	u32 bits = 0;
	bool known = false, unknown = false, plus = false;

	if (len == 0)
		return -1;
	if (is_digit(s[0])) {
		u64 n;
		if (!span_u64(s, len, &n))
			return -1;
		return prev_state_from_number(n);
	}
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (plus)
			return -1; /* '+' only at the end */
		switch (c) {
		case 'S': bits |= 0x01; known = true; break;
		case 'D': bits |= 0x02; known = true; break;
		case 'T': bits |= 0x04; known = true; break;
		case 't': bits |= 0x08; known = true; break;
		case 'X': bits |= 0x10; known = true; break;
		case 'Z': bits |= 0x20; known = true; break;
		case 'P': bits |= 0x40; known = true; break;
		case 'I': bits |= 0x80; known = true; break;
		case 'R': known = true; break;
		case '|': break;
		case '+': plus = true; break;
		default:
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
				unknown = true;
			else
				return -1;
		}
	}
	if (!known && !unknown)
		return -1;
	if (!known)
		bits = TASK_STATE_D;
	if (plus)
		bits |= TASK_REPORT_MAX;
	return bits;
}

/* ---- payload fields ------------------------------------------------------------------------ */

void fieldset_split(struct fieldset *fs, const char *p, const char *end)
{
	fs->n = 0;
	while (p < end && fs->n < FIELDSET_MAX) {
		const char *k, *v, *q, *vend, *next;

		while (p < end && *p == ' ')
			p++;
		k = p;
		while (p < end && is_ident(*p))
			p++;
		if (p == k || p >= end || *p != '=') {
			/* not a key: skip the token */
			while (p < end && *p != ' ')
				p++;
			continue;
		}
		v = ++p;
		q = v;
		vend = end;
		next = end;
		for (;;) {
			const char *sp = memchr(q, ' ', (size_t)(end - q));
			const char *t, *u;
			if (!sp)
				break;
			t = sp;
			while (t < end && *t == ' ')
				t++;
			u = t;
			while (u < end && is_ident(*u))
				u++;
			if (u > t && u < end && *u == '=') {
				vend = sp;
				next = t;
				break;
			}
			if (t >= end)
				break;
			q = t;
		}
		while (vend > v && vend[-1] == ' ')
			vend--;
		if (vend - v >= 3 && memcmp(vend - 3, "==>", 3) == 0) {
			vend -= 3;
			while (vend > v && vend[-1] == ' ')
				vend--;
		}
		fs->f[fs->n].key = k;
		fs->f[fs->n].klen = (u32)(v - 1 - k);
		fs->f[fs->n].val = v;
		fs->f[fs->n].vlen = (u32)(vend - v);
		fs->n++;
		p = next;
	}
}

/* Conversion context: the first problem found is kept in `why`. */
struct conv {
	const struct fieldset *fs;
	int hint;
	const char *event;
	const char *why;
	char *buf;
	size_t bufsz;
};

static const struct field_span *conv_get(struct conv *c, const char *name)
{
	size_t nlen = strlen(name);
	int n = c->fs->n;

	for (int j = 0; j < n; j++) {
		int i = (c->hint + j) % n;
		const struct field_span *f = &c->fs->f[i];
		if (f->klen == nlen && memcmp(f->key, name, nlen) == 0) {
			c->hint = i + 1;
			return f;
		}
	}
	return NULL;
}

static bool conv_missing(struct conv *c, const char *name)
{
	snprintf(c->buf, c->bufsz, "%s without %s", c->event, name);
	c->why = c->buf;
	return false;
}

static bool conv_bad(struct conv *c, const struct field_span *f)
{
	snprintf(c->buf, c->bufsz, "%s: bad %.*s value '%.*s'", c->event, (int)f->klen, f->key,
		 (int)(f->vlen > 40 ? 40 : f->vlen), f->val);
	c->why = c->buf;
	return false;
}

static bool get_s64(struct conv *c, const char *name, s64 *out, bool required, bool *present)
{
	const struct field_span *f = conv_get(c, name);
	if (present)
		*present = f != NULL;
	if (!f)
		return required ? conv_missing(c, name) : true;
	if (!span_s64(f->val, f->vlen, out))
		return conv_bad(c, f);
	return true;
}

static bool need_s32(struct conv *c, const char *name, s32 *out)
{
	s64 v = 0;
	if (!get_s64(c, name, &v, true, NULL))
		return false;
	if (v < INT32_MIN || v > INT32_MAX)
		return conv_bad(c, conv_get(c, name));
	*out = (s32)v;
	return true;
}

static bool opt_s32(struct conv *c, const char *name, s32 *out)
{
	s64 v = 0;
	bool present;
	if (!get_s64(c, name, &v, false, &present))
		return false;
	if (!present)
		return true;
	if (v < INT32_MIN || v > INT32_MAX)
		return conv_bad(c, conv_get(c, name));
	*out = (s32)v;
	return true;
}

static bool need_u32(struct conv *c, const char *name, u32 *out)
{
	const struct field_span *f = conv_get(c, name);
	u64 v;
	if (!f)
		return conv_missing(c, name);
	if (!span_u64(f->val, f->vlen, &v) || v > UINT32_MAX)
		return conv_bad(c, f);
	*out = (u32)v;
	return true;
}

/* An optional unsigned field: EV_NO_VALUE when absent (out is preset). A second name is an
 * alias of another kernel's variant (load_avg / load). */
static bool opt_u64(struct conv *c, const char *name, const char *alias, u64 *out, bool required)
{
	const struct field_span *f = conv_get(c, name);
	if (!f && alias)
		f = conv_get(c, alias);
	if (!f)
		return required ? conv_missing(c, name) : true;
	if (!span_u64(f->val, f->vlen, out))
		return conv_bad(c, f);
	return true;
}

/* Comms are NUL-padded to TASK_COMM_LEN, so that equal events are equal bytes. */
static void copy_comm(char *dst, const struct field_span *f)
{
	size_t n = f ? f->vlen : 0;
	if (n > TASK_COMM_LEN - 1)
		n = TASK_COMM_LEN - 1;
	memset(dst, 0, TASK_COMM_LEN);
	if (n)
		memcpy(dst, f->val, n);
}

static bool need_comm(struct conv *c, const char *name, char *dst)
{
	const struct field_span *f = conv_get(c, name);
	if (!f)
		return conv_missing(c, name);
	copy_comm(dst, f);
	return true;
}

static void opt_comm(struct conv *c, const char *name, char *dst)
{
	copy_comm(dst, conv_get(c, name));
}

/* path=/ is the root cfs_rq, (null) or empty no group, anything else a task group. */
static enum event_path get_path(struct conv *c)
{
	const struct field_span *f = conv_get(c, "path");
	if (!f || f->vlen == 0 || (f->vlen == 6 && memcmp(f->val, "(null)", 6) == 0))
		return EV_PATH_NONE;
	if (f->vlen == 1 && f->val[0] == '/')
		return EV_PATH_ROOT;
	return EV_PATH_GROUP;
}

static bool conv_switch(struct conv *c, struct event *ev)
{
	const struct field_span *f;
	s64 st;

	if (!need_comm(c, "prev_comm", ev->sw.prev_comm) || !need_s32(c, "prev_pid", &ev->sw.prev_pid) ||
	    !need_s32(c, "prev_prio", &ev->sw.prev_prio))
		return false;
	f = conv_get(c, "prev_state");
	if (!f)
		return conv_missing(c, "prev_state");
	st = prev_state_parse(f->val, f->vlen);
	if (st < 0)
		return conv_bad(c, f);
	ev->sw.prev_state = (u32)st;
	return need_comm(c, "next_comm", ev->sw.next_comm) &&
	       need_s32(c, "next_pid", &ev->sw.next_pid) && need_s32(c, "next_prio", &ev->sw.next_prio);
}

static bool conv_util(struct conv *c, int type, struct event *ev)
{
	bool cpu_required = false, ok = true;

	ev->util.cpu = -1;
	ev->util.pid = -1;
	ev->util.comm[0] = '\0';
	ev->util.load = ev->util.runnable = ev->util.util = ev->util.update_time = EV_NO_VALUE;
	ev->util.util_est_enqueued = ev->util.util_est_ewma = EV_NO_VALUE;
	ev->util.util_rt = ev->util.util_dl = EV_NO_VALUE;
	ev->util.uclamp_min = ev->util.uclamp_max = EV_NO_VALUE;
	ev->util.freq_khz = EV_NO_VALUE;
	ev->util.idle_state = -1;
	ev->util.path = get_path(c);

	switch (type) {
	case EV_PELT_CFS:
	case EV_PELT_RT:
	case EV_PELT_DL:
	case EV_PELT_IRQ:
	case EV_UTIL_EST_CFS:
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_AVG_CPU:
	case EV_UCLAMP_UTIL_CFS:
		cpu_required = true;
		break;
	default:
		break;
	}
	if (cpu_required)
		ok = need_s32(c, "cpu", &ev->util.cpu);
	else
		ok = opt_s32(c, "cpu", &ev->util.cpu);
	if (!ok)
		return false;
	ok = opt_s32(c, "pid", &ev->util.pid);
	if (!ok)
		return false;
	opt_comm(c, "comm", ev->util.comm);

	switch (type) {
	case EV_PELT_CFS:
	case EV_PELT_RT:
	case EV_PELT_DL:
	case EV_PELT_IRQ:
	case EV_PELT_SE:
		return opt_u64(c, "load", NULL, &ev->util.load, false) &&
		       opt_u64(c, "runnable", "rbl_load", &ev->util.runnable, false) &&
		       opt_u64(c, "util", NULL, &ev->util.util, true) &&
		       opt_u64(c, "update_time", NULL, &ev->util.update_time, false);
	case EV_UTIL_EST_CFS:
	case EV_UTIL_EST_SE:
		return opt_u64(c, "enqueued", NULL, &ev->util.util_est_enqueued, true) &&
		       opt_u64(c, "ewma", NULL, &ev->util.util_est_ewma, true) &&
		       opt_u64(c, "util", NULL, &ev->util.util, false);
	case EV_LOAD_CFS_RQ:
	case EV_LOAD_SE:
		return opt_u64(c, "load", NULL, &ev->util.load, false) &&
		       opt_u64(c, "rbl_load", "runnable", &ev->util.runnable, false) &&
		       opt_u64(c, "util", NULL, &ev->util.util, true);
	case EV_LOAD_AVG_CPU:
	case EV_LOAD_AVG_TASK:
		/* two variants: load_avg= util_avg= and load= utilization= */
		return opt_u64(c, "load_avg", "load", &ev->util.load, false) &&
		       opt_u64(c, "util_avg", "utilization", &ev->util.util, true);
	case EV_UCLAMP_UTIL_SE:
	case EV_UCLAMP_UTIL_CFS:
		return opt_u64(c, "util_avg", NULL, &ev->util.util, true) &&
		       opt_u64(c, "uclamp_min", NULL, &ev->util.uclamp_min, true) &&
		       opt_u64(c, "uclamp_max", NULL, &ev->util.uclamp_max, true);
	default:
		return true;
	}
}

const char *event_from_fields(int type, const struct fieldset *fs, struct event *ev, char *why,
			      size_t why_size)
{
	struct conv c = {fs, 0, event_type_name(type), NULL, why, why_size};
	bool ok;

	ev->type = (enum event_type)type;
	switch (type) {
	case EV_SWITCH:
		ok = conv_switch(&c, ev);
		break;
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		ev->wake.prio = -1;
		ev->wake.target_cpu = -1;
		ok = need_comm(&c, "comm", ev->wake.comm) && need_s32(&c, "pid", &ev->wake.pid) &&
		     opt_s32(&c, "prio", &ev->wake.prio) &&
		     opt_s32(&c, "target_cpu", &ev->wake.target_cpu);
		if (ok && type != EV_WAKING && ev->wake.target_cpu < 0)
			ok = conv_missing(&c, "target_cpu");
		break;
	case EV_MIGRATE:
		ev->migrate.prio = -1;
		ok = need_comm(&c, "comm", ev->migrate.comm) && need_s32(&c, "pid", &ev->migrate.pid) &&
		     opt_s32(&c, "prio", &ev->migrate.prio) &&
		     need_s32(&c, "orig_cpu", &ev->migrate.orig_cpu) &&
		     need_s32(&c, "dest_cpu", &ev->migrate.dest_cpu);
		break;
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
	case EV_FREQ_MARKER:
		ok = need_u32(&c, "state", &ev->power.state) &&
		     need_u32(&c, "cpu_id", &ev->power.cpu_id);
		/* CPU numbers are ints everywhere after the reader */
		if (ok && ev->power.cpu_id > INT32_MAX)
			ok = conv_bad(&c, conv_get(&c, "cpu_id"));
		break;
	default:
		ok = conv_util(&c, type, ev);
		break;
	}
	if (ok)
		return NULL;
	return c.why ? c.why : "bad fields";
}

/* ---- fast path: payloads in the order the kernel prints them ------------------------------- */

/*
 * The generic path above splits a payload into every key=value pair and then looks each field
 * up by name. Nearly every line of a real trace is a sched_switch, sched_wakeup or cpu_idle
 * printed by the kernel's own format, fields in a fixed order; these are parsed here in that
 * order, with no table and no copy but the comms. The fast path accepts only lines on which the
 * generic path must give the same event: each value is one token (no spaces, no trailing "==>"),
 * each key is the one expected next, nothing follows the last value. Anything else (a comm with
 * spaces, a field added by another kernel, a hex number, a bad value) returns NULL, and the
 * caller parses the line again through the generic path, which also words the errors.
 *
 * A fast parser returns the end of the last value, which the caller compares with the line's
 * end. A '\n' ends every token as the end of the line does: a line split from the input holds
 * none, and text_parse_hot_line() parses a line before its end is known, up to its '\n'.
 */

TEXT_INLINE u32 load4(const char *p)
{
	u32 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* a[0..n) == b[0..n) for n <= 16, in at most two overlapping word compares: with n a constant
 * and b a literal this is a few instructions (GCC calls memcmp() for some lengths). */
TEXT_INLINE bool short_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8)
		return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
	if (n >= 4)
		return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* "key=" at *pp. key is a literal (at most 16 letters), so this folds into a few compares. */
TEXT_INLINE bool fp_key(const char **pp, const char *end, const char *key)
{
	const char *p = *pp;
	size_t klen = strlen(key);

	if ((size_t)(end - p) <= klen || !short_eq(p, key, klen) || p[klen] != '=')
		return false;
	*pp = p + klen + 1;
	return true;
}

/* One or more spaces between two fields. */
TEXT_INLINE bool fp_sep(const char **pp, const char *end)
{
	const char *p = *pp;

	if (p >= end || *p != ' ')
		return false;
	do
		p++;
	while (p < end && *p == ' ');
	*pp = p;
	return true;
}

/* A token: up to the next space, '\n' or the end. */
TEXT_INLINE const char *fp_token(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\n')
		p++;
	return p;
}

/* A decimal s32 token ("-1", "003"). 0x-hex, '+' and out-of-range values are left to the
 * generic path. */
TEXT_INLINE bool fp_s32(const char **pp, const char *end, s32 *out)
{
	const char *p = *pp, *s;
	bool neg = false;
	u64 v = 0;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	s = p;
	while (p < end && is_digit(*p) && p - s < 11)
		v = v * 10 + (u64)(*p++ - '0');
	if (p == s || (p < end && *p != ' ' && *p != '\n'))
		return false;
	if (v > (neg ? (u64)INT32_MAX + 1 : (u64)INT32_MAX))
		return false;
	*out = neg ? (s32)(0 - (s64)v) : (s32)v;
	*pp = p;
	return true;
}

TEXT_INLINE bool fp_u32(const char **pp, const char *end, u32 *out)
{
	const char *p = *pp, *s = p;
	u64 v = 0;

	while (p < end && is_digit(*p) && p - s < 11)
		v = v * 10 + (u64)(*p++ - '0');
	if (p == s || (p < end && *p != ' ' && *p != '\n') || v > UINT32_MAX)
		return false;
	*out = (u32)v;
	*pp = p;
	return true;
}

/* A comm token, truncated to TASK_COMM_LEN - 1 like copy_comm(). */
TEXT_INLINE bool fp_comm(const char **pp, const char *end, char *dst)
{
	const char *v = *pp, *p = fp_token(v, end);
	size_t n = (size_t)(p - v);

	if (n >= 3 && p[-1] == '>' && p[-2] == '=' && p[-3] == '=')
		return false; /* the generic path strips it */
	if (n > TASK_COMM_LEN - 1)
		n = TASK_COMM_LEN - 1;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - v >= 16) {
		/* two words, the bytes past the comm masked off: no call for a variable length */
		u64 w0 = load8(v), w1 = load8(v + 8);
		if (n < 8) {
			w0 &= (1ull << (8 * n)) - 1;
			w1 = 0;
		} else {
			w1 &= (1ull << (8 * (n - 8))) - 1;
		}
		memcpy(dst, &w0, 8);
		memcpy(dst + 8, &w1, 8);
		*pp = p;
		return true;
	}
#endif
	memset(dst, 0, TASK_COMM_LEN);
	memcpy(dst, v, n);
	*pp = p;
	return true;
}

/* v5.9 sched_switch: "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s
 * next_pid=%d next_prio=%d" (the " ==>" may be absent, as in older trace-cmd). */
static const char *fast_switch(const char *p, const char *end, struct event *ev)
{
	const char *v;
	s64 st;

	if (!fp_key(&p, end, "prev_comm") || !fp_comm(&p, end, ev->sw.prev_comm) ||
	    !fp_sep(&p, end) || !fp_key(&p, end, "prev_pid") || !fp_s32(&p, end, &ev->sw.prev_pid) ||
	    !fp_sep(&p, end) || !fp_key(&p, end, "prev_prio") ||
	    !fp_s32(&p, end, &ev->sw.prev_prio) || !fp_sep(&p, end) ||
	    !fp_key(&p, end, "prev_state"))
		return NULL;
	v = p;
	p = fp_token(p, end);
	if (p - v == 1 && (*v == 'S' || *v == 'R'))
		st = *v == 'S' ? TASK_STATE_S : 0; /* the usual two, without the general parser */
	else
		st = prev_state_parse(v, (size_t)(p - v));
	if (st < 0 || !fp_sep(&p, end))
		return NULL;
	ev->sw.prev_state = (u32)st;
	if (end - p > 4 && short_eq(p, "==> ", 4)) {
		p += 3;
		fp_sep(&p, end);
	}
	if (fp_key(&p, end, "next_comm") && fp_comm(&p, end, ev->sw.next_comm) &&
	    fp_sep(&p, end) && fp_key(&p, end, "next_pid") &&
	    fp_s32(&p, end, &ev->sw.next_pid) && fp_sep(&p, end) &&
	    fp_key(&p, end, "next_prio") && fp_s32(&p, end, &ev->sw.next_prio))
		return p;
	return NULL;
}

/* v5.9 sched_wakeup, sched_wakeup_new, sched_waking: "comm=%s pid=%d prio=%d target_cpu=%03d". */
static const char *fast_wake(const char *p, const char *end, struct event *ev)
{
	if (fp_key(&p, end, "comm") && fp_comm(&p, end, ev->wake.comm) && fp_sep(&p, end) &&
	       fp_key(&p, end, "pid") && fp_s32(&p, end, &ev->wake.pid) && fp_sep(&p, end) &&
	       fp_key(&p, end, "prio") && fp_s32(&p, end, &ev->wake.prio) && fp_sep(&p, end) &&
	       fp_key(&p, end, "target_cpu") && fp_s32(&p, end, &ev->wake.target_cpu) &&
	    ev->wake.target_cpu >= 0)
		return p;
	return NULL;
}

/* v5.9 sched_migrate_task: "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d". */
static const char *fast_migrate(const char *p, const char *end, struct event *ev)
{
	if (fp_key(&p, end, "comm") && fp_comm(&p, end, ev->migrate.comm) && fp_sep(&p, end) &&
	       fp_key(&p, end, "pid") && fp_s32(&p, end, &ev->migrate.pid) && fp_sep(&p, end) &&
	       fp_key(&p, end, "prio") && fp_s32(&p, end, &ev->migrate.prio) && fp_sep(&p, end) &&
	       fp_key(&p, end, "orig_cpu") && fp_s32(&p, end, &ev->migrate.orig_cpu) &&
	       fp_sep(&p, end) && fp_key(&p, end, "dest_cpu") &&
	    fp_s32(&p, end, &ev->migrate.dest_cpu))
		return p;
	return NULL;
}

/* cpu_idle, cpu_frequency: "state=%lu cpu_id=%lu". */
static const char *fast_power(const char *p, const char *end, struct event *ev)
{
	if (fp_key(&p, end, "state") && fp_u32(&p, end, &ev->power.state) && fp_sep(&p, end) &&
	    fp_key(&p, end, "cpu_id") && fp_u32(&p, end, &ev->power.cpu_id) &&
	    ev->power.cpu_id <= INT32_MAX)
		return p;
	return NULL;
}

/* The fast path of event `type`: the end of its last value, or NULL when it has none or the
 * line is not in its order. A switch rather than a table of pointers: the direct calls inline
 * (1-2 % of the reader's time). */
static inline const char *fast_parse(int type, const char *p, const char *end, struct event *ev)
{
	switch (type) {
	case EV_SWITCH:
		return fast_switch(p, end, ev);
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		return fast_wake(p, end, ev);
	case EV_MIGRATE:
		return fast_migrate(p, end, ev);
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
		return fast_power(p, end, ev);
	default:
		return NULL;
	}
}

/* ---- trace-cmd report with plugins (no -N) ------------------------------------------------- */

/*
 * Without -N, trace-cmd report formats three events through libtraceevent's sched_switch plugin
 * instead of the kernel's print format (plugins/plugin_sched_switch.c of libtraceevent 1.7):
 *
 *     sched_switch:  <prev_comm>:<prev_pid> [<prev_prio>] <state> ==> <next_comm>:<next_pid> [<next_prio>]
 *     sched_wakeup:  <comm>:<pid> [<prio>] success=1 CPU:<target_cpu, %03d>
 *     sched_wakeup_new: the same; older versions print no "success=1"
 *
 * A comm may hold ':' and spaces ("kworker/u12:1", "rs:main Q:Reg"), so each task is read from
 * its right end: "[prio]", then the pid after the last ':' before it. <state> is the plugin's
 * own letters for the low 8 bits of the raw prev_state, "SDTtZXxW" for bits 0..7, joined by
 * '|', "R" when none is set (newer versions print "SDTtXZPI"; P and I are accepted too). The
 * bits are then those of a numeric prev_state (prev_state_from_number()); a trailing '+' is the
 * preempted mark, as in the kernel's letters.
 */
static s64 plugin_state_parse(const char *s, size_t len)
{
	static const char letters[] = "SDTtZXxW";
	u64 n = 0;
	bool plus = false;

	if (len > 0 && s[len - 1] == '+') {
		plus = true;
		len--;
	}
	if (len == 1 && s[0] == 'R')
		return plus ? TASK_REPORT_MAX : 0;
	for (size_t i = 0;; i += 2) {
		const char *l = NULL;
		if (i >= len)
			return -1;
		if (s[i] != '\0')
			l = memchr(letters, s[i], sizeof(letters) - 1);
		if (l)
			n |= 1ull << (l - letters);
		else if (s[i] == 'P')
			n |= 0x40;
		else if (s[i] == 'I')
			n |= 0x80;
		else
			return -1;
		if (i + 1 == len)
			break;
		if (s[i + 1] != '|')
			return -1;
	}
	return prev_state_from_number(n) | (plus ? TASK_REPORT_MAX : 0);
}

/* A decimal span [s, e) as s32; false unless the whole span is one. */
static bool span_s32(const char *s, const char *e, s32 *out)
{
	s64 v;

	if (!span_s64(s, (size_t)(e - s), &v) || v < INT32_MIN || v > INT32_MAX)
		return false;
	*out = (s32)v;
	return true;
}

/* "<comm>:<pid>" or "<comm>:<pid> [<prio>]" filling exactly [s, e); *prio stays when absent. */
static bool plugin_task(const char *s, const char *e, char *comm, s32 *pid, s32 *prio,
			bool prio_required)
{
	const char *c, *d = e;
	struct field_span f;

	if (e > s && e[-1] == ']') {
		const char *o = e - 1;
		while (o > s && *o != '[')
			o--;
		if (*o != '[' || o == s || o[-1] != ' ' || !span_s32(o + 1, e - 1, prio))
			return false;
		d = o - 1;
		while (d > s && d[-1] == ' ')
			d--;
	} else if (prio_required) {
		return false;
	}
	c = d;
	while (c > s && is_digit(c[-1]))
		c--;
	if (c == d || c == s || c[-1] != ':' || !span_s32(c, d, pid))
		return false;
	f.val = s;
	f.vlen = (u32)(c - 1 - s);
	copy_comm(comm, &f);
	return true;
}

static bool plugin_switch(const char *p, const char *end, struct event *ev, const char **why)
{
	const char *arrow = NULL, *st, *q;
	s64 state;

	for (q = p; end - q >= 4; q++) {
		q = memchr(q, '=', (size_t)(end - q));
		if (!q)
			break;
		if (q > p && q[-1] == ' ' && end - q >= 4 && memcmp(q, "==> ", 4) == 0) {
			arrow = q - 1;
			break;
		}
	}
	if (!arrow) {
		*why = ": no ' ==> ' between the tasks";
		return false;
	}
	/* "<prev> [<prio>] <state>" */
	st = arrow;
	while (st > p && st[-1] != ' ')
		st--;
	state = plugin_state_parse(st, (size_t)(arrow - st));
	if (st == p || state < 0) {
		*why = ": bad task state before ' ==> '";
		return false;
	}
	q = st;
	while (q > p && q[-1] == ' ')
		q--;
	if (!plugin_task(p, q, ev->sw.prev_comm, &ev->sw.prev_pid, &ev->sw.prev_prio, true)) {
		*why = ": bad 'comm:pid [prio]' before ' ==> '";
		return false;
	}
	ev->sw.prev_state = (u32)state;
	q = arrow + 4;
	while (q < end && *q == ' ')
		q++;
	if (!plugin_task(q, end, ev->sw.next_comm, &ev->sw.next_pid, &ev->sw.next_prio, true)) {
		*why = ": bad 'comm:pid [prio]' after ' ==> '";
		return false;
	}
	return true;
}

/* The last space-separated token of [s, *e) when it starts with `tag`: its value after the tag;
 * *e moves before the token. NULL (and *e unchanged) otherwise. */
static const char *plugin_tail(const char *s, const char **e, const char *tag)
{
	const char *t = *e;
	size_t tl = strlen(tag);

	while (t > s && t[-1] != ' ')
		t--;
	if ((size_t)(*e - t) <= tl || memcmp(t, tag, tl) != 0 || t == s)
		return NULL;
	*e = t;
	while (*e > s && (*e)[-1] == ' ')
		(*e)--;
	return t + tl;
}

static bool plugin_wakeup(const char *p, const char *end, struct event *ev, const char **why)
{
	const char *e = end, *cpu;

	ev->wake.prio = -1;
	cpu = plugin_tail(p, &e, "CPU:");
	if (!cpu) {
		*why = " without 'CPU:'";
		return false;
	}
	if (!span_s32(cpu, end, &ev->wake.target_cpu) || ev->wake.target_cpu < 0) {
		*why = ": bad 'CPU:' value";
		return false;
	}
	plugin_tail(p, &e, "success="); /* not kept, as in the key=value layout */
	if (!plugin_task(p, e, ev->wake.comm, &ev->wake.pid, &ev->wake.prio, false)) {
		*why = ": bad 'comm:pid [prio]'";
		return false;
	}
	return true;
}

/* The plugin layout of sched_switch / sched_wakeup / sched_wakeup_new: NULL when ev is filled,
 * else why not, in `why`. */
static const char *plugin_payload(int type, const char *p, const char *end, struct event *ev,
				  char *why, size_t why_size)
{
	const char *w = NULL;
	bool ok;

	ev->type = (enum event_type)type;
	if (type == EV_SWITCH)
		ok = plugin_switch(p, end, ev, &w);
	else
		ok = plugin_wakeup(p, end, ev, &w);
	if (ok)
		return NULL;
	snprintf(why, why_size, "%s%s", event_type_name(type), w);
	return why;
}

static bool has_plugin_layout(int type)
{
	return type == EV_SWITCH || type == EV_WAKEUP || type == EV_WAKEUP_NEW;
}

/* The payload starts with "ident=": the kernel's key=value print format. */
static bool starts_key_value(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_ident(*q))
		q++;
	return q > p && q < end && *q == '=';
}

/* ---- event names --------------------------------------------------------------------------- */

struct ev_name {
	const char *name;
	unsigned char len;
	signed char type;
};

static const struct ev_name ev_names[] = {
#define GS_EVENT_ROW(name, str) {str, sizeof(str) - 1, EV_##name},
	GS_EVENT_TYPES(GS_EVENT_ROW)
#undef GS_EVENT_ROW
	{"print", 5, EVNAME_MARKER},
	{"bprint", 6, EVNAME_MARKER},
	{"tracing_mark_write", 18, EVNAME_MARKER},
};

/* memcmp() == 0 for the short names here, without the call. */
TEXT_INLINE bool same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

int text_event_type(const char *name, size_t len)
{
	if (len > 6 && memcmp(name, "lisa__", 6) == 0) {
		name += 6;
		len -= 6;
	}
	if (len == 0)
		return -1;
	for (size_t i = 0; i < GS_ARRAY_SIZE(ev_names); i++) {
		const struct ev_name *e = &ev_names[i];
		/* most names start "sched_": the length and the last letter tell them apart */
		if (e->len == len && e->name[len - 1] == name[len - 1] &&
		    same_bytes(e->name, name, len)) {
			if (e->type == EV_FREQ_MARKER || e->type == EV_CSV_UTIL)
				return -1; /* not tracepoints of their own */
			return e->type;
		}
	}
	return -1;
}

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
int text_parse_marker(const char *body, const char *end, struct event *ev, const char **why)
{
	static const char tag[] = "cpu_frequency_devlib:";
	static const char old_tag[] = "cpu_frequency:";
	const size_t tl = sizeof(tag) - 1, otl = sizeof(old_tag) - 1;
	const char *p = body, *t;
	struct fieldset fs;
	static char buf[160];

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
	*why = event_from_fields(EV_FREQ_MARKER, &fs, ev, buf, sizeof(buf));
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

int text_marker(struct trace_reader *r, const char *body, const char *end, struct event *ev,
		const char **why)
{
	int m = text_parse_marker(body, end, ev, why);

	if (m != 0) {
		r->st.markers[MARKER_DEVLIB_FREQ]++;
		return m;
	}
	while (end > body && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	r->st.markers[marker_kind(marker_text(body, end), end)]++;
	return 0;
}

/* A trace_marker write whose ip the kernel could not name prints the ip instead of
 * "tracing_mark_write" ("0: B|123|name", "0xffffff8008123456: E|123"): a marker, not an
 * event called "0". */
static bool is_unresolved_ip(const char *name, size_t len)
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

/* ---- lines --------------------------------------------------------------------------------- */

static void header_comment(struct trace_reader *r, const char *p, const char *end)
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
		if (e > v && (size_t)(e - v) < sizeof(r->st.kernel_release))
			snprintf(r->st.kernel_release, sizeof(r->st.kernel_release), "%.*s",
				 (int)(e - v), v);
	}
}

/* trace-cmd's preamble lines; true when the line was one. */
static bool header_line(struct trace_reader *r, const char *p, const char *end)
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
static bool parse_ts(const char *p, const char *end, u64 *ts_ns, const char **next)
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

/* The pid digits ending at q, preceded by '-' (the comm's last dash); false if not there. */
TEXT_INLINE bool pid_before(const char *line, const char *q, s32 *pid)
{
	const char *d = q;
	u64 v = 0, mul = 1;

	while (d > line && is_digit(d[-1]) && q - d < 10) {
		d--;
		v += (u64)(*d - '0') * mul;
		mul *= 10;
	}
	if (d == q || d == line || d[-1] != '-')
		return false;
	*pid = (s32)v;
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
static const char *parse_prefix(const char *p, const char *end, s32 *pid, s32 *cpu, u64 *ts,
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

/* parse_ts() of the kernel's "%5llu.%06lu:" (microseconds), inlined; false for any other
 * timestamp, which parse_ts() then reads. */
TEXT_INLINE bool fast_ts(const char *p, const char *end, u64 *ts_ns, const char **next)
{
	const char *s = p;
	u64 sec = 0, us = 0;

	while (p < end && is_digit(*p))
		sec = sec * 10 + (u64)(*p++ - '0');
	/* beyond 2^63 ns (or near it): parse_ts() reads and range-checks it */
	if (p == s || p - s > 12 || end - p < 8 || *p != '.' || p[7] != ':' ||
	    sec >= READER_MAX_TS_NS / NSEC_PER_SEC)
		return false;
	for (int i = 1; i <= 6; i++) {
		if (!is_digit(p[i]))
			return false;
		us = us * 10 + (u64)(p[i] - '0');
	}
	*ts_ns = sec * NSEC_PER_SEC + us * NSEC_PER_USEC;
	*next = p + 8;
	return true;
}

/*
 * The kernel's own layout, v5.9 trace_print_context() with the irq-info flags and no tgid,
 * "%16s-%-7d [%03d] %4s %5llu.%06lu: ": the '[' of the CPU column is at offset 25 of every line
 * whose comm and pid fit their widths. Such a line is read at those offsets, to what
 * parse_prefix() finds on it: its first "[cpu]" is this one (no '[' before it), the comm-pid
 * before it is read by the same pid_before(), the flags column does not start with a digit (so
 * it is not a timestamp) and the timestamp follows it. false sends the line to parse_prefix().
 * `line` is the start of the line, p its first character that is not blank. No '\n' in the
 * columns read at offsets: end may be past the line's end (text_parse_hot_line()).
 */
TEXT_INLINE bool fixed_prefix(const char *line, const char *p, const char *end, s32 *pid,
			      s32 *cpu, u64 *ts, const char **next)
{
	const char *q = line + 24;

	if (end - line < 40 || p >= q || line[24] != ' ' || line[25] != '[' || line[29] != ']' ||
	    line[30] != ' ' || line[35] != ' ' || !is_digit(line[26]) || !is_digit(line[27]) ||
	    !is_digit(line[28]) || line[31] == ' ' || is_digit(line[31]) || line[32] == ' ' ||
	    line[33] == ' ' || line[34] == ' ' || line[31] == '\n' || line[32] == '\n' ||
	    line[33] == '\n' || line[34] == '\n')
		return false;
	/* any '[' or '\n' in line[0, 24): a zero byte of a word xor "[[[[[[[[" or "\n\n..."
	 * (exact for "any") */
	if (zero_bytes(load8(line) ^ (BYTES_ONES * '[')) |
	    zero_bytes(load8(line + 8) ^ (BYTES_ONES * '[')) |
	    zero_bytes(load8(line + 16) ^ (BYTES_ONES * '[')) |
	    zero_bytes(load8(line) ^ (BYTES_ONES * '\n')) |
	    zero_bytes(load8(line + 8) ^ (BYTES_ONES * '\n')) |
	    zero_bytes(load8(line + 16) ^ (BYTES_ONES * '\n')))
		return false;
	while (q > p && q[-1] == ' ')
		q--;
	if (q[-1] == ')' || !pid_before(p, q, pid))
		return false;
	*cpu = (line[26] - '0') * 100 + (line[27] - '0') * 10 + (line[28] - '0');
	q = skip_spaces(line + 36, end);
	return fast_ts(q, end, ts, next) || parse_ts(q, end, ts, next);
}

/* The EV_IRQ_* bits of a flags column ("d.h2": irqs-off, need-resched, hardirq/softirq,
 * preempt depth; v5.9 trace_print_lat_fmt()); 0 for none or an unknown layout. */
static u32 flags_irq(const char *f, const char *end)
{
	if (!f || end - f < 3 || !(f[0] == 'd' || f[0] == 'X' || f[0] == '.'))
		return 0;
	switch (f[2]) {
	case 'Z':
		return EV_IRQ_HARD | EV_IRQ_NMI;
	case 'z':
		return EV_IRQ_NMI;
	case 'H':
		return EV_IRQ_HARD | EV_IRQ_SOFT;
	case 'h':
		return EV_IRQ_HARD;
	case 's':
		return EV_IRQ_SOFT;
	default:
		return 0;
	}
}

/* `name` (a literal ending in ':') at p: compares of whole words once inlined. */
TEXT_INLINE bool name_is(const char *p, const char *end, const char *name, const char **colon)
{
	size_t n = strlen(name);

	if ((size_t)(end - p) < n || !short_eq(p, name, n))
		return false;
	*colon = p + n - 1;
	return true;
}

/*
 * The names of nearly every line, recognised before the general scan and table lookup: the
 * event type and *colon at the ':' after the name, or -1.
 */
TEXT_INLINE int hot_event_name(const char *p, const char *end, const char **colon)
{
	if (name_is(p, end, "sched_switch:", colon))
		return EV_SWITCH;
	if (name_is(p, end, "sched_wakeup:", colon))
		return EV_WAKEUP;
	if (name_is(p, end, "cpu_idle:", colon))
		return EV_CPU_IDLE;
	if (name_is(p, end, "cpu_frequency:", colon))
		return EV_CPU_FREQUENCY;
	return -1;
}

/* Any line header_line() might take: "version =", "cpus=", "CPU". */
TEXT_INLINE bool maybe_header(const char *p, const char *end)
{
	if (*p != 'v' && *p != 'c' && *p != 'C')
		return false;
	return end - p < 9 || short_eq(p, "version =", 9) || short_eq(p, "cpus=", 5) ||
	       short_eq(p, "CPU", 3);
}

/*
 * One pass over the commonest line: the kernel's column layout (fixed_prefix()), a hot event
 * name, its fast parser, and a '\n' right after the last value. Its end is found by parsing it:
 * no memchr() for the newline first. What text_parse_line() does with such a line is done here
 * (the same steps, the same event); anything else (trailing blanks, a "\r\n" end, a header or
 * comment line, another layout or event) returns 0 with nothing changed but the unused ring
 * slot, and the caller splits the line and calls text_parse_line(). So does an event older than
 * the newest one read (or the first): only events that go straight onto the ring are taken here.
 */
size_t text_parse_hot_line(struct trace_reader *r, const char *line, const char *end)
{
	const char *p = skip_spaces(line, end), *q, *body;
	struct event *ev;
	s32 pid, cpu;
	u64 ts;
	int type;

	if (p == end || *p == '\t' || *p == '#' || maybe_header(p, end) ||
	    !fixed_prefix(line, p, end, &pid, &cpu, &ts, &p) || ts > READER_MAX_TS_NS)
		return 0;
	p = skip_spaces(p, end);
	type = hot_event_name(p, end, &q);
	if (type < 0)
		return 0;
	body = skip_spaces(q + 1, end);
	ev = reader_slot(r);
	q = fast_parse(type, body, end, ev);
	if (!q || q == end || *q != '\n' || !r->have_max || ts < r->max_ts_ns)
		return 0;
	r->lineno++;
	r->st.lines++;
	r->seen_event_line = true;
	ev->type = (enum event_type)type;
	if (type == EV_WAKEUP)
		ev->wake.irq = flags_irq(line + 31, end); /* fixed_prefix(): flags at 31 */
	ev->ts_ns = ts;
	ev->line = r->lineno;
	ev->cpu = cpu;
	ev->pid = pid;
	reader_commit(r);
	return (size_t)(q + 1 - line);
}

int text_parse_line(struct trace_reader *r, char *line, size_t len, struct gs_error *err)
{
	const char *p = line, *end = line + len, *name, *body;
	struct event *ev;
	const char *why;
	char whybuf[160];
	struct fieldset fs;
	const char *flags = NULL;
	s32 pid, cpu;
	u64 ts;
	int type;

	while (end > p && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (;;) {
		p = skip_spaces(p, end);
		if (p == end || *p != '\t')
			break;
		p++;
	}
	if (p == end)
		return 0;
	if (*p == '#') {
		header_comment(r, p, end);
		return 0;
	}
	if ((*p == 'v' || *p == 'c' || *p == 'C') && header_line(r, p, end))
		return 0;

	if (fixed_prefix(line, p, end, &pid, &cpu, &ts, &p)) {
		flags = line + 31;
	} else {
		why = parse_prefix(p, end, &pid, &cpu, &ts, &p, &flags);
		if (why)
			return reader_malformed(r, r->lineno, err, "%s", why);
	}
	if (ts > READER_MAX_TS_NS)
		return reader_malformed(r, r->lineno, err,
					"timestamp beyond 2^63 ns (9223372036.854775807 s)");
	p = skip_spaces(p, end);
	name = p;
	type = hot_event_name(name, end, &p);
	if (type < 0) {
		p = name_end(p, end);
		if (p == name || p >= end || *p != ':')
			return reader_malformed(r, r->lineno, err,
						"no event name after the timestamp");
		type = text_event_type(name, (size_t)(p - name));
		if (type == -1 && is_unresolved_ip(name, (size_t)(p - name)))
			type = EVNAME_MARKER;
	}
	body = p + 1;
	while (body < end && *body == ' ')
		body++;

	r->seen_event_line = true;
	if (type == -1) {
		reader_count_unknown(r, name, (size_t)(p - name));
		return 0;
	}
	ev = reader_slot(r);
	if (type == EVNAME_MARKER) {
		/* bprint is the kernel's trace_printk(), not a trace_marker write */
		bool bprint = p - name == 6 && memcmp(name, "bprint", 6) == 0;
		int m = bprint ? text_parse_marker(body, end, ev, &why)
			       : text_marker(r, body, end, ev, &why);
		if (m == 0) {
			if (bprint)
				reader_count_unknown(r, name, 6);
			return 0;
		}
		if (m > 0 && bprint)
			r->st.markers[MARKER_DEVLIB_FREQ]++;
		if (m < 0)
			return reader_malformed(r, r->lineno, err, "%s", why);
	} else if (fast_parse(type, body, end, ev) == end) {
		ev->type = (enum event_type)type;
	} else if (has_plugin_layout(type) && !starts_key_value(body, end)) {
		/* trace-cmd report without -N; key=value fields in an odd order are still taken */
		why = plugin_payload(type, body, end, ev, whybuf, sizeof(whybuf));
		if (why) {
			char kvbuf[160];
			fieldset_split(&fs, body, end);
			if (event_from_fields(type, &fs, ev, kvbuf, sizeof(kvbuf)))
				return reader_malformed(r, r->lineno, err, "%s", why);
		}
	} else {
		fieldset_split(&fs, body, end);
		why = event_from_fields(type, &fs, ev, whybuf, sizeof(whybuf));
		if (why && has_plugin_layout(type)) {
			/* a plugin-layout comm that looks like a key ("a=b:12 [120] ...") */
			char plbuf[160];
			if (!plugin_payload(type, body, end, ev, plbuf, sizeof(plbuf)))
				why = NULL;
		}
		if (why)
			return reader_malformed(r, r->lineno, err, "%s", why);
	}
	if (event_is_wake(ev->type))
		ev->wake.irq = flags_irq(flags, end);
	ev->ts_ns = ts;
	ev->line = r->lineno;
	ev->cpu = cpu;
	ev->pid = pid;
	reader_commit(r);
	return 0;
}
