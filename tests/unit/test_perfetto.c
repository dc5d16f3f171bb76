/*
 * test_perfetto.c - the Perfetto protobuf reader (src/trace/perfetto/perfetto.c).
 *
 * Checks: the two real traces of traces/perfetto/ give the counts of traces/README.md and of an
 * independent wire-format walk in Python (the compact sched switches and wakings, the atrace
 * markers by kind, the raw prev_state values, which switches leave their task sleeping), the
 * kernel release and device from system_info, comms that agree with process_tree, and a stream
 * in time order; synthetic traces encoded here with protobuf-c (the generated perfetto.pb-c.h):
 * typed events (switch, wakeups, migrate, cpu_frequency, cpu_idle, print markers, a generic
 * sched_pelt_cfs), comms filled from process_tree, compressed packets, lost events, compact sched
 * across two bundles of one CPU (the prev task from the last switch of the bundle before, the
 * waker from the running task, the first switch of a CPU dropped), bundles of two CPUs
 * overlapping in time merged in order, prev_state by kernel version, and a truncated file
 * failing with its byte offset.
 * Does not check: `govsim run` on Perfetto against text (tests/golden/perfetto.sh), speed
 * (tools/bench.sh).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "pf_encode.h"
#include "trace/perfetto/perfetto_priv.h" /* READER_INFLATE_*, pf_state.merge_steps */

/* ---- the real traces ----------------------------------------------------------------------- */

static const char *name_count(const struct trace_stats *st, const char *name, u64 *n)
{
	*n = 0;
	for (int i = 0; i < st->nr_unknown; i++)
		if (strcmp(st->unknown[i].name, name) == 0)
			*n = st->unknown[i].count;
	return name;
}

static void test_systing(void **state)
{
	struct trace_reader *r = NULL;
	struct gs_error err;
	struct event ev;
	const struct trace_stats *st;
	u64 n_sw = 0, n_wk = 0, sleeps = 0, prev = 0, first_dropped, wk_dropped, irq;
	bool in_order = true, node_seen = false;
	int ret;

	(void)state;
	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(test_path("traces/perfetto/systing-x86-22cpu.pftrace"),
					   NULL, &r, &err), 0);
	while ((ret = trace_reader_next(r, &ev, &err)) == 1) {
		if (n_sw + n_wk && ev.ts_ns < prev)
			in_order = false;
		prev = ev.ts_ns;
		if (ev.type == EV_SWITCH) {
			n_sw++;
			sleeps += switch_prev_sleeps(ev.sw.prev_state);
			/* raw task states keep S D T t X Z only: never P, I or a preempted mark
			 * unless the value itself said so (0x102 and 0x80 are in the encoding) */
			assert_true((ev.sw.prev_state & ~0x1ffu) == 0);
			if (ev.sw.next_pid == 1115673) {
				assert_string_equal(ev.sw.next_comm, "node");
				node_seen = true;
			}
		} else if (ev.type == EV_WAKING) {
			n_wk++;
		}
	}
	assert_int_equal(ret, 0);
	st = trace_reader_stats(r);
	assert_int_equal(st->format, TRACE_FMT_PERFETTO);
	/* traces/README.md: 5,053 compact switches and 3,678 wakings; the first switch of each
	 * of the 22 CPUs has no prev task, and 22 wakings come before their CPU's first switch
	 * (counted by the Python walk): dropped, as trace_processor drops them */
	name_count(st, "sched_switch (compact, first of its CPU)", &first_dropped);
	name_count(st, "sched_waking (compact, before a switch)", &wk_dropped);
	assert_int_equal(first_dropped, 22);
	assert_int_equal(wk_dropped, 22);
	assert_int_equal(n_sw + first_dropped, 5053);
	assert_int_equal(n_wk + wk_dropped, 3678);
	assert_int_equal(st->by_type[EV_SWITCH], n_sw);
	/* raw prev_state: 579 x 0x2001, 323 x 0x402, 54 x 0x200 are outside the encoding; of all
	 * 5031 switches 2608 leave their task asleep (S, D or the I/dead values) */
	assert_int_equal(st->raw_prev_state, 579 + 323 + 54);
	assert_int_equal(sleeps, 2608);
	assert_int_equal(st->max_cpu, 21);
	assert_true(in_order);
	/* comms: process_tree names pid 1115673 "node", as the kernel's comm does */
	assert_true(node_seen);
	name_count(st, "ftrace event #24", &irq);
	assert_int_equal(irq, 4284);
	assert_string_equal(st->kernel_release, ""); /* no system_info */
	assert_string_equal(st->clock, "boot");
	trace_reader_free(r);
}

static void test_pixel_markers(void **state)
{
	struct reader_opts opts = {.allow_markers_only = true};
	struct got g;

	(void)state;
	read_path(test_path("traces/perfetto/pixel7pro-atrace.pftrace"), &opts, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.total, 0);
	/* 6,246 print events (traces/README.md), by kind from the Python walk */
	assert_int_equal(g.st.markers[MARKER_ATRACE_BEGIN], 3122);
	assert_int_equal(g.st.markers[MARKER_ATRACE_END], 3122);
	assert_int_equal(g.st.markers[MARKER_ATRACE_ASYNC_BEGIN], 1);
	assert_int_equal(g.st.markers[MARKER_ATRACE_ASYNC_END], 1);
	assert_int_equal(g.st.markers[MARKER_OTHER], 0);
	assert_int_equal(g.st.nr_unknown, 0); /* never an event named after a marker */
	assert_string_equal(g.st.kernel_release,
			    "5.10.157-android13-4-00001-g914e947b041d-ab10144456");
	assert_string_equal(g.st.device,
			    "google/cheetah/cheetah:13/TQ3A.230705.001/10216780:user/release-keys");
	assert_string_equal(g.st.producer, "Perfetto v25.0 (N/A)");
	assert_string_equal(g.st.clock, "boot");
	assert_int_equal(g.st.lines, 7676); /* packets */

	/* without allow_markers_only, nothing to replay is bad input */
	read_path(test_path("traces/perfetto/pixel7pro-atrace.pftrace"), NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "no usable event in 7676 packets"));
}

