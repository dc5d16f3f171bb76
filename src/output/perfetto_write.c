/*
 * perfetto_write.c - the --perfetto writer (perfetto_write.h): TrackDescriptor and TrackEvent
 * packets, packed by protobuf-c (the messages of perfetto.proto, field numbers from Perfetto's
 * public track_event protos), each written as one `Trace.packet` field (tag 0x0a, varint length)
 * as the rows come, so memory does not grow with the run: the writer keeps one packet buffer,
 * the last value of each frequency track, and per task whether its track is described and
 * whether a slice is open.
 */
#include "output/perfetto_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/pid_table.h"
#include "trace/perfetto.pb-c.h"

#define PFW_SEQ 1 /* trusted_packet_sequence_id of every packet */

struct pfw_task {
	bool open;
	int open_cpu;
};

struct pf_writer {
	FILE *f;
	struct tl_sink sink;
	unsigned char *buf;
	size_t cap;
	int werr;     /* errno of the first failed write; 0 none */
	bool nomem;
	bool started; /* the first packet (sequence_flags) and the group tracks are written */
	u64 first_ts, last_ts;
	u64 described[(GS_MAX_CPUS * 4 + 2 * GS_MAX_CPUS + 63) / 64 + 1];
	u32 last_khz[2][GS_MAX_CPUS]; /* [traced][policy]; 0: none written */
	struct pid_table tasks; /* struct pfw_task by pid, each allocated on its own */
};

/* ---- packets ------------------------------------------------------------------------------ */

static void put_packet(struct pf_writer *w, Pftrace__TracePacket *pkt)
{
	size_t len, k = 0;
	unsigned char hdr[11];
	u64 v;

	if (w->werr || w->nomem)
		return;
	pkt->has_trusted_packet_sequence_id = true;
	pkt->trusted_packet_sequence_id = PFW_SEQ;
	len = pftrace__trace_packet__get_packed_size(pkt);
	if (len > w->cap) {
		unsigned char *b = realloc(w->buf, len);
		if (!b) {
			w->nomem = true;
			return;
		}
		w->buf = b;
		w->cap = len;
	}
	pftrace__trace_packet__pack(pkt, w->buf);
	hdr[k++] = 0x0a; /* Trace.packet = 1, length-delimited */
	for (v = len; v > 0x7f; v >>= 7)
		hdr[k++] = (unsigned char)(v | 0x80);
	hdr[k++] = (unsigned char)v;
	if (fwrite(hdr, 1, k, w->f) != k || fwrite(w->buf, 1, len, w->f) != len)
		w->werr = errno ? errno : EIO;
}

static void put_track(struct pf_writer *w, u64 uuid, u64 parent, const char *name, bool counter)
{
	Pftrace__TracePacket pkt;
	Pftrace__TrackDescriptor td;
	Pftrace__CounterDescriptor cd;

	pftrace__trace_packet__init(&pkt);
	pftrace__track_descriptor__init(&td);
	pftrace__counter_descriptor__init(&cd);
	td.has_uuid = true;
	td.uuid = uuid;
	if (parent) {
		td.has_parent_uuid = true;
		td.parent_uuid = parent;
	}
	td.name = (char *)name;
	if (counter)
		td.counter = &cd;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	pkt.track_descriptor = &td;
	put_packet(w, &pkt);
}

/* A TrackEvent of `type` on a track at ts; name for slices and instants, value for counters. */
static void put_event(struct pf_writer *w, u64 ts, u64 uuid, Pftrace__TrackEvent__Type type,
		      const char *name, s64 value, Pftrace__DebugAnnotation **ann, size_t n_ann)
{
	Pftrace__TracePacket pkt;
	Pftrace__TrackEvent te;

	pftrace__trace_packet__init(&pkt);
	pftrace__track_event__init(&te);
	pkt.has_timestamp = true;
	pkt.timestamp = ts;
	te.has_type = true;
	te.type = type;
	te.has_track_uuid = true;
	te.track_uuid = uuid;
	te.name = (char *)name;
	if (type == PFTRACE__TRACK_EVENT__TYPE__TYPE_COUNTER) {
		te.has_counter_value = true;
		te.counter_value = value;
	}
	te.debug_annotations = ann;
	te.n_debug_annotations = n_ann;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_TRACK_EVENT;
	pkt.track_event = &te;
	put_packet(w, &pkt);
}

