/*
 * test_config.c - the replay's own --set keys (src/sim/config.c): its table, walked through
 * sim_param_key(), against values and messages written here by hand.
 *
 * Checks: every key of the table has a case here and every case a key of the table (a new key
 * cannot go untested), and a help line; each key set to a value in range is taken (marked used)
 * and reads back from its field of struct sim_config as written below, which differs from the
 * default; each key set to a value out of range or ill-formed is refused with GS_EARG, the
 * message given below, and left unused; the bounds themselves are taken and one past them
 * refused (hz 100 and 1000, uclamp_buckets 5 and 20, cgroup_depth 0 and 64, 0 and 1 s of a
 * latency; a frequency past a u32 saturates to "not written"); a key the replay does not have
 * is left to the governor: not used, no error, the configuration as it was; the keys are listed
 * in the order the command line's error gives them (tests/golden run_bad_tunable).
 * Does not check: what the replay does with the values (the golden tests of each key).
 */
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gov/governor.h"
#include "sim/sim.h"

/* The fields a key sets, read back as text (written by hand, key by key, from sim.h). */
static void read_back(const struct sim_config *c, const char *key, char *out, size_t n)
{
	static const char *const update_points[] = {"kernel", "context-switch"};
	static const char *const start_freq[] = {"traced", "max"};

	if (strcmp(key, "hz") == 0)
		snprintf(out, n, "%d", c->hz);
	else if (strcmp(key, "switch_latency_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns, given %d", c->switch_latency_ns,
			 c->has_switch_latency);
	else if (strcmp(key, "transition_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->transition_ns);
	else if (strcmp(key, "switch_clock_lead_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->switch_clock_lead_ns);
	else if (strcmp(key, "sleep_clock_lead_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->sleep_clock_lead_ns);
	else if (strcmp(key, "pelt_event_lead_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->pelt_event_lead_ns);
	else if (strcmp(key, "wakeup_clock_lead_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->wakeup_clock_lead_ns);
	else if (strcmp(key, "waking_clock_lag_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->waking_clock_lag_ns);
	else if (strcmp(key, "task_dead_irq_us") == 0)
		snprintf(out, n, "%" PRIu64 " ns", c->task_dead_irq_ns);
	else if (strcmp(key, "update_points") == 0)
		snprintf(out, n, "%s", update_points[c->update_points]);
	else if (strcmp(key, "scaling_min_freq") == 0)
		snprintf(out, n, "%u", c->scaling_min_khz);
	else if (strcmp(key, "scaling_max_freq") == 0)
		snprintf(out, n, "%u", c->scaling_max_khz);
	else if (strcmp(key, "uclamp_buckets") == 0)
		snprintf(out, n, "%d", c->uclamp_buckets);
	else if (strcmp(key, "cgroup_depth") == 0)
		snprintf(out, n, "%d", c->cgroup_depth);
	else if (strcmp(key, "uclamp_task") == 0)
		snprintf(out, n, "%s", c->uclamp_task ? "true" : "false");
	else if (strcmp(key, "freq_invariant") == 0)
		snprintf(out, n, "%d", c->freq_invariant);
	else if (strcmp(key, "dvfs_possible_from_any_cpu") == 0)
		snprintf(out, n, "%d", c->dvfs_any_cpu);
	else if (strcmp(key, "rq_clock_offset_ns") == 0)
		snprintf(out, n, "%" PRId64 " %" PRId64 " %" PRId64 ", given %d",
			 c->rq_clock_offset_ns[0], c->rq_clock_offset_ns[1],
			 c->rq_clock_offset_ns[GS_MAX_CPUS - 1], c->has_rq_clock_offset);
	else if (strcmp(key, "start_freq") == 0)
		snprintf(out, n, "%s", start_freq[c->start_freq]);
	else if (strcmp(key, "governor_start_ns") == 0)
		snprintf(out, n, "%" PRIu64 ": %" PRIu64 " %" PRIu64 " %" PRIu64,
			 c->governor_start_ns, c->governor_start_cpu_ns[0],
			 c->governor_start_cpu_ns[1], c->governor_start_cpu_ns[GS_MAX_CPUS - 1]);
	else if (strcmp(key, "sched_autogroup") == 0)
		snprintf(out, n, "%d", c->sched_autogroup);
	else if (strcmp(key, "cpuidle_driver") == 0)
		snprintf(out, n, "%d", c->cpuidle_driver);
	else if (strcmp(key, "kthread_traced") == 0)
		snprintf(out, n, "%d", c->kthread_traced);
	else if (strcmp(key, "rq_clock_traced") == 0)
		snprintf(out, n, "%d", c->rq_clock_traced);
	else if (strcmp(key, "start_state") == 0)
		snprintf(out, n, "%d", c->start_state);
	else if (strcmp(key, "delay_dequeue") == 0)
		snprintf(out, n, "%d", c->delay_dequeue);
	else
		snprintf(out, n, "no field read for '%s'", key);
}

/* A key, a value in range and what it reads back as, a bad value and its message. */
static const struct key_case {
	const char *key, *value, *read, *bad, *error;
} cases[] = {
	{"hz", "300", "300", "99", "--set hz=99: CONFIG_HZ must be 100..1000"},
	{"switch_latency_us", "1500", "1500000 ns, given 1", "1000001",
	 "--set switch_latency_us=1000001: more than 1 s"},
	{"transition_us", "3000", "3000000 ns", "x",
	 "--set transition_us='x': not a non-negative integer"},
	{"switch_clock_lead_us", "12", "12000 ns", "2000000",
	 "--set switch_clock_lead_us=2000000: more than 1 s"},
	{"sleep_clock_lead_us", "85", "85000 ns", "1000001",
	 "--set sleep_clock_lead_us=1000001: more than 1 s"},
	{"pelt_event_lead_us", "12", "12000 ns", "1000001",
	 "--set pelt_event_lead_us=1000001: more than 1 s"},
	{"wakeup_clock_lead_us", "7", "7000 ns", "-7",
	 "--set wakeup_clock_lead_us='-7': not a non-negative integer"},
	{"waking_clock_lag_us", "15", "15000 ns", "x",
	 "--set waking_clock_lag_us='x': not a non-negative integer"},
	{"task_dead_irq_us", "200", "200000 ns", "1000001",
	 "--set task_dead_irq_us=1000001: more than 1 s"},
	{"update_points", "context-switch", "context-switch", "tick",
	 "--set update_points='tick': expected kernel or context-switch"},
	{"scaling_min_freq", "903000", "903000", "1e6",
	 "--set scaling_min_freq='1e6': not a non-negative integer"},
	{"scaling_max_freq", "1200000", "1200000", "",
	 "--set scaling_max_freq='': not a non-negative integer"},
	{"uclamp_buckets", "20", "20", "21",
	 "--set uclamp_buckets=21: CONFIG_UCLAMP_BUCKETS_COUNT must be 5..20"},
	{"cgroup_depth", "64", "64", "65", "--set cgroup_depth=65: more than 64 levels"},
	{"uclamp_task", "0", "false", "2",
	 "--set uclamp_task=2: expected 0 or 1 (CONFIG_UCLAMP_TASK)"},
	{"freq_invariant", "0", "0", "01", "--set freq_invariant='01': expected 0 or 1"},
	{"dvfs_possible_from_any_cpu", "1", "1", "yes",
	 "--set dvfs_possible_from_any_cpu='yes': expected 0 or 1"},
	{"rq_clock_offset_ns", "-5:9", "-5 9 9, given 1", "1::2",
	 "--set rq_clock_offset_ns='1::2': value 2 of the ':'-separated list is empty"},
	{"start_freq", "max", "max", "min", "--set start_freq='min': expected traced or max"},
	{"governor_start_ns", "7000:3000", "3000: 7000 3000 3000", "-1",
	 "--set governor_start_ns='-1': expected a non-negative integer, or one per CPU "
	 "separated by ':' (at most 64)"},
	{"sched_autogroup", "1", "1", "2", "--set sched_autogroup='2': expected 0 or 1"},
	{"cpuidle_driver", "0", "0", "", "--set cpuidle_driver='': expected 0 or 1"},
	{"kthread_traced", "0", "0", "true", "--set kthread_traced='true': expected 0 or 1"},
	{"rq_clock_traced", "0", "0", "1 ", "--set rq_clock_traced='1 ': expected 0 or 1"},
	{"start_state", "0", "0", "on", "--set start_state='on': expected 0 or 1"},
	{"delay_dequeue", "0", "0", "-1", "--set delay_dequeue='-1': expected 0 or 1"},
};

static const struct key_case *find_case(const char *key)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(cases); i++)
		if (strcmp(cases[i].key, key) == 0)
			return &cases[i];
	return NULL;
}

/* cfg, defaults, with the one tunable p. */
static int parse_one(struct sim_config *cfg, struct gov_param *p, struct gs_error *err)
{
	sim_config_init(cfg);
	cfg->params = p;
	cfg->opts.nr_params = 1;
	gs_error_clear(err);
	return sim_config_parse_params(cfg, err);
}

static void test_every_key_round_trips(void **state)
{
	const char *key, *help;
	size_t n = 0;
	(void)state;

	for (; (key = sim_param_key(n, &help)); n++) {
		const struct key_case *c = find_case(key);
		struct gov_param p = {.key = key};
		struct sim_config def, cfg;
		struct gs_error err;
		char got[128], before[128];

		if (!c)
			fail_msg("key '%s' of the table has no case here", key);
		assert_non_null(help);
		assert_true(strlen(help) > 10);
		sim_config_init(&def);
		read_back(&def, key, before, sizeof(before));
		p.value = c->value;
		if (parse_one(&cfg, &p, &err))
			fail_msg("%s=%s: %s", key, c->value, err.msg);
		assert_true(p.used);
		read_back(&cfg, key, got, sizeof(got));
		assert_string_equal(got, c->read);
		assert_string_not_equal(before, c->read); /* the value changed something */
	}
	assert_int_equal(n, GS_ARRAY_SIZE(cases)); /* and every case is a key of the table */
}

static void test_bad_values_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < GS_ARRAY_SIZE(cases); i++) {
		struct gov_param p = {.key = cases[i].key, .value = cases[i].bad};
		struct sim_config cfg;
		struct gs_error err;

		assert_int_equal(parse_one(&cfg, &p, &err), GS_EARG);
		assert_string_equal(err.msg, cases[i].error);
		assert_false(p.used);
	}
}

/* The bounds are in range: both ends taken, one past them refused. */
static void test_bounds_taken(void **state)
{
	static const struct {
		const char *key, *value, *read;
	} ends[] = {
		{"hz", "100", "100"},
		{"hz", "1000", "1000"},
		{"uclamp_buckets", "5", "5"},
		{"cgroup_depth", "0", "0"},
		{"uclamp_task", "1", "true"},
		{"switch_latency_us", "1000000", "1000000000 ns, given 1"},
		{"switch_latency_us", "0", "0 ns, given 1"},
		{"governor_start_ns", "0", "0: 0 0 0"},
		/* kHz past a u32 saturate: UINT32_MAX, as if not written */
		{"scaling_max_freq", "99999999999", "4294967295"},
	}, past[] = {
		{"hz", "1001", "--set hz=1001: CONFIG_HZ must be 100..1000"},
		{"uclamp_buckets", "4",
		 "--set uclamp_buckets=4: CONFIG_UCLAMP_BUCKETS_COUNT must be 5..20"},
		{"transition_us", "1000001", "--set transition_us=1000001: more than 1 s"},
	};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(ends); i++) {
		struct gov_param p = {.key = ends[i].key, .value = ends[i].value};
		struct sim_config cfg;
		struct gs_error err;
		char got[128];

		if (parse_one(&cfg, &p, &err))
			fail_msg("%s=%s: %s", ends[i].key, ends[i].value, err.msg);
		read_back(&cfg, ends[i].key, got, sizeof(got));
		assert_string_equal(got, ends[i].read);
	}
	/* one past the ends the cases do not try */
	for (size_t i = 0; i < GS_ARRAY_SIZE(past); i++) {
		struct gov_param p = {.key = past[i].key, .value = past[i].value};
		struct sim_config cfg;
		struct gs_error err;

		assert_int_equal(parse_one(&cfg, &p, &err), GS_EARG);
		assert_string_equal(err.msg, past[i].read);
	}
}

/* A key the replay does not have: the governor's to take or refuse. */
static void test_unknown_key_left(void **state)
{
	static const char *const keys[] = {"no_such_key", "rate_limit_us", "HZ", "hz ",
					   "policy4.hz"};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(keys); i++) {
		struct gov_param p = {.key = keys[i], .value = "1000"};
		struct sim_config def, cfg;
		struct gs_error err;

		sim_config_init(&def);
		assert_int_equal(parse_one(&cfg, &p, &err), 0);
		assert_false(p.used);
		cfg.params = NULL;
		cfg.opts.nr_params = 0;
		assert_memory_equal(&cfg, &def, sizeof(cfg));
	}
}

/* The order of the list (as tests/golden/expected/run_bad_tunable.txt has it). */
static void test_key_order(void **state)
{
	static const char *const order[] = {
		"hz", "switch_latency_us", "transition_us", "switch_clock_lead_us",
		"sleep_clock_lead_us", "pelt_event_lead_us", "wakeup_clock_lead_us", "waking_clock_lag_us", "task_dead_irq_us", "update_points", "scaling_min_freq", "scaling_max_freq",
		"uclamp_buckets", "cgroup_depth", "uclamp_task", "freq_invariant",
		"dvfs_possible_from_any_cpu", "rq_clock_offset_ns", "start_freq",
		"governor_start_ns", "sched_autogroup", "cpuidle_driver", "kthread_traced",
		"rq_clock_traced", "start_state", "delay_dequeue"};
	(void)state;

	for (size_t i = 0; i < GS_ARRAY_SIZE(order); i++) {
		assert_non_null(sim_param_key(i, NULL));
		assert_string_equal(sim_param_key(i, NULL), order[i]);
	}
	assert_null(sim_param_key(GS_ARRAY_SIZE(order), NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_key_round_trips),
		cmocka_unit_test(test_bad_values_refused),
		cmocka_unit_test(test_bounds_taken),
		cmocka_unit_test(test_unknown_key_left),
		cmocka_unit_test(test_key_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
