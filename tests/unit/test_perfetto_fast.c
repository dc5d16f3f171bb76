/*
 * test_perfetto_fast.c - the Perfetto reader's two decoding paths
 * (src/trace/perfetto/perfetto_event.c): the common events read without protobuf-c, everything
 * else through it; and an event's way out of its CPU's queue (perfetto.c).
 */
#include "pf_encode.h"
#include "trace/perfetto/perfetto_priv.h" /* pf_get_varint() */

/* The reader reads common events (switch, wakeups, frequency, idle) without protobuf-c when
 * their bytes hold only the declared fields (perfetto_event.c), and through protobuf-c
 * otherwise. The same events with an undeclared field added to each message and to the bundle
 * (which sends every one down protobuf-c's path) must give the same stream, field by field. */
static void put_mixed(struct out *o, bool extra)
{
	static uint8_t junk[3] = {2, 7, 7}; /* a length-prefixed field: its length, its bytes */
	ProtobufCMessageUnknownField uf[2] = {
		{.tag = 900, .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, .len = 3, .data = junk},
		{.tag = 901, .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, .len = 3, .data = junk},
	};
	Pftrace__FtraceEvent *evs[6] = {
		ev_switch(1000, "a\nb", 11, 1, "next-task-long-name", 12),
		ev_wake(2000, 12, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING, "w", 13, 2),
		ev_wake(3000, 12, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "", 11, 1),
		ev_wake(4000, 12, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW, "n", 14, 3),
		ev_power(5000, true, 1800000, 3),
		ev_power(6000, false, 4294967295u, 1),
	};
	evs[5]->has_pid = false;
	evs[1]->has_common_flags = true;
	evs[1]->common_flags = 0x08;
	evs[0]->sched_switch->has_next_prio = false;
	for (int i = 0; extra && i < 6; i++) {
		ProtobufCMessage *m = (ProtobufCMessage *)evs[i]->sched_switch; /* any of the union */
		evs[i]->base.n_unknown_fields = 1;
		evs[i]->base.unknown_fields = &uf[0];
		m->n_unknown_fields = 1;
		m->unknown_fields = &uf[1];
	}
	put_bundle(o, 1, evs, 6, false);
}

static void test_fast_path_equals_protobuf_c(void **state)
{
	struct out a = {0}, b = {0};
	struct got ga, gb;

	(void)state;
	put_system_info(&a, "6.1.0");
	put_system_info(&b, "6.1.0");
	put_mixed(&a, false);
	put_mixed(&b, true);
	read_out(&a, NULL, &ga);
	read_out(&b, NULL, &gb);
	assert_int_equal(ga.ret, 0);
	assert_int_equal(gb.ret, 0);
	assert_int_equal(ga.n, 6);
	assert_int_equal(gb.n, 6);
	/* the messages with an unknown field took protobuf-c's path: none was lost */
	for (int i = 0; i < 6; i++) {
		const struct event *x = &ga.ev[i], *y = &gb.ev[i];
		assert_int_equal(x->type, y->type);
		assert_int_equal(x->ts_ns, y->ts_ns);
		assert_int_equal(x->cpu, y->cpu);
		assert_int_equal(x->pid, y->pid);
	}
	assert_int_equal(ga.ev[0].type, EV_SWITCH);
	assert_string_equal(ga.ev[0].sw.prev_comm, "a"); /* cut at the newline */
	assert_string_equal(gb.ev[0].sw.prev_comm, "a");
	assert_string_equal(ga.ev[0].sw.next_comm, "next-task-long-");
	assert_string_equal(gb.ev[0].sw.next_comm, "next-task-long-");
	assert_int_equal(ga.ev[0].sw.prev_state, 1);
	assert_int_equal(gb.ev[0].sw.prev_state, 1);
	assert_int_equal(ga.ev[0].sw.next_prio, 0); /* absent: protobuf-c's default */
	assert_int_equal(gb.ev[0].sw.next_prio, 0);
	assert_int_equal(ga.ev[1].type, EV_WAKING);
	assert_int_equal(ga.ev[1].wake.irq, gb.ev[1].wake.irq);
	assert_true(ga.ev[1].wake.irq != 0); /* hardirq flag */
	assert_int_equal(ga.ev[1].wake.target_cpu, 2);
	assert_int_equal(gb.ev[1].wake.target_cpu, 2);
	/* an empty comm is the name the switch gave pid 11 */
	assert_string_equal(ga.ev[2].wake.comm, "a");
	assert_string_equal(gb.ev[2].wake.comm, "a");
	assert_int_equal(ga.ev[3].type, EV_WAKEUP_NEW);
	assert_string_equal(gb.ev[3].wake.comm, "n");
	assert_int_equal(ga.ev[4].power.state, 1800000);
	assert_int_equal(gb.ev[4].power.state, 1800000);
	assert_int_equal(ga.ev[4].power.cpu_id, 3);
	assert_int_equal(gb.ev[4].power.cpu_id, 3);
	assert_int_equal(ga.ev[5].power.state, 4294967295u);
	assert_int_equal(gb.ev[5].power.state, 4294967295u);
	assert_int_equal(ga.ev[5].pid, -1);
	assert_int_equal(gb.ev[5].pid, -1);
	free(a.p);
	free(b.p);
}