static void counter(struct pf_writer *w, u64 ts, u64 uuid, s64 value)
{
	put_event(w, ts, uuid, PFTRACE__TRACK_EVENT__TYPE__TYPE_COUNTER, NULL, value, NULL, 0);
}

/* ---- tracks described on first use --------------------------------------------------------- */

static void start(struct pf_writer *w, u64 ts)
{
	Pftrace__TracePacket pkt;

	if (w->started)
		return;
	w->started = true;
	w->first_ts = ts;
	/* a first packet that clears the sequence's incremental state (none is used) */
	pftrace__trace_packet__init(&pkt);
	pkt.has_sequence_flags = true;
	pkt.sequence_flags = 1; /* SEQ_INCREMENTAL_STATE_CLEARED */
	put_packet(w, &pkt);
	put_track(w, PFW_UUID_POLICIES, 0, "govsim: policies", false);
	put_track(w, PFW_UUID_CPUS, 0, "govsim: CPUs", false);
	put_track(w, PFW_UUID_TASKS, 0, "govsim: tasks (emulated)", false);
	put_track(w, PFW_UUID_SETTINGS, 0, "govsim: run settings", false);
}

/* Whether bit i of the described set was already set; sets it. */
static bool seen_bit(struct pf_writer *w, unsigned i)
{
	u64 m = 1ull << (i % 64);
	bool was = w->described[i / 64] & m;

	w->described[i / 64] |= m;
	return was;
}

static void describe_cpu(struct pf_writer *w, int cpu)
{
	static const char *const what[4] = {"util (cfs+rt)", "util clamped", "uclamp_min",
					    "uclamp_max"};
	char name[64];

	if (seen_bit(w, (unsigned)cpu))
		return;
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "cpu%d %s", cpu, what[i]);
		put_track(w, PFW_UUID_CPU(cpu, i), PFW_UUID_CPUS, name, true);
	}
}

static void describe_freq(struct pf_writer *w, int policy, bool traced)
{
	char name[64];

	if (seen_bit(w, GS_MAX_CPUS + 2u * (unsigned)policy + traced))
		return;
	snprintf(name, sizeof(name), "policy%d freq %s (kHz)", policy,
		 traced ? "traced" : "emulated");
	put_track(w, PFW_UUID_FREQ(policy, traced), PFW_UUID_POLICIES, name, true);
}

static void freq(struct pf_writer *w, u64 ts, int policy, bool traced, u32 khz)
{
	if (policy < 0 || policy >= GS_MAX_CPUS || w->last_khz[traced][policy] == khz)
		return;
	describe_freq(w, policy, traced);
	w->last_khz[traced][policy] = khz;
	counter(w, ts, PFW_UUID_FREQ(policy, traced), khz);
}

/* ---- the sink ------------------------------------------------------------------------------ */

static void on_eval(void *ctx, const struct tl_eval *e)
{
	struct pf_writer *w = ctx;

	if (e->cpu < 0 || e->cpu >= GS_MAX_CPUS)
		return;
	start(w, e->ts_ns);
	w->last_ts = e->ts_ns;
	describe_cpu(w, e->cpu);
	counter(w, e->ts_ns, PFW_UUID_CPU(e->cpu, 0), (s64)(e->util_cfs + e->util_rt));
	counter(w, e->ts_ns, PFW_UUID_CPU(e->cpu, 1), (s64)e->util);
	counter(w, e->ts_ns, PFW_UUID_CPU(e->cpu, 2), e->uclamp_min);
	counter(w, e->ts_ns, PFW_UUID_CPU(e->cpu, 3), e->uclamp_max);
	freq(w, e->ts_ns, e->policy, false, e->freq_khz);
}

static void on_traced_freq(void *ctx, u64 ts_ns, int policy, u32 khz)
{
	struct pf_writer *w = ctx;

	start(w, ts_ns);
	w->last_ts = ts_ns > w->last_ts ? ts_ns : w->last_ts;
	freq(w, ts_ns, policy, true, khz);
}

/* The task's state, added (and its track described) when new; NULL when out of memory. */
static struct pfw_task *task_slot(struct pf_writer *w, s32 pid, const char *comm)
{
	struct pfw_task *t;
	char name[64];