/* ---- synthetic traces ---------------------------------------------------------------------- */

static void test_typed_events(void **state)
{
	struct out o = {0};
	Pftrace__FtraceEvent *e0[8], *e1[3];
	Pftrace__TracePacket pkt;
	Pftrace__ProcessTree pt;
	Pftrace__ProcessTree__Process proc, *procs[1] = {&proc};
	char *cmdline[1] = {(char *)"/system/bin/surfaceflinger"};
	Pftrace__GenericFtraceEvent g;
	Pftrace__GenericFtraceEvent__Field f[3], *fp[3] = {&f[0], &f[1], &f[2]};
	struct got got;
	size_t n = 0;

	(void)state;
	put_system_info(&o, "5.10.0-test");
	pftrace__trace_packet__init(&pkt);
	pftrace__process_tree__init(&pt);
	pftrace__process_tree__process__init(&proc);
	proc.has_pid = true;
	proc.pid = 42;
	proc.n_cmdline = 1;
	proc.cmdline = cmdline;
	pt.n_processes = 1;
	pt.processes = procs;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_PROCESS_TREE;
	pkt.process_tree = &pt;
	put_packet(&o, &pkt);

	e0[n++] = ev_print(1000000, 7, "cpu_frequency_devlib: state=500000 cpu_id=0\n");
	e0[n++] = ev_power(1000100, true, 1000000, 0);
	e0[n++] = ev_wake(1000200, 7, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, NULL, 42, 0);
	e0[n++] = ev_switch(1000300, "swapper/0", 0, 0, "", 42);
	e0[n++] = ev_print(1000400, 42, "B|42|draw\n");
	e0[n++] = ev_switch(1000500, "surfaceflinger", 42, 0x100, "kworker/0:1", 9);
	e0[n++] = ev_power(1000600, false, 2, 0);
	/* a generic event the text reader knows: sched_pelt_cfs, root cfs_rq */
	e0[n] = new_event(1000700, 9);
	pftrace__generic_ftrace_event__init(&g);
	g.event_name = (char *)"sched_pelt_cfs";
	for (int i = 0; i < 3; i++)
		pftrace__generic_ftrace_event__field__init(&f[i]);
	f[0].name = (char *)"cpu";
	f[0].value_case = PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_INT_VALUE;
	f[0].int_value = 0;
	f[1].name = (char *)"path";
	f[1].value_case = PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_STR_VALUE;
	f[1].str_value = (char *)"/";
	f[2].name = (char *)"util";
	f[2].value_case = PFTRACE__GENERIC_FTRACE_EVENT__FIELD__VALUE_UINT_VALUE;
	f[2].uint_value = 321;
	g.n_field = 3;
	g.field = fp;
	e0[n]->event_case = PFTRACE__FTRACE_EVENT__EVENT_GENERIC;
	e0[n]->generic = &g;
	n++;
	/* the generic event is on the stack: encode without free_event() for it */
	{
		Pftrace__FtraceEventBundle b;
		pftrace__trace_packet__init(&pkt);
		pftrace__ftrace_event_bundle__init(&b);
		b.has_cpu = true;
		b.cpu = 0;
		b.n_event = n;
		b.event = e0;
		pkt.data_case = PFTRACE__TRACE_PACKET__DATA_FTRACE_EVENTS;
		pkt.ftrace_events = &b;
		put_packet(&o, &pkt);
		for (size_t i = 0; i + 1 < n; i++)
			free_event(e0[i]);
		free(e0[n - 1]);
	}
	/* cpu 1, overlapping cpu 0's bundle in time, with lost events */
	e1[0] = ev_wake(1000050, 0, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING, "a", 50, 1);
	e1[1] = ev_wake(1000250, 0, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW, "b", 51, 1);
	e1[2] = ev_switch(1000450, "swapper/1", 0, 0, "a", 50);
	put_bundle(&o, 1, e1, 3, true);

	read_out(&o, NULL, &got);
	free(o.p);
	assert_int_equal(got.ret, 0);
	assert_int_equal(got.st.format, TRACE_FMT_PERFETTO);
	assert_true(got.in_order);
	assert_int_equal(got.total, 10);
	/* time order across the two bundles */
	assert_int_equal(got.ev[0].type, EV_FREQ_MARKER);
	assert_int_equal(got.ev[0].power.state, 500000);
	assert_int_equal(got.ev[1].type, EV_WAKING);
	assert_int_equal(got.ev[1].cpu, 1);
	assert_int_equal(got.ev[1].ts_ns, 1000050);
	assert_int_equal(got.ev[2].type, EV_CPU_FREQUENCY);
	assert_int_equal(got.ev[2].power.state, 1000000);
	assert_int_equal(got.ev[3].type, EV_WAKEUP);
	assert_int_equal(got.ev[3].wake.pid, 42);
	assert_string_equal(got.ev[3].wake.comm, "surfaceflinger"); /* from process_tree */
	assert_int_equal(got.ev[4].type, EV_WAKEUP_NEW);
	assert_int_equal(got.ev[5].type, EV_SWITCH);
	assert_string_equal(got.ev[5].sw.next_comm, "surfaceflinger");
	assert_int_equal(got.ev[6].type, EV_SWITCH); /* cpu 1 at 1000450 */
	assert_int_equal(got.ev[6].cpu, 1);
	assert_int_equal(got.ev[7].type, EV_SWITCH);
	assert_int_equal(got.ev[7].sw.prev_state, TASK_REPORT_MAX); /* 0x100 on 5.10: R+ */
	assert_int_equal(got.ev[7].pid, 42);
	assert_int_equal(got.ev[8].type, EV_CPU_IDLE);
	assert_int_equal(got.ev[8].power.state, 2);
	assert_int_equal(got.ev[9].type, EV_PELT_CFS);
	assert_int_equal(got.ev[9].util.util, 321);
	assert_int_equal(got.ev[9].util.path, EV_PATH_ROOT);
	assert_int_equal(got.st.markers[MARKER_DEVLIB_FREQ], 1);
	assert_int_equal(got.st.markers[MARKER_ATRACE_BEGIN], 1);
	assert_int_equal(got.st.data_loss, 1);
	assert_string_equal(got.st.kernel_release, "5.10.0-test");
}

