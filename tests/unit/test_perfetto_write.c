/*
 * test_perfetto_write.c - `run --perfetto OUT` (src/output/perfetto_write.c).
 *
 * Checks:
 *  - the bytes of one counter sample, computed by hand from the field numbers of Perfetto's
 *    public protos (TracePacket.timestamp 8, trusted_packet_sequence_id 10, track_event 11;
 *    TrackEvent.type 9 with TYPE_COUNTER 4, track_uuid 11, counter_value 30), are in the file,
 *    framed as a Trace.packet (0x0a, varint length);
 *  - a round trip: a replay of traces/android-8cpu/surfaceflinger.txt on hikey960 writes the
 *    --timeline and --task-timeline CSVs and the Perfetto file from the same rows; the file,
 *    decoded here packet by packet, holds per CPU one util / clamped util / uclamp_min /
 *    uclamp_max sample per CSV row of that CPU with the CSV's values and times, per policy the
 *    CSV's emulated frequency changes, the trace's own cpu_frequency values of each policy's
 *    first CPU (read from the trace text here), per task one slice per switch_in row on the
 *    CPU the row names, and the run's settings.
 */
#define _GNU_SOURCE /* memmem */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "power/platform.h"
#include "sim/replay.h"
#include "trace/perfetto.pb-c.h"
#include "output/perfetto_write.h"

static unsigned char *slurp(FILE *f, size_t *n)
{
	unsigned char *b;
	long len;

	fflush(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	b = malloc((size_t)len + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	*n = (size_t)len;
	return b;
}

static void test_counter_bytes(void **state)
{
	static const unsigned char want[] = {
		0x0a, 0x10,		  /* Trace.packet, 16 bytes */
		0x40, 0xe8, 0x07,	  /* timestamp (8) = 1000 */
		0x50, 0x01,		  /* trusted_packet_sequence_id (10) = 1 */
		0x5a, 0x09,		  /* track_event (11), 9 bytes */
		0x48, 0x04,		  /* type (9) = TYPE_COUNTER */
		0x58, 0x80, 0x40,	  /* track_uuid (11) = 0x2000: cpu0 util */
		0xf0, 0x01, 0xac, 0x02, /* counter_value (30) = 300 */
	};
	struct tl_eval e = {.ts_ns = 1000, .cpu = 0, .policy = 0, .util_cfs = 280, .util_rt = 20,
			    .util = 310, .uclamp_max = 1024, .freq_khz = 500000};
	struct run_result r;
	struct gs_error err;
	FILE *f = tmpfile();
	struct pf_writer *w;
	const struct tl_sink *k;
	unsigned char *b;
	size_t n;

	(void)state;
	assert_non_null(f);
	w = pf_writer_new(f);
	assert_non_null(w);
	k = pf_writer_sink(w);
	k->eval(k->ctx, &e);
	run_result_init(&r);
	snprintf(r.platform, sizeof(r.platform), "hikey960");
	assert_int_equal(pf_writer_finish(w, &r, &err), 0);
	b = slurp(f, &n);
	assert_non_null(memmem(b, n, want, sizeof(want)));
	assert_int_equal(PFW_UUID_CPU(0, 0), 0x2000);
	free(b);
	run_result_release(&r);
	fclose(f);
}

/* ---- the round trip ------------------------------------------------------------------------ */

#define MAX_SAMPLES 4096

struct series {
	u64 uuid;
	int n;
	u64 ts[MAX_SAMPLES];
	s64 v[MAX_SAMPLES];
	char name[MAX_SAMPLES][8]; /* slice names */
};

struct decoded {
	struct series s[256];
	int ns;
	int settings;
	char platform[64];
};

static struct series *series_of(struct decoded *d, u64 uuid)
{
	for (int i = 0; i < d->ns; i++)
		if (d->s[i].uuid == uuid)
			return &d->s[i];
	assert_true(d->ns < 256);
	d->s[d->ns].uuid = uuid;
	return &d->s[d->ns++];
}

static void decode(const unsigned char *b, size_t n, struct decoded *d)
{
	size_t off = 0;

	memset(d, 0, sizeof(*d));
	while (off < n) {
		u64 len = 0;
		int shift = 0;
		Pftrace__TracePacket *p;
		assert_int_equal(b[off++], 0x0a);
		do {
			len |= (u64)(b[off] & 0x7f) << shift;
			shift += 7;
		} while (b[off++] & 0x80);
		assert_true(off + len <= n);
		p = pftrace__trace_packet__unpack(NULL, (size_t)len, b + off);
		assert_non_null(p);
		assert_int_equal(p->trusted_packet_sequence_id, 1);
		if (p->data_case == PFTRACE__TRACE_PACKET__DATA_TRACK_EVENT) {
			const Pftrace__TrackEvent *te = p->track_event;
			struct series *s = series_of(d, te->track_uuid);
			if (te->type == PFTRACE__TRACK_EVENT__TYPE__TYPE_INSTANT) {
				d->settings++;
				for (size_t i = 0; i < te->n_debug_annotations; i++)
					if (!strcmp(te->debug_annotations[i]->name, "platform"))
						snprintf(d->platform, sizeof(d->platform), "%s",
							 te->debug_annotations[i]->string_value);
			} else if (te->type != PFTRACE__TRACK_EVENT__TYPE__TYPE_SLICE_END) {
				assert_true(s->n < MAX_SAMPLES);
				s->ts[s->n] = p->timestamp;
				s->v[s->n] = te->counter_value;
				snprintf(s->name[s->n], sizeof(s->name[0]), "%s",
					 te->name ? te->name : "");
				s->n++;
			}
		}
		pftrace__trace_packet__free_unpacked(p, NULL);
		off += (size_t)len;
	}
}

/* The CSV's value of column `col` (0-based) in each row of CPU `cpu` (column 1), and its time
 * in µs. */
static int csv_column(FILE *f, int cpu, int col, s64 *v, s64 *t_us, bool sum_rt)
{
	char line[512];
	int n = 0;

	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f)); /* header */
	while (fgets(line, sizeof(line), f)) {
		long long c[13];
		unsigned long long s, us;
		assert_int_equal(sscanf(line, "%llu.%llu,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,"
					      "%lld,%lld",
					&s, &us, &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7],
					&c[8], &c[9], &c[10], &c[11]),
				 13);
		if (c[1] != cpu)
			continue;
		assert_true(n < MAX_SAMPLES);
		v[n] = c[col] + (sum_rt ? c[5] : 0);
		t_us[n] = (s64)(s * 1000000 + us);
		n++;
	}
	return n;
}

