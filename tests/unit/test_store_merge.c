/*
 * test_store_merge.c - store_merge(): runs of several results databases appended to one.
 *
 * Checks: the output's own runs stay; the inputs' runs follow in input order and, within an
 * input, in run_id order, with ids after the output's; each merged run reads back as the run
 * that was written into its input (every table the store reads, field for field); an input
 * given twice is merged twice; more inputs than SQLite attaches at once (10); an input with a
 * table the output lacks (GS_ESCHEMA), one that does not exist (GS_EINPUT) or one of another
 * schema version (GS_ESCHEMA) leaves the output as it was.
 * Does not check: sweep parts (golden/merge_parts.sh), a busy output (golden/store_busy.sh).
 */
#include "testutil.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

/* A run whose every figure depends on `k`, with k + 1 tasks and timeline points. */
static void make_run(struct run_result *r, int k)
{
	run_result_init(r);
	snprintf(r->label, sizeof(r->label), "run %d", k);
	snprintf(r->trace, sizeof(r->trace), "trace-%d.txt", k);
	snprintf(r->trace_sha256, sizeof(r->trace_sha256), "%064d", k);
	snprintf(r->platform, sizeof(r->platform), "juno-r0");
	snprintf(r->governor, sizeof(r->governor), "schedutil");
	snprintf(r->timing, sizeof(r->timing), "work");
	r->span_s = 1.0 + k / 8.0;
	r->traced_span_s = 1.0;
	r->stretch = r->span_s;
	r->events = 100 + (u64)k;
	r->nr_cpus = 2;
	r->nr_clusters = 1;
	r->energy_cpu[0] = k / 3.0;
	r->energy_cpu[1] = k / 7.0;
	r->energy_cluster[0] = k / 11.0;
	r->energy_total = k / 13.0;
	r->pol[0].nr_opps = 2;
	r->pol[0].freq_khz[0] = 500000;
	r->pol[0].freq_khz[1] = 1000000 + (u32)k;
	r->pol[0].residency_s[0] = k / 17.0;
	r->pol[0].residency_s[1] = k / 19.0;
	r->pol[0].avg_freq_khz = 700000.0 + k;
	r->pol[0].transitions = (u64)k;
	r->nr_tasks = k + 1;
	r->tasks = calloc((size_t)r->nr_tasks, sizeof(*r->tasks));
	assert_non_null(r->tasks);
	for (int i = 0; i < r->nr_tasks; i++) {
		r->tasks[i].pid = 1000 * k + i;
		snprintf(r->tasks[i].comm, sizeof(r->tasks[i].comm), "t%d-%d", k, i);
		r->tasks[i].runtime_s = i / 23.0 + k;
		r->tasks[i].act.activations = (u64)i;
		r->tasks[i].act.latency.max_s = i / 29.0;
	}
	r->act_total.activations = (u64)k * 10;
	r->nr_timeline = (size_t)k + 1;
	r->timeline = calloc(r->nr_timeline, sizeof(*r->timeline));
	assert_non_null(r->timeline);
	for (size_t i = 0; i < r->nr_timeline; i++) {
		r->timeline[i].time_s = (double)i / 31.0;
		r->timeline[i].freq_khz = 500000 + (u32)i;
	}
	r->ovh.calls[2] = (u64)k * 3;
	r->ovh.total_s = k / 37.0;
}

/* A database at name holding the runs k = ks[0..n-1], in that order. */
static const char *make_db(const char *name, const int *ks, int n)
{
	const char *path = test_tmppath(name);
	struct gs_error err = {0};
	struct store *s;
	s64 id;

	unlink(path);
	if (store_open(path, &s, &err))
		fail_msg("%s", err.msg);
	for (int i = 0; i < n; i++) {
		struct run_result r;
		make_run(&r, ks[i]);
		if (store_write_run(s, &r, &id, &err))
			fail_msg("%s", err.msg);
		run_result_release(&r);
	}
	store_close(s);
	return path;
}

