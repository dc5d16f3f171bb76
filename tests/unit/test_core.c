/*
 * test_core.c - the error table and the event-name table.
 *
 * Checks: every error code maps to the documented exit status (0 ok, 1 runtime, 2 usage,
 * 3 bad input) and a message; event names round-trip through event_type_from_name().
 * Does not check: how the CLI prints messages (golden tests do).
 */
#include "testutil.h"

#include <string.h>

#include "core/error.h"
#include "core/event.h"

static void test_exit_status(void **state)
{
	(void)state;
	assert_int_equal(gs_exit_status(GS_EOK), 0);
	assert_int_equal(gs_exit_status(GS_EARG), 2);
	assert_int_equal(gs_exit_status(GS_ETRACE), 3);
	assert_int_equal(gs_exit_status(GS_EMODEL), 3);
	assert_int_equal(gs_exit_status(GS_EPOLICY), 3);
	assert_int_equal(gs_exit_status(GS_EINPUT), 3);
	assert_int_equal(gs_exit_status(GS_ESQL), 1);
	assert_int_equal(gs_exit_status(GS_EREGRESSION), 1);
	assert_int_equal(gs_exit_status(-9999), 1);
	assert_string_equal(gs_strerror(GS_ETRACE), "bad trace");
	assert_string_equal(gs_strerror(-9999), "unknown error");
}

static void test_error_set(void **state)
{
	struct gs_error err;
	(void)state;
	gs_error_clear(&err);
	assert_int_equal(err.code, 0);
	assert_int_equal(gs_error_set(&err, GS_ETRACE, "'%s':%d: %s", "x.txt", 42, "bad"), GS_ETRACE);
	assert_int_equal(err.code, GS_ETRACE);
	assert_string_equal(err.msg, "'x.txt':42: bad");
	assert_int_equal(gs_error_set(NULL, GS_EIO, "ignored"), GS_EIO);
}

static void test_event_names(void **state)
{
	(void)state;
	for (int t = 0; t < EV__COUNT; t++) {
		const char *name = event_type_name(t);
		int back = event_type_from_name(name, strlen(name));
		if (t == EV_FREQ_MARKER || t == EV_CSV_UTIL)
			assert_int_equal(back, -1);
		else
			assert_int_equal(back, t);
	}
	assert_int_equal(event_type_from_name("sched_switchx", 13), -1);
	assert_int_equal(event_type_from_name("sched_switch", 12), EV_SWITCH);
	assert_string_equal(event_type_name(EV__COUNT), "?");
}

static void test_prev_state(void **state)
{
	(void)state;
	assert_false(switch_prev_sleeps(0));
	assert_false(switch_prev_sleeps(TASK_REPORT_MAX));
	assert_true(switch_prev_sleeps(TASK_STATE_S));
	assert_true(switch_prev_sleeps(TASK_STATE_D));
	assert_true(switch_prev_sleeps(0x80)); /* I */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_error_set),
		cmocka_unit_test(test_event_names),
		cmocka_unit_test(test_prev_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
