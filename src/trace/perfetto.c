/*
 * perfetto.c - Perfetto protobuf traces (.perfetto-trace, .pftrace, .pb; gzip of them) through
 * protobuf-c and the project's minimal perfetto.proto (facts/perfetto.md, from google/perfetto
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
 * compact_sched carries no prev_pid/prev_comm/prev_prio and no waker: they are the task the
 * previous switch on that CPU put on it (Perfetto's trace_processor does the same,
 * ftrace_sched_event_tracker.cc). The first compact switch of each CPU has no previous one and
 * is dropped after recording its next task, as trace_processor drops it; wakings on a CPU before
 * its first switch are dropped too.
 *
 * prev_state is the kernel's raw sched_switch integer, decoded by the kernel release from
 * system_info (the bit layouts of facts/perfetto.md §7, TaskState in trace_processor), into
 * the v5.9 TASK_REPORT bits of struct event. A value outside the kernel's encoding (a tracer
 * that writes task->__state, as systing does) keeps only the S D T t X Z bits, which mean the
 * same on every kernel; it is counted, never turned into states the trace did not say.
 */
#include "trace/reader_priv.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace/perfetto.pb-c.h"

#define PF_MAX_PACKET   (64u << 20)  /* a TracePacket larger than this is refused */
#define PF_MAX_INFLATED (256u << 20) /* and an inflated compressed_packets larger than this */
#define PF_ARENA_CHUNK  (256u << 10)
#define PF_MAX_CPU      4096
/* Events the per-CPU queues may hold before the oldest is let out whatever the window. */
#define PF_MAX_HELD (1u << 18)

/* Field numbers (facts/perfetto.md §2, §4). */
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

static void *arena_alloc(void *data, size_t size)
{
	struct pf_arena *a = data;
	struct pf_chunk *c = a->head;

	size = (size + 15) & ~(size_t)15;
	while (c && c->used + size > c->cap)
		c = c->next;
	if (!c) {
		size_t cap = size > PF_ARENA_CHUNK ? size : PF_ARENA_CHUNK;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = a->all;
		a->all = c;
	}
	a->head = c;
	c->used += size;
	return (char *)c->data + c->used - size;
}

static void arena_free(void *data, void *ptr)
{
	(void)data;
	(void)ptr; /* everything goes at arena_reset() */
}

/* Frees the chunks beyond the first two (a packet larger than usual), keeps the rest. */
static void arena_reset(struct pf_arena *a)
{
	struct pf_chunk *c = a->all, **pp = &a->all;
	int kept = 0;

	while (c) {
		struct pf_chunk *next = c->next;
		if (kept < 2 && c->cap == PF_ARENA_CHUNK) {
			c->used = 0;
			*pp = c;
			pp = &c->next;
			kept++;
		} else {
			free(c);
		}
		c = next;
	}
	*pp = NULL;
	a->head = a->all;
}

static void arena_release(struct pf_arena *a)
{
	while (a->all) {
		struct pf_chunk *next = a->all->next;
		free(a->all);
		a->all = next;
	}
	a->head = NULL;
}

/* ---- task names ------------------------------------------------------------------------- */

/* pid -> comm, open addressing; sized by the tasks of the trace, not its length. */
struct pf_comm {
	s32 pid; /* 0: empty slot (pid 0 is the idle task: never stored) */
	char comm[TASK_COMM_LEN];
};

struct pf_comms {
	struct pf_comm *slot;
	u32 cap, n;
};

static u32 comm_hash(s32 pid, u32 cap)
{
	return ((u32)pid * 2654435761u) & (cap - 1);
}

static struct pf_comm *comm_find(const struct pf_comms *t, s32 pid)
{
	if (!t->cap || pid <= 0)
		return NULL;
	for (u32 i = comm_hash(pid, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->slot[i].pid == pid)
			return &t->slot[i];
		if (t->slot[i].pid == 0)
			return NULL;
	}
}

static void copy_comm(char dst[TASK_COMM_LEN], const char *src)
{
	size_t n = src ? strnlen(src, TASK_COMM_LEN - 1) : 0;

	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
	/* a comm ends at its first newline or NUL, as the kernel's does */
	for (size_t i = 0; i < n; i++)
		if (dst[i] == '\n')
			dst[i] = '\0';
}

static int comm_set(struct pf_comms *t, s32 pid, const char *comm)
{
	struct pf_comm *e;

	if (pid <= 0 || !comm || !comm[0])
		return 0;
	if ((t->n + 1) * 2 > t->cap) {
		u32 cap = t->cap ? t->cap * 2 : 1024;
		struct pf_comm *slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return GS_ENOMEM;
		for (u32 i = 0; i < t->cap; i++) {
			if (!t->slot[i].pid)
				continue;
			u32 k = comm_hash(t->slot[i].pid, cap);
			while (slot[k].pid)
				k = (k + 1) & (cap - 1);
			slot[k] = t->slot[i];
		}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	e = comm_find(t, pid);
	if (!e) {
		u32 k = comm_hash(pid, t->cap);
		while (t->slot[k].pid)
			k = (k + 1) & (t->cap - 1);
		e = &t->slot[k];
		e->pid = pid;
		t->n++;
	}
	copy_comm(e->comm, comm);
	return 0;
}

/* ---- state ------------------------------------------------------------------------------ */

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
	Pftrace__TracePacket *pkt;
	const Pftrace__FtraceEventBundle *b;
	const Pftrace__FtraceEventBundle__CompactSched *cs;
	size_t i_ev, i_sw, i_wk;
	u64 sw_ts, wk_ts; /* the delta accumulators: timestamp of switch i_sw / waking i_wk */
	s32 cpu;

	/* the merge of the per-CPU queues */
	u64 window_ns;
	u64 max_ts_ns; /* the newest event decoded */
	bool have_max, input_done;
	u32 held;

	int kver; /* kernel release as major * 1000 + minor; 0 unknown */
	struct pf_cpu *cpus;
	u32 nr_cpus;  /* slots allocated */
	u32 cpus_used; /* highest CPU with a bundle, plus one: the queues to merge */
	struct pf_comms comms;
	u32 seqs[64]; /* trusted_packet_sequence_ids seen (for previous_packet_dropped) */
	u32 nr_seqs;
	bool clock_from_bundle;
};

