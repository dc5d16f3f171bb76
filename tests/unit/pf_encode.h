/*
 * pf_encode.h - what the Perfetto reader's unit tests share: a trace encoded with protobuf-c
 * (the generated perfetto.pb-c.h), written to a temporary file and read back through the
 * project's reader (test_perfetto.c, test_perfetto_fast.c).
 */
#ifndef GOVSIM_TEST_PF_ENCODE_H
#define GOVSIM_TEST_PF_ENCODE_H

#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/perfetto.pb-c.h"
#include "trace/reader.h"

#define MAX_EV 64

struct got {
	int n;
	u64 total;
	struct event ev[MAX_EV];
	struct trace_stats st;
	bool in_order;
	int ret;
	struct gs_error err;
};

static inline void read_path(const char *path, const struct reader_opts *opts, struct got *g)
{
	struct trace_reader *r = NULL;
	struct event ev;
	u64 prev = 0;

	memset(g, 0, sizeof(*g));
	g->in_order = true;
	gs_error_clear(&g->err);
	g->ret = trace_reader_open(path, opts, &r, &g->err);
	if (g->ret < 0)
		return;
	while ((g->ret = trace_reader_next(r, &ev, &g->err)) == 1) {
		if (g->total && ev.ts_ns < prev)
			g->in_order = false;
		prev = ev.ts_ns;
		if (g->n < MAX_EV)
			g->ev[g->n++] = ev;
		g->total++;
	}
	g->st = *trace_reader_stats(r);
	trace_reader_free(r);
}

/* ---- encoding a trace with protobuf-c ------------------------------------------------------ */

struct out {
	unsigned char *p;
	size_t n, cap;
};

static inline void out_put(struct out *o, const void *data, size_t n)
{
	if (o->n + n > o->cap) {
		o->cap = (o->n + n) * 2 + 64;
		o->p = realloc(o->p, o->cap);
		assert_non_null(o->p);
	}
	memcpy(o->p + o->n, data, n);
	o->n += n;
}

