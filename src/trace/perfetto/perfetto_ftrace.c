/*
 * perfetto_ftrace.c - ftrace bundles (ftrace_event_bundle.proto): one CPU's events in three
 * time-ordered streams, the typed events and compact_sched's sched_switch and sched_waking
 * arrays, merged here by timestamp into that CPU's queue (perfetto.c merges the queues).
 */
#include "trace/perfetto/perfetto_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- ftrace bundles --------------------------------------------------------------------- */


static struct pf_cpu *cpu_state(struct pf_state *pf, u32 cpu)
{
	if (cpu >= pf->nr_cpus) {
		/* doubled, so that CPUs 1, 2, ... 4095 in turn do not copy the array each time */
		u32 n = pf->nr_cpus * 2 > cpu + 1 ? pf->nr_cpus * 2 : cpu + 1;
		n = n > 64 ? n : 64;
		struct pf_cpu *c = realloc(pf->cpus, n * sizeof(*c));
		u64 *h;
		if (!c)
			return NULL;
		pf->cpus = c;
		h = realloc(pf->head_ts, n * sizeof(*h));
		if (!h)
			return NULL;
		pf->head_ts = h;
		memset(c + pf->nr_cpus, 0, (n - pf->nr_cpus) * sizeof(*c));
		for (u32 i = pf->nr_cpus; i < n; i++)
			h[i] = UINT64_MAX;
		pf->nr_cpus = n;
	}
	return &pf->cpus[cpu];
}

/* Sets up the walk of a bundle: checks compact_sched, widens the re-ordering window, notes
 * data loss. 0, or a negative code. */
