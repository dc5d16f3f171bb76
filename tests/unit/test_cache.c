/*
 * test_cache.c - a trace read once into memory (src/trace/cache.c).
 *
 * Checks: replaying the cache gives the reader's own stream event for event, every field of the
 * union member each type uses compared (event.h), on a generated trace spanning several chunks
 * and on real traces of every format (ftrace text, trace-cmd's trace.dat, gzip text with the
 * lab's kprobe events, Perfetto, systrace HTML, util tracepoints, CSV); the statistics kept at
 * open, after the first event and at the end are the reader's at those moments; the memory taken
 * is the sum of each event's 25 bytes and its member (computed here from the event counts), plus
 * at most one record's worth of slack per chunk; a load past the bound fails with
 * GS_EUNSUPPORTED and keeps nothing; a bad trace fails with the reader's code; the bound from
 * GOVSIM_CACHE_MAX_MB; trace_cache_matches() tells other files and other reader options apart.
 * Does not check: that a replay from the cache gives the results of one from the file
 * (tests/golden/sweep_cache.sh), nor speed (tools/bench.sh).
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "trace/cache.h"
#include "trace/reader.h"

/* What the statistics say that a replay reads from them. */
static void assert_stats_equal(const struct trace_stats *a, const struct trace_stats *b)
{
	assert_int_equal(a->format, b->format);
	assert_int_equal(a->events, b->events);
	assert_int_equal(a->lines, b->lines);
	assert_memory_equal(a->by_type, b->by_type, sizeof(a->by_type));
	assert_int_equal(a->malformed, b->malformed);
	assert_int_equal(a->reordered, b->reordered);
	assert_int_equal(a->disorder_beyond_window, b->disorder_beyond_window);
	assert_int_equal(a->nr_reported, b->nr_reported);
	for (int i = 0; i < a->nr_reported; i++)
		assert_string_equal(a->reported[i], b->reported[i]);
	assert_int_equal(a->first_ts_ns, b->first_ts_ns);
	assert_int_equal(a->last_ts_ns, b->last_ts_ns);
	assert_int_equal(a->max_cpu, b->max_cpu);
	assert_int_equal(a->cpus_seen_mask, b->cpus_seen_mask);
	assert_int_equal(a->header_cpus, b->header_cpus);
	assert_string_equal(a->kernel_release, b->kernel_release);
	assert_string_equal(a->device, b->device);
	assert_int_equal(a->nr_cpu_info, b->nr_cpu_info);
	assert_memory_equal(a->cpu_info, b->cpu_info, sizeof(a->cpu_info));
	assert_memory_equal(a->markers, b->markers, sizeof(a->markers));
	assert_int_equal(a->nr_unknown, b->nr_unknown);
}

/* The bytes of one event's record, from event.h's list of which member each type fills. */
static size_t record_bytes(int type)
{
	const struct event *e = NULL;
	size_t common = 1 + 8 + 8 + 4 + 4;

	switch (type) {
	case EV_SWITCH:
		return common + sizeof(e->sw);
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		return common + sizeof(e->wake);
	case EV_MIGRATE:
		return common + sizeof(e->migrate);
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
	case EV_FREQ_MARKER:
		return common + sizeof(e->power);
	case EV_IOWAIT_BOOST:
		return common + sizeof(e->iowait);
	case EV_HRTIMER_EXPIRE:
		return common + sizeof(e->timer);
	case EV_SOFTIRQ_ENTRY:
		return common + sizeof(e->softirq);
	case EV_BLOCKED_UPDATE:
		return common + sizeof(e->blocked);
	case EV_GOV_RAW_FREQ:
		return common + sizeof(e->raw);
	case EV_GOV_HOOK:
		return common + sizeof(e->hook);
	case EV_GOV_IDLE_CALLS:
		return common + sizeof(e->idle_calls);
	case EV_PROCESS_EXIT:
		return common + sizeof(e->proc);
	default:
		return common + sizeof(e->util);
	}
}