/* A comm that its newline cuts to nothing ("\nq") still names its task, as the kernel's comm
 * would read: "" from then on, so a later event of that task without a comm gets "", not the
 * name an earlier event gave it. */
static void test_comm_cut_to_nothing(void **state)
{
	struct out o = {0};
	struct got g;
	Pftrace__FtraceEvent *evs[3] = {
		ev_switch(1000, "a", 11, 1, "named", 12),
		ev_switch(2000, "b", 13, 1, "\nq", 12),
		ev_wake(3000, 12, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "", 12, 1),
	};

	(void)state;
	put_system_info(&o, "6.1.0");
	put_bundle(&o, 1, evs, 3, false);
	read_out(&o, NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.ev[1].sw.next_comm, "");
	assert_int_equal(g.ev[2].type, EV_WAKEUP);
	assert_string_equal(g.ev[2].wake.comm, "");
	free(o.p);
}

/* The fast path's comms are copied whole (16 bytes) unless a byte of their buffer is a newline:
 * a newline in the second 8 bytes still cuts the comm, and what an earlier, longer comm left in
 * the buffer after the NUL (a newline among it) does not change the shorter one. The same
 * events with an unknown field (protobuf-c's path, pf_copy_comm()'s byte loop) agree. */
static void test_comm_copy_whole(void **state)
{
	for (int extra = 0; extra < 2; extra++) {
		static uint8_t junk[3] = {2, 7, 7};
		ProtobufCMessageUnknownField uf = {
			.tag = 900, .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, .len = 3,
			.data = junk};
		Pftrace__FtraceEvent *evs[5] = {
			ev_switch(1000, "0123456789\nxyzw", 11, 1, "abcdefghijklmnopq", 12),
			ev_switch(2000, "q", 12, 1, "r", 13),
			ev_wake(3000, 13, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "abcdefgh\n", 14, 1),
			ev_wake(4000, 13, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "s", 15, 1),
			ev_wake(5000, 13, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "", 11, 1),
		};
		struct out o = {0};
		struct got g;

		(void)state;
		for (int i = 0; extra && i < 5; i++) {
			evs[i]->base.n_unknown_fields = 1;
			evs[i]->base.unknown_fields = &uf;
		}
		put_system_info(&o, "6.1.0");
		put_bundle(&o, 1, evs, 5, false);
		read_out(&o, NULL, &g);
		assert_int_equal(g.ret, 0);
		assert_int_equal(g.n, 5);
		assert_string_equal(g.ev[0].sw.prev_comm, "0123456789");
		assert_string_equal(g.ev[0].sw.next_comm, "abcdefghijklmno");
		assert_string_equal(g.ev[1].sw.prev_comm, "q");
		assert_string_equal(g.ev[1].sw.next_comm, "r");
		assert_string_equal(g.ev[2].wake.comm, "abcdefgh");
		assert_string_equal(g.ev[3].wake.comm, "s");
		/* no comm: the name the first switch gave pid 11, cut */
		assert_string_equal(g.ev[4].wake.comm, "0123456789");
		free(o.p);
	}
}