int pf_start_bundle(struct trace_reader *r, const Pftrace__FtraceEventBundleLazy *b,
		    struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	const Pftrace__FtraceEventBundle__CompactSched *cs = b->compact_sched;
	struct pf_cpu *c;
	u64 first = UINT64_MAX, last = 0;

	if (!b->has_cpu || b->cpu >= PF_MAX_CPU)
		return reader_malformed(r, r->lineno, err,
					"packet at byte %llu: ftrace bundle without a valid cpu",
					(unsigned long long)pf->pkt_off);
	c = cpu_state(pf, b->cpu);
	if (!c)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (b->cpu + 1 > pf->cpus_used) {
		pf->cpus_used = b->cpu + 1;
		if (pf_merge_grow(pf) < 0)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	if (b->has_ftrace_clock && !pf->clock_from_bundle) {
		snprintf(r->st.clock, sizeof(r->st.clock), "%s",
			 pf_ftrace_clock_name(b->ftrace_clock));
		pf->clock_from_bundle = true;
	}
	if (b->lost_events)
		r->st.data_loss++;
	else if (b->has_previous_bundle_end_timestamp && b->previous_bundle_end_timestamp &&
		 (!c->bundle_seen || b->previous_bundle_end_timestamp > c->last_ts_ns))
		r->st.data_loss++; /* this CPU's events up to that time were not all written */
	pf->b = b;
	pf->cpu = (s32)b->cpu;
	pf->cur = c;
	pf->cs = NULL;
	pf->i_ev = pf->i_sw = pf->i_wk = 0;
	if (cs) {
		int ret = pf_compact_start(r, cs, &first, &last, err);
		if (ret < 0)
			return ret;
	}
	if (b->n_event) {
		u64 a = pf_event_ts(&b->event[0]), z = pf_event_ts(&b->event[b->n_event - 1]);
		first = a < first ? a : first;
		last = z > last ? z : last;
	}
	if (first <= last) {
		/* events of other CPUs as old as this bundle's may still come */
		u64 span = last - first, lag = 0;
		if (pf->have_max && pf->max_ts_ns > first)
			lag = pf->max_ts_ns - first;
		if (span < lag)
			span = lag;
		if (span < (UINT64_MAX - READER_DEFAULT_WINDOW_NS) / 2 &&
		    pf->window_ns < 2 * span + READER_DEFAULT_WINDOW_NS)
			pf->window_ns = 2 * span + READER_DEFAULT_WINDOW_NS;
		c->last_ts_ns = last;
	}
	c->bundle_seen = true;
	return pf_decode_event(r, err);
}

/* The slot of the current CPU's queue the next event is decoded into (room is made by
 * bundle_step() before each item). */
struct event *pf_slot(struct pf_state *pf)
{
	struct pf_queue *q = &pf->cur->q;
	u32 k = q->head + q->n;

	return &q->ev[k >= q->cap ? k - q->cap : k];
}

void pf_commit(struct pf_state *pf, const struct event *ev)
{
	struct pf_queue *q = &pf->cur->q;

	if (!pf->have_max || ev->ts_ns > pf->max_ts_ns)
		pf->max_ts_ns = ev->ts_ns;
	pf->have_max = true;
	q->n++;
	pf->held++;
	if (q->n == 1) {
		pf->head_ts[pf->cpu] = ev->ts_ns;
		pf_merge_update(pf, (u32)pf->cpu);
	}
}

/* A full queue's storage doubled; 0 or GS_ENOMEM. Out of line: it runs a few times per CPU, and
 * its loop inlined into every step of a bundle costs the hot path registers. */
static __attribute__((cold, noinline)) int queue_grow(struct pf_queue *q)
{
	struct event *ev;
	u32 cap;

	cap = q->cap ? q->cap * 2 : 256;
	ev = malloc((size_t)cap * sizeof(*ev));
	if (!ev)
		return GS_ENOMEM;
	for (u32 i = 0; i < q->n; i++) {
		u32 k = q->head + i;
		ev[i] = q->ev[k >= q->cap ? k - q->cap : k];
	}
	free(q->ev);
	q->ev = ev;
	q->cap = cap;
	q->head = 0;
	return 0;
}

/* Room for one more event in a queue; 0 or GS_ENOMEM. */
static inline int queue_reserve(struct pf_queue *q)
{
	return q->n < q->cap ? 0 : queue_grow(q);
}

void pf_fill_common(struct trace_reader *r, struct event *ev, u64 ts, s32 pid)
{
	ev->ts_ns = ts;
	ev->line = r->lineno;
	ev->cpu = pf_of(r)->cpu;
	ev->pid = pid;
}

void pf_note_current(struct pf_cpu *c, s32 pid, s32 prio, const char *comm)
{
	c->cur_known = true;
	c->cur_pid = pid;
	c->cur_prio = prio;
	pf_copy_comm(c->cur_comm, comm);
}

void pf_note_current16(struct pf_cpu *c, s32 pid, s32 prio, const char *comm)
{
	c->cur_known = true;
	c->cur_pid = pid;
	c->cur_prio = prio;
	if (comm)
		memcpy(c->cur_comm, comm, TASK_COMM_LEN);
	else
		c->cur_comm[0] = '\0';
}

/* The name of a task, as best known; "" when unknown. */
const char *pf_known_comm(struct pf_state *pf, s32 pid, const char *fallback)
{
	const struct pf_comm *e = pf_comm_find(&pf->comms, pid);
	return e ? e->comm : fallback ? fallback : "";
}

void pf_count_name(struct trace_reader *r, const char *name)
{
	reader_count_unknown(r, name, strlen(name));
}
static const char *const typed_names[] = {
	[PFTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK] = "task_newtask",
	[PFTRACE__FTRACE_EVENT__EVENT_TASK_RENAME] = "task_rename",
	[PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK] = "sched_process_fork",
};

/* An event this reader has no message for: counted by its FtraceEvent field number. */
static __attribute__((cold, noinline)) void count_unknown_number(struct trace_reader *r,
								  const Pftrace__FtraceEvent *e)
{
	char name[48];
	u32 num = 0;

	for (size_t i = 0; i < e->base.n_unknown_fields; i++) {
		u32 t = e->base.unknown_fields[i].tag;
		if (t != 5) { /* common_flags */
			num = t;
			break;
		}
	}
	if (num >= 65536)
		snprintf(name, sizeof(name), "generic event #%u", num);
	else
		snprintf(name, sizeof(name), "ftrace event #%u", num);
	pf_count_name(r, name);
}

/* TIF_NEED_RESCHED from an event's common_flags (event.h); 0 where the trace has none. */
static u32 pf_resched(const Pftrace__FtraceEvent *e)
{
	return e->has_common_flags && event_resched_from_common_flags(e->common_flags);
}

/* A generic event (FtraceEvent.generic): turned into the stream when its name is one the text
 * reader knows (e.g. sched_pelt_cfs, which has no typed message), through the same fields. */
static __attribute__((cold, noinline)) int generic_event(struct trace_reader *r,
							const Pftrace__FtraceEvent *e,
							struct gs_error *err)
{
	const Pftrace__GenericFtraceEvent *g = e->generic;
	char vals[FIELDSET_MAX][32];
	struct fieldset fs = {0};
	struct event *ev;
	const char *why;
	char whybuf[160];
	u32 *irq, *resched;
	int type;

	if (!g->event_name || !g->event_name[0]) {
		pf_count_name(r, "generic event without a name");
		return 0;
	}
	type = tracepoint_type(g->event_name, strlen(g->event_name));
	if (type < 0) {
		pf_count_name(r, g->event_name);
		return 0;
	}
	for (size_t i = 0; i < g->n_field && fs.n < FIELDSET_MAX; i++) {
		const Pftrace__GenericFtraceEvent__Field *f = g->field[i];
		struct field_span *s = &fs.f[fs.n];
		if (!f->name)
			continue;
		s->key = f->name;
		s->klen = (u32)strlen(f->name);
		switch (f->value_case) {
		case PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE:
			s->val = f->str_value;
			s->vlen = (u32)strlen(f->str_value);
			break;
		case PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE:
			s->vlen = (u32)snprintf(vals[fs.n], sizeof(vals[0]), "%lld",
						(long long)f->int_value);
			s->val = vals[fs.n];
			break;
		case PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE:
			s->vlen = (u32)snprintf(vals[fs.n], sizeof(vals[0]), "%llu",
						(unsigned long long)f->uint_value);
			s->val = vals[fs.n];
			break;
		default:
			continue;
		}
		fs.n++;
	}
	ev = pf_slot(pf_of(r));
	why = event_from_fields(type, &fs, ev, whybuf, sizeof(whybuf));
	if (why)
		return reader_malformed(r, r->lineno, err, "packet at byte %llu: %s",
					(unsigned long long)pf_of(r)->pkt_off, why);
	ev->type = (enum event_type)type;
	if ((irq = event_irq_slot(ev)))
		*irq = e->has_common_flags ? event_irq_from_common_flags(e->common_flags) : 0;
	if ((resched = event_resched_slot(ev)))
		*resched = pf_resched(e);
	pf_fill_common(r, ev, e->timestamp, (s32)e->pid);
	pf_commit(pf_of(r), ev);
	return 1;
}

/* Whether the 8 bytes of w hold a newline (the "has a zero byte" test on w ^ '\n' in each byte:
 * a byte that is 0 borrows into its high bit, which no other byte can set there alone). */
static inline bool word_has_newline(u64 w)
{
	w ^= 0x0a0a0a0a0a0a0a0aull;
	return ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) != 0;
}

