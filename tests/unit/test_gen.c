/*
 * test_gen.c - the synthetic workload generator (src/gen/gen.c) read back by the reader.
 *
 * Checks: every workload reads back with zero malformed lines and in time order (no
 * re-ordering needed); event counts equal the numbers worked out from the workload definition
 * (periodic: per activation 1 waking and 1 wakeup in hardirq context, 2 switches, 2 cpu_idle;
 * pipe: per round trip 2 wakings and 2 wakeups in the writer's task context, 4 switches,
 * 4 cpu_idle, plus the opening lines; on one CPU 2 switches and no cpu_idle; on a CPU list
 * those CPUs); a periodic task's activations start one
 * period apart and run duty x period within the +-10% jitter; the same seed gives the same
 * bytes and another seed different bytes; --size stops at about that many lines; bad task
 * specs are rejected.
 * Does not check: that the workloads resemble real rt-app or perf runs beyond these rules.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "trace/reader.h"

static char *gen_to_file(const struct gen_opts *o, const char *path, u64 *lines)
{
	FILE *f = fopen(path, "w");
	struct gs_error err;
	gs_error_clear(&err);
	assert_non_null(f);
	assert_int_equal(gen_write(f, o, lines, &err), 0);
	fclose(f);
	return (char *)path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Read back: no malformed or out-of-order line, and the stats. */
static struct trace_stats read_back(const char *path)
{
	struct trace_reader *r = NULL;
	struct gs_error err;
	struct event ev;
	struct trace_stats st;
	int ret;

	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
	while ((ret = trace_reader_next(r, &ev, &err)) == 1)
		;
	assert_int_equal(ret, 0);
	st = *trace_reader_stats(r);
	trace_reader_free(r);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(st.reordered, 0);
	assert_int_equal(st.disorder_beyond_window, 0);
	assert_int_equal(st.format, TRACE_FMT_FTRACE);
	return st;
}

static void test_periodic_counts_and_timing(void **state)
{
	const char *path = test_tmppath("gen-periodic.txt");
	struct gen_opts o;
	struct gs_error err;
	struct trace_stats st;
	struct trace_reader *r = NULL;
	struct event ev;
	u64 wake_prev = 0, run_start = 0;
	int n_wake = 0, n_run = 0;
	(void)state;

	gen_opts_init(&o);
	o.nr_cpus = 4;
	gs_error_clear(&err);
	assert_int_equal(gen_parse_task(&o, "name=t0,period_ms=10,duty=0.3,cpu=2,prio=120,count=50",
					&err), 0);
	gen_to_file(&o, path, NULL);
	st = read_back(path);
	assert_int_equal(st.header_cpus, 4);
	assert_int_equal(st.by_type[EV_FREQ_MARKER], 4);
	assert_int_equal(st.by_type[EV_WAKEUP], 50);
	assert_int_equal(st.by_type[EV_WAKING], 50);
	assert_int_equal(st.by_type[EV_SWITCH], 100);
	assert_int_equal(st.by_type[EV_CPU_IDLE], 100);
	assert_int_equal(st.events, 4 + 50 + 50 + 100 + 100);

	/* activations one period apart; each runs 0.3 x 10 ms +-10% */
	assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
	while (trace_reader_next(r, &ev, &err) == 1) {
		if (ev.type == EV_WAKING)
			assert_int_equal(ev.wake.irq, EV_IRQ_HARD); /* a timer */
		if (ev.type == EV_WAKEUP) {
			assert_int_equal(ev.wake.target_cpu, 2);
			assert_int_equal(ev.wake.irq, EV_IRQ_HARD);
			if (n_wake++)
				assert_int_equal(ev.ts_ns - wake_prev, 10 * NSEC_PER_MSEC);
			wake_prev = ev.ts_ns;
		} else if (ev.type == EV_SWITCH && ev.sw.next_pid != 0) {
			assert_string_equal(ev.sw.next_comm, "t0");
			run_start = ev.ts_ns;
		} else if (ev.type == EV_SWITCH) {
			u64 run = ev.ts_ns - run_start;
			assert_int_equal(ev.sw.prev_state, TASK_STATE_S);
			assert_true(run >= 2700 * NSEC_PER_USEC - NSEC_PER_USEC);
			assert_true(run <= 3300 * NSEC_PER_USEC);
			n_run++;
		}
	}
	assert_int_equal(n_run, 50);
	trace_reader_free(r);
	remove(path);
}

