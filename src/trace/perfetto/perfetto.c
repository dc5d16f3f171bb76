/*
 * perfetto.c - Perfetto protobuf traces (.perfetto-trace, .pftrace, .pb; gzip of them) through
 * protobuf-c and the project's minimal perfetto.proto (field numbers from google/perfetto
 * @ ec5d16b).
 *
 * A trace is a run of `Trace.packet` fields. They are read one at a time through the reader's
 * input buffer (a packet larger than it gets its own buffer) and unpacked by protobuf-c into an
 * arena that is reset for the next packet, so memory does not grow with the file. A
 * `compressed_packets` packet is a zlib stream of more packets: inflated whole (each is < 512 KB
 * by Perfetto's writer) and walked the same way.
 *
 * An ftrace bundle holds one CPU's events in three time-ordered streams: the typed events, and
 * compact_sched's sched_switch and sched_waking arrays (delta-encoded timestamps, comms interned
 * in the bundle). They are merged here by timestamp into a queue per CPU. Bundles of different
 * CPUs overlap in time (each covers one read of that CPU's ring buffer), so the queues are
 * merged here too: the oldest head leaves once an event `window` later has been decoded (twice
 * the longest bundle span seen, at least the reader's 10 ms), once PF_MAX_HELD events are
 * queued, or at the end. Events so reach the reader's re-ordering stage in time order, through
 * its cheap in-order path; a merge of a few queues costs less than its heap of every held
 * event.
 *
 * The jobs are split by file (perfetto_priv.h): framing and compression in perfetto_input.c,
 * bundles and typed events in perfetto_ftrace.c, compact_sched and prev_state in
 * perfetto_sched.c, system_info / cpu_info / process_tree and task names in perfetto_info.c.
 */
#include "trace/perfetto/perfetto_priv.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool seq_seen(struct pf_state *pf, u32 seq)
{
	for (u32 i = 0; i < pf->nr_seqs; i++)
		if (pf->seqs[i] == seq)
			return true;
	if (pf->nr_seqs < GS_ARRAY_SIZE(pf->seqs))
		pf->seqs[pf->nr_seqs++] = seq;
	return false;
}

static void end_packet(struct pf_state *pf)
{
	pf->pkt = NULL;
	pf->b = NULL;
	pf->cs = NULL;
	pf_arena_reset(&pf->arena);
}