/* The protobuf varint of v into out, seven bits a byte, least significant first: the wire
 * format's definition, written here apart from the reader. Its length. */
static size_t ref_varint(u64 v, unsigned char *out)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (unsigned char)v;
	return n;
}

/* pf_get_varint() reads a varint in one word when 8 bytes can be read, else byte by byte: both
 * must give every length from 1 to 10 bytes its value and length, whatever follows it, and 0 for
 * a varint cut short. Checked on each power of two and its neighbours and on random values,
 * with the varint alone in its buffer, followed by bytes with the high bit set, and cut. */
static void test_varint_lengths(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int i = 0; i < 64 * 3 + 2000; i++) {
		unsigned char buf[32];
		u64 v, got = 0;
		size_t n;

		if (i < 64 * 3)
			v = (1ull << (i / 3)) + (u64)(i % 3) - 1; /* 2^k - 1, 2^k, 2^k + 1 */
		else {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			v = seed >> (seed & 63);
		}
		if (i == 64 * 3 - 1)
			v = UINT64_MAX;
		n = ref_varint(v, buf);
		/* alone: exactly n readable bytes (the byte loop when n < 8) */
		assert_int_equal(pf_get_varint(buf, buf + n, &got), n);
		assert_true(got == v);
		/* followed by continuation bytes, 16 readable (the word read for n <= 8) */
		memset(buf + n, 0xff, sizeof(buf) - n);
		got = 0;
		assert_int_equal(pf_get_varint(buf, buf + 16 + n, &got), n);
		assert_true(got == v);
		/* cut one byte short: incomplete */
		assert_int_equal(pf_get_varint(buf, buf + n - 1, &got), 0);
	}
}

/* A generic event `name` with unsigned fields names[i] = vals[i] (freed by free_event()). */
static Pftrace__FtraceEvent *ev_generic(u64 ts, u32 pid, const char *name, int n,
					const char *const names[], const u64 vals[])
{
	Pftrace__FtraceEvent *e = new_event(ts, pid);
	Pftrace__GenericFtraceEvent *g = calloc(1, sizeof(*g));

	pftrace__generic_ftrace_event__init(g);
	g->event_name = (char *)name;
	g->n_field = (size_t)n;
	g->field = calloc((size_t)n, sizeof(*g->field));
	for (int i = 0; i < n; i++) {
		Pftrace__GenericFtraceEvent__Field *f = calloc(1, sizeof(*f));
		pftrace__generic_ftrace_event__field__init(f);
		f->name = (char *)names[i];
		f->value_case = PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE;
		f->uint_value = vals[i];
		g->field[i] = f;
	}
	e->event_case = PFTRACE__FTRACE_EVENT__EVENT_GENERIC;
	e->generic = g;
	return e;
}

/* An event leaves its CPU's queue for the reader's ring in the bytes its type uses: 96 of
 * struct event's 160 for every type but the util ones, which are copied whole. Util events whose
 * fields lie past the first 96 bytes (util_est's enqueued and ewma, uclamp's limits, and the
 * fields the generic path sets to "absent": util_rt, freq_khz, idle_state), on two CPUs among
 * switches, come out with the values written into the trace. */
