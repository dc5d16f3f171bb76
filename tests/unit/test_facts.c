/*
 * test_facts.c - the facts file beside a lab recording (src/trace/facts.h): the keys the replay
 * uses are read with their values, comments and unknown keys pass, a malformed line is refused
 * naming its file and line, and the file is found by the trace's name (NAME.txt.gz, NAME.txt,
 * NAME.dat -> NAME.facts). Does not check what the replay does with the values (test_schedutil:
 * not invariant; the lab tests).
 */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/types.h"
#include "trace/facts.h"

static const char lab[] = "# govsim lab facts\n"
			  "kernel = 6.1\n"
			  "kernel_release = 6.1.0-50-amd64\n"
			  "config_HZ = 250\n"
			  "config_SCHED_AUTOGROUP = y\n"
			  "cpuidle_driver = none\n"
			  "platform = lab-2cpu\n"
			  "fast_switch = 1\n"
			  "freq_invariant = 0\n"
			  "governor_start = sugov_start\n"
			  "governor_start_ns = 3648289000\n"
			  "rate_limit_us = 10000\n"
			  "clamp_policy = rec.policy\n"
			  "rq_clock_offset_ns = 87431187:87430574\n"
			  "policy0.scaling_available_frequencies = 3000000 2400000 \n"
			  "something_new = whatever\n";

static void test_parse(void **state)
{
	struct trace_facts f;
	struct gs_error err = {0};
	(void)state;

	assert_int_equal(trace_facts_parse("lab.facts", lab, &f, &err), 0);
	assert_true(f.present);
	assert_string_equal(f.platform, "lab-2cpu");
	assert_string_equal(f.kernel_release, "6.1.0-50-amd64");
	assert_int_equal(f.freq_invariant, 0);
	assert_int_equal(f.fast_switch, 1);
	assert_int_equal(f.rate_limit_us, 10000);
	assert_int_equal(f.hz, 250);
	assert_int_equal(f.sched_autogroup, 1);
	assert_int_equal(f.cpuidle_driver, 0);
	assert_true(f.sugov_start);
	assert_string_equal(f.governor_start, "3648289000");
	assert_string_equal(f.policy, "rec.policy");
	assert_string_equal(f.rq_clock_offset, "87431187:87430574");

	/* absent keys: unknown */
	assert_int_equal(trace_facts_parse("x", "# nothing\n\n", &f, &err), 0);
	assert_int_equal(f.freq_invariant, -1);
	assert_int_equal(f.fast_switch, -1);
	assert_int_equal(f.rate_limit_us, -1);
	assert_int_equal(f.hz, 0);
	assert_int_equal(f.sched_autogroup, -1);
	assert_int_equal(f.cpuidle_driver, -1);
	assert_false(f.sugov_start);
	assert_string_equal(f.rq_clock_offset, "");
	/* a recording without probes: the key is there, empty */
	assert_int_equal(trace_facts_parse("x", "rq_clock_offset_ns =\n", &f, &err), 0);
	assert_string_equal(f.rq_clock_offset, "");
	/* the rq clock ahead of the trace's (QEMU's icount): negative offsets */
	assert_int_equal(trace_facts_parse("x", "rq_clock_offset_ns = -555947972:-555947622\n", &f,
					   &err),
			 0);
	assert_string_equal(f.rq_clock_offset, "-555947972:-555947622");
	/* the slow path's driver call: measured, or empty in a fast-switch recording */
	assert_int_equal(trace_facts_parse("x", "transition_us = 7523\n", &f, &err), 0);
	assert_int_equal(f.transition_us, 7523);
	assert_int_equal(trace_facts_parse("x", "transition_us =\n", &f, &err), 0);
	assert_int_equal(f.transition_us, -1);
}

static void test_bad(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{"platform = a\nno equals sign\n", "'b.facts':2: expected 'key = value'"},
		{"= 1\n", "'b.facts':1: a value without a key"},
		{"freq_invariant = 2\n", "'b.facts':1: freq_invariant = '2': not a valid value"},
		{"config_HZ = 99\n", "'b.facts':1: config_HZ = '99'"},
		{"rate_limit_us = -5\n", "'b.facts':1: rate_limit_us = '-5'"},
		{"transition_us = 2000000\n", "'b.facts':1: transition_us = '2000000'"},
		{"governor_start_ns = -1\n", "'b.facts':1: governor_start_ns = '-1'"},
		{"governor_start_ns = 5:-1\n", "'b.facts':1: governor_start_ns = '5:-1'"},
		{"governor_start_ns = 5::6\n", "'b.facts':1: governor_start_ns = '5::6'"},
		{"rq_clock_offset_ns = 12:3-\n", "'b.facts':1: rq_clock_offset_ns = '12:3-'"},
		{"rq_clock_offset_ns = 12::3\n", "'b.facts':1: rq_clock_offset_ns = '12::3'"},
		{"rq_clock_offset_ns = -\n", "'b.facts':1: rq_clock_offset_ns = '-'"},
		{"config_SCHED_AUTOGROUP = m\n", "'b.facts':1: config_SCHED_AUTOGROUP = 'm'"},
		{"rq_clock_offset_ns = :1\n", "'b.facts':1: rq_clock_offset_ns = ':1'"},
		/* the policy lies beside the facts file, never elsewhere */
		{"clamp_policy = ../etc/x.policy\n", "'b.facts':1: clamp_policy = '../etc/x.policy'"},
		{"platform = a-name-longer-than-sixty-three-characters-is-not-a-platform-name-at-all\n",
		 "'b.facts':1: platform"},
	};
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(bad); i++) {
		struct trace_facts f;
		struct gs_error err = {0};

		assert_int_equal(trace_facts_parse("b.facts", bad[i].text, &f, &err), GS_ETRACE);
		if (!strstr(err.msg, bad[i].want))
			fail_msg("'%s': got '%s', want '%s'", bad[i].text, err.msg, bad[i].want);
	}
}

static void test_find(void **state)
{
	char dir[4096], path[4200], trace[4200];
	static const char *const names[] = {"rec.txt.gz", "rec.txt", "rec.dat", "rec"};
	struct trace_facts f;
	struct gs_error err = {0};
	FILE *out;
	(void)state;

	snprintf(dir, sizeof(dir), "%s/facts.XXXXXX", test_tmpdir());
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/rec.facts", dir);
	/* no facts file: not present, no error */
	snprintf(trace, sizeof(trace), "%s/rec.txt.gz", dir);
	assert_int_equal(trace_facts_find(trace, &f, &err), 0);
	assert_false(f.present);
	out = fopen(path, "w");
	assert_non_null(out);
	fputs(lab, out);
	fclose(out);
	for (size_t i = 0; i < GS_ARRAY_SIZE(names); i++) {
		snprintf(trace, sizeof(trace), "%s/%s", dir, names[i]);
		assert_int_equal(trace_facts_find(trace, &f, &err), 0);
		assert_true(f.present);
		assert_string_equal(f.path, path);
		assert_string_equal(f.platform, "lab-2cpu");
	}
	/* stdin has none */
	assert_int_equal(trace_facts_find("-", &f, &err), 0);
	assert_false(f.present);
	/* a malformed file names itself */
	out = fopen(path, "w");
	assert_non_null(out);
	fputs("kernel = 6.1\ngarbage\n", out);
	fclose(out);
	snprintf(trace, sizeof(trace), "%s/rec.txt.gz", dir);
	assert_int_equal(trace_facts_find(trace, &f, &err), GS_ETRACE);
	assert_non_null(strstr(err.msg, "rec.facts':2:"));
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_find),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