/* Unpacks and handles one packet; a bundle is left in pf->b to walk. 0 or a negative code. */
static int on_packet(struct trace_reader *r, const unsigned char *data, size_t len, bool inner,
		     struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	Pftrace__TracePacketLazy *p;
	int ret = 0;

	r->lineno++;
	r->st.lines++;
	p = pftrace__trace_packet_lazy__unpack(&pf->alloc, len, data);
	if (!p) {
		pf_arena_reset(&pf->arena);
		return reader_malformed(r, r->lineno, err,
					"packet at byte %llu: not a valid TracePacket%s",
					(unsigned long long)pf->pkt_off,
					inner ? " (inside compressed packets)" : "");
	}
	if (p->has_previous_packet_dropped && p->previous_packet_dropped &&
	    p->has_trusted_packet_sequence_id && !p->first_packet_on_sequence &&
	    seq_seen(pf, p->trusted_packet_sequence_id))
		r->st.data_loss++;
	else if (p->has_trusted_packet_sequence_id)
		seq_seen(pf, p->trusted_packet_sequence_id);

	switch (p->data_case) {
	case PFTRACE__TRACE_PACKET_LAZY__DATA_FTRACE_EVENTS: {
		const Pftrace__FtraceEventBundleLazy *b;
		pf->pkt = p;
		ret = pf_bundle_view(r, &p->ftrace_events, &b, err);
		if (ret >= 0 && b)
			ret = pf_start_bundle(r, b, err);
		if (ret < 0 || !pf->b)
			end_packet(pf);
		return ret;
	}
	case PFTRACE__TRACE_PACKET_LAZY__DATA_COMPRESSED_PACKETS:
		if (inner)
			ret = reader_malformed(r, r->lineno, err,
					       "packet at byte %llu: compressed packets inside "
					       "compressed packets",
					       (unsigned long long)pf->pkt_off);
		else
			ret = pf_inflate_packets(r, &p->compressed_packets, err);
		break;
	case PFTRACE__TRACE_PACKET_LAZY__DATA_ZSTD_COMPRESSED_PACKETS:
		ret = gs_error_set(err, GS_ETRACE,
				   "'%s': packet at byte %llu: zstd-compressed packets are not "
				   "supported; convert the trace without compression (e.g. "
				   "`traceconv decompress_packets`)",
				   r->path, (unsigned long long)pf->pkt_off);
		break;
	case PFTRACE__TRACE_PACKET_LAZY__DATA_SYSTEM_INFO:
		pf_on_system_info(r, p->system_info);
		break;
	case PFTRACE__TRACE_PACKET_LAZY__DATA_CPU_INFO:
		pf_on_cpu_info(r, p->cpu_info);
		break;
	case PFTRACE__TRACE_PACKET_LAZY__DATA_PROCESS_TREE:
		ret = pf_on_process_tree(r, p->process_tree);
		if (ret < 0)
			ret = gs_error_set(err, ret, "out of memory");
		break;
	case PFTRACE__TRACE_PACKET_LAZY__DATA_CLOCK_SNAPSHOT:
		if (p->clock_snapshot->has_primary_trace_clock && !pf->clock_from_bundle)
			snprintf(r->st.clock, sizeof(r->st.clock), "%s",
				 pf_clock_name(p->clock_snapshot->primary_trace_clock));
		break;
	case PFTRACE__TRACE_PACKET_LAZY__DATA_TRACE_CONFIG:
		pf_set_str(r->st.producer, sizeof(r->st.producer), "perfetto");
		break;
	default:
		break;
	}
	end_packet(pf);
	return ret;
}

/*
 * The merge of the queues: a tournament tree (a winner tree) whose leaves are the CPUs. A node
 * holds the key of the queue whose head is the oldest below it (pf_key: the older head,
 * then a queue with events before an empty one, then the lower CPU: equal times leave in CPU
 * order). A head that changes replays its leaf's path to the root, log2(leaves) matches of two
 * keys in the node's own array; the oldest head is the root. A scan of every queue per event cost
 * as many steps as CPUs (4096 in a Perfetto trace).
 */
static inline pf_key leaf_key(const struct pf_state *pf, u32 c)
{
	return (pf_key)pf->head_ts[c] << 64 | (u64)(pf->cpus[c].q.n == 0) << 32 | c;
}

/* The time of a key's head: its queue's head_ts (the tree's keys follow head_ts: each change of
 * it replays its leaf's path, pf_merge_update()). */
static inline u64 key_ts(pf_key k)
{
	return (u64)(k >> 64);
}

/* The CPU of a key. */
static inline u32 key_cpu(pf_key k)
{
	return (u32)k;
}

/* The key of a and b that leaves first (a on equal keys). */
static inline pf_key winner(pf_key a, pf_key b)
{
	return b < a ? b : a;
}

int pf_merge_grow(struct pf_state *pf)
{
	const pf_key none = ~(pf_key)0;
	u32 leaves = 1;
	pf_key *tk;

	if (pf->cpus_used <= pf->tt_leaves) {
		/* room in the tree: the new CPUs' leaves, and their paths */
		for (u32 c = pf->tt_used; c < pf->cpus_used; c++)
			pf_merge_update(pf, c);
		pf->tt_used = pf->cpus_used;
		return 0;
	}
	while (leaves < pf->cpus_used)
		leaves *= 2;
	tk = malloc(2 * (size_t)leaves * sizeof(*tk));
	if (!tk)
		return GS_ENOMEM;
	for (u32 i = 0; i < leaves; i++)
		tk[leaves + i] = i < pf->cpus_used ? leaf_key(pf, i) : none;
	for (u32 i = leaves - 1; i >= 1; i--)
		tk[i] = winner(tk[2 * i], tk[2 * i + 1]);
	pf->merge_steps += leaves - 1;
	free(pf->tk);
	pf->tk = tk;
	pf->tt_leaves = leaves;
	pf->tt_used = pf->cpus_used;
	return 0;
}

