/*
 * test_cpu_info.c - a Perfetto trace's cpu_info held against --platform (src/sim/cpu_info.c).
 *
 * A synthetic Perfetto trace, encoded here with protobuf-c, whose cpu_info describes 8 CPUs:
 * cpu0 with capacity 500 and an OPP list whose top is 2000000 kHz, cpu1-3 as hikey960 says
 * (462, its little OPPs), cpu4-7 as hikey960 says (1024, its big OPPs). Replayed on hikey960
 * (models/hikey960.sql: little 462 with OPPs 533000..1844000 kHz, big 1024 with 903000..2362000
 * kHz), the notes must name cpu0's capacity and OPPs with both values, and nothing of the
 * big cluster. The same trace described with 4 CPUs gets the CPU count note. On mt6858, whose
 * capacities models/mt6858.sql marks assumed, the trace's capacities replace them (a note says
 * so; the OPP capacities follow, checked by hand), unless the trace describes a cluster
 * unevenly.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "power/platform.h"
#include "sim/replay.h"
#include "sim/sim.h"
#include "trace/perfetto.pb-c.h"

static void put_packet(FILE *f, const Pftrace__TracePacket *pkt)
{
	size_t len = pftrace__trace_packet__get_packed_size(pkt), k = 0;
	unsigned char hdr[11], *body = malloc(len ? len : 1);
	size_t v = len;

	assert_non_null(body);
	hdr[k++] = 0x0a;
	do {
		hdr[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pftrace__trace_packet__pack(pkt, body);
	assert_int_equal(fwrite(hdr, 1, k, f), k);
	assert_int_equal(fwrite(body, 1, len, f), len);
	free(body);
}

/* cpu_info of nr_cpus CPUs: cpu0 `cap0`, cpu1-3 `little_cap`, cpu4-7 1024; OPP lists when
 * freqs (cpu0's top 2000000 kHz, the others hikey960's). */
static void put_cpu_info(FILE *f, int nr_cpus, u32 cap0, u32 little_cap, bool freqs)
{
	static u32 little[] = {533000, 999000, 1402000, 1709000, 1844000};
	static u32 little0[] = {533000, 999000, 1402000, 1709000, 2000000};
	static u32 big[] = {903000, 1421000, 1805000, 2112000, 2362000};
	Pftrace__TracePacket pkt;
	Pftrace__CpuInfo ci;
	Pftrace__CpuInfo__Cpu cpu[8], *cp[8];

	pftrace__trace_packet__init(&pkt);
	pftrace__cpu_info__init(&ci);
	for (int c = 0; c < nr_cpus; c++) {
		pftrace__cpu_info__cpu__init(&cpu[c]);
		cpu[c].has_capacity = true;
		cpu[c].capacity = c == 0 ? cap0 : c < 4 ? little_cap : 1024;
		cpu[c].n_frequencies = freqs ? 5 : 0;
		cpu[c].frequencies = c == 0 ? little0 : c < 4 ? little : big;
		cp[c] = &cpu[c];
	}
	ci.n_cpus = (size_t)nr_cpus;
	ci.cpus = cp;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_CPU_INFO;
	pkt.cpu_info = &ci;
	put_packet(f, &pkt);
}

/* A bundle on cpu0: a task runs 1 ms, then idle, ten times. */
static void put_switches(FILE *f)
{
	Pftrace__TracePacket pkt;
	Pftrace__FtraceEventBundle b;
	Pftrace__FtraceEvent ev[20], *evp[20];
	Pftrace__SchedSwitchFtraceEvent sw[20];

	pftrace__trace_packet__init(&pkt);
	pftrace__ftrace_event_bundle__init(&b);
	for (int i = 0; i < 20; i++) {
		bool in = !(i & 1);
		pftrace__ftrace_event__init(&ev[i]);
		pftrace__sched_switch_ftrace_event__init(&sw[i]);
		ev[i].has_timestamp = ev[i].has_pid = true;
		ev[i].timestamp = 1000000000ull + (u64)(i / 2) * 4000000 + (in ? 0 : 1000000);
		ev[i].pid = in ? 0 : 100;
		sw[i].has_prev_pid = sw[i].has_next_pid = true;
		sw[i].has_prev_prio = sw[i].has_next_prio = sw[i].has_prev_state = true;
		sw[i].prev_comm = (char *)(in ? "swapper/0" : "task");
		sw[i].prev_pid = in ? 0 : 100;
		sw[i].prev_prio = 120;
		sw[i].prev_state = in ? 0 : 1;
		sw[i].next_comm = (char *)(in ? "task" : "swapper/0");
		sw[i].next_pid = in ? 100 : 0;
		sw[i].next_prio = 120;
		ev[i].event_case = PFTRACE__FTRACE_EVENT__EVENT_SCHED_SWITCH;
		ev[i].sched_switch = &sw[i];
		evp[i] = &ev[i];
	}
	b.has_cpu = true;
	b.cpu = 0;
	b.n_event = 20;
	b.event = evp;
	pkt.data_case = PFTRACE__TRACE_PACKET__DATA_FTRACE_EVENTS;
	pkt.ftrace_events = &b;
	put_packet(f, &pkt);
}