static void test_util_event_whole(void **state)
{
	static const char *const est[] = {"cpu", "pid", "enqueued", "ewma"};
	static const char *const clamp[] = {"pid", "util_avg", "uclamp_min", "uclamp_max"};
	const u64 est_v[] = {1, 5, 777, 555}, clamp_v[] = {5, 300, 100, 900};
	struct out o = {0};
	struct got g;
	int seen = 0;

	(void)state;
	for (u32 cpu = 0; cpu < 2; cpu++) {
		u64 t = 1000000 + 100 * cpu;
		Pftrace__FtraceEvent *e[4] = {
			ev_switch(t, "swapper", 0, 0, "a-task-name-16c", 5),
			ev_generic(t + 10, 5, "sched_util_est_se", 4, est, est_v),
			ev_generic(t + 20, 5, "uclamp_util_se", 4, clamp, clamp_v),
			ev_switch(t + 30, "a-task-name-16c", 5, 1, "swapper", 0),
		};
		put_bundle(&o, cpu, e, 4, false);
	}
	read_out(&o, NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.n, 8);
	for (int i = 0; i < g.n; i++) {
		const struct event *ev = &g.ev[i];
		if (ev->type == EV_UTIL_EST_SE) {
			assert_int_equal(ev->util.util_est_enqueued, 777);
			assert_int_equal(ev->util.util_est_ewma, 555);
			assert_true(ev->util.uclamp_min == EV_NO_VALUE);
		} else if (ev->type == EV_UCLAMP_UTIL_SE) {
			assert_int_equal(ev->util.uclamp_min, 100);
			assert_int_equal(ev->util.uclamp_max, 900);
			assert_true(ev->util.util_est_enqueued == EV_NO_VALUE);
		} else {
			continue;
		}
		assert_int_equal(ev->util.pid, 5);
		assert_true(ev->util.util_rt == EV_NO_VALUE && ev->util.util_dl == EV_NO_VALUE);
		assert_true(ev->util.freq_khz == EV_NO_VALUE);
		assert_int_equal(ev->util.idle_state, -1);
		seen++;
	}
	assert_int_equal(seen, 4);
	free(o.p);
}

/* The merge hands each queue's events out in runs (one walk of its tree per run, the reader's
 * room and the leaving rule read once): five CPUs whose times tie often within and across CPUs
 * (steps of 0 to 3 ns among steps of microseconds), in bundles of different lengths, read with
 * the default re-ordering window, a window of 1 ns and one of a second (the reader's ring then
 * grows while runs leave, and a run stops where its room ends). Every event comes out once, in
 * (time, CPU, order in its CPU) order: the order sorted here. */