/* One Trace.packet field: tag 0x0a, varint length, the packed TracePacket. */
static inline void put_packet(struct out *o, const Pftrace__TracePacket *pkt)
{
	size_t len = pftrace__trace_packet__get_packed_size(pkt);
	unsigned char hdr[11], *body = malloc(len ? len : 1);
	size_t k = 0, v = len;

	assert_non_null(body);
	hdr[k++] = 0x0a;
	do {
		hdr[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pftrace__trace_packet__pack(pkt, body);
	out_put(o, hdr, k);
	out_put(o, body, len);
	free(body);
}

static inline const char *write_tmp(const struct out *o)
{
	static char path[8][4096];
	static int slot;
	char *p = path[slot++ & 7];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/pf-XXXXXX", test_tmpdir());
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(o->p, 1, o->n, f), o->n);
	fclose(f);
	return p;
}

/* qsort() order of events by time, then CPU, then line (which the caller sets to what orders
 * the rest: the stream's order, a place in a CPU's bundles). */
static inline int cmp_ts_cpu_line(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Reads the encoded trace from a temporary file, removed afterwards. */
static inline void read_out(const struct out *o, const struct reader_opts *opts, struct got *g)
{
	const char *path = write_tmp(o);

	read_path(path, opts, g);
	unlink(path);
}

/* Event builders: each returns a heap FtraceEvent the bundle owns (freed by free_event()). */
static inline Pftrace__FtraceEvent *new_event(u64 ts, u32 pid)
{
	Pftrace__FtraceEvent *e = calloc(1, sizeof(*e));
	pftrace__ftrace_event__init(e);
	e->has_timestamp = e->has_pid = true;
	e->timestamp = ts;
	e->pid = pid;
	return e;
}

static inline Pftrace__FtraceEvent *ev_switch(u64 ts, const char *pc, s32 pp, s64 state, const char *nc,
				       s32 np)
{
	Pftrace__FtraceEvent *e = new_event(ts, (u32)pp);
	Pftrace__SchedSwitchFtraceEvent *s = calloc(1, sizeof(*s));
	pftrace__sched_switch_ftrace_event__init(s);
	s->prev_comm = (char *)pc;
	s->has_prev_pid = s->has_prev_prio = s->has_prev_state = true;
	s->prev_pid = pp;
	s->prev_prio = 120;
	s->prev_state = state;
	s->next_comm = (char *)nc;
	s->has_next_pid = s->has_next_prio = true;
	s->next_pid = np;
	s->next_prio = 120;
	e->event_case = PFTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH;
	e->sched_switch = s;
	return e;
}

static inline Pftrace__FtraceEvent *ev_wake(u64 ts, u32 waker, int kind, const char *comm, s32 pid,
				     s32 target)
{
	Pftrace__FtraceEvent *e = new_event(ts, waker);
	Pftrace__SchedWakeupFtraceEvent *w = calloc(1, sizeof(*w));
	pftrace__sched_wakeup_ftrace_event__init(w);
	w->comm = (char *)comm;
	w->has_pid = w->has_prio = w->has_target_cpu = w->has_success = true;
	w->pid = pid;
	w->prio = 120;
	w->success = 1;
	w->target_cpu = target;
	e->event_case = (Pftrace__FtraceEvent__EventCase)kind;
	if (kind == PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP)
		e->sched_wakeup = w;
	else if (kind == PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING)
		e->sched_waking = w;
	else
		e->sched_wakeup_new = w;
	return e;
}

static inline Pftrace__FtraceEvent *ev_migrate(u64 ts, u32 pid, const char *comm, s32 task,
					       s32 orig, s32 dest)
{
	Pftrace__FtraceEvent *e = new_event(ts, pid);
	Pftrace__SchedMigrateTaskFtraceEvent *m = calloc(1, sizeof(*m));
	pftrace__sched_migrate_task_ftrace_event__init(m);
	m->comm = (char *)comm;
	m->has_pid = m->has_prio = m->has_orig_cpu = m->has_dest_cpu = true;
	m->pid = task;
	m->prio = 120;
	m->orig_cpu = orig;
	m->dest_cpu = dest;
	e->event_case = PFTRACE__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK;
	e->sched_migrate_task = m;
	return e;
}

static inline Pftrace__FtraceEvent *ev_power(u64 ts, bool freq, u32 state, u32 cpu)
{
	Pftrace__FtraceEvent *e = new_event(ts, 0);
	if (freq) {
		Pftrace__CpuFrequencyFtraceEvent *f = calloc(1, sizeof(*f));
		pftrace__cpu_frequency_ftrace_event__init(f);
		f->has_state = f->has_cpu_id = true;
		f->state = state;
		f->cpu_id = cpu;
		e->event_case = PFTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY;
		e->cpu_frequency = f;
	} else {
		Pftrace__CpuIdleFtraceEvent *f = calloc(1, sizeof(*f));
		pftrace__cpu_idle_ftrace_event__init(f);
		f->has_state = f->has_cpu_id = true;
		f->state = state;
		f->cpu_id = cpu;
		e->event_case = PFTRACE__FTRACE_EVENT__EVENT_CPU_IDLE;
		e->cpu_idle = f;
	}
	return e;
}

static inline Pftrace__FtraceEvent *ev_print(u64 ts, u32 pid, const char *text)
{
	Pftrace__FtraceEvent *e = new_event(ts, pid);
	Pftrace__PrintFtraceEvent *p = calloc(1, sizeof(*p));
	pftrace__print_ftrace_event__init(p);
	p->buf = (char *)text;
	e->event_case = PFTRACE__FTRACE_EVENT__EVENT_PRINT;
	e->print = p;
	return e;
}

static inline void free_event(Pftrace__FtraceEvent *e)
{
	switch (e->event_case) {
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH: free(e->sched_switch); break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP: free(e->sched_wakeup); break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING: free(e->sched_waking); break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW: free(e->sched_wakeup_new); break;
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY: free(e->cpu_frequency); break;
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_IDLE: free(e->cpu_idle); break;
	case PFTRACE__FTRACE_EVENT__EVENT_PRINT: free(e->print); break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK: free(e->sched_migrate_task); break;
	case PFTRACE__FTRACE_EVENT__EVENT_GENERIC:
		for (size_t i = 0; i < e->generic->n_field; i++)
			free(e->generic->field[i]);
		free(e->generic->field);
		free(e->generic);
		break;
	default: break;
	}
	free(e);
}

/* A bundle packet of `n` typed events on `cpu`; frees the events. */
static inline void put_bundle(struct out *o, u32 cpu, Pftrace__FtraceEvent **evs, size_t n, bool lost)
{
	Pftrace__TracePacket pkt;
	Pftrace__FtraceEventBundle b;

	pftrace__trace_packet__init(&pkt);
	pftrace__ftrace_event_bundle__init(&b);
	b.has_cpu = true;
	b.cpu = cpu;
	b.n_event = n;
	b.event = evs;
	b.has_lost_events = lost;
	b.lost_events = lost;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_FTRACE_EVENTS;
	pkt.ftrace_events = &b;
	put_packet(o, &pkt);
	for (size_t i = 0; i < n; i++)
		free_event(evs[i]);
}

static inline void put_system_info(struct out *o, const char *release)
{
	Pftrace__TracePacket pkt;
	Pftrace__SystemInfo si;
	Pftrace__Utsname u;

	pftrace__trace_packet__init(&pkt);
	pftrace__system_info__init(&si);
	pftrace__utsname__init(&u);
	u.release = (char *)release;
	u.sysname = (char *)"Linux";
	si.utsname = &u;
	si.android_build_fingerprint = (char *)"vendor/board/board:14/X/1:user/release-keys";
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_SYSTEM_INFO;
	pkt.system_info = &si;
	put_packet(o, &pkt);
}

#endif