/* ---- prev_state ------------------------------------------------------------------------- */

/*
 * The kernel's sched_switch prev_state integer of kernel `kver` to v5.9 TASK_REPORT bits
 * (event.h). Layouts (facts/perfetto.md §7; the kernel's include/linux/sched.h):
 *   >= 4.14: S D T t X Z P I = 0x01..0x80, preempted 0x100 (TASK_REPORT_MAX), nothing above;
 *   [4.2, 4.14): S D T t X Z = 0x01..0x20, x (dead) 0x40, K 0x80, W 0x100, P 0x200, N 0x400,
 *            preempted = TASK_STATE_MAX: 0x800 up to 4.7 and 0x1000 from 4.8 (TASK_NEW);
 *   < 4.2: as above without N, preempted 0x400 (TASK_STATE_MAX = 1024 on 3.18).
 * An unknown kernel is read with the >= 4.14 layout, the one current kernels emit.
 * Sets *raw when the value is outside the layout (bits only a raw task state has).
 */
static u32 pf_prev_state(s64 v, int kver, bool *raw)
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

/* "5.10.157-android13-4" -> 5010; 0 when it does not start with major.minor. */
static int parse_kver(const char *rel)
{
	int major = 0, minor = 0;
	const char *p = rel;

	if (!p || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && major < 1000)
		major = major * 10 + (*p++ - '0');
	if (*p++ != '.' || *p < '0' || *p > '9')
		return 0;
	while (*p >= '0' && *p <= '9' && minor < 1000)
		minor = minor * 10 + (*p++ - '0');
	if (major >= 1000 || minor >= 1000)
		return 0;
	return major * 1000 + minor;
}

/* ---- wire format helpers ------------------------------------------------------------------- */