static void test_merge_runs(void **state)
{
	enum { NCPU = 5, PER_CPU = 6000 };
	static const u64 windows[] = {0, 1, 1000000000};
	/* the reference: ts_ns, cpu, and in line the event's place in its CPU's bundles */
	struct event *ref = calloc(NCPU * PER_CPU, sizeof(*ref));
	u64 seed = 0x2545f4914f6cdd1dull;
	struct out o = {0};
	u32 next[NCPU] = {0};
	u64 ts[NCPU];
	size_t n = 0;

	(void)state;
	assert_non_null(ref);
	for (u32 c = 0; c < NCPU; c++)
		ts[c] = 1000000;
	/* bundles of 1 to 700 events, the CPUs in turn */
	for (bool left = true; left;) {
		left = false;
		for (u32 c = 0; c < NCPU; c++) {
			Pftrace__FtraceEvent *e[700];
			u32 k = 0, len;

			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			len = 1 + (u32)(seed % 700);
			while (k < len && next[c] < PER_CPU) {
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				ts[c] += (seed & 3) ? (seed >> 8) % 4 : (seed >> 8) % 20000;
				ref[n].ts_ns = ts[c];
				ref[n].cpu = (s32)c;
				ref[n].line = next[c];
				e[k++] = ev_power(ts[c], false, c * PER_CPU + next[c], c);
				next[c]++;
				n++;
			}
			if (k)
				put_bundle(&o, c, e, k, false);
			left |= next[c] < PER_CPU;
		}
	}
	assert_int_equal(n, NCPU * PER_CPU);
	qsort(ref, n, sizeof(*ref), cmp_ts_cpu_line);
	for (size_t w = 0; w < GS_ARRAY_SIZE(windows); w++) {
		struct reader_opts opts = {.reorder_window_ns = windows[w]};
		struct trace_reader *r = NULL;
		struct gs_error err;
		struct event ev;
		const char *path = write_tmp(&o);
		size_t i = 0;
		int ret;

		gs_error_clear(&err);
		assert_int_equal(trace_reader_open(path, &opts, &r, &err), 0);
		while ((ret = trace_reader_next(r, &ev, &err)) == 1) {
			assert_true(i < n);
			if (ev.power.state != (u32)ref[i].cpu * PER_CPU + ref[i].line)
				fail_msg("window %llu: event %zu is cpu %d's %u at %llu, not cpu %d's "
					 "%llu at %llu", (unsigned long long)windows[w], i, ev.cpu,
					 ev.power.state % PER_CPU, (unsigned long long)ev.ts_ns,
					 ref[i].cpu, (unsigned long long)ref[i].line,
					 (unsigned long long)ref[i].ts_ns);
			assert_int_equal(ev.ts_ns, ref[i].ts_ns);
			i++;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(i, n);
		assert_int_equal(trace_reader_stats(r)->disorder_beyond_window, 0);
		trace_reader_free(r);
		unlink(path);
	}
	free(o.p);
	free(ref);
}

/* A run stops where the leaving rule stops it, whatever the other queues hold: CPU 0's events
 * every 100 us from 0 to 40 ms in four bundles of 10 ms (a window of 30 ms: twice a bundle's
 * span and 10 ms), then CPU 1's from 12.05 ms in one bundle. Read with a re-ordering window of
 * 1 ns, so that the reader itself re-sorts nothing: CPU 0's events after 10 ms wait in its queue
 * while CPU 1's queue is empty, and every event comes out in time order, none late. */
static void test_merge_run_waits(void **state)
{
	struct reader_opts opts = {.reorder_window_ns = 1};
	struct out o = {0};
	struct trace_reader *r = NULL;
	struct gs_error err;
	struct event ev;
	const char *path;
	u64 prev = 0, n = 0;
	int ret;

	(void)state;
	for (u32 b = 0; b < 4; b++) {
		Pftrace__FtraceEvent *e[100];
		for (u32 i = 0; i < 100; i++)
			e[i] = ev_power(1000000 + 100000 * (u64)(100 * b + i), false, 1, 0);
		put_bundle(&o, 0, e, 100, false);
	}
	{
		Pftrace__FtraceEvent *e[280];
		for (u32 i = 0; i < 280; i++)
			e[i] = ev_power(1000000 + 12050000 + 100000 * (u64)i, false, 1, 1);
		put_bundle(&o, 1, e, 280, false);
	}
	path = write_tmp(&o);
	free(o.p);
	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, &opts, &r, &err), 0);
	while ((ret = trace_reader_next(r, &ev, &err)) == 1) {
		if (ev.ts_ns < prev)
			fail_msg("event %llu at %llu after one at %llu", (unsigned long long)n,
				 (unsigned long long)ev.ts_ns, (unsigned long long)prev);
		prev = ev.ts_ns;
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, 680);
	assert_int_equal(trace_reader_stats(r)->disorder_beyond_window, 0);
	trace_reader_free(r);
	unlink(path);
}

/* A comm of every length from 0 to 20 bytes, in a switch in the middle of a bundle (16 bytes of
 * it read at once) and in the bundle's last event (within 16 bytes of the bundle's end: copied
 * by its length), with a newline in some: each is the comm's first 15 bytes, cut at its first
 * newline, written here byte by byte. */
static void test_comm_lengths(void **state)
{
	const char *src = "abcdefghijklmnopqrst";

	(void)state;
	for (int len = 0; len <= 20; len++) {
		for (int nl = -1; nl < len && nl < 16; nl += 7) {
			char comm[32], want[16];
			Pftrace__FtraceEvent *evs[3];
			struct out o = {0};
			struct got g;
			int k;

			memcpy(comm, src, (size_t)len);
			comm[len] = '\0';
			if (nl >= 0)
				comm[nl] = '\n';
			for (k = 0; k < 15 && k < len && comm[k] != '\n'; k++)
				want[k] = comm[k];
			want[k] = '\0';
			evs[0] = ev_switch(1000, comm, 11, 1, comm, 12);
			evs[1] = ev_wake(2000, 12, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, comm, 13,
					 1);
			evs[2] = ev_switch(3000, "x", 12, 1, comm, 14);
			put_bundle(&o, 1, evs, 3, false);
			read_out(&o, NULL, &g);
			free(o.p);
			assert_int_equal(g.ret, 0);
			assert_int_equal(g.n, 3);
			if (len == 0)
				continue; /* no name: the table's, checked elsewhere */
			assert_string_equal(g.ev[0].sw.prev_comm, want);
			assert_string_equal(g.ev[0].sw.next_comm, want);
			assert_string_equal(g.ev[1].wake.comm, want);
			assert_string_equal(g.ev[2].sw.next_comm, want);
		}
	}
}

