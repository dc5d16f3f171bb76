/*
 * test_sched_busy.c - sched_busy_mask(), the scheduler model's one-word view of which CPUs run
 * a task (the replay loop reads it instead of asking sched_cpu_curr() per CPU).
 *
 * Checks: after every event of the real traces (the Android 8-CPU trace with its sugov
 * kthreads, and the Juno rtapp trace with its migrations and trace/model disagreements), and
 * after ticks and blocked updates, bit c of the mask is set exactly when sched_cpu_curr(s, c)
 * is not NULL, for every CPU; and the mask is not constantly zero (the check can fail).
 * Does not check: what the running task is (test_sched.c), nor the loop's busy accounting
 * (test_sim.c and the golden tests).
 */
#include "testutil.h"

#include "core/event.h"
#include "sched/sched.h"
#include "trace/reader.h"

/* The slow reference: one call per CPU. */
static u64 mask_from_curr(const struct sched *s, int nr_cpus)
{
	u64 m = 0;

	for (int c = 0; c < nr_cpus; c++)
		if (sched_cpu_curr(s, c))
			m |= 1ull << c;
	return m;
}

static void replay_and_compare(const char *rel, int nr_cpus)
{
	struct sched_config cfg = {0};
	struct sched *s = NULL;
	struct trace_reader *r = NULL;
	struct reader_opts opts = {0};
	struct gs_error err;
	struct event ev;
	u64 ever = 0, n = 0;
	int ret;

	cfg.nr_cpus = nr_cpus;
	for (int c = 0; c < nr_cpus; c++)
		cfg.capacity[c] = c < nr_cpus / 2 ? 462 : 1024;
	assert_int_equal(sched_new(&cfg, NULL, &s), 0);
	gs_error_clear(&err);
	assert_int_equal(trace_reader_open(test_path(rel), &opts, &r, &err), 0);
	while ((ret = trace_reader_next(r, &ev, &err)) == 1) {
		if (ev.cpu >= nr_cpus)
			continue;
		if (sched_event(s, &ev, ev.ts_ns, &err) != 0)
			continue; /* an event the model rejects changes nothing */
		if (n % 7 == 0) {
			sched_tick(s, ev.cpu, ev.ts_ns);
			sched_update_blocked(s, (ev.cpu + 1) % nr_cpus, ev.ts_ns);
		}
		assert_int_equal(sched_busy_mask(s), mask_from_curr(s, nr_cpus));
		ever |= sched_busy_mask(s);
		n++;
	}
	assert_int_equal(ret, 0);
	assert_true(n > 1000);
	assert_true(ever != 0);
	trace_reader_free(r);
	sched_free(s);
}

static void test_android(void **state)
{
	(void)state;
	replay_and_compare("traces/android-8cpu/surfaceflinger.txt", 8);
}

static void test_juno_rtapp(void **state)
{
	(void)state;
	replay_and_compare("traces/juno-r0/rtapp_switch/trace.txt", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_android),
		cmocka_unit_test(test_juno_rtapp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