/* The cache of path against the reader's own pass over it; returns the number of events. */
static u64 compare_cache(const char *path, const struct reader_opts *opts)
{
	struct trace_reader *rd = NULL;
	struct trace_cache *c = NULL;
	struct trace_cache_cursor cur;
	struct gs_error err;
	struct event a, b;
	u64 n = 0;
	size_t want = 0;
	int ret;

	gs_error_clear(&err);
	ret = trace_cache_load(path, opts, 1ull << 30, &c, &err);
	if (ret)
		print_message("'%s': %s\n", path, err.msg);
	assert_int_equal(ret, 0);
	assert_non_null(c);
	assert_true(trace_cache_matches(c, path, opts));
	assert_int_equal(trace_reader_open(path, opts, &rd, &err), 0);
	assert_stats_equal(trace_cache_stats(c, TRACE_CACHE_AT_OPEN), trace_reader_stats(rd));
	trace_cache_rewind(c, &cur);
	while ((ret = trace_reader_next(rd, &a, &err)) == 1) {
		if (n == 0)
			assert_stats_equal(trace_cache_stats(c, TRACE_CACHE_AFTER_FIRST),
					   trace_reader_stats(rd));
		assert_int_equal(trace_cache_next(&cur, &b), 1);
		assert_event_equal(&a, &b);
		want += record_bytes(a.type);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(trace_cache_next(&cur, &b), 0);
	assert_int_equal(trace_cache_events(c), n);
	assert_stats_equal(trace_cache_stats(c, TRACE_CACHE_AT_END), trace_reader_stats(rd));
	/* records never straddle two 1 MiB chunks: each but the last may leave < 1 record free */
	assert_true(trace_cache_bytes(c) >= want);
	assert_true(trace_cache_bytes(c) < want + (want / (1u << 20) + 1) * record_bytes(-1));
	/* a second pass gives the same again */
	trace_cache_rewind(c, &cur);
	for (u64 i = 0; i < n; i++)
		assert_int_equal(trace_cache_next(&cur, &b), 1);
	assert_int_equal(trace_cache_next(&cur, &b), 0);
	trace_reader_free(rd);
	trace_cache_free(c);
	return n;
}

static const char *gen_trace(const char *name, long lines)
{
	const char *path = test_tmppath(name);
	struct gen_opts o;
	struct gs_error err;
	FILE *f;

	gen_opts_init(&o);
	o.workload = GEN_MIX;
	o.size_lines = lines;
	gs_error_clear(&err);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(gen_write(f, &o, NULL, &err), 0);
	fclose(f);
	return path;
}

static void test_same_stream(void **state)
{
	const char *big = gen_trace("cache.txt", 40000);
	struct reader_opts ropts = {.format = TRACE_FMT_AUTO};
	(void)state;

	assert_true(compare_cache(big, NULL) > 39000);
	remove(big);
	assert_int_equal(compare_cache(test_path("traces/juno-r0/rtapp_switch/trace.txt"), NULL),
			 2936);
	assert_int_equal(compare_cache(test_path("traces/juno-r0/sched_load/trace.dat"), NULL),
			 3724);
	/* the event types the reader keeps, each counted with grep -c: cpu_idle 1262,
	 * hrtimer_expire_entry 1186, resolve_freq 846, sched_switch 833,
	 * update_blocked_averages 614, softirq_entry 519, sched_waking 391, sched_wakeup 391,
	 * sched_migrate_task 57, cpu_frequency 38, sched_wakeup_new 47, sched_process_exit 47,
	 * sugov_update_single_freq 1575, idle_calls 1358 */
	assert_int_equal(compare_cache(test_path("traces/lab/6.1/burst.txt.gz"), NULL),
			 1262 + 1186 + 846 + 833 + 614 + 519 + 391 + 391 + 57 + 38 + 47 + 47 + 1575 +
				 1358);
	assert_true(compare_cache(test_path("traces/perfetto/systing-x86-22cpu.pftrace"), NULL) > 0);
	assert_true(compare_cache(test_path("tests/fixtures/traces/systrace-viewer-js.html"), NULL) >
		    0);
	assert_int_equal(
		compare_cache(test_path("traces/formats/juno_pelt_migration_dip_big_2020-11-23_66650f6a.txt"),
			      &ropts),
		9);
	assert_int_equal(compare_cache(test_tmpfile("time_s,cpu,util\n0.5,0,100\n"
						    "0.6,1,200\n0.7,0,300\n",
						    ".csv"),
				       NULL),
			 3);
}

static void test_bound(void **state)
{
	const char *big = gen_trace("cache-bound.txt", 40000);
	struct trace_cache *c = (struct trace_cache *)1;
	struct gs_error err;
	(void)state;

	gs_error_clear(&err);
	assert_int_equal(trace_cache_load(big, NULL, 1u << 20, &c, &err), GS_EUNSUPPORTED);
	assert_null(c);
	assert_non_null(strstr(err.msg, "more than 1 MiB in memory after "));
	gs_error_clear(&err);
	assert_int_equal(trace_cache_load(big, NULL, 64u << 20, &c, &err), 0);
	assert_true(trace_cache_bytes(c) > (1u << 20) && trace_cache_bytes(c) <= (64u << 20));
	trace_cache_free(c);
	remove(big);

	/* a trace the reader refuses: its code and message */
	c = (struct trace_cache *)1;
	gs_error_clear(&err);
	assert_int_equal(trace_cache_load(test_tmpfile("no trace here\n", ".txt"), NULL, 1u << 20,
					  &c, &err),
			 GS_ETRACE);
	assert_null(c);
	assert_non_null(strstr(err.msg, "no usable event"));
	trace_cache_free(NULL);
}

static void test_max_bytes(void **state)
{
	(void)state;
	unsetenv("GOVSIM_CACHE_MAX_MB");
	assert_int_equal(trace_cache_max_bytes(), 1024ull << 20);
	setenv("GOVSIM_CACHE_MAX_MB", "0", 1);
	assert_int_equal(trace_cache_max_bytes(), 0);
	setenv("GOVSIM_CACHE_MAX_MB", "5", 1);
	assert_int_equal(trace_cache_max_bytes(), 5ull << 20);
	setenv("GOVSIM_CACHE_MAX_MB", "5x", 1);
	assert_int_equal(trace_cache_max_bytes(), 1024ull << 20);
	setenv("GOVSIM_CACHE_MAX_MB", "99999999999", 1);
	assert_int_equal(trace_cache_max_bytes(), 1024ull << 20);
	unsetenv("GOVSIM_CACHE_MAX_MB");
}

static void test_matches(void **state)
{
	const char *path = test_path("traces/juno-r0/rtapp_switch/trace.txt");
	struct reader_opts o = {0}, strict = {.strict = true}, named = {.name = "x"};
	struct trace_cache *c = NULL;
	struct gs_error err;
	(void)state;

	gs_error_clear(&err);
	assert_int_equal(trace_cache_load(path, &o, 1ull << 30, &c, &err), 0);
	assert_true(trace_cache_matches(c, path, NULL));
	assert_true(trace_cache_matches(c, path, &named)); /* the name in messages aside */
	assert_false(trace_cache_matches(c, path, &strict));
	assert_false(trace_cache_matches(c, "other.txt", &o));
	assert_false(trace_cache_matches(NULL, path, &o));
	trace_cache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_stream),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_max_bytes),
		cmocka_unit_test(test_matches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