/* pf_prev_state_inline() takes the layout of current kernels without a call: it must give what
 * pf_prev_state() gives, bits and *raw, for every kernel's layout and for values inside and
 * outside each (every value below 2^12, then the higher bits one at a time, and negatives). */
static void test_prev_state_inline(void **state)
{
	static const int kvers[] = {0, 3018, 4002, 4007, 4008, 4013, 4014, 5010, 6001, 7002};

	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(kvers); i++) {
		for (int j = 0; j < 4096 + 64 + 3; j++) {
			s64 v = j < 4096 ? j : j < 4096 + 64 ? (s64)(1ull << (j - 4096)) : -(j - 4160);
			bool raw_a = true, raw_b = false;
			u32 a = pf_prev_state_inline(v, kvers[i], &raw_a);
			u32 b = pf_prev_state(v, kvers[i], &raw_b);

			if (a != b || raw_a != raw_b)
				fail_msg("kernel %d, prev_state %lld: %#x%s inline, %#x%s", kvers[i],
					 (long long)v, a, raw_a ? " raw" : "", b, raw_b ? " raw" : "");
		}
	}
}

/* An event packed alone, appended to o as a bundle's field 2 (tag 0x12, its length). */
static void put_bundle_event(struct out *o, Pftrace__FtraceEvent *e)
{
	size_t len = pftrace__ftrace_event__get_packed_size(e);
	unsigned char hdr[2] = {0x12, (unsigned char)len}, body[256];

	assert_true(len < 128 && len <= sizeof(body));
	pftrace__ftrace_event__pack(e, body);
	out_put(o, hdr, 2);
	out_put(o, body, len);
	free_event(e);
}

/* A packet of bundle bytes b (a TracePacketLazy: the bundle as written, field by field),
 * appended to o; frees b's bytes. */
static void put_lazy_bundle(struct out *o, struct out *b)
{
	Pftrace__TracePacketLazy pkt;
	unsigned char *packed, hdr[3];
	size_t len;

	pftrace__trace_packet_lazy__init(&pkt);
	pkt.data_case = PFTRACE__TRACE_PACKET_LAZY__DATA_FTRACE_EVENTS;
	pkt.ftrace_events.data = b->p;
	pkt.ftrace_events.len = b->n;
	len = pftrace__trace_packet_lazy__get_packed_size(&pkt);
	assert_true(len < (1u << 14)); /* its length in two bytes (below 128, the second 0) */
	packed = malloc(len);
	assert_non_null(packed);
	pftrace__trace_packet_lazy__pack(&pkt, packed);
	hdr[0] = 0x0a;
	hdr[1] = (unsigned char)(len | 0x80);
	hdr[2] = (unsigned char)(len >> 7);
	out_put(o, hdr, 3);
	out_put(o, packed, len);
	free(packed);
	free(b->p);
}

/* A bundle walked in place takes its events in runs between its other fields: three events with
 * the cpu, an undeclared field and lost_events between them (traced_probes writes the cpu first;
 * protobuf-c writes fields in their numbers' order, so the encoders never make this) come out
 * as written; the same bundle with its last event cut short is not a valid bundle (protobuf-c's
 * answer, as the walk gives it up): one malformed packet, no event. */
