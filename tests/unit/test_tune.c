/*
 * test_tune.c - tune's spec parsing and search (src/tune/). The search is checked against
 * answers known by construction: a step function whose first feasible index is chosen, a
 * staircase objective whose minimum is found by scanning every index here.
 */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune/search.h"
#include "tune/spec.h"

static void test_vary_defaults(void **state)
{
	struct tune_vary v;
	struct gs_error err = {0};
	char buf[256];

	(void)state;
	assert_int_equal(tune_vary_parse("setattr comm=RenderThread uclamp_min=?", &v, &err), 0);
	assert_int_equal(v.kind, TUNE_VARY_ACTION);
	assert_string_equal(v.key, "uclamp_min");
	assert_int_equal(v.nr, 1025); /* 0..1024 */
	tune_vary_instance(&v, 512, buf, sizeof(buf));
	assert_string_equal(buf, "setattr comm=RenderThread uclamp_min=512");

	assert_int_equal(tune_vary_parse("cgroup /top-app cpu.uclamp.max ?", &v, &err), 0);
	assert_string_equal(v.key, "cpu.uclamp.max");
	assert_int_equal(v.nr, 10001); /* 0.00 .. 100.00 */
	tune_vary_instance(&v, 2050, buf, sizeof(buf));
	assert_string_equal(buf, "cgroup /top-app cpu.uclamp.max 20.50");

	assert_int_equal(tune_vary_parse("rate_limit_us=?[1000:20000:1000]", &v, &err), 0);
	assert_int_equal(v.kind, TUNE_VARY_TUNABLE);
	assert_string_equal(v.key, "rate_limit_us");
	assert_int_equal(v.nr, 20);
	tune_vary_instance(&v, 19, buf, sizeof(buf));
	assert_string_equal(buf, "rate_limit_us=20000");
	/* HI off the step: the last value is the one below */
	assert_int_equal(tune_vary_parse("sysctl sched_util_clamp_min ?[0:10:3]", &v, &err), 0);
	assert_int_equal(v.nr, 4);
	assert_true(tune_vary_value(&v, 3) == 9);
}

static void test_vary_errors(void **state)
{
	static const char *const bad[] = {
		"setattr comm=x uclamp_min=512",      /* no unknown */
		"setattr comm=x uclamp_min=? uclamp_max=?", /* two in one */
		"rate_limit_us=?[10:0:1]",            /* HI < LO */
		"rate_limit_us=?[0:10:0]",            /* step 0 */
		"rate_limit_us=?[0:10]",              /* two numbers */
		"up_threshold=?",                     /* no default */
		"rate_limit_us=?x",
	};
	struct tune_vary v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gs_error err = {0};
		assert_int_equal(tune_vary_parse(bad[i], &v, &err), GS_EARG);
		/* the message quotes the offending text */
		assert_non_null(strstr(err.msg, bad[i]));
	}
}

static void test_constraint_parse(void **state)
{
	struct tune_constraint c;
	struct gs_error err = {0};
	double change;

	(void)state;
	assert_int_equal(tune_constraint_parse("response_p95(comm=RenderThread) <= +10% vs "
					       "governor=performance", &c, &err), 0);
	assert_string_equal(c.metric.name, "response_p95");
	assert_int_equal(c.metric.sel, TUNE_TASKS_COMM);
	assert_string_equal(c.metric.comm, "RenderThread");
	assert_true(c.has_base && c.th.relative && c.th.op == METRIC_LE && c.th.value == 10);
	assert_string_equal(c.base.governor, "performance");
	/* base 10 ms: 11 ms is +10 % exactly (holds), 11.1 ms is not */
	assert_true(tune_constraint_holds(&c, 0.010, 0.011, &change));
	assert_false(tune_constraint_holds(&c, 0.010, 0.0111, &change));
	assert_true(fabs(change - 11) < 1e-9);
	assert_true(fabs(tune_constraint_excess(&c, change) - 0.1) < 1e-9);

	assert_int_equal(tune_constraint_parse("lateness_max(pid=42)<16ms", &c, &err), 0);
	assert_false(c.has_base);
	assert_true(fabs(c.th.value - 0.016) < 1e-15 && c.metric.pid == 42);
	assert_true(tune_constraint_holds(&c, NAN, 0.015, &change));
	assert_false(tune_constraint_holds(&c, NAN, NAN, &change)); /* no task: fails */

	assert_int_equal(tune_constraint_parse("energy <= -5% vs policy=none,rate_limit_us=500",
					       &c, &err), 0);
	assert_true(c.base.no_policy && c.base.nr_params == 1);
	assert_string_equal(c.base.keys[0], "rate_limit_us");

	/* compare's selector forms: action='LINE' (quotes are not the line's), policy=FILE */
	assert_int_equal(tune_constraint_parse("energy <= 0 vs action='setattr comm=a uclamp_min=9',"
					       "policy=p.txt,governor=ondemand", &c, &err), 0);
	assert_string_equal(c.base.action, "setattr comm=a uclamp_min=9");
	assert_string_equal(c.base.policy_file, "p.txt");
	assert_string_equal(c.base.governor, "ondemand");
	assert_false(c.base.no_policy);
	assert_int_equal(tune_constraint_parse("energy <= 0 vs policy=none,action=x", &c, &err),
			 GS_EARG);
	assert_int_equal(tune_constraint_parse("energy <= 0 vs up threshold=5", &c, &err), GS_EARG);
}