static void run_on(const char *platform, int nr_cpus, u32 cap0, u32 little_cap, bool freqs,
		   struct run_result *r)
{
	char path[4096];
	struct replay_spec spec = {0};
	struct platform plat;
	struct gs_error err;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/cpuinfo-XXXXXX", test_tmpdir());
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	assert_non_null(f);
	put_cpu_info(f, nr_cpus, cap0, little_cap, freqs);
	put_switches(f);
	assert_int_equal(fclose(f), 0);
	gs_error_clear(&err);
	assert_int_equal(platform_load(platform, &plat, &err), 0);
	sim_opts_init(&spec.opts);
	spec.trace = path;
	spec.opts.plat = &plat;
	spec.no_hash = true;
	run_result_init(r);
	if (replay_run(&spec, r, &err))
		fail_msg("%s", err.msg);
	unlink(path);
}

static void test_disagreement_noted(void **state)
{
	struct run_result r;

	(void)state;
	run_on("hikey960", 8, 500, 462, true, &r);
	assert_non_null(strstr(r.notes, "the trace's cpu_info capacities differ from hikey960's: "
					"cpu0 500 (462)"));
	assert_non_null(strstr(r.notes, "the trace's cpu_info OPPs of cpu0 differ from hikey960's: "
					"533000,999000,1402000,1709000,2000000 kHz "
					"(533000,999000,1402000,1709000,1844000)"));
	assert_null(strstr(r.notes, "cpu4"));     /* the big cluster agrees */
	assert_null(strstr(r.notes, "cpu1 462")); /* so do cpu1-3 */
	assert_null(strstr(r.notes, "describes"));
	assert_null(strstr(r.notes, "in place of")); /* hikey960's capacities are not assumed */
	run_result_release(&r);
}

/* mt6858 (models/mt6858.sql): every capacity assumed, 853 for cpu0-3 and 1024 for cpu4-7. The
 * trace says 600 for cpu0-3: the run uses 600, says so, and then sees no disagreement. */
static void test_assumed_overridden(void **state)
{
	struct run_result r;

	(void)state;
	run_on("mt6858", 8, 600, 600, false, &r);
	assert_non_null(strstr(r.notes, "capacities from the trace's cpu_info in place of mt6858's "
					"assumed ones: cpu0-3 600 (assumed 853)"));
	assert_null(strstr(r.notes, "capacities differ"));
	run_result_release(&r);
	/* a cluster the trace describes unevenly keeps the model's value */
	run_on("mt6858", 8, 500, 600, false, &r);
	assert_null(strstr(r.notes, "in place of"));
	assert_non_null(strstr(r.notes, "capacities differ from mt6858's: cpu0 500 (853), cpu1 600 "
					"(853)"));
	run_result_release(&r);
}

/* The copy itself: the CPUs' capacities and the OPPs' capacities at them, by hand from
 * arch_topology.c v5.9 (freq_scale = (f << 10) / max, capacity = cpu_scale * freq_scale >> 10). */
static void test_override_values(void **state)
{
	struct platform plat, *own = NULL;
	struct trace_stats *st = calloc(1, sizeof(*st));
	struct gs_error err;
	char note[384];

	(void)state;
	assert_non_null(st);
	gs_error_clear(&err);
	assert_int_equal(platform_load("mt6858", &plat, &err), 0);
	st->nr_cpu_info = 8;
	for (int c = 0; c < 8; c++)
		st->cpu_info[c].capacity = c < 4 ? 600 : 1024;
	assert_int_equal(sim_cpu_info_override(&plat, st, &own, note, sizeof(note)), 0);
	assert_non_null(own);
	for (int c = 0; c < 8; c++)
		assert_int_equal(own->cpus[c].capacity, c < 4 ? 600 : 1024);
	/* little OPP 0: 650000 kHz of 2000000: freq_scale 665600000 / 2000000 = 332,
	 * 600 * 332 >> 10 = 199200 >> 10 = 194; the top: 600 */
	assert_int_equal(own->clusters[0].opps[0].freq_khz, 650000);
	assert_int_equal(own->clusters[0].opps[0].capacity, 194);
	assert_int_equal(own->clusters[0].opps[own->clusters[0].nr_opps - 1].capacity, 600);
	/* the big cluster is unchanged */
	assert_int_equal(own->clusters[1].opps[0].capacity, plat.clusters[1].opps[0].capacity);
	free(own);
	/* hikey960's capacities come from its device tree: never replaced */
	assert_int_equal(platform_load("hikey960", &plat, &err), 0);
	assert_int_equal(sim_cpu_info_override(&plat, st, &own, note, sizeof(note)), 0);
	assert_null(own);
	free(st);
}

static void test_cpu_count_noted(void **state)
{
	struct run_result r;

	(void)state;
	run_on("hikey960", 4, 500, 462, true, &r);
	assert_non_null(strstr(r.notes, "the trace's cpu_info describes 4 CPUs, hikey960 has 8"));
	run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disagreement_noted),
		cmocka_unit_test(test_cpu_count_noted),
		cmocka_unit_test(test_assumed_overridden),
		cmocka_unit_test(test_override_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