/* The database at path holds exactly the runs ks[0..n-1] as ids 1..n, each as written. */
static void assert_runs(const char *path, const int *ks, int n)
{
	struct gs_error err = {0};
	struct store *s;
	s64 *ids;
	size_t nr;

	if (store_open(path, &s, &err) || store_list_runs(s, &ids, &nr, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(nr, n);
	for (int i = 0; i < n; i++) {
		struct run_result want, got, x, y;
		assert_int_equal(ids[i], i + 1);
		make_run(&want, ks[i]);
		if (store_read_run(s, ids[i], &got, &err))
			fail_msg("%s", err.msg);
		assert_int_equal(got.nr_tasks, want.nr_tasks);
		assert_int_equal(got.nr_timeline, want.nr_timeline);
		assert_memory_equal(got.tasks, want.tasks, sizeof(*want.tasks) * (size_t)want.nr_tasks);
		assert_memory_equal(got.timeline, want.timeline,
				    sizeof(*want.timeline) * want.nr_timeline);
		x = want;
		y = got;
		x.tasks = y.tasks = NULL;
		x.timeline = y.timeline = NULL;
		if (memcmp(&x, &y, sizeof(x)) != 0)
			fail_msg("run %d (k %d) does not read back as written", i + 1, ks[i]);
		run_result_release(&want);
		run_result_release(&got);
	}
	free(ids);
	store_close(s);
}

static void test_merge_order_and_ids(void **state)
{
	static const int a[] = {1, 2}, b[] = {3}, out0[] = {7};
	static const int want[] = {7, 1, 2, 3, 1, 2};
	const char *in[3];
	const char *out;
	struct gs_error err = {0};
	size_t nr = 0;
	(void)state;

	in[0] = make_db("a.db", a, 2);
	in[1] = make_db("b.db", b, 1);
	in[2] = in[0];
	out = make_db("out.db", out0, 1);
	if (store_merge(out, in, 3, &nr, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(nr, 5);
	assert_runs(out, want, 6);
}

/* 12 inputs: more than the 10 databases SQLite attaches to one connection. */
static void test_merge_many(void **state)
{
	const char *in[12];
	int want[12];
	char name[32];
	struct gs_error err = {0};
	size_t nr = 0;
	(void)state;

	for (int i = 0; i < 12; i++) {
		want[i] = i + 1;
		snprintf(name, sizeof(name), "many-%d.db", i);
		in[i] = strdup(make_db(name, &want[i], 1));
		assert_non_null(in[i]);
	}
	if (store_merge(test_tmppath("many.db"), in, 12, &nr, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(nr, 12);
	assert_runs(test_tmppath("many.db"), want, 12);
	for (int i = 0; i < 12; i++)
		free((void *)in[i]);
}

static void test_merge_refused_leaves_output(void **state)
{
	static const int a[] = {1}, out0[] = {5};
	const char *in[2];
	char path_a[512], path_bad[512], path_out[512];
	struct gs_error err = {0};
	sqlite3 *db;
	size_t nr = 0;
	(void)state;

	snprintf(path_a, sizeof(path_a), "%s", make_db("ra.db", a, 1));
	snprintf(path_bad, sizeof(path_bad), "%s", make_db("rbad.db", a, 1));
	snprintf(path_out, sizeof(path_out), "%s", make_db("rout.db", out0, 1));
	assert_int_equal(sqlite3_open(path_bad, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE extra (run_id INTEGER)", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);

	in[0] = path_a;
	in[1] = path_bad;
	assert_int_equal(store_merge(path_out, in, 2, &nr, &err), GS_ESCHEMA);
	assert_non_null(strstr(err.msg, "its tables differ from the output's"));
	assert_int_equal(nr, 0);
	assert_runs(path_out, out0, 1);

	in[1] = test_tmppath("missing.db");
	unlink(in[1]);
	gs_error_clear(&err);
	assert_int_equal(store_merge(path_out, in, 2, &nr, &err), GS_EINPUT);
	assert_runs(path_out, out0, 1);

	assert_int_equal(sqlite3_open(path_bad, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE extra; PRAGMA user_version = 1", NULL, NULL,
				      NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	in[1] = path_bad;
	gs_error_clear(&err);
	assert_int_equal(store_merge(path_out, in, 2, &nr, &err), GS_ESCHEMA);
	assert_non_null(strstr(err.msg, "results schema version 1, this govsim merges version 2"));
	assert_runs(path_out, out0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_order_and_ids),
		cmocka_unit_test(test_merge_many),
		cmocka_unit_test(test_merge_refused_leaves_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