static void test_constraint_errors(void **state)
{
	static const char *const bad[] = {
		"response_p95 +10%",                    /* no operator */
		"respons_p95 <= 1ms",                   /* unknown metric */
		"energy(comm=x) <= 1",                  /* not a task metric */
		"response_p95(tid=3) <= 1ms",           /* bad task selector */
		"energy <= +10%",                       /* % without a baseline */
		"energy <= abc",
		"energy <= 1 versus base",
		"energy <= +1% vs governor",
	};
	struct tune_constraint c;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gs_error err = {0};
		assert_int_equal(tune_constraint_parse(bad[i], &c, &err), GS_EARG);
		assert_non_null(strstr(err.msg, bad[i]));
	}
	{
		struct gs_error err = {0};
		struct tune_metric m;
		assert_int_equal(tune_metric_parse("respons_p95", &m, &err), GS_EARG);
		assert_non_null(strstr(err.msg, "did you mean 'response_p95'"));
	}
}

static void test_metric_of_tasks(void **state)
{
	struct run_task_result tasks[3] = {
		{.pid = 1, .comm = "RenderThread", .act = {.activations = 10,
			.response = {.mean_s = 1, .p95_s = 2, .max_s = 3}}},
		{.pid = 2, .comm = "RenderThread", .act = {.activations = 30,
			.response = {.mean_s = 2, .p95_s = 5, .max_s = 4}}},
		{.pid = 3, .comm = "other", .act = {.activations = 5,
			.response = {.mean_s = 9, .p95_s = 9, .max_s = 9}}},
	};
	struct run_result r;
	struct tune_metric m;
	struct gs_error err = {0};

	(void)state;
	memset(&r, 0, sizeof(r));
	strcpy(r.timing, "work");
	r.tasks = tasks;
	r.nr_tasks = 3;
	assert_int_equal(tune_metric_parse("response_p95(comm=RenderThread)", &m, &err), 0);
	assert_true(tune_metric_value(&m, &r) == 5); /* the worst task */
	assert_int_equal(tune_metric_parse("response_mean(comm=Render*)", &m, &err), 0);
	assert_true(fabs(tune_metric_value(&m, &r) - (10 * 1 + 30 * 2) / 40.0) < 1e-12);
	assert_int_equal(tune_metric_parse("activations(comm=*)", &m, &err), 0);
	assert_true(tune_metric_value(&m, &r) == 45);
	assert_int_equal(tune_metric_parse("response_max(pid=7)", &m, &err), 0);
	assert_true(isnan(tune_metric_value(&m, &r)));
}

/* --- the search, against answers known by construction ------------------------------------ */

struct fake {
	long threshold;   /* feasible iff k >= threshold (smallest) */
	bool down;        /* feasible iff k <= threshold instead */
	int calls;
	long evaluated;
};

static int eval_step(void *ctx, struct tune_point *pts, size_t n, struct gs_error *err)
{
	struct fake *f = ctx;

	(void)err;
	f->calls++;
	for (size_t i = 0; i < n; i++) {
		long k = pts[i].k[0];
		pts[i].feasible = f->down ? k <= f->threshold : k >= f->threshold;
		pts[i].nr_fail = !pts[i].feasible;
		pts[i].excess = pts[i].feasible ? 0 : (double)labs(k - f->threshold);
		if (i)
			assert_true(pts[i - 1].k[0] < k); /* sorted by index */
	}
	f->evaluated += (long)n;
	return 0;
}

static void test_find_smallest(void **state)
{
	(void)state;
	for (int batch = 1; batch <= 4; batch++) {
		for (long t = 0; t <= 1024; t += 37) {
			struct tune_search s;
			struct fake f = {.threshold = t};
			long nr = 1025;
			tune_search_init(&s, TUNE_FIND_SMALLEST, 1, &nr);
			s.batch = batch;
			assert_int_equal(tune_search_run(&s, eval_step, &f, NULL), 0);
			assert_true(s.feasible);
			assert_int_equal(s.pts[s.best].k[0], t);
			assert_true(s.monotone);
			if (t > 0) /* the margin: the value just below fails, and was evaluated */
				assert_int_equal(s.pts[s.fail_below].k[0], t - 1);
			else
				assert_int_equal(s.fail_below, -1);
			/* (batch+1)-section: about log_{batch+1}(1025) rounds */
			assert_true(s.rounds <= 2 + (int)ceil(log(1025) / log(batch + 1)));
			tune_search_release(&s);
		}
	}
}

