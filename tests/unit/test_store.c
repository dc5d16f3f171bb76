/*
 * test_store.c - the results store: round trip, schema version, atomic writes, CSV, selection.
 *
 * Checks: a run_result written and read back is the same, field for field and byte for byte
 * (doubles exactly); a database of a newer schema version is refused with GS_ESCHEMA and the
 * message of store.h; a write that fails in its last table (a CHECK constraint on the timeline)
 * leaves no row of that run in any table and the store usable; writing the same run twice gives
 * the same rows apart from created_at; the CSV files have their header and the expected lines
 * (text through libcsv's quoting); run selection by id and by key=value.
 * Does not check: concurrent writers, or the metrics' meaning (the sim computes them).
 */
#include "testutil.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/store-XXXXXX", test_tmpdir());
	if (!mkdtemp(tmpdir))
		return -1;
	setenv("SOURCE_DATE_EPOCH", "1600000000", 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *tmp(const char *name)
{
	static char buf[4][320];
	static int slot;
	char *p = buf[slot++ % 4];
	snprintf(p, sizeof(buf[0]), "%s/%s", tmpdir, name);
	unlink(p);
	return p;
}

/* A run with every field set to something distinct, built like the sim builds it. */
static void make_run(struct run_result *r, bool key_on)
{
	run_result_init(r);
	snprintf(r->label, sizeof(r->label), "a,\"b\" label");
	snprintf(r->trace, sizeof(r->trace), "traces/juno-r0/sched_load/trace.dat");
	snprintf(r->trace_sha256, sizeof(r->trace_sha256), "%064d", 42);
	snprintf(r->platform, sizeof(r->platform), "juno-r0");
	snprintf(r->governor, sizeof(r->governor), "schedutil");
	snprintf(r->timing, sizeof(r->timing), "work");
	snprintf(r->util_source, sizeof(r->util_source), "emulated");
	snprintf(r->power_model, sizeof(r->power_model), "em");
	snprintf(r->power_unit, sizeof(r->power_unit), "J");
	snprintf(r->policy, sizeof(r->policy), "min 512 comm=rt-app*\nmax 800 pid=42");
	snprintf(r->params, sizeof(r->params), "rate_limit_us=10000");
	snprintf(r->kernel, sizeof(r->kernel), "v5.9");
	snprintf(r->govsim_version, sizeof(r->govsim_version), "0.1.0");
	snprintf(r->notes, sizeof(r->notes), "none");
	r->start_s = 2084.021443;
	r->span_s = 0.1 + 0.2; /* not a short decimal: must come back exactly */
	r->events = 3512;
	r->nr_cpus = 6;
	r->nr_clusters = 2;
	for (int cpu = 0; cpu < 6; cpu++) {
		r->energy_cpu[cpu] = 0.001 * (cpu + 1) / 3.0;
		r->work_in_s[cpu] = cpu / 7.0;
		r->work_out_s[cpu] = cpu / 7.0 + 1e-12;
	}
	r->energy_cluster[0] = 0.01 / 3.0;
	r->energy_cluster[1] = 0.02 / 3.0;
	r->energy_total = r->energy_cluster[0] + r->energy_cluster[1];
	for (int c = 0; c < 2; c++) {
		struct run_policy_result *pr = &r->pol[c];
		pr->policy = c ? 1 : 0;
		pr->cluster = c;
		pr->nr_opps = 5;
		for (int k = 0; k < 5; k++) {
			pr->freq_khz[k] = 450000 + 100000 * (u32)k + (u32)c;
			pr->residency_s[k] = (k + 1) / 13.0;
		}
		pr->transitions = 7 + (u64)c;
		pr->avg_freq_khz = 612345.678 + c;
		pr->busy_s = 0.25 + c;
		pr->overutilized_s = 0.0125 * c;
	}
	r->key_on = key_on;
	r->key_on_at_s = key_on ? 0.125 : 0;
	r->agg_ops = 1000;
	r->agg_skipped = 250;
	r->clamped_up_s = 0.5;
	r->clamped_down_s = 0.0625;
	r->nr_tasks = 3;
	r->tasks = calloc(3, sizeof(*r->tasks));
	assert_non_null(r->tasks);
	for (int i = 0; i < 3; i++) {
		r->tasks[i].pid = 100 + i;
		snprintf(r->tasks[i].comm, sizeof(r->tasks[i].comm), i == 1 ? "kworker/2:1" : "task%d",
			 i);
		r->tasks[i].runtime_s = i / 3.0;
		r->tasks[i].delay_s = i / 9.0;
		r->tasks[i].max_delay_s = i / 27.0;
		if (i) { /* activity rows: tasks with activations only */
			struct run_activity *a = &r->tasks[i].act;
			a->activations = 10 * (u64)i;
			a->throughput = i / 7.0;
			a->latency = (struct run_dist){i / 11.0, i / 13.0, i / 17.0};
			a->response = (struct run_dist){i / 19.0, i / 23.0, i / 29.0};
			a->lateness = (struct run_dist){-i / 31.0, i / 37.0, i / 41.0};
		}
	}
	r->traced_span_s = 0.75 / 7;
	r->stretch = 1.0 / 3;
	r->act_total.activations = 30;
	r->act_total.throughput = 1 / 43.0;
	r->act_total.latency = (struct run_dist){1 / 47.0, 1 / 53.0, 1 / 59.0};
	r->act_total.response = (struct run_dist){1 / 61.0, 1 / 67.0, 1 / 71.0};
	r->act_total.lateness = (struct run_dist){-1 / 73.0, 1 / 79.0, 1 / 83.0};
	r->nr_timeline = 4;
	r->timeline = calloc(4, sizeof(*r->timeline));
	assert_non_null(r->timeline);
	for (int i = 0; i < 4; i++) {
		r->timeline[i].time_s = i * 0.001;
		r->timeline[i].policy = i % 2;
		r->timeline[i].freq_khz = 450000 + 1000 * (u32)i;
		r->timeline[i].traced_khz = i ? 850000 : 0;
		r->timeline[i].util = 100 * (u32)i;
		r->timeline[i].capacity = 446;
	}
}

static void assert_same_run(const struct run_result *a, const struct run_result *b)
{
	struct run_result x = *a, y = *b;

	assert_string_equal(a->label, b->label);
	assert_string_equal(a->policy, b->policy);
	assert_string_equal(a->platform, b->platform);
	assert_int_equal(a->nr_cpus, b->nr_cpus);
	assert_int_equal(a->nr_clusters, b->nr_clusters);
	assert_int_equal(a->pol[1].nr_opps, b->pol[1].nr_opps);
	assert_int_equal(a->pol[1].freq_khz[4], b->pol[1].freq_khz[4]);
	assert_int_equal(a->key_on, b->key_on);
	assert_int_equal(a->nr_tasks, b->nr_tasks);
	assert_int_equal(a->nr_timeline, b->nr_timeline);
	assert_string_equal(a->tasks[1].comm, b->tasks[1].comm);
	assert_memory_equal(&a->span_s, &b->span_s, sizeof(double));
	assert_memory_equal(&a->energy_total, &b->energy_total, sizeof(double));
	/* Everything else, byte for byte (both sides were zeroed before being filled). */
	x.tasks = y.tasks = NULL;
	x.timeline = y.timeline = NULL;
	assert_memory_equal(&x, &y, sizeof(x));
	assert_memory_equal(a->tasks, b->tasks, sizeof(*a->tasks) * (size_t)a->nr_tasks);
	assert_memory_equal(a->timeline, b->timeline, sizeof(*a->timeline) * a->nr_timeline);
}

static void test_round_trip(void **state)
{
	struct gs_error err = {0};
	struct store *s;
	struct run_result r1, r2, back;
	char path[320];
	s64 id1 = 0, id2 = 0, *ids;
	size_t n;
	(void)state;

	make_run(&r1, true);
	make_run(&r2, false);
	snprintf(path, sizeof(path), "%s", tmp("rt.db"));
	if (store_open(path, &s, &err))
		fail_msg("%s", err.msg);
	if (store_write_run(s, &r1, &id1, &err) || store_write_run(s, &r2, &id2, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(id1, 1);
	assert_int_equal(id2, 2);

	if (store_read_run(s, id1, &back, &err))
		fail_msg("%s", err.msg);
	assert_same_run(&r1, &back);
	run_result_release(&back);
	if (store_read_run(s, id2, &back, &err))
		fail_msg("%s", err.msg);
	assert_false(back.key_on);
	assert_same_run(&r2, &back);
	run_result_release(&back);

	assert_int_equal(store_read_run(s, 99, &back, &err), GS_ENOTFOUND);
	assert_non_null(strstr(err.msg, "no run 99"));
	run_result_release(&back);

	if (store_list_runs(s, &ids, &n, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 2);
	free(ids);
	store_close(s);

	/* Reopening an existing file keeps its runs. */
	if (store_open(path, &s, &err))
		fail_msg("%s", err.msg);
	if (store_read_run(s, id2, &back, &err))
		fail_msg("%s", err.msg);
	assert_same_run(&r2, &back);
	run_result_release(&back);
	store_close(s);
	run_result_release(&r1);
	run_result_release(&r2);
}

static s64 count_rows(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	s64 n;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* A policy with no activity has no average frequency: NULL in the database,
 * NAN when read back, an empty CSV field. */
static void test_no_activity_is_null(void **state)
{
	struct gs_error err = {0};
	struct store *s;
	struct run_result r, back;
	sqlite3 *db;
	char path[320];
	s64 id = 0;
	(void)state;

	make_run(&r, false);
	r.pol[0].avg_freq_khz = NAN;
	r.pol[0].busy_s = 0;
	snprintf(path, sizeof(path), "%s", tmp("idle.db"));
	if (store_open(path, &s, &err) || store_write_run(s, &r, &id, &err))
		fail_msg("%s", err.msg);
	if (store_read_run(s, id, &back, &err))
		fail_msg("%s", err.msg);
	assert_true(isnan(back.pol[0].avg_freq_khz));
	assert_false(isnan(back.pol[1].avg_freq_khz));
	run_result_release(&back);
	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(count_rows(db, "SELECT count(*) FROM policy_stats WHERE avg_freq_khz IS NULL"),
			 1);
	sqlite3_close(db);
	run_result_release(&r);
}

static void test_newer_schema_refused(void **state)
{
	const char *path = tmp("new.db");
	struct gs_error err = {0};
	struct store *s = (struct store *)&err; /* must be reset to NULL */
	sqlite3 *db;
	char want[512];
	(void)state;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 7", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(path, &s, &err), GS_ESCHEMA);
	assert_null(s);
	snprintf(want, sizeof(want),
		 "'%s': results schema version 7 is newer than this govsim supports (2)", path);
	assert_string_equal(err.msg, want);

	/* The version this govsim writes is 2. */
	path = tmp("v1.db");
	if (store_open(path, &s, &err))
		fail_msg("%s", err.msg);
	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	{
		sqlite3_stmt *st;
		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_int_equal(sqlite3_column_int(st, 0), 2);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);

	/* Not a database at all. */
	path = tmp("junk.db");
	{
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs("this is not an SQLite database, but it is long enough to have a header.....\n",
		      f);
		fclose(f);
	}
	gs_error_clear(&err);
	assert_int_equal(store_open(path, &s, &err), GS_EINPUT); /* bad input: exit 3 */
	assert_non_null(strstr(err.msg, "not a database"));

	/* A foreign SQLite file: refused, nothing added to it. */
	path = tmp("foreign.db");
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE runs (a, b)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	gs_error_clear(&err);
	assert_int_equal(store_check(path, &err), GS_EINPUT);
	assert_int_equal(store_open(path, &s, &err), GS_EINPUT);
	assert_non_null(strstr(err.msg, "not a govsim results database"));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(count_rows(db, "SELECT count(*) FROM sqlite_master"), 1);
	sqlite3_close(db);
}


static const char *const tables[] = {"energy",	   "residency",	   "policy_stats", "task_stats",
				     "uclamp_stats", "timeline", "work"};

static void test_failed_write_leaves_nothing(void **state)
{
	const char *path = tmp("fail.db");
	struct gs_error err = {0};
	struct run_result good, bad;
	struct store *s;
	s64 id = -1, *ids;
	size_t n;
	sqlite3 *db;
	(void)state;

	make_run(&good, true);
	make_run(&bad, true);
	/* The last row of the last table but one breaks a CHECK: every earlier row was written. */
	bad.timeline[bad.nr_timeline - 1].policy = -1;

	if (store_open(path, &s, &err) || store_write_run(s, &good, &id, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(id, 1);
	id = -1;
	assert_int_equal(store_write_run(s, &bad, &id, &err), GS_ESQL);
	assert_int_equal(id, -1);
	assert_non_null(strstr(err.msg, "CHECK constraint failed"));
	assert_true(strncmp(err.msg, "'", 1) == 0);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(count_rows(db, "SELECT count(*) FROM runs"), 1);
	for (size_t i = 0; i < GS_ARRAY_SIZE(tables); i++) {
		char sql[128];
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s WHERE run_id != 1", tables[i]);
		if (count_rows(db, sql) != 0)
			fail_msg("table %s kept rows of the failed run", tables[i]);
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s WHERE run_id = 1", tables[i]);
		assert_true(count_rows(db, sql) > 0);
	}
	sqlite3_close(db);

	/* No transaction is left open: the next write works. */
	if (store_write_run(s, &good, &id, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(id, 2);
	if (store_list_runs(s, &ids, &n, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(n, 2);
	free(ids);
	store_close(s);
	run_result_release(&good);
	run_result_release(&bad);
}

/* Every row of every table, in rowid order, created_at left out, as one string. */
static char *dump(const char *path)
{
	static const char *const queries[] = {
		"SELECT run_id, label, trace, trace_sha256, platform, governor, timing, util_source,"
		" power_model, power_unit, policy, params, kernel, quote(start_s), quote(span_s),"
		" events, nr_cpus, nr_clusters, notes, govsim_version FROM runs ORDER BY rowid",
		"SELECT *, quote(joules) FROM energy ORDER BY rowid",
		"SELECT *, quote(seconds) FROM residency ORDER BY rowid",
		"SELECT * FROM policy_stats ORDER BY rowid",
		"SELECT * FROM task_stats ORDER BY rowid",
		"SELECT * FROM uclamp_stats ORDER BY rowid",
		"SELECT *, quote(time_s) FROM timeline ORDER BY rowid",
		"SELECT * FROM work ORDER BY rowid",
	};
	size_t len = 0, cap = 1 << 16;
	char *out = malloc(cap);
	sqlite3 *db;

	assert_non_null(out);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	for (size_t q = 0; q < GS_ARRAY_SIZE(queries); q++) {
		sqlite3_stmt *st;
		assert_int_equal(sqlite3_prepare_v2(db, queries[q], -1, &st, NULL), SQLITE_OK);
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (int i = 0; i < sqlite3_column_count(st); i++) {
				const unsigned char *t = sqlite3_column_text(st, i);
				int w = snprintf(out + len, cap - len, "%s|", t ? (const char *)t : "NULL");
				assert_true(w > 0 && (size_t)w < cap - len);
				len += (size_t)w;
			}
			out[len++] = '\n';
			out[len] = '\0';
		}
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return out;
}

static void test_deterministic(void **state)
{
	struct gs_error err = {0};
	struct run_result r;
	struct store *s;
	char *a, *b;
	s64 id;
	(void)state;

	make_run(&r, true);
	for (int i = 0; i < 2; i++) {
		if (store_open(tmp(i ? "det2.db" : "det1.db"), &s, &err) ||
		    store_write_run(s, &r, &id, &err))
			fail_msg("%s", err.msg);
		store_close(s);
	}
	{
		char p1[320], p2[320];
		snprintf(p1, sizeof(p1), "%s/det1.db", tmpdir);
		snprintf(p2, sizeof(p2), "%s/det2.db", tmpdir);
		a = dump(p1);
		b = dump(p2);
	}
	assert_true(strlen(a) > 100);
	assert_string_equal(a, b);
	/* The row order is the documented one: energy cpu0 first, total last. */
	assert_non_null(strstr(a, "1|cpu|cpu0|"));
	assert_true(strstr(a, "1|cpu|cpu5|") < strstr(a, "1|cluster|cluster0|"));
	assert_true(strstr(a, "1|cluster|cluster1|") < strstr(a, "1|total|total|"));
	free(a);
	free(b);
	run_result_release(&r);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[8192];
	size_t n;
	if (!f)
		fail_msg("cannot open %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_csv(void **state)
{
	struct gs_error err = {0};
	struct run_result r;
	char dir[300], path[400];
	const char *t;
	(void)state;

	make_run(&r, false);
	snprintf(dir, sizeof(dir), "%s/csv", tmpdir);
	if (store_write_csv(&r, 7, dir, &err))
		fail_msg("%s", err.msg);

	snprintf(path, sizeof(path), "%s/runs.csv", dir);
	t = read_all(path);
	assert_true(strncmp(t, "run_id,label,trace,trace_sha256,platform,governor,", 50) == 0);
	/* libcsv quotes every text field and doubles the quotes inside. */
	assert_non_null(strstr(t, "\n7,\"a,\"\"b\"\" label\",\"traces/juno-r0/sched_load/trace.dat\""));
	/* the policy keeps its newline inside the quotes: 3 physical lines */
	assert_int_equal(count_lines(t), 3);

	snprintf(path, sizeof(path), "%s/energy.csv", dir);
	t = read_all(path);
	assert_true(strncmp(t, "run_id,scope,name,joules\n", 25) == 0);
	assert_int_equal(count_lines(t), 1 + 6 + 2 + 1);
	/* 0.001 * 1 / 3 printed with 17 digits */
	assert_non_null(strstr(t, "\n7,\"cpu\",\"cpu0\",0.00033333333333333332\n"));
	assert_non_null(strstr(t, "\n7,\"total\",\"total\","));

	snprintf(path, sizeof(path), "%s/residency.csv", dir);
	t = read_all(path);
	assert_int_equal(count_lines(t), 1 + 10);
	assert_non_null(strstr(t, "\n7,1,450001,0.076923076923076927\n"));

	snprintf(path, sizeof(path), "%s/uclamp_stats.csv", dir);
	t = read_all(path);
	/* key stayed off: key_on_at_s is empty */
	assert_string_equal(t, "run_id,key_on_at_s,agg_ops,agg_skipped,clamped_up_s,clamped_down_s\n"
			       "7,,1000,250,0.5,0.0625\n");

	snprintf(path, sizeof(path), "%s/task_stats.csv", dir);
	t = read_all(path);
	assert_int_equal(count_lines(t), 1 + 3);
	assert_non_null(strstr(t, "\n7,1,101,\"kworker/2:1\","));

	snprintf(path, sizeof(path), "%s/policy_stats.csv", dir);
	assert_int_equal(count_lines(read_all(path)), 1 + 2);
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	t = read_all(path);
	assert_int_equal(count_lines(t), 1 + 4);
	assert_non_null(strstr(t, "\n7,3,0.0030000000000000001,1,453000,850000,300,446\n"));
	snprintf(path, sizeof(path), "%s/work.csv", dir);
	assert_int_equal(count_lines(read_all(path)), 1 + 6);

	/* A directory that cannot be created is GS_EIO. */
	assert_int_equal(store_write_csv(&r, 7, "/nonexistent/dir", &err), GS_EIO);
	run_result_release(&r);
}

static void test_select(void **state)
{
	struct gs_error err = {0};
	struct run_result r;
	struct store *s;
	s64 id, *ids;
	size_t n;
	(void)state;

	if (store_open(tmp("sel.db"), &s, &err))
		fail_msg("%s", err.msg);
	make_run(&r, true);
	for (int i = 0; i < 3; i++) {
		snprintf(r.governor, sizeof(r.governor), "%s", i == 1 ? "performance" : "schedutil");
		if (store_write_run(s, &r, &id, &err))
			fail_msg("%s", err.msg);
	}
	assert_int_equal(store_select_runs(s, "governor=schedutil", &ids, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 3);
	free(ids);
	assert_int_equal(store_select_runs(s, "governor=performance,platform=juno-r0", &ids, &n,
					   &err),
			 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 2);
	free(ids);
	assert_int_equal(store_select_runs(s, "platform=hikey960", &ids, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_null(ids);
	assert_int_equal(store_select_runs(s, "3", &ids, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 3);
	free(ids);
	assert_int_equal(store_select_runs(s, "", &ids, &n, &err), 0);
	assert_int_equal(n, 3);
	free(ids);
	assert_int_equal(store_select_runs(s, "1; DROP TABLE runs", &ids, &n, &err), GS_EARG);
	assert_int_equal(store_select_runs(s, "created_at=x", &ids, &n, &err), GS_EARG);
	assert_non_null(strstr(err.msg, "'created_at': unknown run selector key"));
	assert_int_equal(store_select_runs(s, "governor", &ids, &n, &err), GS_EARG);
	store_close(s);
	run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_newer_schema_refused),
		cmocka_unit_test(test_no_activity_is_null),
		cmocka_unit_test(test_failed_write_leaves_nothing),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_select),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
