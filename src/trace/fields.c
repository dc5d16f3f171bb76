/*
 * fields.c - the vocabulary every back end maps its events onto: numbers, prev_state, an event
 * payload's key=value pairs looked up by name (text lines, and trace.dat records rendered as
 * key=value text), and the tracepoint names the stream knows.
 *
 * Payload fields are looked up by name, in any order; a value runs to the next " name=" (comms
 * hold spaces), and the " ==>" of sched_switch is dropped. The common events, printed in the
 * kernel's order, take a fast path in the text reader that reads the fields in that order.
 *
 * prev_state normalisation to v5.9 TASK_REPORT bits (include/trace/events/sched.h v5.9):
 * - numbers (old trace-cmd, -R): n & 0xff when non-zero (sleeping), 0 for 0 (R), otherwise
 *   (256, 1024, 2048, 4096: TASK_STATE_MAX = "preempted" on older kernels) TASK_REPORT_MAX (R+);
 * - letters: S=1 D=2 T=4 t=8 X=0x10 Z=0x20 P=0x40 I=0x80, '|'-joined, R = 0, '+' adds 0x100.
 *   Before v4.14 a dying task switched out with TASK_DEAD, printed "x" (v4.13
 *   include/trace/events/sched.h: { 64, "x" }): alone, "x" is X, the task is gone (as the
 *   Perfetto reader's pf_prev_state() reads 64 on those kernels). Other letters v5.9 does not
 *   print (K, W, N, ... of older kernels: wakekill, waking, noload) become TASK_STATE_D (a
 *   sleep the task does not choose) when no v5.9 letter is present, and are ignored next to one
 *   ("D|W" = D, "R|W"... = R; "x|K" = D). Anything else is malformed.
 */
#include "trace/fields.h"

#include <stdio.h>
#include <string.h>

/* ---- numbers ------------------------------------------------------------------------------- */

/* Decimal (leading zeros are decimal: target_cpu=006) or 0x-hex; the whole span must be used. */
bool span_u64(const char *s, size_t n, u64 *out)
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

bool span_s64(const char *s, size_t n, s64 *out)
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
	bool known = false, unknown = false, plus = false, dead = false;

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
		case 'x': dead = true; break;
		case '|': break;
		case '+': plus = true; break;
		default:
			if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
				unknown = true;
			else
				return -1;
		}
	}
	if (!known && !unknown && !dead)
		return -1;
	if (!known)
		bits = dead && !unknown ? 0x10 : TASK_STATE_D;
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
void copy_comm(char *dst, const struct field_span *f)
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

/* The lab's snapshot of the kernel's averages (tools/lab/init, markers.c): a task's with its
 * last_update_time, a root cfs_rq's without. */
static bool conv_start(struct conv *c, int type, struct event *ev)
{
	if (type == EV_START_CFS)
		ev->util.path = EV_PATH_ROOT;
	return opt_u64(c, "load", NULL, &ev->util.load, true) &&
	       opt_u64(c, "runnable", NULL, &ev->util.runnable, true) &&
	       opt_u64(c, "util", NULL, &ev->util.util, true) &&
	       (type == EV_START_CFS ||
		opt_u64(c, "update_time", NULL, &ev->util.update_time, true)) &&
	       opt_u64(c, "enqueued", NULL, &ev->util.util_est_enqueued, true) &&
	       opt_u64(c, "ewma", NULL, &ev->util.util_est_ewma, false);
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
	case EV_START_SE:
	case EV_START_CFS:
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
	ok = type == EV_START_SE ? need_s32(c, "pid", &ev->util.pid) : opt_s32(c, "pid", &ev->util.pid);
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
	case EV_START_SE:
	case EV_START_CFS:
		return conv_start(c, type, ev);
	case EV_UCLAMP_UTIL_SE:
	case EV_UCLAMP_UTIL_CFS:
		return opt_u64(c, "util_avg", NULL, &ev->util.util, true) &&
		       opt_u64(c, "uclamp_min", NULL, &ev->util.uclamp_min, true) &&
		       opt_u64(c, "uclamp_max", NULL, &ev->util.uclamp_max, true);
	default:
		return true;
	}
}

/* A field holding the kernel symbol `name` (as "name", "name+0x10/0x30" or "name/0x0"). */
static bool symbol_is(const struct field_span *f, const char *name)
{
	size_t n = strlen(name);

	return f->vlen >= n && memcmp(f->val, name, n) == 0 &&
	       (f->vlen == n || f->val[n] == '/' || f->val[n] == '+');
}

/* A word at p (followed by a space or the end). */
static bool word_at(const char *p, const char *end, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 && (p + n == end || p[n] == ' ');
}

const char *iowait_boost_from_text(const char *p, const char *end, struct event *ev)
{
	while (p < end && *p == ' ')
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\r'))
		end--;
	ev->type = EV_IOWAIT_BOOST;
	if (word_at(p, end, "doing"))
		ev->iowait.boost = true;
	else if (word_at(p, end, "skipping"))
		ev->iowait.boost = false;
	else
		return "sugov_set_iowait_boost: neither 'doing iow boost' nor 'skipping iow boost'";
	return NULL;
}

