/*
 * perfetto_priv.h - what the files of the Perfetto reader share (src/trace/perfetto/):
 *   perfetto.c        the driver: packets to handlers, the merge of the per-CPU queues
 *   perfetto_input.c  framing and compression: the packets of the input, inflated
 *                     compressed_packets, the arena protobuf-c unpacks into
 *   perfetto_ftrace.c ftrace bundles and their typed events
 *   perfetto_sched.c  compact_sched and the kernel's prev_state encodings
 *   perfetto_info.c   system_info, cpu_info, process_tree and the table of task names
 */
#ifndef GOVSIM_TRACE_PERFETTO_PRIV_H
#define GOVSIM_TRACE_PERFETTO_PRIV_H

#include <string.h>

#include "core/pid_table.h"
#include "trace/backend.h"
#include "trace/fields.h"

#include "trace/perfetto.pb-c.h"

#define PF_MAX_PACKET   (64u << 20)  /* a TracePacket larger than this is refused */
#define PF_MAX_INFLATED (256u << 20) /* and an inflated compressed_packets larger than this */
#define PF_ARENA_CHUNK  (256u << 10)
#define PF_MAX_CPU      4096
/* Events read fast (perfetto_event.c) at once, ahead of their turn: they have no effect until
 * it (no report, no name, no allocation), so reading them in a batch changes nothing but
 * saves a call of pf_decode_event() for each. */
#define PF_FAST_BATCH 16
/* Events the per-CPU queues may hold before the oldest is let out whatever the window. */
#define PF_MAX_HELD (1u << 18)

/* Field numbers of Perfetto's trace.proto and ftrace_event.proto (google/perfetto ec5d16b). */
#define PF_TRACE_PACKET 1

/* ---- arena allocator for protobuf-c: one packet's messages, freed all at once ------------ */

struct pf_chunk {
	struct pf_chunk *next;
	size_t cap, used;
	max_align_t data[];
};

struct pf_arena {
	struct pf_chunk *head; /* the chunk being filled */
	struct pf_chunk *all;  /* every chunk, kept for reuse */
};

/* ---- task names ------------------------------------------------------------------------- */

/* pid -> comm, one entry per task of the trace (pid 0, the idle task, is never stored). */
struct pf_comm {
	char comm[TASK_COMM_LEN];
};

struct pf_comms {
	struct pid_table by_pid; /* each value a struct pf_comm of its own */
};

/* A string field as an event's bytes hold it: `len` bytes at `s`, no NUL after them (NULL and 0
 * for a field the message does not have). */
struct pf_str {
	const char *s;
	size_t len;
};

/* What the handlers (perfetto_ftrace.c) read of the hot messages: perfetto_event.c reads them
 * from an event's bytes, or they are taken from the structs protobuf-c built. Absent scalars are
 * 0, as protobuf-c's defaults. */
struct pf_switch {
	struct pf_str prev_comm, next_comm;
	s32 prev_pid, prev_prio, next_pid, next_prio;
	s64 prev_state;
	bool has_prev_pid, has_next_pid;
};

struct pf_wakeup { /* sched_wakeup, sched_waking, sched_wakeup_new */
	struct pf_str comm;
	s32 pid, prio, target_cpu;
};

struct pf_power { /* cpu_frequency, cpu_idle */
	u32 state, cpu_id;
};

/* An FtraceEvent read without protobuf-c (perfetto_event.c): in `e`, the fields of the event
 * itself (timestamp, pid, common_flags) and its event_case, no message; the message in m; lim,
 * what may be read of the bytes its strings point into (the bundle's when it is walked in place,
 * else the event's own). */
struct pf_fast_event {
	Pftrace__FtraceEvent e;
	const unsigned char *lim;
	union {
		struct pf_switch sw;
		struct pf_wakeup wk;
		struct pf_power power;
	} m;
};

/* ---- state ------------------------------------------------------------------------------ */

/* A queue's key in the merge (perfetto.c): the time of its head (UINT64_MAX when it is empty) in
 * the high 64 bits, then bit 32 set when it is empty and the CPU below; a leaf of no CPU is all
 * ones. The smaller key leaves first: one compare of two keys, which compilers make without a
 * branch (which of two CPUs' heads is older follows no pattern a branch predictor learns). */
