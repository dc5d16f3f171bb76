/*
 * test_summary.c - the run summary's words on idle policies, unused clamps and task counts.
 *
 * Checks: a policy with no activity (NAN average) prints "no activity" and no MHz figure; one
 * transition is "1 transition", others plural; each policy action shows its task counts, or
 * that it did not run; notes print one a line. Does not check the figures of real runs
 * (golden/run.sh) nor the layout of the residency table.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/summary.h"

static char *render(const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_summary(f, r, NULL);
	fclose(f);
	return buf;
}

static void make(struct run_result *r)
{
	run_result_init(r);
	snprintf(r->platform, sizeof(r->platform), "hikey960");
	snprintf(r->power_unit, sizeof(r->power_unit), "J");
	r->span_s = 1.0;
	r->nr_clusters = 2;
	r->pol[0].policy = 0;
	r->pol[0].nr_opps = 1;
	r->pol[0].freq_khz[0] = 533000;
	r->pol[0].residency_s[0] = 1.0;
	r->pol[0].avg_freq_khz = NAN;
	r->pol[0].transitions = 1;
	r->pol[1].policy = 4;
	r->pol[1].nr_opps = 1;
	r->pol[1].freq_khz[0] = 903000;
	r->pol[1].residency_s[0] = 1.0;
	r->pol[1].avg_freq_khz = 903000;
	r->pol[1].transitions = 2;
	r->pol[1].busy_s = 0.25;
}

static void test_no_activity_and_plural(void **state)
{
	struct run_result r;
	char *out;
	(void)state;

	make(&r);
	out = render(&r);
	assert_non_null(strstr(out, "\npolicy0: no activity, 1 transition, busy 0.000 s\n"));
	assert_non_null(strstr(out, "\npolicy4: avg 903.0 MHz, 2 transitions, busy 0.250 s\n"));
	free(out);
	run_result_release(&r);
}

static void test_actions_and_notes(void **state)
{
	struct run_result r;
	char *out;
	(void)state;

	make(&r);
	r.nr_actions = 3;
	r.actions = calloc(3, sizeof(*r.actions));
	assert_non_null(r.actions);
	snprintf(r.actions[0].text, sizeof(r.actions[0].text), "setattr comm=a uclamp_min=1");
	r.actions[0].ran = r.actions[0].selects_tasks = true;
	r.actions[0].matched = 1;
	snprintf(r.actions[1].text, sizeof(r.actions[1].text), "setattr comm=b* uclamp_max=9");
	r.actions[1].ran = r.actions[1].selects_tasks = true;
	r.actions[1].matched = 2;
	r.actions[1].matched_later = 3;
	r.actions[1].rejected = 1;
	snprintf(r.actions[2].text, sizeof(r.actions[2].text), "at 9 sysctl sched_util_clamp_min 5");
	snprintf(r.notes, sizeof(r.notes), "first note; second note");
	out = render(&r);
	assert_non_null(strstr(out, "\npolicy:\n  setattr comm=a uclamp_min=1   (1 task)\n"
				    "  setattr comm=b* uclamp_max=9   (2 tasks, 3 first seen later, "
				    "1 rejected)\n"
				    "  at 9 sysctl sched_util_clamp_min 5   (after the trace's end: not "
				    "run)\n"));
	assert_non_null(strstr(out, "\nnote:     first note\nnote:     second note\n"));
	free(out);
	run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_activity_and_plural),
		cmocka_unit_test(test_actions_and_notes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