/* rt-app phases: 10 activations at duty 0.5, then 10 at 0.25 of a 16 ms period. */
static void test_periodic_phases(void **state)
{
	const char *path = test_tmppath("gen-phases.txt");
	struct gen_opts o;
	struct gs_error err;
	struct trace_reader *r = NULL;
	struct event ev;
	u64 run_start = 0;
	int n_run = 0;
	(void)state;

	gen_opts_init(&o);
	o.nr_cpus = 2;
	gs_error_clear(&err);
	assert_int_equal(gen_parse_task(&o, "name=ramp,period_ms=16,phases=0.5x10/0.25x10,cpu=1",
					&err), 0);
	assert_int_equal(o.tasks[0].nr_phases, 2);
	assert_int_equal(o.tasks[0].count, 20);
	gen_to_file(&o, path, NULL);
	assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
	while (trace_reader_next(r, &ev, &err) == 1) {
		if (ev.type == EV_SWITCH && ev.sw.next_pid != 0) {
			run_start = ev.ts_ns;
		} else if (ev.type == EV_SWITCH) {
			u64 run = ev.ts_ns - run_start;
			u64 want_us = n_run < 10 ? 8000 : 4000; /* duty x 16 ms, +-10% */
			assert_true(run >= (want_us * 9 / 10 - 1) * NSEC_PER_USEC);
			assert_true(run <= want_us * 11 / 10 * NSEC_PER_USEC);
			n_run++;
		}
	}
	assert_int_equal(n_run, 20);
	trace_reader_free(r);
	remove(path);

	/* bad phase lists */
	assert_int_equal(gen_parse_task(&o, "phases=0.5", &err), GS_EARG);
	assert_int_equal(gen_parse_task(&o, "phases=1.5x10", &err), GS_EARG);
	assert_int_equal(gen_parse_task(&o, "phases=0.5x0", &err), GS_EARG);
	assert_int_equal(gen_parse_task(&o, "phases=0.5x10/", &err), 0); /* trailing '/' */
	assert_int_equal(gen_parse_task(&o, "phases=0.5x1/0.5x1/0.5x1/0.5x1/0.5x1/0.5x1/0.5x1/"
					    "0.5x1/0.5x1",
					&err),
			 GS_EARG);
}

static void test_pipe_counts(void **state)
{
	const char *path = test_tmppath("gen-pipe.txt");
	struct gen_opts o;
	struct trace_stats st;
	u64 lines;
	(void)state;

	gen_opts_init(&o);
	o.workload = GEN_PIPE;
	o.count = 300; /* round trips */
	gen_to_file(&o, path, &lines);
	st = read_back(path);
	assert_int_equal(st.by_type[EV_WAKEUP], 600);
	assert_int_equal(st.by_type[EV_WAKING], 600);
	assert_int_equal(st.by_type[EV_SWITCH], 4 * 300 + 1);
	assert_int_equal(st.by_type[EV_CPU_IDLE], 4 * 300 + 2);
	assert_int_equal(st.cpus_seen_mask, 0x3);
	assert_int_equal(lines, st.events); /* every written line is an event */

	/* the writer wakes the reader in its own task context, on its own CPU */
	{
		struct trace_reader *r = NULL;
		struct gs_error err;
		struct event ev;
		int n = 0;
		gs_error_clear(&err);
		assert_int_equal(trace_reader_open(path, NULL, &r, &err), 0);
		while (trace_reader_next(r, &ev, &err) == 1) {
			if (ev.type != EV_WAKING)
				continue;
			assert_int_equal(ev.wake.irq, 0);
			assert_int_equal(ev.pid, ev.wake.pid == 1000 ? 1001 : 1000);
			assert_int_equal(ev.cpu, ev.pid == 1000 ? 0 : 1);
			n++;
		}
		assert_int_equal(n, 600);
		trace_reader_free(r);
	}

	/* taskset 1: both on CPU 2, the sleeper switches to the woken side, no idle */
	o.nr_pipe_cpus = 1;
	o.pipe_cpus[0] = 2;
	gen_to_file(&o, path, &lines);
	st = read_back(path);
	assert_int_equal(st.by_type[EV_WAKING], 600);
	assert_int_equal(st.by_type[EV_SWITCH], 2 * 300 + 1);
	assert_int_equal(st.by_type[EV_CPU_IDLE], 1);
	assert_int_equal(st.cpus_seen_mask, 0x4 | 0x1); /* CPU 0 records the markers */

	/* CPUs 4 and 5 */
	o.nr_pipe_cpus = 2;
	o.pipe_cpus[0] = 4;
	o.pipe_cpus[1] = 5;
	gen_to_file(&o, path, &lines);
	st = read_back(path);
	assert_int_equal(st.by_type[EV_SWITCH], 4 * 300 + 1);
	assert_int_equal(st.cpus_seen_mask, 0x30 | 0x1);
	remove(path);
}