/* Compact sched over two bundles of CPU 0: delta timestamps restart in each bundle; the prev
 * task of a switch is the next task of the switch before, across the bundle boundary. */
static void put_compact(struct out *o, u32 cpu, const u64 *dts, const s64 *st, const s32 *pid,
			const u32 *ci, size_t ns, const u64 *wdts, const s32 *wpid, size_t nw,
			char **intern, size_t ni)
{
	Pftrace__TracePacket pkt;
	Pftrace__FtraceEventBundle b;
	Pftrace__FtraceEventBundle__CompactSched cs;
	s32 prio[8], tcpu[8];
	u32 wci[8];

	for (int i = 0; i < 8; i++) {
		prio[i] = 120;
		tcpu[i] = 1;
		wci[i] = 0;
	}
	pftrace__trace_packet__init(&pkt);
	pftrace__ftrace_event_bundle__init(&b);
	pftrace__ftrace_event_bundle__compact_sched__init(&cs);
	cs.n_intern_table = ni;
	cs.intern_table = intern;
	cs.n_switch_timestamp = cs.n_switch_prev_state = cs.n_switch_next_pid = ns;
	cs.n_switch_next_prio = cs.n_switch_next_comm_index = ns;
	cs.switch_timestamp = (u64 *)dts;
	cs.switch_prev_state = (s64 *)st;
	cs.switch_next_pid = (s32 *)pid;
	cs.switch_next_prio = prio;
	cs.switch_next_comm_index = (u32 *)ci;
	cs.n_waking_timestamp = cs.n_waking_pid = cs.n_waking_target_cpu = nw;
	cs.n_waking_prio = cs.n_waking_comm_index = nw;
	cs.waking_timestamp = (u64 *)wdts;
	cs.waking_pid = (s32 *)wpid;
	cs.waking_target_cpu = tcpu;
	cs.waking_prio = prio;
	cs.waking_comm_index = wci;
	b.has_cpu = true;
	b.cpu = cpu;
	b.compact_sched = &cs;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_FTRACE_EVENTS;
	pkt.ftrace_events = &b;
	put_packet(o, &pkt);
}

static void test_compact_sched(void **state)
{
	struct out o = {0};
	char *intern1[] = {(char *)"render", (char *)"worker", (char *)"swapper/0"};
	char *intern2[] = {(char *)"render", (char *)"swapper/0"};
	/* bundle 1: switches at 1000 (to worker 10: first of the CPU, dropped), 1500 (to
	 * swapper 0, worker sleeps); a waking of render (pid 20) at 1200 by worker */
	const u64 d1[] = {1000, 500};
	const s64 s1[] = {0, 1};
	const s32 p1[] = {10, 0};
	const u32 c1[] = {1, 2};
	const u64 w1[] = {1200};
	const s32 wp1[] = {20};
	/* bundle 2: switches at 2000 (to render 20) and 2100 (to idle, render preempted) */
	const u64 d2[] = {2000, 100};
	const s64 s2[] = {0, 0x100};
	const s32 p2[] = {20, 0};
	const u32 c2[] = {0, 1};
	struct got g;

	(void)state;
	put_compact(&o, 0, d1, s1, p1, c1, 2, w1, wp1, 1, intern1, 3);
	put_compact(&o, 0, d2, s2, p2, c2, 2, NULL, NULL, 0, intern2, 2);
	read_out(&o, NULL, &g);
	free(o.p);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.total, 4);
	assert_int_equal(g.ev[0].type, EV_WAKING);
	assert_int_equal(g.ev[0].ts_ns, 1200);
	assert_int_equal(g.ev[0].pid, 10); /* the waker: worker, running since 1000 */
	assert_int_equal(g.ev[0].wake.pid, 20);
	assert_int_equal(g.ev[1].type, EV_SWITCH);
	assert_int_equal(g.ev[1].ts_ns, 1500);
	assert_int_equal(g.ev[1].sw.prev_pid, 10);
	assert_string_equal(g.ev[1].sw.prev_comm, "worker");
	assert_int_equal(g.ev[1].sw.prev_state, TASK_STATE_S);
	assert_int_equal(g.ev[1].sw.next_pid, 0);
	assert_int_equal(g.ev[2].ts_ns, 2000); /* deltas restart in bundle 2 */
	assert_int_equal(g.ev[2].sw.prev_pid, 0);
	assert_string_equal(g.ev[2].sw.prev_comm, "swapper/0");
	assert_int_equal(g.ev[2].sw.next_pid, 20);
	assert_string_equal(g.ev[2].sw.next_comm, "render");
	assert_int_equal(g.ev[3].ts_ns, 2100);
	assert_int_equal(g.ev[3].sw.prev_pid, 20);
	assert_int_equal(g.ev[3].sw.prev_state, TASK_REPORT_MAX);
	assert_int_equal(g.ev[3].pid, 20);
}