/* pf_copy_comm() of a comm in a TASK_COMM_LEN-byte buffer that holds its NUL (the table's): the
 * same string in dst, in one copy of the buffer when none of its bytes is a newline (a newline
 * after the NUL only sends it down the byte loop). The bytes after the NUL may differ: nothing
 * reads them. */
static inline void copy_comm16(char dst[TASK_COMM_LEN], const char *src)
{
	u64 a, b;

	memcpy(&a, src, 8);
	memcpy(&b, src + 8, 8);
	if (word_has_newline(a) || word_has_newline(b)) {
		pf_copy_comm(dst, src);
		return;
	}
	memcpy(dst, src, TASK_COMM_LEN);
}

/* Whether a comm field holds a name: protobuf-c's string of it is not empty. */
static inline bool comm_given(struct pf_str c)
{
	return c.len && c.s[0];
}

/* The string protobuf-c makes of a field, as a field's bytes (a NUL ends it: what follows is
 * not read). */
static inline struct pf_str str_from(const char *s)
{
	struct pf_str c = {s, s ? strnlen(s, TASK_COMM_LEN) : 0};
	return c;
}

/* An event's comm into dst, as pf_copy_comm(dst, protobuf-c's string of comm when it names a task,
 * else pf_known_comm(pf, pid, NULL)) would: its first TASK_COMM_LEN - 1 bytes copied once, on a
 * zeroed buffer, cut by the byte loop (in place) only where the buffer holds a newline. Where 16
 * bytes of the field can be read (before lim: the bytes perfetto_event.c read it from; NULL for
 * protobuf-c's strings, which are not read past their end), they are loaded at once and byte k
 * kept where k < n (one compare of n against 0..15), the rest cleared, and the newlines looked
 * for in the same register: no call and no branch on the comm's length, which varies from one
 * event to the next. */