typedef unsigned __int128 pf_key;

/* A CPU's decoded events, in time order, waiting for the merge. */
struct pf_queue {
	struct event *ev;
	u32 cap, head, n;
};

struct pf_cpu {
	struct pf_queue q;
	bool cur_known; /* a switch on this CPU was seen: cur_* is the running task */
	s32 cur_pid, cur_prio;
	char cur_comm[TASK_COMM_LEN];
	bool bundle_seen;
	u64 last_ts_ns; /* the last event of the previous bundle of this CPU */
	/* the name table's entry of the task the last typed switch put on this CPU (comm_pid 0:
	 * none), the prev of its next switch here */
	s32 comm_pid;
	struct pf_comm *comm_entry;
};

struct pf_state {
	ProtobufCAllocator alloc;
	struct pf_arena arena;

	u64 off;     /* file offset of r->buf[r->buf_pos] */
	u64 pkt_off; /* file offset of the outer packet being handled */
	unsigned char *big;
	size_t big_cap;

	/* the inflated compressed_packets being walked */
	unsigned char *infl;
	size_t infl_cap, infl_len, infl_pos;
	bool in_infl;

	/* the bundle being walked */
	Pftrace__TracePacketLazy *pkt;
	const Pftrace__FtraceEventBundleLazy *b;
	const Pftrace__FtraceEvent *e_next; /* event i_ev, decoded; NULL when none is left */
	const struct pf_fast_event *f_next; /* e_next's storage when it was read fast, else NULL */
	/* the events from i_ev on read fast in one batch: fast[fast_i, fast_n) follow e_next */
	struct pf_fast_event fast[PF_FAST_BATCH];
	u32 fast_i, fast_n;
	Pftrace__FtraceEventBundleLazy view; /* the bundle walked in place (perfetto_event.c) */
	ProtobufCBinaryData *slices;         /* its events: view.event */
	size_t slices_cap;
	/* the end of the bundle's bytes when it is walked in place (pf->view), NULL when none */
	const unsigned char *view_end;
	const Pftrace__FtraceEventBundle__CompactSched *cs;
	size_t i_ev, i_sw, i_wk;
	u64 sw_ts, wk_ts; /* the delta accumulators: timestamp of switch i_sw / waking i_wk */
	s32 cpu;
	struct pf_cpu *cur; /* &cpus[cpu] while the bundle is walked (cpus moves only between) */

	/* the merge of the per-CPU queues */
	u64 window_ns;
	u64 max_ts_ns; /* the newest event decoded */
	bool have_max, input_done;
	u32 held;

	int kver; /* kernel release as major * 1000 + minor; 0 unknown */
	struct pf_cpu *cpus;
	u32 nr_cpus;  /* slots allocated */
	u32 cpus_used; /* highest CPU with a bundle, plus one: the queues to merge */
	u64 *head_ts;  /* nr_cpus: the time of each queue's head, UINT64_MAX when it is empty */
	/* the merge's tournament tree over the queues (perfetto.c): tt_leaves (a power of two, at
	 * least cpus_used) leaves, node i's children 2i and 2i+1, each node the key of the queue
	 * whose head wins below it; tk[1] the oldest head's */
	pf_key *tk;
	u32 tt_leaves;
	u32 tt_used; /* the leaves set: CPUs 0 .. tt_used - 1, the others -1 */
	u64 merge_steps; /* queue heads compared, for tests */
	struct pf_comms comms;
	u32 seqs[64]; /* trusted_packet_sequence_ids seen (for previous_packet_dropped) */
	u32 nr_seqs;
	bool clock_from_bundle;
};

/* The back end's state (r->state). */
static inline struct pf_state *pf_of(const struct trace_reader *r)
{
	return r->state;
}