/* The keys of two leaves never tie (each holds its CPU; the leaves of no CPU are equal, and
 * either is the same), so a node's key is the least of its two children's whichever is which:
 * the path is replayed with the key just computed kept in a register, one load (the sibling's)
 * per level. Out of line: inlined into pf_fill(), its loop cost more than the call. */
__attribute__((noinline)) void pf_merge_update(struct pf_state *pf, u32 c)
{
	pf_key *tk = pf->tk;
	u32 i = pf->tt_leaves + c;
	pf_key k = leaf_key(pf, c);
	u64 steps = 0;

	tk[i] = k;
	for (; i > 1; i /= 2, steps++) {
		k = winner(k, tk[i ^ 1]);
		tk[i / 2] = k;
	}
	pf->merge_steps += steps;
}

/* Whether the oldest queued event, of time ts, may leave the merge: nothing older can still be
 * decoded. */
static bool may_leave(const struct pf_state *pf, u64 ts)
{
	return pf->input_done || pf->held >= PF_MAX_HELD || ts + pf->window_ns <= pf->max_ts_ns;
}

/*
 * The bytes of struct event that hold every field of an event whose type is not one of the util
 * ones (PELT_CFS .. CSV_UTIL, the largest member of its union): its first cache lines, which a
 * copy of such an event is cut to, as the text reader writes its type's fields only into the
 * reader's slot. The queues hold 2000 events and more (their window), out of the first-level
 * cache: a copy of the 160 bytes read and wrote a line more per event.
 */
#define PF_EVENT_SMALL 96
#define PF_FITS(m) (offsetof(struct event, m) + sizeof(((struct event *)0)->m) <= PF_EVENT_SMALL)
_Static_assert(PF_FITS(sw) && PF_FITS(wake) && PF_FITS(migrate) && PF_FITS(iowait) &&
		       PF_FITS(proc) && PF_FITS(timer) && PF_FITS(softirq) && PF_FITS(blocked) &&
		       PF_FITS(raw) && PF_FITS(hook) && PF_FITS(idle_calls) && PF_FITS(power),
	       "an event of a type other than the util ones fits in PF_EVENT_SMALL bytes");

static inline void copy_event(struct event *dst, const struct event *src)
{
	if (src->type >= EV_PELT_CFS && src->type <= EV_CSV_UTIL)
		*dst = *src;
	else
		memcpy(dst, src, PF_EVENT_SMALL);
}

/* The head of queue q to the reader. The queue's head_ts and its leaf are the caller's to set. */
static inline __attribute__((always_inline)) void leave(struct trace_reader *r,
							struct pf_state *pf, struct pf_queue *q)
{
	copy_event(reader_slot(r), &q->ev[q->head]);
	q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
	q->n--;
	pf->held--;
	reader_commit(r);
}

/*
 * After a fill's first event left: the oldest heads of every queue, one event at a time, while
 * one is queued, it may leave and the reader takes it (reader_takes()), each handed out as
 * leave() would, with reader_commit()'s in-order step, which reader_takes() vouches for, and its
 * queue's key replayed up the tree (pf_merge_update()). The conditions are pf_fill()'s, in its
 * order; what they read and the loop changes is kept in locals: the reader's room (its ring's and
 * max_held's, less slack), its newest time, its next slot and sequence number, and pf->held,
 * which the queues' stores would otherwise have the compiler load again for each event. Runs of
 * one queue are short (a CPU's next event is seldom older than every other CPU's head), so each
 * event walks its leaf's path: a walk per run and one to find the runner-up cost more.
 */
