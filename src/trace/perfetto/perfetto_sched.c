/*
 * perfetto_sched.c - compact_sched (ftrace_event_bundle.proto) and the kernel's prev_state
 * encodings by release.
 *
 * compact_sched carries no prev_pid/prev_comm/prev_prio and no waker: they are the task the
 * previous switch on that CPU put on it (Perfetto's trace_processor does the same,
 * ftrace_sched_event_tracker.cc). The first compact switch of each CPU has no previous one and
 * is dropped after recording its next task, as trace_processor drops it; wakings on a CPU before
 * its first switch are dropped too.
 *
 * prev_state is the kernel's raw sched_switch integer, decoded by the kernel release from
 * system_info (the bit layouts below, as TaskState in trace_processor decodes them), into
 * the v5.9 TASK_REPORT bits of struct event. A value outside the kernel's encoding (a tracer
 * that writes task->__state, as systing does) keeps only the S D T t X Z bits, which mean the
 * same on every kernel; it is counted, never turned into states the trace did not say.
 */
#include "trace/perfetto/perfetto_priv.h"

/* ---- prev_state ------------------------------------------------------------------------- */

/*
 * The kernel's sched_switch prev_state integer of kernel `kver` to v5.9 TASK_REPORT bits
 * (event.h). Layouts (the kernel's include/linux/sched.h of each release):
 *   >= 4.14: S D T t X Z P I = 0x01..0x80, preempted 0x100 (TASK_REPORT_MAX), nothing above;
 *   [4.2, 4.14): S D T t X Z = 0x01..0x20, x (dead) 0x40, K 0x80, W 0x100, P 0x200, N 0x400,
 *            preempted = TASK_STATE_MAX: 0x800 up to 4.7 and 0x1000 from 4.8 (TASK_NEW);
 *   < 4.2: as above without N, preempted 0x400 (TASK_STATE_MAX = 1024 on 3.18).
 * An unknown kernel is read with the >= 4.14 layout, the one current kernels emit.
 * Sets *raw when the value is outside the layout (bits only a raw task state has).
 */
u32 pf_prev_state(s64 v, int kver, bool *raw)
{
	u64 n = (u64)v;
	u64 preempt, valid;
	u32 bits;

	*raw = false;
	if (n == 0)
		return 0;
	if (kver == 0 || kver >= 4014) {
		if (n & ~(u64)0x1ff)
			goto raw_state;
		return (u32)n;
	}
	preempt = kver >= 4008 ? 0x1000 : kver >= 4002 ? 0x800 : 0x400;
	valid = preempt | (preempt - 1);
	if (n & ~valid)
		goto raw_state;
	if (n & preempt)
		return TASK_REPORT_MAX;
	bits = (u32)(n & 0x3f);
	if (n & 0x200)
		bits |= 0x40; /* P */
	if ((n & 0x402) == 0x402 && kver >= 4002)
		bits = (bits & ~TASK_STATE_D) | 0x80; /* D|N is TASK_IDLE, reported as I */
	if (!bits && (n & 0x40))
		bits = 0x10; /* x: TASK_DEAD, the task is gone (reported as X from 4.14) */
	return bits;

raw_state:
	*raw = true;
	return (u32)(n & 0x3f);
}

/* Checks a bundle's compact_sched (arrays of equal lengths, comm indices inside the intern table)
 * and starts its walk (pf->cs, the delta accumulators); widens [*first, *last] to its times.
 * A bad one is malformed input (the bundle's typed events are still read). 0, or a negative
 * code. */