static void test_mix_and_determinism(void **state)
{
	const char *a = test_tmppath("gen-mix-a.txt"), *b = test_tmppath("gen-mix-b.txt");
	struct gen_opts o;
	struct trace_stats st;
	char *ba, *bb;
	size_t la, lb;
	(void)state;

	gen_opts_init(&o);
	o.workload = GEN_MIX;
	o.count = 20;
	o.prng_seed = 42;
	gen_to_file(&o, a, NULL);
	gen_to_file(&o, b, NULL);
	ba = slurp(a, &la);
	bb = slurp(b, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(ba, bb, la);
	free(bb);

	st = read_back(a);
	/* 8 CPUs x 3 tasks x 20 activations; preemptions add switches, never wakeups */
	assert_int_equal(st.by_type[EV_WAKEUP], 8 * 3 * 20);
	assert_true(st.by_type[EV_SWITCH] >= 2 * 8 * 3 * 20 - 8 * 3 * 20);
	assert_int_equal(st.cpus_seen_mask, 0xff);

	o.prng_seed = 43;
	gen_to_file(&o, b, NULL);
	bb = slurp(b, &lb);
	assert_false(la == lb && memcmp(ba, bb, la) == 0);
	free(ba);
	free(bb);
	remove(a);
	remove(b);
}

static void test_size(void **state)
{
	const char *path = test_tmppath("gen-size.txt");
	struct gen_opts o;
	struct trace_stats st;
	u64 lines;
	(void)state;

	gen_opts_init(&o);
	o.size_lines = 20000;
	gen_to_file(&o, path, &lines);
	assert_true(lines >= 20000 && lines <= 20000 + 8);
	st = read_back(path);
	assert_int_equal(st.events, lines);
	assert_int_equal(st.cpus_seen_mask, 0xff);
	remove(path);
}

static void test_bad_task_specs(void **state)
{
	static const char *const bad[] = {
		"period_ms=0", "duty=1.5", "cpu=64", "prio=200", "count=0", "foo=1",
		"name=has space", "name=a-b", "period_ms", "duty=abc",
	};
	struct gen_opts o;
	struct gs_error err;
	(void)state;

	gen_opts_init(&o);
	for (size_t i = 0; i < GS_ARRAY_SIZE(bad); i++) {
		gs_error_clear(&err);
		if (gen_parse_task(&o, bad[i], &err) != GS_EARG)
			fail_msg("task spec '%s' accepted", bad[i]);
		assert_true(err.msg[0] != '\0');
	}
	assert_int_equal(o.nr_tasks, 0);
	/* a task on a CPU the trace does not have */
	assert_int_equal(gen_parse_task(&o, "cpu=6", &err), 0);
	o.nr_cpus = 4;
	assert_int_equal(gen_write(stdout, &o, NULL, &err), GS_EARG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic_counts_and_timing),
		cmocka_unit_test(test_periodic_phases),
		cmocka_unit_test(test_pipe_counts),
		cmocka_unit_test(test_mix_and_determinism),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_bad_task_specs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