	if (pid_table_reserve(&w->tasks) < 0)
		return NULL;
	if ((t = pid_table_find(&w->tasks, pid)))
		return t;
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	pid_table_add(&w->tasks, pid, t);
	snprintf(name, sizeof(name), "%s %d", comm ? comm : "", (int)pid);
	put_track(w, PFW_UUID_TASK(pid), PFW_UUID_TASKS, name, false);
	return t;
}

static void slice_end(struct pf_writer *w, struct pfw_task *t, s32 pid, u64 ts)
{
	put_event(w, ts, PFW_UUID_TASK(pid), PFTRACE__TRACK_EVENT__TYPE__TYPE_SLICE_END, NULL, 0,
		  NULL, 0);
	t->open = false;
}

static void on_task(void *ctx, const struct tl_task *e)
{
	struct pf_writer *w = ctx;
	struct pfw_task *t;
	char name[16];

	if (e->pid <= 0 || (e->event != TL_TASK_SWITCH_IN && e->event != TL_TASK_PREEMPT &&
			    e->event != TL_TASK_SLEEP))
		return;
	start(w, e->ts_ns);
	w->last_ts = e->ts_ns > w->last_ts ? e->ts_ns : w->last_ts;
	t = task_slot(w, e->pid, e->comm);
	if (!t) {
		w->nomem = true;
		return;
	}
	if (t->open)
		slice_end(w, t, e->pid, e->ts_ns);
	if (e->event != TL_TASK_SWITCH_IN)
		return;
	snprintf(name, sizeof(name), "cpu%d", e->cpu);
	put_event(w, e->ts_ns, PFW_UUID_TASK(e->pid), PFTRACE__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		  name, 0, NULL, 0);
	t->open = true;
	t->open_cpu = e->cpu;
}

/* ---- the run's settings, the end --------------------------------------------------------- */

static void put_settings(struct pf_writer *w, const struct run_result *r)
{
	const char *kv[][2] = {
		{"label", r->label},	     {"trace", r->trace},
		{"platform", r->platform},   {"governor", r->governor},
		{"params", r->params},	     {"timing", r->timing},
		{"util_source", r->util_source}, {"power_model", r->power_model},
		{"kernel", r->kernel},	     {"policy", r->policy},
		{"notes", r->notes},	     {"govsim_version", r->govsim_version},
	};
	enum { N = sizeof(kv) / sizeof(kv[0]) };
	Pftrace__DebugAnnotation a[N], *ap[N];
	size_t n = 0;

	for (size_t i = 0; i < N; i++) {
		if (!kv[i][1][0])
			continue;
		pftrace__debug_annotation__init(&a[n]);
		a[n].name = (char *)kv[i][0];
		a[n].value_case = PFTRACE__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
		a[n].string_value = (char *)kv[i][1];
		ap[n] = &a[n];
		n++;
	}
	put_event(w, w->first_ts, PFW_UUID_SETTINGS, PFTRACE__TRACK_EVENT__TYPE__TYPE_INSTANT,
		  "govsim run", 0, ap, n);
}

struct pf_writer *pf_writer_new(FILE *f)
{
	struct pf_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->f = f;
	pid_table_init(&w->tasks, 256);
	w->sink.ctx = w;
	w->sink.eval = on_eval;
	w->sink.task = on_task;
	w->sink.traced_freq = on_traced_freq;
	return w;
}

const struct tl_sink *pf_writer_sink(struct pf_writer *w)
{
	return &w->sink;
}

int pf_writer_finish(struct pf_writer *w, const struct run_result *r, struct gs_error *err)
{
	int ret = 0;

	start(w, 0);
	for (u32 i = 0; i < w->tasks.cap; i++) { /* in the table's order */
		const struct pid_slot *e = &w->tasks.slot[i];
		if (e->pid && ((struct pfw_task *)e->val)->open)
			slice_end(w, e->val, e->pid, w->last_ts);
	}
	put_settings(w, r);
	if (w->nomem)
		ret = gs_error_set(err, GS_ENOMEM, "out of memory");
	else if (w->werr) {
		errno = w->werr;
		ret = gs_error_set(err, GS_EIO, "write error: %s", strerror(w->werr));
	}
	pf_writer_free(w);
	return ret;
}

void pf_writer_free(struct pf_writer *w)
{
	if (!w)
		return;
	free(w->buf);
	for (u32 i = 0; i < w->tasks.cap; i++)
		free(w->tasks.slot[i].val);
	pid_table_free(&w->tasks);
	free(w);
}