int pf_compact_start(struct trace_reader *r, const Pftrace__FtraceEventBundle__CompactSched *cs,
		     u64 *first, u64 *last, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	size_t ns = cs->n_switch_timestamp, nw = cs->n_waking_timestamp;
	bool ok = cs->n_switch_prev_state == ns && cs->n_switch_next_pid == ns &&
		  cs->n_switch_next_prio == ns && cs->n_switch_next_comm_index == ns &&
		  cs->n_waking_pid == nw && cs->n_waking_target_cpu == nw &&
		  cs->n_waking_prio == nw && cs->n_waking_comm_index == nw;
	u64 acc = 0;

	for (size_t i = 0; ok && i < ns; i++)
		ok = cs->switch_next_comm_index[i] < cs->n_intern_table;
	for (size_t i = 0; ok && i < nw; i++)
		ok = cs->waking_comm_index[i] < cs->n_intern_table;
	if (!ok) {
		int ret = reader_malformed(r, r->lineno, err,
					   "packet at byte %llu: compact_sched arrays of "
					   "different lengths or a comm index out of range",
					   (unsigned long long)pf->pkt_off);
		return ret < 0 ? ret : 0;
	}
	if (!ns && !nw)
		return 0;
	pf->cs = cs;
	pf->sw_ts = ns ? cs->switch_timestamp[0] : 0;
	pf->wk_ts = nw ? cs->waking_timestamp[0] : 0;
	if (ns) {
		*first = pf->sw_ts;
		for (size_t i = 0; i < ns; i++)
			acc += cs->switch_timestamp[i];
		*last = acc;
	}
	acc = 0;
	if (nw) {
		*first = pf->wk_ts < *first ? pf->wk_ts : *first;
		for (size_t i = 0; i < nw; i++)
			acc += cs->waking_timestamp[i];
		*last = acc > *last ? acc : *last;
	}
	return 0;
}

/* compact switch i: 1 event committed, 0 none (the first of its CPU). */
int pf_compact_switch(struct trace_reader *r, size_t i, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	const Pftrace__FtraceEventBundle__CompactSched *cs = pf->cs;
	struct pf_cpu *c = pf->cur;
	const char *next_comm = cs->intern_table[cs->switch_next_comm_index[i]];
	struct event *ev;
	bool raw;

	if (pf_comm_set(&pf->comms, cs->switch_next_pid[i], next_comm) < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (!c->cur_known) {
		pf_note_current(c, cs->switch_next_pid[i], cs->switch_next_prio[i], next_comm);
		pf_count_name(r, "sched_switch (compact, first of its CPU)");
		return 0;
	}
	ev = pf_slot(pf);
	ev->type = EV_SWITCH;
	pf_fill_common(r, ev, pf->sw_ts, c->cur_pid);
	ev->sw.prev_pid = c->cur_pid;
	ev->sw.prev_prio = c->cur_prio;
	pf_copy_comm(ev->sw.prev_comm, c->cur_pid ? pf_known_comm(pf, c->cur_pid, c->cur_comm)
					       : c->cur_comm);
	ev->sw.prev_state = pf_prev_state(cs->switch_prev_state[i], pf->kver, &raw);
	r->st.raw_prev_state += raw;
	ev->sw.next_pid = cs->switch_next_pid[i];
	ev->sw.next_prio = cs->switch_next_prio[i];
	pf_copy_comm(ev->sw.next_comm, next_comm);
	pf_note_current(c, ev->sw.next_pid, ev->sw.next_prio, next_comm);
	pf_commit(pf, ev);
	return 1;
}

int pf_compact_waking(struct trace_reader *r, size_t i, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	const Pftrace__FtraceEventBundle__CompactSched *cs = pf->cs;
	struct pf_cpu *c = pf->cur;
	const char *comm = cs->intern_table[cs->waking_comm_index[i]];
	struct event *ev;

	if (pf_comm_set(&pf->comms, cs->waking_pid[i], comm) < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (!c->cur_known) {
		pf_count_name(r, "sched_waking (compact, before a switch)");
		return 0;
	}
	ev = pf_slot(pf);
	ev->type = EV_WAKING;
	pf_fill_common(r, ev, pf->wk_ts, c->cur_pid);
	pf_copy_comm(ev->wake.comm, comm);
	ev->wake.pid = cs->waking_pid[i];
	ev->wake.prio = cs->waking_prio[i];
	ev->wake.target_cpu = cs->waking_target_cpu[i];
	ev->wake.irq = 0; /* the compact format has no flags: task context */
	ev->wake.resched = 0;
	pf_commit(pf, ev);
	return 1;
}