static void check_cpu(struct decoded *d, FILE *tl, int cpu)
{
	static s64 v[MAX_SAMPLES], t[MAX_SAMPLES];
	/* columns: 3 util_cfs (+ 5 util_rt), 9 util, 7 uclamp_min, 8 uclamp_max */
	static const int col[4] = {3, 9, 7, 8};

	for (int what = 0; what < 4; what++) {
		struct series *s = series_of(d, PFW_UUID_CPU(cpu, what));
		int n = csv_column(tl, cpu, col[what], v, t, what == 0);
		assert_int_equal(s->n, n);
		for (int i = 0; i < n; i++) {
			assert_int_equal(s->v[i], v[i]);
			/* the CSV's time is trace-relative, in whole µs */
			assert_int_equal((s64)(s->ts[i] - s->ts[0]) / 1000 - (t[i] - t[0]) <= 1, 1);
			assert_int_equal((s64)(s->ts[i] - s->ts[0]) / 1000 - (t[i] - t[0]) >= -1, 1);
		}
	}
}

/* The emulated frequency changes of a policy in the CSV (freq_khz of its rows, in order). */
static void check_emulated_freq(struct decoded *d, FILE *tl, int policy)
{
	char line[512];
	s64 want[MAX_SAMPLES], last = 0;
	int n = 0;
	struct series *s = series_of(d, PFW_UUID_FREQ(policy, false));

	rewind(tl);
	assert_non_null(fgets(line, sizeof(line), tl));
	while (fgets(line, sizeof(line), tl)) {
		const char *p = line;
		long long pol, khz;
		for (int i = 0; i < 2; i++)
			p = strchr(p, ',') + 1;
		pol = atoll(p);
		p = strrchr(line, ',') + 1;
		khz = atoll(p);
		if (pol != policy || khz == last)
			continue;
		want[n++] = last = khz;
	}
	assert_true(n > 0);
	assert_int_equal(s->n, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(s->v[i], want[i]);
}

/* The trace's cpu_frequency states of `cpu`, changes only, read from the ftrace text. */
static void check_traced_freq(struct decoded *d, const char *trace, int cpu)
{
	char line[1024];
	s64 want[MAX_SAMPLES], last = 0;
	int n = 0;
	FILE *f = fopen(trace, "r");
	struct series *s = series_of(d, PFW_UUID_FREQ(cpu, true));

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "cpu_frequency: state=");
		unsigned long long khz;
		int c;
		if (!p || sscanf(p, "cpu_frequency: state=%llu cpu_id=%d", &khz, &c) != 2 ||
		    c != cpu || (s64)khz == last)
			continue;
		want[n++] = last = (s64)khz;
	}
	fclose(f);
	assert_true(n > 0);
	assert_int_equal(s->n, n);
	for (int i = 0; i < n; i++)
		assert_int_equal(s->v[i], want[i]);
}