static inline void event_comm(struct pf_state *pf, char dst[TASK_COMM_LEN], struct pf_str comm,
			      s32 pid, const unsigned char *lim)
{
	const struct pf_comm *e;

	if (comm_given(comm)) {
		size_t n = comm.len < TASK_COMM_LEN - 1 ? comm.len : TASK_COMM_LEN - 1;
		u64 a, b;

#if defined(__SSE2__)
		if (lim && lim - (const unsigned char *)comm.s >= TASK_COMM_LEN) {
			const __m128i index =
			    _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
			__m128i keep = _mm_cmpgt_epi8(_mm_set1_epi8((char)n), index);
			__m128i v = _mm_and_si128(
			    _mm_loadu_si128((const __m128i *)(const void *)comm.s), keep);

			_mm_storeu_si128((__m128i *)(void *)dst, v);
			if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))))
				pf_copy_comm(dst, dst);
			return;
		}
#endif
		memset(dst, 0, TASK_COMM_LEN);
		memcpy(dst, comm.s, n);
		memcpy(&a, dst, 8);
		memcpy(&b, dst + 8, 8);
		if (word_has_newline(a) || word_has_newline(b))
			pf_copy_comm(dst, dst);
		return;
	}
	e = pf_comm_find(&pf->comms, pid);
	if (e)
		copy_comm16(dst, e->comm);
	else
		dst[0] = '\0';
}

/* lim: what may be read of w's bytes (event_comm()) */
static inline __attribute__((always_inline)) void
wake_fields(struct pf_state *pf, struct event *ev, const Pftrace__FtraceEvent *e,
	    const struct pf_wakeup *w, const unsigned char *lim)
{
	/* the emitting context; without common_flags (older traced_probes) task context */
	ev->wake.irq = e->has_common_flags ? event_irq_from_common_flags(e->common_flags) : 0;
	ev->wake.resched = pf_resched(e);
	event_comm(pf, ev->wake.comm, w->comm, w->pid, lim);
	ev->wake.pid = w->pid;
	ev->wake.prio = w->prio;
	ev->wake.target_cpu = w->target_cpu;
}

/* The fields of a sched_wakeup (waking, wakeup_new) of protobuf-c, in w. */
static const struct pf_wakeup *wakeup_from(const Pftrace__SchedWakeupFtraceEvent *m,
					   struct pf_wakeup *w)
{
	w->comm = str_from(m->comm);
	w->pid = m->pid;
	w->prio = m->prio;
	w->target_cpu = m->target_cpu;
	return w;
}

/* The fields of a sched_switch of protobuf-c, in s. */
static const struct pf_switch *switch_from(const Pftrace__SchedSwitchFtraceEvent *m,
					   struct pf_switch *s)
{
	s->prev_comm = str_from(m->prev_comm);
	s->next_comm = str_from(m->next_comm);
	s->has_prev_pid = m->has_prev_pid;
	s->has_next_pid = m->has_next_pid;
	s->prev_pid = m->prev_pid;
	s->prev_prio = m->prev_prio;
	s->prev_state = m->prev_state;
	s->next_pid = m->next_pid;
	s->next_prio = m->next_prio;
	return s;
}

/* A typed sched_switch into ev: 1, 0 when it is malformed (and that is tolerated), or a
 * negative code. */