static void test_find_largest_and_infeasible(void **state)
{
	struct tune_search s;
	struct fake f = {.threshold = 300, .down = true};
	long nr = 1025;

	(void)state;
	tune_search_init(&s, TUNE_FIND_LARGEST, 1, &nr);
	assert_int_equal(tune_search_run(&s, eval_step, &f, NULL), 0);
	assert_true(s.feasible);
	assert_int_equal(s.pts[s.best].k[0], 300);
	assert_int_equal(s.pts[s.fail_above].k[0], 301);
	tune_search_release(&s);

	/* nothing feasible: the best found is the end nearest to feasibility */
	f = (struct fake){.threshold = 2000};
	tune_search_init(&s, TUNE_FIND_SMALLEST, 1, &nr);
	assert_int_equal(tune_search_run(&s, eval_step, &f, NULL), 0);
	assert_false(s.feasible);
	assert_int_equal(s.pts[s.best].k[0], 1024);
	tune_search_release(&s);
}

/* A staircase: 9 OPP-like plateaus, the objective's unique minimum on plateau 5 from k = 641;
 * feasible from k = 200. */
static double stair(long k)
{
	static const double level[] = {9, 8, 7, 6, 5, 3, 4, 6, 7}; /* k / 128 = 0 .. 8 */
	return level[k / 128] + (k / 128 == 5 ? (double)(k - 640) * 0.001 : 0) +
	       (k == 640 ? 1 : 0);
}

static int eval_stair(void *ctx, struct tune_point *pts, size_t n, struct gs_error *err)
{
	struct fake *f = ctx;

	(void)err;
	for (size_t i = 0; i < n; i++) {
		pts[i].feasible = pts[i].k[0] >= 200;
		pts[i].nr_fail = !pts[i].feasible;
		pts[i].objective = stair(pts[i].k[0]);
	}
	f->evaluated += (long)n;
	return 0;
}

static void test_minimize_staircase(void **state)
{
	struct tune_search s;
	struct fake f = {0};
	long nr = 1025, argmin = -1;

	(void)state;
	/* the answer by scanning every feasible index */
	for (long k = 200; k < nr; k++)
		if (argmin < 0 || stair(k) < stair(argmin))
			argmin = k;
	assert_int_equal(argmin, 641);
	tune_search_init(&s, TUNE_MINIMIZE, 1, &nr);
	assert_int_equal(tune_search_run(&s, eval_stair, &f, NULL), 0);
	assert_true(s.feasible);
	assert_int_equal(s.pts[s.best].k[0], argmin);
	assert_true(f.evaluated < 120); /* far fewer than 1025 */
	/* the nearest failing value below: 199 need not be evaluated; some failing one is */
	assert_true(s.fail_below >= 0 && s.pts[s.fail_below].k[0] < 200);
	assert_int_equal(s.fail_above, -1);
	tune_search_release(&s);
}

/* Two unknowns: a bowl with its minimum at (13, 37) on a 41 x 61 grid. */
static int eval_bowl(void *ctx, struct tune_point *pts, size_t n, struct gs_error *err)
{
	(void)ctx;
	(void)err;
	for (size_t i = 0; i < n; i++) {
		double a = (double)pts[i].k[0] - 13, b = (double)pts[i].k[1] - 37;
		pts[i].feasible = true;
		pts[i].objective = a * a + 2 * b * b;
	}
	return 0;
}

static void test_minimize_two(void **state)
{
	struct tune_search s;
	long nr[2] = {41, 61};

	(void)state;
	tune_search_init(&s, TUNE_MINIMIZE, 2, nr);
	s.grid = 9;
	assert_int_equal(tune_search_run(&s, eval_bowl, NULL, NULL), 0);
	assert_int_equal(s.pts[s.best].k[0], 13);
	assert_int_equal(s.pts[s.best].k[1], 37);
	tune_search_release(&s);
	/* --find with two unknowns is refused */
	{
		struct gs_error err = {0};
		tune_search_init(&s, TUNE_FIND_SMALLEST, 2, nr);
		assert_int_equal(tune_search_run(&s, eval_bowl, NULL, &err), GS_EARG);
		tune_search_release(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vary_defaults),
		cmocka_unit_test(test_vary_errors),
		cmocka_unit_test(test_constraint_parse),
		cmocka_unit_test(test_constraint_errors),
		cmocka_unit_test(test_metric_of_tasks),
		cmocka_unit_test(test_find_smallest),
		cmocka_unit_test(test_find_largest_and_infeasible),
		cmocka_unit_test(test_minimize_staircase),
		cmocka_unit_test(test_minimize_two),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