/* perfetto_input.c */
void *pf_arena_alloc(void *data, size_t size);
void pf_arena_free(void *data, void *ptr);
void pf_arena_reset(struct pf_arena *a);
void pf_arena_release(struct pf_arena *a);
/* A varint at p (at most end - p bytes): bytes used, 0 when incomplete or longer than 10. */
size_t pf_get_varint(const unsigned char *p, const unsigned char *end, u64 *out);
/*
 * A varint of at most 8 bytes, with 8 bytes readable at p, in one word (little-endian hosts): its
 * last byte is the first whose high bit is clear, the lowest set bit of `stop`; stop ^ (stop - 1)
 * is that bit and all below, so the bytes after the varint are masked off with the high bits,
 * and the 7-bit groups are packed down in three steps: two per 16-bit lane (14 bits), two of
 * those per 32-bit lane (28 bits), then the two lanes (56 bits). 0 for a longer varint.
 */
static inline size_t pf_varint_word(const unsigned char *p, u64 *out)
{
	u64 w, stop;

	memcpy(&w, p, sizeof(w));
	stop = ~w & 0x8080808080808080ull;
	if (!stop)
		return 0;
	w &= (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7full;
	w = (w & 0x007f007f007f007full) | ((w & 0x7f007f007f007f00ull) >> 1);
	w = (w & 0x00003fff00003fffull) | ((w & 0x3fff00003fff0000ull) >> 2);
	w = (w & 0x000000000fffffffull) | ((w & 0x0fffffff00000000ull) >> 4);
	*out = w;
	return ((size_t)__builtin_ctzll(stop) >> 3) + 1;
}

/* The same as pf_get_varint(), with the one- and two-byte varints (tags, lengths, prios, most
 * pids) inline. */
static inline size_t pf_varint(const unsigned char *p, const unsigned char *end, u64 *out)
{
	if (p < end && !(*p & 0x80)) {
		*out = *p;
		return 1;
	}
	if (end - p >= 2 && !(p[1] & 0x80)) {
		*out = (u64)(p[0] & 0x7f) | (u64)p[1] << 7;
		return 2;
	}
	return pf_get_varint(p, end, out);
}
/* The next outer TracePacket's bytes: 1 with *data and *len set (valid until the next call), 0
 * at the end of the input, or GS_ETRACE (truncated or not a Trace) / GS_EIO / GS_ENOMEM. */
int pf_next_outer(struct trace_reader *r, const unsigned char **data, size_t *len,
		  struct gs_error *err);
/* The next packet inside the inflated buffer: 1, or 0 at its end; GS_ETRACE if it is cut. */
int pf_next_inner(struct trace_reader *r, const unsigned char **data, size_t *len,
		  struct gs_error *err);
/* A compressed_packets zlib stream into pf->infl, walked next by pf_next_inner(). */
int pf_inflate_packets(struct trace_reader *r, const ProtobufCBinaryData *in,
		       struct gs_error *err);

/* perfetto_info.c */
struct pf_comm *pf_comm_find(const struct pf_comms *t, s32 pid);
/* free the names and the table */
void pf_comms_free(struct pf_comms *t);
/* comm into dst, cut at TASK_COMM_LEN - 1 bytes and at its first newline */
void pf_copy_comm(char dst[TASK_COMM_LEN], const char *src);
/* pid's name is comm (nothing for pid <= 0 or an empty comm); 0 or GS_ENOMEM */
int pf_comm_set(struct pf_comms *t, s32 pid, const char *comm);
/* The entry of pid (> 0), added (its comm "") when it has none; NULL when out of memory. An
 * entry stays where it is until pf_comms_free(). */
struct pf_comm *pf_comm_slot(struct pf_comms *t, s32 pid);
/* "5.10.157-android13-4" -> 5010; 0 when it does not start with major.minor. */
int pf_parse_kver(const char *rel);
void pf_set_str(char *dst, size_t cap, const char *src);
const char *pf_clock_name(u32 id);
const char *pf_ftrace_clock_name(int c);
void pf_on_system_info(struct trace_reader *r, const Pftrace__SystemInfo *si);
void pf_on_cpu_info(struct trace_reader *r, const Pftrace__CpuInfo *ci);
int pf_on_process_tree(struct trace_reader *r, const Pftrace__ProcessTree *pt);

/* perfetto_ftrace.c */
/* Sets up the walk of a bundle (pf->b); 0, or a negative code. */
int pf_start_bundle(struct trace_reader *r, const Pftrace__FtraceEventBundleLazy *b,
		    struct gs_error *err);
/* The next item of the bundle in time order: 1 an event committed, 0 an item used without an
 * event, 2 the bundle is done; or a negative GS_E* code. */
int pf_bundle_step(struct trace_reader *r, struct gs_error *err);
/* perfetto.c: the merge's tree after pf->cpus_used grew (0 or GS_ENOMEM), and after the head
 * of CPU c's queue changed. */
int pf_merge_grow(struct pf_state *pf);
void pf_merge_update(struct pf_state *pf, u32 c);
struct event *pf_slot(struct pf_state *pf);
/* The event in pf_slot(), ev, into its queue. */
void pf_commit(struct pf_state *pf, const struct event *ev);
void pf_fill_common(struct trace_reader *r, struct event *ev, u64 ts, s32 pid);
void pf_note_current(struct pf_cpu *c, s32 pid, s32 prio, const char *comm);
/* the same for a comm already cut by pf_copy_comm() (or NULL: none), copied whole */
void pf_note_current16(struct pf_cpu *c, s32 pid, s32 prio, const char *comm);
const char *pf_known_comm(struct pf_state *pf, s32 pid, const char *fallback);
void pf_count_name(struct trace_reader *r, const char *name);

/* perfetto_input.c: whether [p, p+n), the start of a file (n may be short of the whole file; eof
 * says whether it is the whole), is a Perfetto trace: a Trace message whose first field is a
 * TracePacket that parses as protobuf wire format. */
bool pf_sniff(const unsigned char *p, size_t n, bool eof);

/* perfetto_event.c */
/* The bundle of a packet (its bytes), walked in place or, when that finds something unexpected,
 * unpacked by protobuf-c: *b (NULL when the bundle is not valid and that is tolerated). 0, or a
 * negative code. */
int pf_bundle_view(struct trace_reader *r, const ProtobufCBinaryData *d,
		   const Pftrace__FtraceEventBundleLazy **b, struct gs_error *err);
/* The timestamp of an event's bytes; 0 when it has none. */
u64 pf_event_ts(const ProtobufCBinaryData *d);
/* Decodes the bundle's event i_ev (or, when it is malformed and that is tolerated, the next
 * valid one) into pf->e_next; NULL when none is left. 0, or a negative code. Events read fast
 * are read PF_FAST_BATCH at a time (pf->fast): pf_next_event() takes the next of a batch
 * inline, and calls this when none is left. pf_start_bundle() empties the batch. */
int pf_decode_event(struct trace_reader *r, struct gs_error *err);
static inline int pf_next_event(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = r->state;

	if (pf->fast_i < pf->fast_n) {
		pf->f_next = &pf->fast[pf->fast_i++];
		pf->e_next = &pf->f_next->e;
		return 0;
	}
	return pf_decode_event(r, err);
}

/* perfetto_sched.c */
/* The kernel's sched_switch prev_state of kernel kver to v5.9 TASK_REPORT bits; *raw set when
 * the value is outside the kernel's encoding. */
u32 pf_prev_state(s64 v, int kver, bool *raw);
/* The same, the layout of current kernels (>= 4.14, or unknown) inline: a value of its nine bits
 * is its own TASK_REPORT bits. */
static inline u32 pf_prev_state_inline(s64 v, int kver, bool *raw)
{
	if ((kver == 0 || kver >= 4014) && !((u64)v & ~(u64)0x1ff)) {
		*raw = false;
		return (u32)v;
	}
	return pf_prev_state(v, kver, raw);
}
/* Checks a bundle's compact_sched and starts its walk; widens [*first, *last] to its times.
 * 0, or a negative code. */
int pf_compact_start(struct trace_reader *r, const Pftrace__FtraceEventBundle__CompactSched *cs,
		     u64 *first, u64 *last, struct gs_error *err);
/* compact switch / waking i: 1 event committed, 0 none, or a negative code. */
int pf_compact_switch(struct trace_reader *r, size_t i, struct gs_error *err);
int pf_compact_waking(struct trace_reader *r, size_t i, struct gs_error *err);

#endif