static void test_bundle_fields_between_events(void **state)
{
	(void)state;
	for (int cut = 0; cut < 2; cut++) {
		static const unsigned char cpu2[] = {0x08, 0x02}, undeclared[] = {0x48, 0x05},
					   lost[] = {0x18, 0x00};
		struct out b = {0}, o = {0};
		struct got g;

		put_bundle_event(&b, ev_power(1000, false, 1, 2));
		out_put(&b, cpu2, 2);
		put_bundle_event(&b, ev_power(2000, false, 2, 2));
		out_put(&b, undeclared, 2);
		out_put(&b, lost, 2);
		put_bundle_event(&b, ev_power(3000, false, 3, 2));
		if (cut)
			b.n--; /* the last event one byte short of its length */
		put_lazy_bundle(&o, &b);
		read_out(&o, NULL, &g);
		free(o.p);
		assert_int_equal(g.ret, cut ? GS_ETRACE : 0); /* no usable event when cut */
		if (cut) {
			assert_int_equal(g.st.malformed, 1);
			continue;
		}
		assert_int_equal(g.n, 3);
		for (int i = 0; i < 3; i++) {
			assert_int_equal(g.ev[i].ts_ns, 1000 * (u64)(i + 1));
			assert_int_equal(g.ev[i].cpu, 2);
			assert_int_equal(g.ev[i].power.state, i + 1);
		}
		assert_int_equal(g.st.malformed, 0);
	}
}

/* The payload parsers read hot (no check against the event's end for a tag and a varint of one
 * or two bytes) where 32 bytes of the bundle follow the event, checked otherwise. Pids and
 * states of every varint length (1 to 5 bytes, and 10 for a negative int32), in a switch, a
 * wakeup and a cpu_idle, each in the middle of a bundle (hot) and again as its last events
 * (checked): every field is the value written. */
static void test_hot_fields(void **state)
{
	static const s32 pids[] = {0, 127, 128, 16383, 16384, 2097151, 2097152, INT32_MAX, -1};

	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(pids); i++) {
		Pftrace__FtraceEvent *evs[12];
		struct out o = {0};
		struct got g;
		s32 pid = pids[i];
		int n = 0;

		for (int rep = 0; rep < 2; rep++) {
			u64 t = 1000 + 100 * (u64)rep;

			evs[n++] = ev_switch(t, "prev", pid, 1, "next", pid);
			evs[n++] = ev_wake(t + 10, 1, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "w",
					   pid, 3);
			evs[n++] = ev_power(t + 20, false, (u32)pid, 2);
			for (int k = 0; rep == 0 && k < 6; k++) /* 32 bytes and more after them */
				evs[n++] = ev_power(t + 30 + (u64)k, true, 500000, 1);
		}
		put_bundle(&o, 1, evs, (size_t)n, false);
		read_out(&o, NULL, &g);
		free(o.p);
		assert_int_equal(g.ret, 0);
		assert_int_equal(g.n, n);
		assert_int_equal(g.st.malformed, 0);
		for (int at = 0; at < n; at += 9) {
			assert_int_equal(g.ev[at].sw.prev_pid, pid);
			assert_int_equal(g.ev[at].sw.next_pid, pid);
			assert_int_equal(g.ev[at].sw.next_prio, 120);
			assert_string_equal(g.ev[at].sw.next_comm, "next");
			assert_int_equal(g.ev[at + 1].wake.pid, pid);
			assert_int_equal(g.ev[at + 1].wake.target_cpu, 3);
			assert_int_equal(g.ev[at + 2].power.state, (u32)pid);
			assert_int_equal(g.ev[at + 2].power.cpu_id, 2);
		}
	}
}

/* A cpu_idle whose cpu_id, its last field, is a varint of two bytes cut after the first (its
 * payload's length and the event's say one byte less): read hot, the varint runs past the
 * event's end; the event is not valid, in the middle of a bundle as at its end: malformed and
 * skipped, the events around it kept. */