static void test_compressed_and_truncated(void **state)
{
	struct out inner = {0}, o = {0}, cut = {0};
	Pftrace__FtraceEvent *e[2];
	Pftrace__TracePacket pkt;
	uLongf zlen;
	unsigned char *z;
	struct got g;

	(void)state;
	e[0] = ev_switch(5000, "swapper/2", 0, 0, "a", 70);
	e[1] = ev_switch(6000, "a", 70, 1, "swapper/2", 0);
	put_bundle(&inner, 2, e, 2, false);
	e[0] = ev_power(5500, true, 1400000, 2);
	put_bundle(&inner, 2, e, 1, false);
	zlen = compressBound(inner.n);
	z = malloc(zlen);
	assert_int_equal(compress2(z, &zlen, inner.p, inner.n, 6), Z_OK);
	pftrace__trace_packet__init(&pkt);
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
	pkt.compressed_packets.data = z;
	pkt.compressed_packets.len = zlen;
	put_packet(&o, &pkt);
	free(z);
	free(inner.p);

	read_out(&o, NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.total, 3);
	assert_int_equal(g.ev[1].type, EV_CPU_FREQUENCY);
	assert_int_equal(g.ev[1].ts_ns, 5500);
	assert_int_equal(g.ev[2].sw.prev_state, TASK_STATE_S);
	assert_int_equal(g.st.lines, 3); /* the outer packet and the two inside */

	/* the same file cut 5 bytes short: bad input at the packet's byte offset */
	out_put(&cut, o.p, o.n - 5);
	read_out(&cut, NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	{
		char want[160];
		snprintf(want, sizeof(want),
			 "truncated at byte %zu: the packet at byte 0 needs %zu bytes", o.n - 5, o.n);
		assert_non_null(strstr(g.err.msg, want));
	}
	free(o.p);
	free(cut.p);
}

/* Compressed packets that inflate, together, beyond what the file's size allows (READER_INFLATE_*
 * in backend.h): each is below the one-packet limit, the sum is refused once it passes the
 * total's limit, before the events after them. Each holds one packet of 24 MiB of zeros (an
 * unknown field), which zlib compresses about 1000 times. */
static void test_compressed_bomb(void **state)
{
	size_t big = 24u << 20, per = 0;
	unsigned char *inner = calloc(1, big + 16), *z;
	struct out o = {0};
	Pftrace__FtraceEvent *e[2];
	Pftrace__TracePacket pkt;
	uLongf zlen;
	size_t k = 0, v;
	struct got g;
	char want[96];
	(void)state;

	/* TracePacket field 1 (Trace.packet), length, then field 1000 (unknown), length, zeros */
	assert_non_null(inner);
	inner[k++] = 0x0a;
	for (v = big + 6; v; v >>= 7)
		inner[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
	inner[k++] = 0xc2;
	inner[k++] = 0x3e;
	for (v = big; v; v >>= 7)
		inner[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
	assert_int_equal(k, 1 + 4 + 2 + 4);
	per = k + big;
	zlen = compressBound(per);
	z = malloc(zlen);
	assert_non_null(z);
	assert_int_equal(compress2(z, &zlen, inner, per, 9), Z_OK);
	pftrace__trace_packet__init(&pkt);
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
	pkt.compressed_packets.data = z;
	pkt.compressed_packets.len = zlen;
	e[0] = ev_switch(5000, "swapper/2", 0, 0, "a", 70);
	e[1] = ev_switch(6000, "a", 70, 1, "swapper/2", 0);
	put_bundle(&o, 2, e, 2, false);
	for (size_t i = 0; i * per <= READER_INFLATE_MIN; i++)
		put_packet(&o, &pkt);
	e[0] = ev_switch(7000, "swapper/2", 0, 0, "a", 70);
	put_bundle(&o, 2, e, 1, false);
	assert_true(o.n * READER_INFLATE_RATIO < READER_INFLATE_MIN);
	free(z);
	free(inner);

	read_out(&o, NULL, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	snprintf(want, sizeof(want), "': decompresses to more than %llu bytes",
		 (unsigned long long)READER_INFLATE_MIN);
	assert_non_null(strstr(g.err.msg, want));
	free(o.p);
}

/* prev_state by kernel version (include/linux/sched.h of each). */
static void test_prev_state_versions(void **state)
{
	static const struct {
		const char *release;
		s64 raw;
		u32 want;
		u64 raw_count;
	} rows[] = {
		{"5.10.0", 0x1, TASK_STATE_S, 0},
		{"5.10.0", 0x100, TASK_REPORT_MAX, 0},
		{"5.10.0", 0x80, 0x80, 0},      /* I */
		{"5.10.0", 0x2001, TASK_STATE_S, 1}, /* raw S|TASK_FREEZABLE */
		{"5.10.0", 0x200, 0, 1},        /* raw TASK_WAKING: runnable */
		{"4.9.100", 0x1000, TASK_REPORT_MAX, 0},
		{"4.9.100", 0x402, 0x80, 0},    /* D|N: TASK_IDLE */
		{"4.4.0", 0x800, TASK_REPORT_MAX, 0},
		{"3.18.70", 0x400, TASK_REPORT_MAX, 0}, /* TASK_STATE_MAX 1024 on 3.18 */
		{"3.18.70", 0x40, 0x10, 0},     /* x: dead */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct out o = {0};
		Pftrace__FtraceEvent *e[2];
		struct got g;

		put_system_info(&o, rows[i].release);
		e[0] = ev_switch(100, "swapper/0", 0, 0, "t", 5);
		e[1] = ev_switch(200, "t", 5, rows[i].raw, "swapper/0", 0);
		put_bundle(&o, 0, e, 2, false);
		read_out(&o, NULL, &g);
		free(o.p);
		assert_int_equal(g.ret, 0);
		assert_int_equal(g.total, 2);
		if (g.ev[1].sw.prev_state != rows[i].want)
			fail_msg("%s 0x%llx: got 0x%x, want 0x%x", rows[i].release,
				 (unsigned long long)rows[i].raw, g.ev[1].sw.prev_state,
				 rows[i].want);
		assert_int_equal(g.st.raw_prev_state, rows[i].raw_count);
	}
}

/* One event in a bundle of CPU 0, with common_flags where has, read back: exactly one event. */
static void read_flagged(Pftrace__FtraceEvent *e, bool has, u32 flags, struct got *g)
{
	struct out o = {0};
	Pftrace__FtraceEvent *es[1] = {e};

	e->has_common_flags = has;
	e->common_flags = flags;
	put_bundle(&o, 0, es, 1, false);
	read_out(&o, NULL, g);
	free(o.p);
	assert_int_equal(g->ret, 0);
	assert_int_equal(g->total, 1);
}

/* A wakeup's resched from its common_flags (7.2 include/linux/trace_events.h: _NEED_RESCHED_LAZY
 * 0x02, _NEED_RESCHED 0x04, _HARDIRQ 0x08, _PREEMPT_RESCHED 0x20): TIF_NEED_RESCHED without the
 * lazy bit, as the text reader takes 'N' and 'n' (0x24, 0x04) but not 'B' and 'b' (0x26, 0x06),
 * 'l' or 'p'. */
static void test_wake_resched_flags(void **state)
{
	static const struct {
		bool has;
		u32 flags, want;
	} rows[] = {
		{true, 0x24, 1}, {true, 0x04, 1}, {true, 0x0c, 1}, {true, 0x26, 0}, {true, 0x06, 0},
		{true, 0x02, 0}, {true, 0x20, 0}, {false, 0x04, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct got g;

		read_flagged(ev_wake(100, 7, PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP, "t", 5, 0),
			     rows[i].has, rows[i].flags, &g);
		if (g.ev[0].wake.resched != rows[i].want)
			fail_msg("row %zu (0x%x): resched %u, want %u", i, rows[i].flags,
				 g.ev[0].wake.resched, rows[i].want);
	}
}

/* A migration's context from its common_flags (_SOFTIRQ 0x10, _HARDIRQ 0x08): the load
 * balancer's softirq, or task context (a newidle balance, a waker's); none: task context. */
static void test_migrate_context(void **state)
{
	static const struct {
		bool has;
		u32 flags, want;
	} rows[] = {
		{true, 0x10, EV_IRQ_SOFT}, {true, 0x01, 0}, {true, 0x08, EV_IRQ_HARD}, {false, 0x10, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct got g;

		read_flagged(ev_migrate(100, 0, "m", 5, 1, 0), rows[i].has, rows[i].flags, &g);
		assert_int_equal(g.ev[0].type, EV_MIGRATE);
		assert_int_equal(g.ev[0].migrate.pid, 5);
		assert_int_equal(g.ev[0].migrate.dest_cpu, 0);
		if (g.ev[0].migrate.irq != rows[i].want)
			fail_msg("row %zu (0x%x): irq %u, want %u", i, rows[i].flags,
				 g.ev[0].migrate.irq, rows[i].want);
	}
}

static void test_sniff(void **state)
{
	struct reader_opts pf = {.format = TRACE_FMT_PERFETTO};
	struct got g;

	(void)state;
	/* a text file that starts with a newline is not taken for a Perfetto trace */
	read_path(test_tmpfile("\n# tracer: nop\n          <idle>-0     [000] d..2   1.000000: "
			       "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
			       "prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n",
			       ".txt"),
		  NULL, &g);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.st.format, TRACE_FMT_FTRACE);
	/* forced on a text file: bad input */
	read_path(test_tmpfile("# tracer: nop\n", ".txt"), &pf, &g);
	assert_int_equal(g.ret, GS_ETRACE);
	assert_non_null(strstr(g.err.msg, "not a Perfetto trace"));
}

/* ---- the same trace as text and as Perfetto ------------------------------------------------ */

static char *owned[4096]; /* marker texts of the encoded events, freed after encoding */
static size_t nr_owned;

/* An event of the stream as a typed FtraceEvent (what traced_probes writes for it). */
static Pftrace__FtraceEvent *encode_event(const struct event *ev)
{
	Pftrace__FtraceEvent *e;

	switch (ev->type) {
	case EV_SWITCH:
		e = ev_switch(ev->ts_ns, ev->sw.prev_comm, ev->sw.prev_pid, ev->sw.prev_state,
			      ev->sw.next_comm, ev->sw.next_pid);
		e->sched_switch->prev_prio = ev->sw.prev_prio;
		e->sched_switch->next_prio = ev->sw.next_prio;
		break;
	case EV_WAKEUP:
	case EV_WAKING:
	case EV_WAKEUP_NEW:
		e = ev_wake(ev->ts_ns, 0,
			    ev->type == EV_WAKEUP   ? PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP
			    : ev->type == EV_WAKING ? PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKING
						    : PFTRACE__FTRACE_EVENT__EVENT_SCHED_WAKEUP_NEW,
			    ev->wake.comm, ev->wake.pid, ev->wake.target_cpu);
		e->sched_wakeup->prio = ev->wake.prio; /* the three share one message */
		if (ev->wake.irq || ev->wake.resched) {
			/* the ring buffer's TRACE_FLAG_HARDIRQ/SOFTIRQ/NMI and _NEED_RESCHED bits */
			e->has_common_flags = true;
			e->common_flags = ((ev->wake.irq & EV_IRQ_HARD) ? 0x08u : 0) |
					  ((ev->wake.irq & EV_IRQ_SOFT) ? 0x10u : 0) |
					  ((ev->wake.irq & EV_IRQ_NMI) ? 0x40u : 0) |
					  (ev->wake.resched ? 0x04u : 0);
		}
		break;
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
		e = ev_power(ev->ts_ns, ev->type == EV_CPU_FREQUENCY, ev->power.state,
			     ev->power.cpu_id);
		break;
	case EV_FREQ_MARKER: {
		char *m = malloc(96);
		assert_non_null(m);
		snprintf(m, 96, "cpu_frequency_devlib: state=%u cpu_id=%u\n", ev->power.state,
			 ev->power.cpu_id);
		assert_true(nr_owned < GS_ARRAY_SIZE(owned));
		owned[nr_owned++] = m;
		e = ev_print(ev->ts_ns, (u32)ev->pid, m);
		break;
	}
	default:
		fail_msg("no encoding for %s", event_type_name(ev->type));
		return NULL;
	}
	e->pid = (u32)ev->pid;
	return e;
}

/*
 * The events of a text trace as a Perfetto trace, as traced_probes lays it out: every 50 ms of
 * trace time, one bundle per CPU with that CPU's events (so bundles of different CPUs overlap
 * in time and must be merged).
 */
static void encode_trace(const struct event *evs, size_t n, struct out *o)
{
	Pftrace__FtraceEvent **per_cpu[GS_MAX_CPUS] = {0};
	size_t cnt[GS_MAX_CPUS] = {0};
	u64 flush_at = n ? evs[0].ts_ns + 50 * NSEC_PER_MSEC : 0;

	for (int c = 0; c < GS_MAX_CPUS; c++)
		per_cpu[c] = calloc(n ? n : 1, sizeof(*per_cpu[c]));
	for (size_t i = 0; i <= n; i++) {
		if (i == n || evs[i].ts_ns >= flush_at) {
			for (int c = 0; c < GS_MAX_CPUS; c++) {
				if (!cnt[c])
					continue;
				put_bundle(o, (u32)c, per_cpu[c], cnt[c], false);
				cnt[c] = 0;
			}
			if (i == n)
				break;
			while (evs[i].ts_ns >= flush_at)
				flush_at += 50 * NSEC_PER_MSEC;
		}
		assert_true(evs[i].cpu >= 0 && evs[i].cpu < GS_MAX_CPUS);
		per_cpu[evs[i].cpu][cnt[evs[i].cpu]++] = encode_event(&evs[i]);
	}
	for (int c = 0; c < GS_MAX_CPUS; c++)
		free(per_cpu[c]);
	while (nr_owned)
		free(owned[--nr_owned]);
}

/* The events of a trace but its sugov_set_iowait_boost ones (Android's vendor events, which the
 * Perfetto encoding here does not carry). */
static struct event *read_events(const char *path, size_t *n)
{
	struct trace_reader *r = NULL;
	struct gs_error err;
	struct event *evs = NULL;
	size_t cap = 0;
	int ret;

	*n = 0;
	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
	for (;;) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			evs = realloc(evs, cap * sizeof(*evs));
			assert_non_null(evs);
		}
		ret = trace_reader_next(r, &evs[*n], &err);
		if (ret != 1)
			break;
		if (evs[*n].type != EV_IOWAIT_BOOST)
			(*n)++;
	}
	assert_int_equal(ret, 0);
	trace_reader_free(r);
	return evs;
}

static void stable_sort_ts_cpu(struct event *evs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		evs[i].line = i; /* the stream order, the last key */
	qsort(evs, n, sizeof(*evs), cmp_ts_cpu_line);
}

static void assert_same_event(const struct event *a, const struct event *b, size_t i)
{
	bool same = a->type == b->type && a->ts_ns == b->ts_ns && a->cpu == b->cpu &&
		    a->pid == b->pid;

	if (same) {
		switch (a->type) {
		case EV_SWITCH:
			same = a->sw.prev_pid == b->sw.prev_pid && a->sw.next_pid == b->sw.next_pid &&
			       a->sw.prev_prio == b->sw.prev_prio &&
			       a->sw.next_prio == b->sw.next_prio &&
			       a->sw.prev_state == b->sw.prev_state &&
			       !strcmp(a->sw.prev_comm, b->sw.prev_comm) &&
			       !strcmp(a->sw.next_comm, b->sw.next_comm);
			break;
		case EV_WAKEUP:
		case EV_WAKING:
		case EV_WAKEUP_NEW:
			same = a->wake.pid == b->wake.pid && a->wake.prio == b->wake.prio &&
			       a->wake.target_cpu == b->wake.target_cpu &&
			       a->wake.irq == b->wake.irq && a->wake.resched == b->wake.resched &&
			       !strcmp(a->wake.comm, b->wake.comm);
			break;
		default:
			same = a->power.state == b->power.state && a->power.cpu_id == b->power.cpu_id;
			break;
		}
	}
	if (!same)
		fail_msg("event %zu: %s at %llu on cpu %d differs (%s at %llu on cpu %d)", i,
			 event_type_name(a->type), (unsigned long long)a->ts_ns, a->cpu,
			 event_type_name(b->type), (unsigned long long)b->ts_ns, b->cpu);
}

/*
 * surfaceflinger.txt and its Perfetto encoding give the same event stream, event for event.
 * The encoding is committed as tests/golden/input/surfaceflinger.pftrace (the golden test
 * perfetto.sh runs `govsim run` on both); this test checks the committed file is what the
 * encoder makes (GOVSIM_GOLDEN_UPDATE=1 rewrites it).
 */
static void test_text_equals_perfetto(void **state)
{
	char fixture[4096];
	struct out o = {0};
	struct event *text, *pf;
	size_t nt, np;
	const char *upd = getenv("GOVSIM_GOLDEN_UPDATE");
	FILE *f;

	(void)state;
	snprintf(fixture, sizeof(fixture), "%s",
		 test_path("tests/golden/input/surfaceflinger.pftrace")); /* a static buffer */
	text = read_events(test_path("traces/android-8cpu/surfaceflinger.txt"), &nt);
	assert_int_equal(nt, 1861);
	encode_trace(text, nt, &o);
	if (upd && strcmp(upd, "1") == 0) {
		f = fopen(fixture, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(o.p, 1, o.n, f), o.n);
		fclose(f);
	}
	f = fopen(fixture, "rb");
	assert_non_null(f);
	{
		unsigned char *b = malloc(o.n + 1);
		size_t got = fread(b, 1, o.n + 1, f);
		assert_int_equal(got, o.n);
		assert_memory_equal(b, o.p, o.n);
		free(b);
	}
	fclose(f);
	free(o.p);

	pf = read_events(fixture, &np);
	assert_int_equal(np, nt);
	/* events of different CPUs at the same nanosecond: the text has them in the order its
	 * writer merged the CPUs, Perfetto's bundles in CPU order; compare in (ts, cpu) order,
	 * each CPU's own order kept */
	stable_sort_ts_cpu(text, nt);
	stable_sort_ts_cpu(pf, np);
	for (size_t i = 0; i < nt; i++)
		assert_same_event(&pf[i], &text[i], i);
	free(text);
	free(pf);
}

/* cpu_info into trace_stats; data loss: a first bundle that says events came before it
 * (previous_bundle_end_timestamp in ring-buffer mode), a bundle whose predecessor on that CPU
 * did not arrive, a dropped packet on a sequence already seen; not a bundle that follows on. */
static void put_bundle_prev_end(struct out *o, u32 cpu, u64 ts, u64 prev_end)
{
	Pftrace__TracePacket pkt;
	Pftrace__FtraceEventBundle b;
	Pftrace__FtraceEvent *e[1] = {ev_power(ts, false, 1, cpu)};

	pftrace__trace_packet__init(&pkt);
	pftrace__ftrace_event_bundle__init(&b);
	b.has_cpu = true;
	b.cpu = cpu;
	b.n_event = 1;
	b.event = e;
	b.has_previous_bundle_end_timestamp = true;
	b.previous_bundle_end_timestamp = prev_end;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_FTRACE_EVENTS;
	pkt.ftrace_events = &b;
	pkt.has_trusted_packet_sequence_id = true;
	pkt.trusted_packet_sequence_id = 3;
	put_packet(o, &pkt);
	free_event(e[0]);
}

static void test_cpu_info_and_data_loss(void **state)
{
	struct out o = {0};
	Pftrace__TracePacket pkt;
	Pftrace__CpuInfo ci;
	Pftrace__CpuInfo__Cpu c0, c1, *cpus[2] = {&c0, &c1};
	u32 f0[] = {300000, 1000000}, f1[] = {500000, 2000000, 2800000};
	struct got g;

	(void)state;
	pftrace__trace_packet__init(&pkt);
	pftrace__cpu_info__init(&ci);
	pftrace__cpu_info__cpu__init(&c0);
	pftrace__cpu_info__cpu__init(&c1);
	c0.has_capacity = c1.has_capacity = true;
	c0.capacity = 512;
	c1.capacity = 1024;
	c0.n_frequencies = 2;
	c0.frequencies = f0;
	c1.n_frequencies = 3;
	c1.frequencies = f1;
	ci.n_cpus = 2;
	ci.cpus = cpus;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_CPU_INFO;
	pkt.cpu_info = &ci;
	put_packet(&o, &pkt);
	put_bundle_prev_end(&o, 0, 1000, 900);  /* first bundle, events before 900 lost: 1 */
	put_bundle_prev_end(&o, 0, 2000, 1000); /* follows on from 1000: none */
	put_bundle_prev_end(&o, 0, 3000, 2500); /* the bundle ending at 2500 is missing: 2 */
	pftrace__trace_packet__init(&pkt);
	pkt.has_trusted_packet_sequence_id = pkt.has_previous_packet_dropped = true;
	pkt.trusted_packet_sequence_id = 3;
	pkt.previous_packet_dropped = 1; /* on sequence 3, seen before: 3 */
	put_packet(&o, &pkt);
	read_out(&o, NULL, &g);
	free(o.p);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.total, 3);
	assert_int_equal(g.st.data_loss, 3);
	assert_int_equal(g.st.nr_cpu_info, 2);
	assert_int_equal(g.st.cpu_info[0].capacity, 512);
	assert_int_equal(g.st.cpu_info[1].nr_freqs, 3);
	assert_int_equal(g.st.cpu_info[1].freqs_khz[2], 2800000);
}

/* Two CPUs' bundles covering the same 80 ms (more than the reader's 10 ms re-ordering window),
 * with more events than the reader holds by default (READER_MAX_HELD, 32768): they still come
 * out merged in time order, none late (fails with PF_MAX_HELD at 2^15). */
static void test_large_overlap(void **state)
{
	enum { N = 40000 };
	struct out o = {0};
	Pftrace__FtraceEvent **e = calloc(N, sizeof(*e));
	struct got g;

	(void)state;
	assert_non_null(e);
	for (u32 cpu = 0; cpu < 2; cpu++) {
		for (u32 i = 0; i < N; i++)
			e[i] = ev_power(1000000 + 2000 * (u64)i + 1000 * cpu, false, i & 1, cpu);
		put_bundle(&o, cpu, e, N, false);
	}
	free(e);
	read_out(&o, NULL, &g);
	free(o.p);
	assert_int_equal(g.ret, 0);
	assert_int_equal(g.total, 2 * N);
	assert_true(g.in_order);
	assert_int_equal(g.st.disorder_beyond_window, 0);
	assert_int_equal(g.ev[1].cpu, 1);
}

/* Events on CPUs 1..4095 (PF_MAX_CPU - 1): 16 rounds of one bundle of one event per CPU, the
 * timestamps of seven CPUs in a row equal, rising with the CPU within a round. They come out in
 * (time, CPU) order (the merge hands equal times out by CPU), all of them, and the merge's work
 * per event grows with log2 of the CPUs, not with the CPUs: pf->merge_steps, the queue heads it
 * compared, at most 4 x 12 per event (a head leaving, a head arriving, the next head found,
 * each a walk of the 4096-leaf tree's 12 levels). A scan of every queue for each event made
 * 4096 comparisons per event (and took 50 times as long as the same events on 4 CPUs). */
static void test_many_cpus(void **state)
{
	enum { ROUNDS = 16, NCPU = 4096 };
	struct out o = {0};
	struct trace_reader *r = NULL;
	struct gs_error err;
	struct event ev;
	u64 n = 0, prev_ts = 0, steps;
	int prev_cpu = -1, ret;
	const char *path;
	(void)state;

	for (u32 k = 0; k < ROUNDS; k++)
		for (u32 cpu = 1; cpu < NCPU; cpu++) {
			Pftrace__FtraceEvent *e = ev_power(1000000 + 1000000 * (u64)k + 10 * (cpu / 7),
							   false, k & 1, cpu);
			put_bundle(&o, cpu, &e, 1, false);
		}
	path = write_tmp(&o);
	free(o.p);
	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
	while ((ret = trace_reader_next(r, &ev, &err)) == 1) {
		assert_true(ev.ts_ns > prev_ts || (ev.ts_ns == prev_ts && ev.cpu > prev_cpu));
		prev_ts = ev.ts_ns;
		prev_cpu = ev.cpu;
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(n, (u64)ROUNDS * (NCPU - 1));
	assert_int_equal(trace_reader_stats(r)->disorder_beyond_window, 0);
	steps = pf_of(r)->merge_steps;
	trace_reader_free(r);
	unlink(path);
	print_message("%llu merge steps for %llu events\n", (unsigned long long)steps,
		      (unsigned long long)n);
	assert_true(steps <= 4 * 12 * n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systing),
		cmocka_unit_test(test_pixel_markers),
		cmocka_unit_test(test_typed_events),
		cmocka_unit_test(test_compact_sched),
		cmocka_unit_test(test_compressed_and_truncated),
		cmocka_unit_test(test_compressed_bomb),
		cmocka_unit_test(test_prev_state_versions),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_wake_resched_flags),
	    cmocka_unit_test(test_migrate_context),
		cmocka_unit_test(test_text_equals_perfetto),
		cmocka_unit_test(test_cpu_info_and_data_loss),
		cmocka_unit_test(test_large_overlap),
		cmocka_unit_test(test_many_cpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