/* A varint at p (at most end - p bytes): bytes used, 0 when incomplete or longer than 10. */
static size_t get_varint(const unsigned char *p, const unsigned char *end, u64 *out)
{
	u64 v = 0;

	for (size_t i = 0; i < 10 && p + i < end; i++) {
		v |= (u64)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return 0;
}

/* Whether [p, end) is a sequence of well-formed protobuf fields. */
static bool wire_ok(const unsigned char *p, const unsigned char *end)
{
	while (p < end) {
		u64 tag, len;
		size_t k = get_varint(p, end, &tag);
		if (!k || (tag >> 3) == 0)
			return false;
		p += k;
		switch (tag & 7) {
		case 0:
			k = get_varint(p, end, &len);
			if (!k)
				return false;
			p += k;
			break;
		case 1:
			if (end - p < 8)
				return false;
			p += 8;
			break;
		case 2:
			k = get_varint(p, end, &len);
			if (!k || len > (u64)(end - p - (ptrdiff_t)k))
				return false;
			p += k + len;
			break;
		case 5:
			if (end - p < 4)
				return false;
			p += 4;
			break;
		default:
			return false;
		}
	}
	return true;
}

bool pf_sniff(const unsigned char *p, size_t n, bool eof)
{
	u64 len, tag;
	size_t k, kt;

	if (n < 2 || p[0] != ((PF_TRACE_PACKET << 3) | 2))
		return false;
	k = get_varint(p + 1, p + n, &len);
	if (!k || len == 0 || len > PF_MAX_PACKET)
		return false;
	if (1 + k + len <= n)
		return wire_ok(p + 1 + k, p + 1 + k + len);
	if (eof)
		return false; /* a first packet longer than the file */
	/* a first packet longer than what was read: its first field's tag must be valid */
	kt = get_varint(p + 1 + k, p + n, &tag);
	return kt && (tag >> 3) != 0 && ((tag & 7) == 0 || (tag & 7) == 1 || (tag & 7) == 2 ||
					(tag & 7) == 5);
}

/* ---- input ----------------------------------------------------------------------------- */

static void consume(struct trace_reader *r, size_t n)
{
	r->buf_pos += n;
	r->pf->off += n;
}

/* At least n bytes (n <= READER_BUF_SIZE) in the buffer, unless the input ends first. */
static int need(struct trace_reader *r, size_t n, struct gs_error *err)
{
	while (r->buf_len - r->buf_pos < n && !r->in_eof) {
		int ret = reader_refill(r, err);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int truncated(struct trace_reader *r, u64 need_bytes, struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	u64 end = pf->off + (r->buf_len - r->buf_pos);

	return gs_error_set(err, GS_ETRACE,
			    "'%s': truncated at byte %llu: the packet at byte %llu needs %llu bytes",
			    r->path, (unsigned long long)end, (unsigned long long)pf->pkt_off,
			    (unsigned long long)need_bytes);
}

/*
 * The next outer TracePacket's bytes: 1 with *data and *len set (valid until the next call), 0 at
 * the end of the input, or GS_ETRACE (truncated or not a Trace) / GS_EIO / GS_ENOMEM.
 */
static int next_outer(struct trace_reader *r, const unsigned char **data, size_t *len,
		      struct gs_error *err)
{
	struct pf_state *pf = r->pf;

	for (;;) {
		const unsigned char *p, *end;
		u64 tag, n;
		size_t k1, k2 = 0;
		int ret = need(r, 32, err);

		if (ret < 0)
			return ret;
		p = (const unsigned char *)r->buf + r->buf_pos;
		end = (const unsigned char *)r->buf + r->buf_len;
		if (p == end)
			return 0;
		pf->pkt_off = pf->off;
		k1 = get_varint(p, end, &tag);
		if (!k1)
			return truncated(r, 11, err);
		switch (tag & 7) {
		case 0:
			k2 = get_varint(p + k1, end, &n);
			if (!k2)
				return truncated(r, k1 + 10, err);
			consume(r, k1 + k2);
			continue;
		case 1:
		case 5:
			n = (tag & 7) == 1 ? 8 : 4;
			break;
		case 2:
			k2 = get_varint(p + k1, end, &n);
			if (!k2)
				return truncated(r, k1 + 10, err);
			break;
		default:
			return gs_error_set(err, GS_ETRACE,
					    "'%s': byte %llu: not a Perfetto trace (wire type %u)",
					    r->path, (unsigned long long)pf->off, (unsigned)(tag & 7));
		}
		if (n > PF_MAX_PACKET)
			return gs_error_set(err, GS_ETRACE,
					    "'%s': byte %llu: a packet of %llu bytes (more than %u MB)",
					    r->path, (unsigned long long)pf->off,
					    (unsigned long long)n, PF_MAX_PACKET >> 20);
		if ((tag >> 3) != PF_TRACE_PACKET || (tag & 7) != 2) {
			/* not a packet: skip it (Trace has no other field today) */
			u64 left = k1 + k2 + n;
			while (left) {
				size_t avail = r->buf_len - r->buf_pos, take;
				if (!avail) {
					ret = need(r, 1, err);
					if (ret < 0)
						return ret;
					avail = r->buf_len - r->buf_pos;
					if (!avail)
						return truncated(r, k1 + k2 + n, err);
				}
				take = avail < left ? avail : (size_t)left;
				consume(r, take);
				left -= take;
			}
			continue;
		}
		if (k1 + k2 + n <= READER_BUF_SIZE) {
			ret = need(r, k1 + k2 + n, err);
			if (ret < 0)
				return ret;
			if (r->buf_len - r->buf_pos < k1 + k2 + n)
				return truncated(r, k1 + k2 + n, err);
			*data = (const unsigned char *)r->buf + r->buf_pos + k1 + k2;
			*len = (size_t)n;
			consume(r, k1 + k2 + n);
			return 1;
		}
		/* larger than the input buffer: gathered in its own */
		if (pf->big_cap < n) {
			unsigned char *b = realloc(pf->big, (size_t)n);
			if (!b)
				return gs_error_set(err, GS_ENOMEM, "out of memory");
			pf->big = b;
			pf->big_cap = (size_t)n;
		}
		consume(r, k1 + k2);
		for (size_t got = 0; got < n;) {
			size_t avail = r->buf_len - r->buf_pos, take;
			if (!avail) {
				ret = need(r, 1, err);
				if (ret < 0)
					return ret;
				avail = r->buf_len - r->buf_pos;
				if (!avail)
					return truncated(r, k1 + k2 + n, err);
			}
			take = avail < n - got ? avail : (size_t)(n - got);
			memcpy(pf->big + got, r->buf + r->buf_pos, take);
			consume(r, take);
			got += take;
		}
		*data = pf->big;
		*len = (size_t)n;
		return 1;
	}
}

/* The next packet inside the inflated buffer: 1, or 0 at its end; GS_ETRACE if it is cut. */
static int next_inner(struct trace_reader *r, const unsigned char **data, size_t *len,
		      struct gs_error *err)
{
	struct pf_state *pf = r->pf;

	while (pf->infl_pos < pf->infl_len) {
		const unsigned char *p = pf->infl + pf->infl_pos, *end = pf->infl + pf->infl_len;
		u64 tag, n;
		size_t k1 = get_varint(p, end, &tag), k2 = 0;

		if (k1 && (tag & 7) == 2)
			k2 = get_varint(p + k1, end, &n);
		if (!k1 || (tag & 7) != 2 || !k2 || n > (u64)(end - p) - k1 - k2)
			break;
		pf->infl_pos += k1 + k2 + n;
		if ((tag >> 3) != PF_TRACE_PACKET)
			continue;
		*data = p + k1 + k2;
		*len = (size_t)n;
		return 1;
	}
	if (pf->infl_pos < pf->infl_len) {
		pf->infl_pos = pf->infl_len;
		return reader_malformed(r, r->lineno, err,
					"compressed packets at byte %llu: cut inside a packet",
					(unsigned long long)pf->pkt_off);
	}
	return 0;
}

/* zlib stream (facts/perfetto.md §0: deflateInit level 6, zlib header) into pf->infl. */
static int inflate_packets(struct trace_reader *r, const ProtobufCBinaryData *in,
			   struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	z_stream zs;
	int zr;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	zs.next_in = in->data;
	zs.avail_in = (uInt)in->len;
	pf->infl_len = 0;
	do {
		if (pf->infl_len == pf->infl_cap) {
			size_t cap = pf->infl_cap ? pf->infl_cap * 2 : (1u << 20);
			unsigned char *b;
			if (cap > PF_MAX_INFLATED) {
				inflateEnd(&zs);
				return reader_malformed(r, r->lineno, err,
							"compressed packets at byte %llu: more "
							"than %u MB inflated",
							(unsigned long long)pf->pkt_off,
							PF_MAX_INFLATED >> 20);
			}
			b = realloc(pf->infl, cap);
			if (!b) {
				inflateEnd(&zs);
				return gs_error_set(err, GS_ENOMEM, "out of memory");
			}
			pf->infl = b;
			pf->infl_cap = cap;
		}
		zs.next_out = pf->infl + pf->infl_len;
		zs.avail_out = (uInt)(pf->infl_cap - pf->infl_len);
		zr = inflate(&zs, Z_NO_FLUSH);
		pf->infl_len = pf->infl_cap - zs.avail_out;
	} while (zr == Z_OK && (zs.avail_in > 0 || zs.avail_out == 0));
	inflateEnd(&zs);
	if (zr != Z_STREAM_END) {
		pf->infl_len = 0;
		return reader_malformed(r, r->lineno, err,
					"compressed packets at byte %llu: corrupt zlib stream",
					(unsigned long long)pf->pkt_off);
	}
	pf->infl_pos = 0;
	pf->in_infl = true;
	return 0;
}

/* ---- packets other than ftrace bundles -------------------------------------------------- */

static void set_str(char *dst, size_t cap, const char *src)
{
	if (src && src[0] && !dst[0])
		snprintf(dst, cap, "%s", src);
}

static const char *clock_name(u32 id)
{
	switch (id) {
	case 1: return "realtime";
	case 2: return "realtime-coarse";
	case 3: return "mono";
	case 4: return "mono-coarse";
	case 5: return "mono-raw";
	case 6: return "boot";
	case 9: return "tsc";
	case 10: return "perf";
	default: return "custom";
	}
}

static const char *ftrace_clock_name(int c)
{
	switch (c) {
	case 0: return "boot";
	case 2: return "global";
	case 3: return "local";
	case 4: return "mono-raw";
	default: return "unknown";
	}
}

static void on_system_info(struct trace_reader *r, const Pftrace__SystemInfo *si)
{
	struct trace_stats *st = &r->st;

	if (si->utsname && si->utsname->release) {
		set_str(st->kernel_release, sizeof(st->kernel_release), si->utsname->release);
		r->pf->kver = parse_kver(si->utsname->release);
	}
	set_str(st->device, sizeof(st->device), si->android_build_fingerprint);
	set_str(st->device, sizeof(st->device), si->machine_name);
	set_str(st->device, sizeof(st->device), si->android_soc_model);
	if (si->utsname)
		set_str(st->device, sizeof(st->device), si->utsname->machine);
	if (si->tracing_service_version && si->tracing_service_version[0]) /* over "perfetto" */
		snprintf(st->producer, sizeof(st->producer), "%s", si->tracing_service_version);
	if (si->has_num_cpus && si->num_cpus > 0 && si->num_cpus <= PF_MAX_CPU &&
	    st->header_cpus < 0)
		st->header_cpus = (int)si->num_cpus;
}

static void on_cpu_info(struct trace_reader *r, const Pftrace__CpuInfo *ci)
{
	struct trace_stats *st = &r->st;

	st->nr_cpu_info = ci->n_cpus < GS_MAX_CPUS ? (int)ci->n_cpus : GS_MAX_CPUS;
	for (int i = 0; i < st->nr_cpu_info; i++) {
		const Pftrace__CpuInfo__Cpu *c = ci->cpus[i];
		struct trace_cpu_info *o = &st->cpu_info[i];
		o->capacity = c->has_capacity ? c->capacity : 0;
		o->nr_freqs = c->n_frequencies < TRACE_CPU_MAX_FREQS ? (u32)c->n_frequencies
								     : TRACE_CPU_MAX_FREQS;
		memcpy(o->freqs_khz, c->frequencies, o->nr_freqs * sizeof(u32));
	}
}

/* The basename of argv[0], as the kernel's comm of an exec'd process is (a cmdline the
 * producer wrote as one string ends its argv[0] at the first space). */
static void argv0_comm(char out[TASK_COMM_LEN], const char *argv0)
{
	const char *end = argv0 + strcspn(argv0, " "), *base = argv0;

	for (const char *p = argv0; p < end; p++)
		if (*p == '/')
			base = p + 1;
	snprintf(out, TASK_COMM_LEN, "%.*s", (int)(end - base), base);
}

static int on_process_tree(struct trace_reader *r, const Pftrace__ProcessTree *pt)
{
	struct pf_comms *t = &r->pf->comms;
	int ret = 0;

	for (size_t i = 0; i < pt->n_processes && !ret; i++) {
		const Pftrace__ProcessTree__Process *p = pt->processes[i];
		char comm[TASK_COMM_LEN];
		if (!p->has_pid || !p->n_cmdline || comm_find(t, p->pid))
			continue; /* the kernel's comm, from ftrace, is better */
		if (p->cmdline_is_comm)
			snprintf(comm, sizeof(comm), "%s", p->cmdline[0]);
		else
			argv0_comm(comm, p->cmdline[0]);
		ret = comm_set(t, p->pid, comm);
	}
	for (size_t i = 0; i < pt->n_threads && !ret; i++) {
		const Pftrace__ProcessTree__Thread *th = pt->threads[i];
		if (th->has_tid)
			ret = comm_set(t, th->tid, th->name);
	}
	return ret;
}

static bool seq_seen(struct pf_state *pf, u32 seq)
{
	for (u32 i = 0; i < pf->nr_seqs; i++)
		if (pf->seqs[i] == seq)
			return true;
	if (pf->nr_seqs < GS_ARRAY_SIZE(pf->seqs))
		pf->seqs[pf->nr_seqs++] = seq;
	return false;
}

static struct pf_cpu *cpu_state(struct pf_state *pf, u32 cpu)
{
	if (cpu >= pf->nr_cpus) {
		u32 n = cpu + 1 > 64 ? cpu + 1 : 64;
		struct pf_cpu *c = realloc(pf->cpus, n * sizeof(*c));
		if (!c)
			return NULL;
		memset(c + pf->nr_cpus, 0, (n - pf->nr_cpus) * sizeof(*c));
		pf->cpus = c;
		pf->nr_cpus = n;
	}
	return &pf->cpus[cpu];
}

/* ---- ftrace bundles --------------------------------------------------------------------- */

static u64 ev_ts(const Pftrace__FtraceEvent *e)
{
	return e->timestamp;
}

/* Sets up the walk of a bundle: checks compact_sched, widens the re-ordering window, notes
 * data loss. 0, or a negative code. */
static int start_bundle(struct trace_reader *r, const Pftrace__FtraceEventBundle *b,
			struct gs_error *err)
{
	struct pf_state *pf = r->pf;
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
	if (b->cpu + 1 > pf->cpus_used)
		pf->cpus_used = b->cpu + 1;
	if (b->has_ftrace_clock && !pf->clock_from_bundle) {
		snprintf(r->st.clock, sizeof(r->st.clock), "%s", ftrace_clock_name(b->ftrace_clock));
		pf->clock_from_bundle = true;
	}
	if (b->lost_events)
		r->st.data_loss++;
	else if (b->has_previous_bundle_end_timestamp && b->previous_bundle_end_timestamp &&
		 (!c->bundle_seen || b->previous_bundle_end_timestamp > c->last_ts_ns))
		r->st.data_loss++; /* this CPU's events up to that time were not all written */
	pf->b = b;
	pf->cpu = (s32)b->cpu;
	pf->cs = NULL;
	pf->i_ev = pf->i_sw = pf->i_wk = 0;
	if (cs) {
		size_t ns = cs->n_switch_timestamp, nw = cs->n_waking_timestamp;
		bool ok = cs->n_switch_prev_state == ns && cs->n_switch_next_pid == ns &&
			  cs->n_switch_next_prio == ns && cs->n_switch_next_comm_index == ns &&
			  cs->n_waking_pid == nw && cs->n_waking_target_cpu == nw &&
			  cs->n_waking_prio == nw && cs->n_waking_comm_index == nw;
		for (size_t i = 0; ok && i < ns; i++)
			ok = cs->switch_next_comm_index[i] < cs->n_intern_table;
		for (size_t i = 0; ok && i < nw; i++)
			ok = cs->waking_comm_index[i] < cs->n_intern_table;
		if (!ok) {
			int ret = reader_malformed(r, r->lineno, err,
						   "packet at byte %llu: compact_sched arrays of "
						   "different lengths or a comm index out of range",
						   (unsigned long long)pf->pkt_off);
			if (ret < 0)
				return ret;
		} else if (ns || nw) {
			u64 acc = 0;
			pf->cs = cs;
			pf->sw_ts = ns ? cs->switch_timestamp[0] : 0;
			pf->wk_ts = nw ? cs->waking_timestamp[0] : 0;
			if (ns) {
				first = pf->sw_ts;
				for (size_t i = 0; i < ns; i++)
					acc += cs->switch_timestamp[i];
				last = acc;
			}
			acc = 0;
			if (nw) {
				first = pf->wk_ts < first ? pf->wk_ts : first;
				for (size_t i = 0; i < nw; i++)
					acc += cs->waking_timestamp[i];
				last = acc > last ? acc : last;
			}
		}
	}
	if (b->n_event) {
		u64 a = ev_ts(b->event[0]), z = ev_ts(b->event[b->n_event - 1]);
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
	return 0;
}

/* The slot of the current CPU's queue the next event is decoded into (room is made by
 * bundle_step() before each item). */
static struct event *pf_slot(struct pf_state *pf)
{
	struct pf_queue *q = &pf->cpus[pf->cpu].q;
	u32 k = q->head + q->n;

	return &q->ev[k >= q->cap ? k - q->cap : k];
}

static void pf_commit(struct pf_state *pf)
{
	struct pf_queue *q = &pf->cpus[pf->cpu].q;
	const struct event *ev = pf_slot(pf);

	if (!pf->have_max || ev->ts_ns > pf->max_ts_ns)
		pf->max_ts_ns = ev->ts_ns;
	pf->have_max = true;
	q->n++;
	pf->held++;
}

/* Room for one more event in a queue; 0 or GS_ENOMEM. */
static int queue_reserve(struct pf_queue *q)
{
	struct event *ev;
	u32 cap;

	if (q->n < q->cap)
		return 0;
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

static void fill_common(struct trace_reader *r, struct event *ev, u64 ts, s32 pid)
{
	ev->ts_ns = ts;
	ev->line = r->lineno;
	ev->cpu = r->pf->cpu;
	ev->pid = pid;
}

static void note_current(struct pf_cpu *c, s32 pid, s32 prio, const char *comm)
{
	c->cur_known = true;
	c->cur_pid = pid;
	c->cur_prio = prio;
	copy_comm(c->cur_comm, comm);
}

/* The name of a task, as best known; "" when unknown. */
static const char *known_comm(struct pf_state *pf, s32 pid, const char *fallback)
{
	const struct pf_comm *e = comm_find(&pf->comms, pid);
	return e ? e->comm : fallback ? fallback : "";
}

static void count_name(struct trace_reader *r, const char *name)
{
	reader_count_unknown(r, name, strlen(name));
}

/* compact switch i: 1 event committed, 0 none (the first of its CPU). */
static int compact_switch(struct trace_reader *r, size_t i, struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	const Pftrace__FtraceEventBundle__CompactSched *cs = pf->cs;
	struct pf_cpu *c = &pf->cpus[pf->cpu];
	const char *next_comm = cs->intern_table[cs->switch_next_comm_index[i]];
	struct event *ev;
	bool raw;

	if (comm_set(&pf->comms, cs->switch_next_pid[i], next_comm) < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (!c->cur_known) {
		note_current(c, cs->switch_next_pid[i], cs->switch_next_prio[i], next_comm);
		count_name(r, "sched_switch (compact, first of its CPU)");
		return 0;
	}
	ev = pf_slot(pf);
	ev->type = EV_SWITCH;
	fill_common(r, ev, pf->sw_ts, c->cur_pid);
	ev->sw.prev_pid = c->cur_pid;
	ev->sw.prev_prio = c->cur_prio;
	copy_comm(ev->sw.prev_comm, c->cur_pid ? known_comm(pf, c->cur_pid, c->cur_comm)
					       : c->cur_comm);
	ev->sw.prev_state = pf_prev_state(cs->switch_prev_state[i], pf->kver, &raw);
	r->st.raw_prev_state += raw;
	ev->sw.next_pid = cs->switch_next_pid[i];
	ev->sw.next_prio = cs->switch_next_prio[i];
	copy_comm(ev->sw.next_comm, next_comm);
	note_current(c, ev->sw.next_pid, ev->sw.next_prio, next_comm);
	pf_commit(pf);
	return 1;
}

static int compact_waking(struct trace_reader *r, size_t i, struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	const Pftrace__FtraceEventBundle__CompactSched *cs = pf->cs;
	struct pf_cpu *c = &pf->cpus[pf->cpu];
	const char *comm = cs->intern_table[cs->waking_comm_index[i]];
	struct event *ev;

	if (comm_set(&pf->comms, cs->waking_pid[i], comm) < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (!c->cur_known) {
		count_name(r, "sched_waking (compact, before a switch)");
		return 0;
	}
	ev = pf_slot(pf);
	ev->type = EV_WAKING;
	fill_common(r, ev, pf->wk_ts, c->cur_pid);
	copy_comm(ev->wake.comm, comm);
	ev->wake.pid = cs->waking_pid[i];
	ev->wake.prio = cs->waking_prio[i];
	ev->wake.target_cpu = cs->waking_target_cpu[i];
	ev->wake.irq = 0; /* the compact format has no flags: task context */
	pf_commit(pf);
	return 1;
}

static const char *const typed_names[] = {
	[PFTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK] = "task_newtask",
	[PFTRACE__FTRACE_EVENT__EVENT_TASK_RENAME] = "task_rename",
	[PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK] = "sched_process_fork",
};

/* An event this reader has no message for: counted by its FtraceEvent field number. */
static void count_unknown_number(struct trace_reader *r, const Pftrace__FtraceEvent *e)
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
	count_name(r, name);
}

/* A generic event (FtraceEvent.generic): turned into the stream when its name is one the text
 * reader knows (e.g. sched_pelt_cfs, which has no typed message), through the same fields. */
static int generic_event(struct trace_reader *r, const Pftrace__FtraceEvent *e,
			 struct gs_error *err)
{
	const Pftrace__GenericFtraceEvent *g = e->generic;
	char vals[FIELDSET_MAX][32];
	struct fieldset fs = {0};
	struct event *ev;
	const char *why;
	char whybuf[160];
	int type;

	if (!g->event_name || !g->event_name[0]) {
		count_name(r, "generic event without a name");
		return 0;
	}
	type = text_event_type(g->event_name, strlen(g->event_name));
	if (type < 0) {
		count_name(r, g->event_name);
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
	ev = pf_slot(r->pf);
	why = event_from_fields(type, &fs, ev, whybuf, sizeof(whybuf));
	if (why)
		return reader_malformed(r, r->lineno, err, "packet at byte %llu: %s",
					(unsigned long long)r->pf->pkt_off, why);
	ev->type = (enum event_type)type;
	if (event_is_wake(ev->type))
		ev->wake.irq =
			e->has_common_flags ? event_irq_from_common_flags(e->common_flags) : 0;
	fill_common(r, ev, ev_ts(e), (s32)e->pid);
	pf_commit(r->pf);
	return 1;
}

static void wake_fields(struct pf_state *pf, struct event *ev, const Pftrace__FtraceEvent *e,
			const Pftrace__SchedWakeupFtraceEvent *w)
{
	/* the emitting context; without common_flags (older traced_probes) task context */
	ev->wake.irq = e->has_common_flags ? event_irq_from_common_flags(e->common_flags) : 0;
	copy_comm(ev->wake.comm, w->comm && w->comm[0] ? w->comm : known_comm(pf, w->pid, NULL));
	ev->wake.pid = w->pid;
	ev->wake.prio = w->prio;
	ev->wake.target_cpu = w->target_cpu;
}

/* A typed event: 1 committed, 0 none, or a negative code. */
static int typed_event(struct trace_reader *r, const Pftrace__FtraceEvent *e, struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	struct pf_cpu *c = &pf->cpus[pf->cpu];
	struct event *ev = pf_slot(pf);
	const char *why;
	bool raw;
	int m;

	switch (e->event_case) {
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH: {
		const Pftrace__SchedSwitchFtraceEvent *s = e->sched_switch;
		if (!s->has_prev_pid || !s->has_next_pid)
			return reader_malformed(r, r->lineno, err,
						"packet at byte %llu: sched_switch without %s",
						(unsigned long long)pf->pkt_off,
						s->has_prev_pid ? "next_pid" : "prev_pid");
		ev->type = EV_SWITCH;
		copy_comm(ev->sw.prev_comm, s->prev_comm && s->prev_comm[0]
						    ? s->prev_comm : known_comm(pf, s->prev_pid, NULL));
		ev->sw.prev_pid = s->prev_pid;
		ev->sw.prev_prio = s->prev_prio;
		ev->sw.prev_state = pf_prev_state(s->prev_state, pf->kver, &raw);
		r->st.raw_prev_state += raw;
		copy_comm(ev->sw.next_comm, s->next_comm && s->next_comm[0]
						    ? s->next_comm : known_comm(pf, s->next_pid, NULL));
		ev->sw.next_pid = s->next_pid;
		ev->sw.next_prio = s->next_prio;
		if (comm_set(&pf->comms, s->next_pid, s->next_comm) < 0 ||
		    comm_set(&pf->comms, s->prev_pid, s->prev_comm) < 0)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		note_current(c, s->next_pid, s->next_prio, s->next_comm);
		break;
	}
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP:
		ev->type = EV_WAKEUP;
		wake_fields(pf, ev, e, e->sched_wakeup);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING:
		ev->type = EV_WAKING;
		wake_fields(pf, ev, e, e->sched_waking);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW:
		ev->type = EV_WAKEUP_NEW;
		wake_fields(pf, ev, e, e->sched_wakeup_new);
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_MIGRATE_TASK: {
		const Pftrace__SchedMigrateTaskFtraceEvent *m2 = e->sched_migrate_task;
		ev->type = EV_MIGRATE;
		copy_comm(ev->migrate.comm, m2->comm);
		ev->migrate.pid = m2->pid;
		ev->migrate.prio = m2->prio;
		ev->migrate.orig_cpu = m2->orig_cpu;
		ev->migrate.dest_cpu = m2->dest_cpu;
		break;
	}
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_FREQUENCY:
		ev->type = EV_CPU_FREQUENCY;
		ev->power.state = e->cpu_frequency->state;
		ev->power.cpu_id = e->cpu_frequency->cpu_id;
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_CPU_IDLE:
		ev->type = EV_CPU_IDLE;
		ev->power.state = e->cpu_idle->state;
		ev->power.cpu_id = e->cpu_idle->cpu_id;
		break;
	case PFTRACE__FTRACE_EVENT__EVENT_PRINT: {
		const char *buf = e->print->buf ? e->print->buf : "";
		m = text_marker(r, buf, buf + strlen(buf), ev, &why);
		if (m < 0)
			return reader_malformed(r, r->lineno, err, "packet at byte %llu: %s",
						(unsigned long long)pf->pkt_off, why);
		if (m == 0)
			return 0;
		break;
	}
	case PFTRACE__FTRACE_EVENT__EVENT_TASK_NEWTASK:
		if (comm_set(&pf->comms, e->task_newtask->pid, e->task_newtask->comm) < 0)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		count_name(r, typed_names[e->event_case]);
		return 0;
	case PFTRACE__FTRACE_EVENT__EVENT_TASK_RENAME:
		if (comm_set(&pf->comms, e->task_rename->pid, e->task_rename->newcomm) < 0)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		count_name(r, typed_names[e->event_case]);
		return 0;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_FORK:
		if (comm_set(&pf->comms, e->sched_process_fork->child_pid,
			     e->sched_process_fork->child_comm) < 0)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		count_name(r, typed_names[e->event_case]);
		return 0;
	case PFTRACE__FTRACE_EVENT__EVENT_SCHED_PROCESS_EXIT:
		count_name(r, typed_names[e->event_case]);
		return 0;
	case PFTRACE__FTRACE_EVENT__EVENT_GENERIC:
		return generic_event(r, e, err);
	default:
		count_unknown_number(r, e);
		return 0;
	}
	fill_common(r, ev, ev_ts(e), e->has_pid ? (s32)e->pid : -1);
	pf_commit(pf);
	return 1;
}

/*
 * The next item of the bundle in time order (typed events first on equal timestamps, then
 * wakings, then switches): 1 an event committed, 0 an item used without an event, 2 the bundle
 * is done; or a negative GS_E* code.
 */
static int bundle_step(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	const Pftrace__FtraceEventBundle *b = pf->b;
	const Pftrace__FtraceEventBundle__CompactSched *cs = pf->cs;
	bool have_ev = pf->i_ev < b->n_event;
	bool have_sw = cs && pf->i_sw < cs->n_switch_timestamp;
	bool have_wk = cs && pf->i_wk < cs->n_waking_timestamp;
	u64 t_ev = have_ev ? ev_ts(b->event[pf->i_ev]) : UINT64_MAX;
	int ret;

	if (!have_ev && !have_sw && !have_wk)
		return 2;
	if (queue_reserve(&pf->cpus[pf->cpu].q) < 0)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if (have_ev && (!have_sw || t_ev <= pf->sw_ts) && (!have_wk || t_ev <= pf->wk_ts)) {
		ret = typed_event(r, b->event[pf->i_ev++], err);
	} else if (have_wk && (!have_sw || pf->wk_ts <= pf->sw_ts)) {
		ret = compact_waking(r, pf->i_wk++, err);
		if (pf->i_wk < cs->n_waking_timestamp)
			pf->wk_ts += cs->waking_timestamp[pf->i_wk];
	} else {
		ret = compact_switch(r, pf->i_sw++, err);
		if (pf->i_sw < cs->n_switch_timestamp)
			pf->sw_ts += cs->switch_timestamp[pf->i_sw];
	}
	return ret;
}

static void end_packet(struct pf_state *pf)
{
	pf->pkt = NULL;
	pf->b = NULL;
	pf->cs = NULL;
	arena_reset(&pf->arena);
}

/* Unpacks and handles one packet; a bundle is left in pf->b to walk. 0 or a negative code. */
static int on_packet(struct trace_reader *r, const unsigned char *data, size_t len, bool inner,
		     struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	Pftrace__TracePacket *p;
	int ret = 0;

	r->lineno++;
	r->st.lines++;
	p = pftrace__trace_packet__unpack(&pf->alloc, len, data);
	if (!p) {
		arena_reset(&pf->arena);
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
	case PFTRACE__TRACE_PACKET__DATA_FTRACE_EVENTS:
		pf->pkt = p;
		ret = start_bundle(r, p->ftrace_events, err);
		if (ret < 0 || !pf->b)
			end_packet(pf);
		return ret;
	case PFTRACE__TRACE_PACKET__DATA_COMPRESSED_PACKETS:
		if (inner)
			ret = reader_malformed(r, r->lineno, err,
					       "packet at byte %llu: compressed packets inside "
					       "compressed packets",
					       (unsigned long long)pf->pkt_off);
		else
			ret = inflate_packets(r, &p->compressed_packets, err);
		break;
	case PFTRACE__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS:
		ret = gs_error_set(err, GS_ETRACE,
				   "'%s': packet at byte %llu: zstd-compressed packets are not "
				   "supported; convert the trace without compression (e.g. "
				   "`traceconv decompress_packets`)",
				   r->path, (unsigned long long)pf->pkt_off);
		break;
	case PFTRACE__TRACE_PACKET__DATA_SYSTEM_INFO:
		on_system_info(r, p->system_info);
		break;
	case PFTRACE__TRACE_PACKET__DATA_CPU_INFO:
		on_cpu_info(r, p->cpu_info);
		break;
	case PFTRACE__TRACE_PACKET__DATA_PROCESS_TREE:
		ret = on_process_tree(r, p->process_tree);
		if (ret < 0)
			ret = gs_error_set(err, ret, "out of memory");
		break;
	case PFTRACE__TRACE_PACKET__DATA_CLOCK_SNAPSHOT:
		if (p->clock_snapshot->has_primary_trace_clock && !pf->clock_from_bundle)
			snprintf(r->st.clock, sizeof(r->st.clock), "%s",
				 clock_name(p->clock_snapshot->primary_trace_clock));
		break;
	case PFTRACE__TRACE_PACKET__DATA_TRACE_CONFIG:
		set_str(r->st.producer, sizeof(r->st.producer), "perfetto");
		break;
	default:
		break;
	}
	end_packet(pf);
	return ret;
}

/* The CPU whose queue head is the oldest event (the lowest CPU on equal times); -1 if none. */
static int oldest_queue(const struct pf_state *pf)
{
	int best = -1;
	u64 best_ts = 0;

	for (u32 c = 0; c < pf->cpus_used; c++) {
		const struct pf_queue *q = &pf->cpus[c].q;
		if (q->n && (best < 0 || q->ev[q->head].ts_ns < best_ts)) {
			best = (int)c;
			best_ts = q->ev[q->head].ts_ns;
		}
	}
	return best;
}

/* Decodes more: one bundle item, or the next packet. 0, or a negative code. */
static int decode_more(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = r->pf;
	const unsigned char *data = NULL;
	size_t len = 0;
	int ret;

	if (pf->b) {
		ret = bundle_step(r, err);
		if (ret < 0)
			return ret;
		if (ret == 2)
			end_packet(pf);
		return 0;
	}
	if (pf->in_infl) {
		ret = next_inner(r, &data, &len, err);
		if (ret < 0)
			return ret;
		if (ret == 1)
			return on_packet(r, data, len, true, err);
		pf->in_infl = false;
	}
	ret = next_outer(r, &data, &len, err);
	if (ret < 0)
		return ret;
	if (ret == 0) {
		pf->input_done = true;
		return 0;
	}
	return on_packet(r, data, len, false, err);
}

int pf_fill(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = r->pf;

	for (;;) {
		int c = oldest_queue(pf);
		int ret;

		if (c >= 0) {
			struct pf_queue *q = &pf->cpus[c].q;
			const struct event *ev = &q->ev[q->head];
			if (pf->input_done || pf->held >= PF_MAX_HELD ||
			    ev->ts_ns + pf->window_ns <= pf->max_ts_ns) {
				*reader_slot(r) = *ev;
				q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
				q->n--;
				pf->held--;
				reader_commit(r);
				return 0;
			}
		} else if (pf->input_done) {
			r->done = true;
			return 0;
		}
		ret = decode_more(r, err);
		if (ret < 0)
			return ret;
	}
}

int pf_open(struct trace_reader *r, struct gs_error *err)
{
	struct pf_state *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	pf->alloc.alloc = arena_alloc;
	pf->alloc.free = arena_free;
	pf->alloc.allocator_data = &pf->arena;
	pf->window_ns = READER_DEFAULT_WINDOW_NS;
	r->pf = pf;
	r->st.format = TRACE_FMT_PERFETTO;
	return 0;
}

void pf_close(struct trace_reader *r)
{
	struct pf_state *pf = r->pf;

	if (!pf)
		return;
	arena_release(&pf->arena);
	free(pf->big);
	free(pf->infl);
	for (u32 c = 0; c < pf->nr_cpus; c++)
		free(pf->cpus[c].q.ev);
	free(pf->cpus);
	free(pf->comms.slot);
	free(pf);
	r->pf = NULL;
}
