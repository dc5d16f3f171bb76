/*
 * text_plugin.c - trace-cmd report's plugin layout of sched_switch / sched_wakeup (report
 * without -N), and the test for the kernel's key=value print format.
 */
#include "trace/text/text_priv.h"

#include <stdio.h>
#include <string.h>

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
const char *plugin_payload(int type, const char *p, const char *end, struct event *ev,
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

bool has_plugin_layout(int type)
{
	return type == EV_SWITCH || type == EV_WAKEUP || type == EV_WAKEUP_NEW;
}

/* The payload starts with "ident=": the kernel's key=value print format. */
bool starts_key_value(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_ident(*q))
		q++;
	return q > p && q < end && *q == '=';
}

