/*
 * test_observer.c - the replay's hook list of optional features (src/sim/observer.c, .h), on
 * fake observers that log their calls.
 *
 * Checks: each hook reaches exactly the observers that have it, in the order they were added
 * (an observer without cpu_state is skipped, not called through NULL); an empty list calls
 * nothing and start/finish return 0; start and finish stop at the first failure and return its
 * code; one observer past SIM_MAX_OBSERVERS is refused with GS_EINTERNAL and leaves the list as it
 * was; release frees every state once and empties the list.
 * Does not check: the features themselves (the Wattson observer: golden/wattson.sh, which
 * compares the energies with a hand computation, byte for byte with the outputs before).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "sim/observer.h"

static char trail[256];

static void log_call(const char *what, const void *state)
{
	size_t len = strlen(trail);

	snprintf(trail + len, sizeof(trail) - len, "%s:%s ", what, (const char *)state);
}

static int obs_start(struct sim *s, void *state, u64 t, struct gs_error *err)
{
	(void)s;
	(void)t;
	log_call("start", state);
	return strcmp(state, "fail") == 0 ? gs_error_set(err, GS_ENOMEM, "no") : 0;
}

static void obs_cpu_state(struct sim *s, void *state, int cpu)
{
	(void)s;
	log_call(cpu == 3 ? "cpu3" : "cpu?", state);
}

static void obs_freq(struct sim *s, void *state, int cluster, u64 t, u32 khz)
{
	(void)s;
	log_call(cluster == 1 && t == 7 && khz == 903000 ? "freq" : "freq?", state);
}

static int obs_finish(struct sim *s, void *state, u64 end, struct run_result *r,
		      struct gs_error *err)
{
	(void)s;
	(void)end;
	(void)r;
	log_call("finish", state);
	return strcmp(state, "fail") == 0 ? gs_error_set(err, GS_EIO, "no") : 0;
}

static void obs_release(void *state)
{
	log_call("release", state);
}

static struct sim_observer full(const char *name)
{
	return (struct sim_observer){.name = name,
				     .state = (void *)name,
				     .start = obs_start,
				     .cpu_state = obs_cpu_state,
				     .freq_change = obs_freq,
				     .finish = obs_finish,
				     .release = obs_release};
}

static void test_order_and_missing_hooks(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer a = full("a"), b = full("b");
	struct gs_error err;
	(void)state;

	b.cpu_state = NULL; /* b does not watch CPU states */
	assert_int_equal(sim_observers_add(&obs, &a, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &b, &err), 0);
	trail[0] = '\0';
	assert_int_equal(sim_observers_start(&obs, NULL, 5, &err), 0);
	sim_observers_cpu_state(&obs, NULL, 3);
	sim_observers_freq_change(&obs, NULL, 1, 7, 903000);
	assert_int_equal(sim_observers_finish(&obs, NULL, 9, NULL, &err), 0);
	sim_observers_release(&obs);
	assert_string_equal(trail, "start:a start:b cpu3:a freq:a freq:b finish:a finish:b "
				   "release:a release:b ");
	assert_int_equal(obs.nr, 0);
	assert_int_equal(obs.nr_cpu_state, 0);
	assert_int_equal(obs.nr_freq_change, 0);
}

static void test_empty(void **state)
{
	struct sim_observers obs = {0};
	struct gs_error err;
	(void)state;

	trail[0] = '\0';
	assert_int_equal(sim_observers_start(&obs, NULL, 5, &err), 0);
	sim_observers_cpu_state(&obs, NULL, 3);
	sim_observers_freq_change(&obs, NULL, 1, 7, 903000);
	assert_int_equal(sim_observers_finish(&obs, NULL, 9, NULL, &err), 0);
	sim_observers_release(&obs);
	assert_string_equal(trail, "");
}

static void test_first_failure_stops(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer a = full("fail"), b = full("b");
	struct gs_error err;
	(void)state;

	assert_int_equal(sim_observers_add(&obs, &a, &err), 0);
	assert_int_equal(sim_observers_add(&obs, &b, &err), 0);
	trail[0] = '\0';
	assert_int_equal(sim_observers_start(&obs, NULL, 5, &err), GS_ENOMEM);
	assert_int_equal(sim_observers_finish(&obs, NULL, 9, NULL, &err), GS_EIO);
	sim_observers_release(&obs);
	assert_string_equal(trail, "start:fail finish:fail release:fail release:b ");
}

static void test_too_many(void **state)
{
	struct sim_observers obs = {0};
	struct sim_observer o = full("x"), extra = full("extra");
	struct gs_error err;
	(void)state;

	for (int i = 0; i < SIM_MAX_OBSERVERS; i++)
		assert_int_equal(sim_observers_add(&obs, &o, &err), 0);
	gs_error_clear(&err);
	assert_int_equal(sim_observers_add(&obs, &extra, &err), GS_EINTERNAL);
	assert_non_null(strstr(err.msg, "'extra'"));
	assert_int_equal(obs.nr, SIM_MAX_OBSERVERS);
	assert_int_equal(obs.nr_cpu_state, SIM_MAX_OBSERVERS);
	trail[0] = '\0';
	sim_observers_release(&obs);
	assert_null(strstr(trail, "extra"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_missing_hooks),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_first_failure_stops),
		cmocka_unit_test(test_too_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