static int switch_event(struct trace_reader *r, const struct pf_switch *s, struct event *ev,
			const unsigned char *lim, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	struct pf_cpu *c = pf->cur;
	struct pf_comm *ne = NULL, *pe = NULL;
	bool raw;

	if (!s->has_prev_pid || !s->has_next_pid)
		return reader_malformed(r, r->lineno, err,
					"packet at byte %llu: sched_switch without %s",
					(unsigned long long)pf->pkt_off,
					s->has_prev_pid ? "next_pid" : "prev_pid");
	ev->type = EV_SWITCH;
	event_comm(pf, ev->sw.prev_comm, s->prev_comm, s->prev_pid, lim);
	ev->sw.prev_pid = s->prev_pid;
	ev->sw.prev_prio = s->prev_prio;
	ev->sw.prev_state = pf_prev_state_inline(s->prev_state, pf->kver, &raw);
	r->st.raw_prev_state += raw;
	event_comm(pf, ev->sw.next_comm, s->next_comm, s->next_pid, lim);
	ev->sw.next_pid = s->next_pid;
	ev->sw.next_prio = s->next_prio;
	/* the names of next and prev, next's then prev's, where the event has them: the ones just
	 * copied into ev, cut, taken from there whole (the test for an empty one is on the comm as
	 * written, as pf_comm_set() makes it); prev's entry, nearly always, the one this CPU's last
	 * switch found for its next */
	if (s->next_pid > 0 && comm_given(s->next_comm)) {
		ne = pf_comm_slot(&pf->comms, s->next_pid);
		if (!ne)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	if (s->prev_pid > 0 && comm_given(s->prev_comm)) {
		pe = s->prev_pid == c->comm_pid ? c->comm_entry
						 : pf_comm_slot(&pf->comms, s->prev_pid);
		if (!pe)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
	}
	if (ne)
		memcpy(ne->comm, ev->sw.next_comm, TASK_COMM_LEN);
	if (pe)
		memcpy(pe->comm, ev->sw.prev_comm, TASK_COMM_LEN);
	c->comm_pid = ne ? s->next_pid : 0;
	c->comm_entry = ne;
	pf_note_current16(c, s->next_pid, s->next_prio,
			  comm_given(s->next_comm) ? ev->sw.next_comm : NULL);
	return 1;
}

/* task_newtask, task_rename, sched_process_fork/exit: task names only, counted by name.
 * 0, or GS_ENOMEM. */
static __attribute__((cold, noinline)) int name_event(struct trace_reader *r,
						     const Pftrace__FtraceEvent *e,
						     struct gs_error *err)
{
	struct pf_comms *t = &pf_of(r)->comms;
	int ret = 0;

	switch (e->event_case) {
	case PFTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK:
		ret = pf_comm_set(t, e->task_newtask->pid, e->task_newtask->comm);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_TASK_RENAME:
		ret = pf_comm_set(t, e->task_rename->pid, e->task_rename->newcomm);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK:
		ret = pf_comm_set(t, e->sched_process_fork->child_pid,
				  e->sched_process_fork->child_comm);
		break;
	default:
		break;
	}
	if (ret < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	pf_count_name(r, typed_names[e->event_case]);
	return 0;
}

/* A typed event: 1 committed, 0 none, or a negative code. */
static int typed_event(struct trace_reader *r, const Pftrace__FtraceEvent *e, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	struct event *ev = pf_slot(pf);
	/* the hot messages' fields: read by perfetto_event.c, or taken from protobuf-c's here */
	/* e is pf->e_next */
	const struct pf_fast_event *f = pf->f_next;
	bool fast = f != NULL;
	const unsigned char *lim = fast ? f->lim : NULL;
	struct pf_switch sw;
	struct pf_wakeup wk;
	const char *why;
	int m;

	switch (e->event_case) {
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH:
		m = switch_event(r, fast ? &f->m.sw : switch_from(e->sched_switch, &sw), ev,
				 lim, err);
		if (m <= 0)
			return m;
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP:
		ev->type = EV_WAKEUP;
		wake_fields(pf, ev, e, fast ? &f->m.wk : wakeup_from(e->sched_wakeup, &wk),
			    lim);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING:
		ev->type = EV_WAKING;
		wake_fields(pf, ev, e, fast ? &f->m.wk : wakeup_from(e->sched_waking, &wk),
			    lim);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW:
		ev->type = EV_WAKEUP_NEW;
		wake_fields(pf, ev, e,
			    fast ? &f->m.wk : wakeup_from(e->sched_wakeup_new, &wk), lim);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK: {
		const Pftrace__SchedMigrateTaskFtraceEvent *m2 = e->sched_migrate_task;
		ev->type = EV_MIGRATE;
		pf_copy_comm(ev->migrate.comm, m2->comm);
		ev->migrate.pid = m2->pid;
		ev->migrate.prio = m2->prio;
		ev->migrate.orig_cpu = m2->orig_cpu;
		ev->migrate.dest_cpu = m2->dest_cpu;
		ev->migrate.irq = e->has_common_flags ? event_irq_from_common_flags(e->common_flags) : 0;
		break;
	}
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY:
		ev->type = EV_CPU_FREQUENCY;
		ev->power.state = fast ? f->m.power.state : e->cpu_frequency->state;
		ev->power.cpu_id = fast ? f->m.power.cpu_id : e->cpu_frequency->cpu_id;
		ev->power.resched = 0;
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_IDLE:
		ev->type = EV_CPU_IDLE;
		ev->power.state = fast ? f->m.power.state : e->cpu_idle->state;
		ev->power.cpu_id = fast ? f->m.power.cpu_id : e->cpu_idle->cpu_id;
		ev->power.resched = pf_resched(e);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_PRINT: {
		const char *buf = e->print->buf ? e->print->buf : "";
		m = reader_marker(r, buf, buf + strlen(buf), ev, &why);
		if (m < 0)
			return reader_malformed(r, r->lineno, err, "packet at byte %llu: %s",
						(unsigned long long)pf->pkt_off, why);
		if (m == 0)
			return 0;
		break;
	}
	case PFTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK:
	case PFTRACE__FTRACE_EVENT__EVENT_TASK_RENAME:
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK:
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT:
		return name_event(r, e, err);
	case PFTRACE__FTRACE_EVENT__EVENT_GENERIC:
		return generic_event(r, e, err);
	default:
		count_unknown_number(r, e);
		return 0;
	}
	pf_fill_common(r, ev, e->timestamp, e->has_pid ? (s32)e->pid : -1);
	pf_commit(pf, ev);
	return 1;
}

/*
 * The next item of the bundle in time order (typed events first on equal timestamps, then
 * wakings, then switches): 1 an event committed, 0 an item used without an event, 2 the bundle
 * is done; or a negative GS_E* code.
 */
int pf_bundle_step(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	const Pftrace__FtraceEventBundle__CompactSched *cs = pf->cs;
	bool have_ev = pf->e_next != NULL;
	bool have_sw = cs && pf->i_sw < cs->n_switch_timestamp;
	bool have_wk = cs && pf->i_wk < cs->n_waking_timestamp;
	u64 t_ev = have_ev ? pf->e_next->timestamp : UINT64_MAX;
	int ret;

	if (!have_ev && !have_sw && !have_wk)
		return 2;
	if (queue_reserve(&pf->cur->q) < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (have_ev && (!have_sw || t_ev <= pf->sw_ts) && (!have_wk || t_ev <= pf->wk_ts)) {
		ret = typed_event(r, pf->e_next, err);
		pf->i_ev++;
		if (ret >= 0) {
			int r2 = pf_next_event(r, err);
			if (r2 < 0)
				return r2;
		}
	} else if (have_wk && (!have_sw || pf->wk_ts <= pf->sw_ts)) {
		ret = pf_compact_waking(r, pf->i_wk++, err);
		if (pf->i_wk < cs->n_waking_timestamp)
			pf->wk_ts += cs->waking_timestamp[pf->i_wk];
	} else {
		ret = pf_compact_switch(r, pf->i_sw++, err);
		if (pf->i_sw < cs->n_switch_timestamp)
			pf->sw_ts += cs->switch_timestamp[pf->i_sw];
	}
	return ret;
}