/* Per task: one slice per switch_in row of the task timeline, named for the row's CPU. */
static void check_slices(struct decoded *d, FILE *tt)
{
	char line[512];
	int rows = 0, slices = 0, seen[256] = {0};

	for (int i = 0; i < d->ns; i++)
		if (d->s[i].uuid >> 32)
			slices += d->s[i].n;
	rewind(tt);
	assert_non_null(fgets(line, sizeof(line), tt));
	while (fgets(line, sizeof(line), tt)) {
		char comm[64], ev[32], want[16];
		int pid, cpu;
		struct series *s;
		/* time_s,pid,comm,cpu,event,... (comm has no comma in this trace) */
		if (sscanf(line, "%*[^,],%d,%63[^,],%d,%31[^,],", &pid, comm, &cpu, ev) != 4 ||
		    strcmp(ev, "switch_in") || pid <= 0)
			continue;
		s = series_of(d, PFW_UUID_TASK(pid));
		/* the k-th switch_in of this pid is its k-th slice, on that CPU */
		assert_true(seen[s - d->s] < s->n);
		snprintf(want, sizeof(want), "cpu%d", cpu);
		assert_string_equal(s->name[seen[s - d->s]++], want);
		rows++;
	}
	assert_int_equal(slices, rows);
}

static void test_round_trip(void **state)
{
	const char *trace = test_path("traces/android-8cpu/surfaceflinger.txt");
	struct replay_spec spec = {0};
	struct platform plat;
	struct run_result r;
	struct gs_error err;
	struct decoded *d = calloc(1, sizeof(*d));
	FILE *tl = tmpfile(), *tt = tmpfile(), *pf = tmpfile();
	struct pf_writer *w;
	unsigned char *b;
	size_t n;

	(void)state;
	assert_non_null(d);
	assert_true(tl && tt && pf);
	gs_error_clear(&err);
	assert_int_equal(platform_load("hikey960", &plat, &err), 0);
	w = pf_writer_new(pf);
	assert_non_null(w);
	sim_opts_init(&spec.opts);
	spec.trace = trace;
	spec.opts.plat = &plat;
	spec.opts.timeline = tl;
	spec.opts.task_timeline = tt;
	spec.opts.sink = pf_writer_sink(w);
	spec.no_hash = true;
	run_result_init(&r);
	assert_int_equal(replay_run(&spec, &r, &err), 0);
	assert_int_equal(pf_writer_finish(w, &r, &err), 0);
	b = slurp(pf, &n);
	decode(b, n, d);
	assert_int_equal(d->settings, 1);
	assert_string_equal(d->platform, "hikey960");
	for (int cpu = 0; cpu < plat.nr_cpus; cpu++)
		check_cpu(d, tl, cpu);
	for (int c = 0; c < plat.nr_clusters; c++) {
		int first = plat.clusters[c].cpus[0];
		check_emulated_freq(d, tl, first);
		check_traced_freq(d, trace, first);
	}
	check_slices(d, tt);
	free(b);
	free(d);
	run_result_release(&r);
	fclose(tl);
	fclose(tt);
	fclose(pf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_bytes),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