static void leave_more(struct trace_reader *r, struct pf_state *pf)
{
	const u64 window = pf->window_ns, max_ts = pf->max_ts_ns;
	const bool input_done = pf->input_done;
	pf_key *const tk = pf->tk;
	const u32 leaves = pf->tt_leaves;
	u32 held = pf->held, taken = 0, room, k;
	u64 seq = r->seq, last = r->max_ts_ns;

	if (!tk || !r->have_max)
		return;
	if (r->ring_count + r->slack >= r->ring_cap ||
	    r->ring_count + r->heap_n + r->slack >= r->max_held)
		return;
	room = r->ring_cap - r->ring_count - r->slack;
	if (room > r->max_held - r->ring_count - r->heap_n - r->slack)
		room = r->max_held - r->ring_count - r->heap_n - r->slack;
	k = r->ring_head + r->ring_count;
	k = k >= r->ring_cap ? k - r->ring_cap : k;
	while (taken < room) {
		const pf_key root = tk[1];
		const u64 ts = key_ts(root);
		const u32 c = key_cpu(root);
		struct pf_queue *q;
		u32 i, head, n;
		u64 next_ts;
		pf_key key;

		/* the conditions of pf_fill()'s loop, in its order: an event queued, may_leave(),
		 * reader_takes() (its room is `room`) */
		if ((u64)root >> 32 ||
		    !(input_done || held >= PF_MAX_HELD || ts + window <= max_ts) || ts < last)
			break;
		q = &pf->cpus[c].q;
		head = q->head;
		n = q->n - 1;
		copy_event(&r->ring[k], &q->ev[head]);
		r->ring_seq[k] = seq++;
		k = k + 1 == r->ring_cap ? 0 : k + 1;
		last = ts;
		taken++;
		held--;
		head = head + 1 == q->cap ? 0 : head + 1;
		q->head = head;
		q->n = n;
		/* pf_merge_update(pf, c), inline: the leaf's key (leaf_key()) from the new head */
		next_ts = n ? q->ev[head].ts_ns : UINT64_MAX;
		pf->head_ts[c] = next_ts;
		key = (pf_key)next_ts << 64 | (u64)(n == 0) << 32 | c;
		i = leaves + c;
		tk[i] = key;
		for (; i > 1; i /= 2) {
			key = winner(key, tk[i ^ 1]);
			tk[i / 2] = key;
		}
	}
	pf->merge_steps += (u64)taken * (u64)__builtin_ctz(leaves); /* the levels walked */
	pf->held = held;
	r->ring_count += taken;
	r->max_ts_ns = last;
	r->seq = seq;
}

/* Whether pf_fill() hands out an event, or ends, at the top of its loop: the oldest head may
 * leave, or no event is queued and the input is done. */
static inline bool root_ready(const struct pf_state *pf)
{
	pf_key root = pf->tk ? pf->tk[1] : ~(pf_key)0;

	if ((u64)root >> 32)
		return pf->input_done;
	return may_leave(pf, key_ts(root));
}

/* Decodes more: bundle items while pf_fill()'s loop would find nothing to hand out after each
 * (its turn for each item skipped: the items, and what leaves between them, are the same), or
 * the next packet. 0, or a negative code. */
static int decode_more(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	const unsigned char *data = NULL;
	size_t len = 0;
	int ret;

	if (pf->b) {
		do {
			ret = pf_bundle_step(r, err);
			if (ret < 0)
				return ret;
			if (ret == 2) {
				end_packet(pf);
				return 0;
			}
		} while (!root_ready(pf));
		return 0;
	}
	if (pf->in_infl) {
		ret = pf_next_inner(r, &data, &len, err);
		if (ret < 0)
			return ret;
		if (ret == 1)
			return on_packet(r, data, len, true, err);
		pf->in_infl = false;
	}
	ret = pf_next_outer(r, &data, &len, err);
	if (ret < 0)
		return ret;
	if (ret == 0) {
		pf->input_done = true;
		return 0;
	}
	return on_packet(r, data, len, false, err);
}

