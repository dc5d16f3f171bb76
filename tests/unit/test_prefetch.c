/*
 * test_prefetch.c - reading ahead on another thread (src/trace/prefetch.c).
 *
 * Checks: the prefetched stream equals the reader's own stream event for event, across many
 * batch boundaries (a generated trace of several batches) and on a real trace.dat; a reader
 * error in the middle comes out after the events before it, with the reader's message; the
 * consumer may stop early, while the producer is blocked on a full ring, without hanging or
 * leaking (the sanitizer build checks the leak part).
 * Does not check: speed (tools/bench.sh measures it).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "trace/prefetch.h"
#include "trace/reader.h"

/* Every event through prefetch equals the reader's own, in order; returns the count. */
static long compare_streams(const char *path)
{
	struct trace_reader *a = NULL, *b = NULL;
	struct trace_prefetch *pf = NULL;
	struct gs_error err;
	struct event ev;
	const struct event *pev;
	long n = 0;
	int ra, rb;

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, NULL, &a, &err), 0);
	assert_int_equal(trace_reader_open(path, NULL, &b, &err), 0);
	assert_int_equal(trace_prefetch_start(b, &pf, &err), 0);
	for (;;) {
		ra = trace_reader_next(a, &ev, &err);
		rb = trace_prefetch_next(pf, &pev, &err);
		assert_int_equal(ra, rb);
		if (ra != 1)
			break;
		assert_event_equal(&ev, pev);
		n++;
	}
	trace_prefetch_stop(pf);
	assert_int_equal(trace_reader_stats(a)->events, trace_reader_stats(b)->events);
	trace_reader_free(a);
	trace_reader_free(b);
	return n;
}

static void test_same_stream(void **state)
{
	const char *path = test_tmppath("prefetch.txt");
	struct gen_opts o;
	struct gs_error err;
	FILE *f;
	long n;
	(void)state;

	gen_opts_init(&o);
	o.workload = GEN_MIX;
	o.size_lines = 5 * PREFETCH_BATCH * PREFETCH_DEPTH / 2 + 17; /* several rings' worth */
	gs_error_clear(&err);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(gen_write(f, &o, NULL, &err), 0);
	fclose(f);
	n = compare_streams(path);
	assert_true(n > 2 * PREFETCH_BATCH * PREFETCH_DEPTH);
	remove(path);

	assert_int_equal(compare_streams(test_path("traces/juno-r0/sched_load/trace.dat")), 3724);
}

/* --strict: the reader fails at a malformed line after many good ones. */
static void test_error_mid_stream(void **state)
{
	const char *path = test_tmppath("prefetch-bad.txt");
	struct reader_opts ro = {.strict = true};
	struct trace_reader *r = NULL;
	struct trace_prefetch *pf = NULL;
	struct gs_error err, direct_err;
	const struct event *ev;
	struct event dev;
	FILE *f;
	long n = 0, direct_n = 0;
	int ret, direct_ret;
	(void)state;

	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 3 * PREFETCH_BATCH; i++)
		fprintf(f, "          <idle>-0       [000] d..2 %5d.%06d: cpu_idle: state=1 cpu_id=0\n",
			100 + i / 1000, (i % 1000) * 1000);
	fprintf(f, "this is not a trace line\n");
	fclose(f);

	/* the reader alone: the events before the line (less those still in its re-ordering
	 * window when the strict error stops it), then the error */
	gs_error_clear(&direct_err);
	assert_int_equal(trace_reader_open(path, &ro, &r, &direct_err), 0);
	while ((direct_ret = trace_reader_next(r, &dev, &direct_err)) == 1)
		direct_n++;
	trace_reader_free(r);
	assert_int_equal(direct_ret, GS_ETRACE);
	assert_true(direct_n > 2 * PREFETCH_BATCH);
	assert_non_null(strstr(direct_err.msg, ":6145: "));

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, &ro, &r, &err), 0);
	assert_int_equal(trace_prefetch_start(r, &pf, &err), 0);
	while ((ret = trace_prefetch_next(pf, &ev, &err)) == 1)
		n++;
	assert_int_equal(ret, direct_ret);
	assert_int_equal(n, direct_n);
	assert_string_equal(err.msg, direct_err.msg);
	trace_prefetch_stop(pf);
	trace_reader_free(r);
	remove(path);
}

/* The consumer stops after one event: the producer has filled the ring and waits. */
static void test_early_stop(void **state)
{
	struct trace_reader *r = NULL;
	struct trace_prefetch *pf = NULL;
	struct gs_error err;
	const struct event *ev;
	(void)state;

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(test_path("traces/juno-r0/rtapp_switch/trace.txt"), NULL,
					   &r, &err),
			 0);
	assert_int_equal(trace_prefetch_start(r, &pf, &err), 0);
	assert_int_equal(trace_prefetch_next(pf, &ev, &err), 1);
	trace_prefetch_stop(pf);
	trace_reader_free(r);
	trace_prefetch_stop(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_stream),
		cmocka_unit_test(test_error_mid_stream),
		cmocka_unit_test(test_early_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