static void test_hot_varint_cut(void **state)
{
	(void)state;
	for (int last = 0; last < 2; last++) {
		static const unsigned char cut[] = {0x12, 0x0b, 0x08, 0xd0, 0x0f, 0x10, 0x00,
						    0x6a, 0x04, 0x08, 0x01, 0x10, 0x81};
		struct out b = {0}, o = {0};
		struct got g;

		static const unsigned char cpu2[] = {0x08, 0x02};

		out_put(&b, cpu2, 2);
		put_bundle_event(&b, ev_power(1000, false, 1, 2));
		if (!last)
			out_put(&b, cut, sizeof(cut));
		for (int k = 0; k < 6; k++)
			put_bundle_event(&b, ev_power(3000 + (u64)k, false, 1, 2));
		if (last)
			out_put(&b, cut, sizeof(cut));
		put_lazy_bundle(&o, &b);
		read_out(&o, NULL, &g);
		free(o.p);
		assert_int_equal(g.st.malformed, 1);
		assert_int_equal(g.ret, 0);
		for (int i = 0; i < 7; i++) /* the events around it, in order */
			assert_int_equal(g.ev[i].ts_ns, i ? 3000 + (u64)(i - 1) : 1000);
		assert_int_equal(g.n, 7);
	}
}

/* Events read fast are read up to PF_FAST_BATCH (16) at a time, ahead of their turn; a batch
 * ends before an event protobuf-c must read. A bundle of 40 cpu_idle events of which event 17
 * has an undeclared field (protobuf-c's path) and event 20 is cut (not valid: malformed) gives
 * the other 39 in order, each with its own state, and one malformed event; the same in strict
 * mode fails at event 20, as when the events were read one at a time. */
static void test_fast_batches(void **state)
{
	(void)state;
	for (int strict = 0; strict < 2; strict++) {
		static const unsigned char cpu2[] = {0x08, 0x02};
		static const unsigned char cut[] = {0x12, 0x0b, 0x08, 0xd0, 0x0f, 0x10, 0x00,
						    0x6a, 0x04, 0x08, 0x01, 0x10, 0x81};
		static uint8_t junk[3] = {2, 7, 7};
		ProtobufCMessageUnknownField uf = {
			.tag = 900, .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, .len = 3,
			.data = junk};
		struct reader_opts opts = {.strict = strict != 0};
		struct out b = {0}, o = {0};
		struct got g;
		int k = 0;

		out_put(&b, cpu2, 2);
		for (int i = 0; i < 40; i++) {
			Pftrace__FtraceEvent *e = ev_power(1000 + 10 * (u64)i, false, (u32)i, 2);
			if (i == 20) {
				free_event(e);
				out_put(&b, cut, sizeof(cut));
				continue;
			}
			if (i == 17) {
				e->base.n_unknown_fields = 1;
				e->base.unknown_fields = &uf;
			}
			put_bundle_event(&b, e);
		}
		put_lazy_bundle(&o, &b);
		read_out(&o, &opts, &g);
		free(o.p);
		if (strict) {
			assert_int_equal(g.ret, GS_ETRACE);
			assert_non_null(strstr(g.err.msg, "event 21 of the ftrace bundle"));
			continue;
		}
		assert_int_equal(g.ret, 0);
		assert_int_equal(g.st.malformed, 1);
		assert_int_equal(g.total, 39);
		for (int i = 0; i < 40; i++) {
			if (i == 20)
				continue;
			if (k < MAX_EV) {
				assert_int_equal(g.ev[k].power.state, i);
				assert_int_equal(g.ev[k].ts_ns, 1000 + 10 * (u64)i);
			}
			k++;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_path_equals_protobuf_c),
		cmocka_unit_test(test_varint_lengths),
		cmocka_unit_test(test_comm_cut_to_nothing),
		cmocka_unit_test(test_comm_copy_whole),
		cmocka_unit_test(test_util_event_whole),
		cmocka_unit_test(test_merge_runs),
		cmocka_unit_test(test_merge_run_waits),
		cmocka_unit_test(test_comm_lengths),
		cmocka_unit_test(test_prev_state_inline),
		cmocka_unit_test(test_bundle_fields_between_events),
		cmocka_unit_test(test_hot_fields),
		cmocka_unit_test(test_hot_varint_cut),
		cmocka_unit_test(test_fast_batches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