/* A binary record's sugov_set_iowait_boost fields: the text in any field's value ("doing iow
 * boost"); none read as a request when no field says so. */
static bool conv_iowait(const struct fieldset *fs, struct event *ev)
{
	ev->iowait.boost = false;
	for (int i = 0; i < fs->n; i++)
		if (!iowait_boost_from_text(fs->f[i].val, fs->f[i].val + fs->f[i].vlen, ev))
			break;
	ev->type = EV_IOWAIT_BOOST;
	return true;
}

/* softirq_entry's "vec=7 [action=SCHED]" (v4.19 to 7.2 irq.h): the number, then the name. */
static bool conv_softirq(struct conv *c, struct event *ev)
{
	const struct field_span *f = conv_get(c, "vec");
	size_t n = 0;
	u64 v;

	while (f && n < f->vlen && f->val[n] >= '0' && f->val[n] <= '9')
		n++;
	if (!f)
		return conv_missing(c, "vec");
	if (!n || (n < f->vlen && f->val[n] != ' ') || !span_u64(f->val, n, &v) || v > UINT32_MAX)
		return conv_bad(c, f);
	ev->softirq.vec = (u32)v;
	return true;
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
		ev->wake.resched = 0; /* the reader sets it where its format has flags */
		ok = need_comm(&c, "comm", ev->wake.comm) && need_s32(&c, "pid", &ev->wake.pid) &&
		     opt_s32(&c, "prio", &ev->wake.prio) &&
		     opt_s32(&c, "target_cpu", &ev->wake.target_cpu);
		if (ok && type != EV_WAKING && ev->wake.target_cpu < 0)
			ok = conv_missing(&c, "target_cpu");
		break;
	case EV_PROCESS_EXIT:
		ok = need_comm(&c, "comm", ev->proc.comm) && need_s32(&c, "pid", &ev->proc.pid);
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
		ev->power.resched = 0; /* cpu_idle's: the reader sets it where its format has flags */
		ok = need_u32(&c, "state", &ev->power.state) &&
		     need_u32(&c, "cpu_id", &ev->power.cpu_id);
		/* CPU numbers are ints everywhere after the reader */
		if (ok && ev->power.cpu_id > INT32_MAX)
			ok = conv_bad(&c, conv_get(&c, "cpu_id"));
		break;
	case EV_IOWAIT_BOOST:
		ok = conv_iowait(fs, ev);
		break;
	case EV_HRTIMER_EXPIRE: {
		/* "hrtimer=... function=tick_sched_timer now=...": only the tick and the
		 * scheduler's hrtick matter; any other hrtimer, or a function printed as an
		 * address, is neither. The tick's handler is tick_sched_timer up to v6.8 and
		 * tick_nohz_handler from v6.9 (kernel/time/tick-sched.c, Debian 6.12 and 7.2);
		 * the hrtick's is hrtick (kernel/sched/core.c). */
		const struct field_span *f = conv_get(&c, "function");
		ev->timer.sched_tick = f && (symbol_is(f, "tick_sched_timer") ||
					     symbol_is(f, "tick_nohz_handler"));
		ev->timer.hrtick = f && symbol_is(f, "hrtick");
		ok = true;
		break;
	}
	case EV_SOFTIRQ_ENTRY:
		ok = conv_softirq(&c, ev);
		break;
	case EV_BLOCKED_UPDATE:
		ok = need_s32(&c, "cpu", &ev->blocked.cpu);
		break;
	case EV_GOV_RAW_FREQ:
		ok = need_u32(&c, "target_freq", &ev->raw.khz);
		break;
	case EV_GOV_HOOK:
		ev->hook.irq = 0; /* the reader sets both where its format has flags */
		ev->hook.resched = 0;
		ok = opt_u64(&c, "time", NULL, &ev->hook.time, true);
		break;
	case EV_GOV_IDLE_CALLS:
		ok = opt_u64(&c, "calls", NULL, &ev->idle_calls.calls, true);
		break;
	default:
		ok = conv_util(&c, type, ev);
		break;
	}
	if (ok)
		return NULL;
	return c.why ? c.why : "bad fields";
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
	/* schedutil's hook under its other names (kernel/sched/cpufreq_schedutil.c):
	 * sugov_update_single up to v5.14, sugov_update_shared for a policy of several CPUs */
	{"sugov_update_single", 19, EV_GOV_HOOK},
	{"sugov_update_shared", 19, EV_GOV_HOOK},
	{"print", 5, EVNAME_MARKER},
	{"bprint", 6, EVNAME_MARKER},
	{"tracing_mark_write", 18, EVNAME_MARKER},
};

/* memcmp() == 0 for the short names here, without the call. */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

int tracepoint_type(const char *name, size_t len)
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