/* Whether the reader takes a second event, or a later one, in this fill: room on its ring
 * without growing it or reaching max_held (the slack promised for the first left as it was), and
 * the cheap in-order path of reader_commit() for an event of time ts. */
static inline bool reader_takes(const struct trace_reader *r, u64 ts)
{
	return r->have_max && ts >= r->max_ts_ns && r->ring_count + r->slack < r->ring_cap &&
	       r->ring_count + r->heap_n + r->slack < r->max_held;
}

/*
 * Hands the oldest queued events to the reader, each once it may leave, decoding more until then.
 * As the text reader batches its lines, one fill hands out events while the reader has room and
 * they are in order (no older than what it has: its cheap path), and decodes the rest of a bundle
 * between them: the events and their order are those of one call per event, without a turn
 * through trace_reader_next() for each. A fill that has handed out an event stops before reading
 * another packet, and before any decoding in strict mode, so that an error ends the read after
 * the events it would have delivered one call per event.
 */
static int pf_fill(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = pf_of(r);
	bool out = false;

	for (;;) {
		/* the root's key: of a leaf of no CPU (all ones) or an empty queue (bit 32) when no
		 * event is queued */
		pf_key root = pf->tk ? pf->tk[1] : ~(pf_key)0;
		u32 c = key_cpu(root);
		int ret;

		if ((u64)root >> 32) {
			if (pf->input_done) {
				r->done = !out;
				return 0;
			}
		} else if (may_leave(pf, key_ts(root))) {
			struct pf_queue *q = &pf->cpus[c].q;

			if (out && !reader_takes(r, key_ts(root)))
				return 0;
			/* the first through reader_commit() (the first of a fill may be out of
			 * order, or need the ring to grow), the next ones in leave_more() */
			leave(r, pf, q);
			out = true;
			pf->head_ts[c] = q->n ? q->ev[q->head].ts_ns : UINT64_MAX;
			pf_merge_update(pf, c); /* its new head, or none */
			leave_more(r, pf);
			continue;
		}
		if (out && (!pf->b || r->opts.strict))
			return 0;
		ret = decode_more(r, err);
		if (ret < 0)
			return ret;
	}
}

/* Perfetto protobuf, detected or forced: refused when it is not, or another format is forced. */
static int pf_open(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf;

	if (!pf_sniff((const unsigned char *)r->buf, r->buf_len, r->in_eof))
		return gs_error_set(err, GS_ETRACE, "'%s': not a Perfetto trace", r->path);
	if (r->opts.format != TRACE_FMT_AUTO && r->opts.format != TRACE_FMT_PERFETTO)
		return gs_error_set(err, GS_ETRACE, "'%s': a Perfetto trace, not %s", r->path,
				    trace_format_name(r->opts.format));
	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	pf->alloc.alloc = pf_arena_alloc;
	pf->alloc.free = pf_arena_free;
	pf->alloc.allocator_data = &pf->arena;
	pf->window_ns = READER_DEFAULT_WINDOW_NS;
	r->state = pf;
	r->st.format = TRACE_FMT_PERFETTO;
	return 0;
}

static void pf_close(struct trace_reader *r)
{
	struct pf_state *pf = pf_of(r);

	if (!pf)
		return;
	pf_arena_release(&pf->arena);
	free(pf->big);
	free(pf->infl);
	for (u32 c = 0; c < pf->nr_cpus; c++)
		free(pf->cpus[c].q.ev);
	free(pf->cpus);
	free(pf->head_ts);
	free(pf->tk);
	free(pf->slices);
	pf_comms_free(&pf->comms);
	free(pf);
	r->state = NULL;
}

static bool perfetto_sniff(const char *p, size_t n, bool eof)
{
	return pf_sniff((const unsigned char *)p, n, eof);
}

const struct trace_backend trace_backend_perfetto = {
	.name = "Perfetto",
	.formats = 1u << TRACE_FMT_PERFETTO,
	.unit = "packets",
	.binary = true,
	.sniff = perfetto_sniff,
	.open = pf_open,
	.fill = pf_fill,
	.close = pf_close,
};
