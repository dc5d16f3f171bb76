/*
 * test_store_tables.c - the results tables' column lists (src/store/tables.c).
 *
 * Checks: the CREATE TABLE text made from the column lists is, table for table, the text
 * earlier govsim versions wrote into every results file (kept below as the reference: it is the
 * on-disk format), and a file created now has the same sqlite_master as one created from that
 * text; every column of every table holds, in the database, the value the test put in the
 * run_result (each expected value written out by hand below, and every column of the lists must
 * be among them); a run written and read back gives every value of the tables read back, and
 * the run_result, unchanged; the CSV twin's header is the table's columns but created_at.
 * Does not check: the row order of many-row tables (test_store.c), merge.
 */
#include "testutil.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "store/tables.h"

/* The schema as govsim wrote it up to now, one table per entry, in creation order. */
static const char *const old_schema[] = {
	"CREATE TABLE IF NOT EXISTS runs ("
	" run_id INTEGER PRIMARY KEY,"
	" label TEXT NOT NULL, trace TEXT NOT NULL, trace_sha256 TEXT NOT NULL,"
	" platform TEXT NOT NULL, governor TEXT NOT NULL, timing TEXT NOT NULL,"
	" util_source TEXT NOT NULL, power_model TEXT NOT NULL, power_unit TEXT NOT NULL,"
	" policy TEXT NOT NULL, params TEXT NOT NULL, kernel TEXT NOT NULL,"
	" start_s REAL NOT NULL, span_s REAL NOT NULL, events INTEGER NOT NULL,"
	" nr_cpus INTEGER NOT NULL CHECK (nr_cpus BETWEEN 0 AND 64),"
	" nr_clusters INTEGER NOT NULL CHECK (nr_clusters BETWEEN 0 AND 16),"
	" notes TEXT NOT NULL, govsim_version TEXT NOT NULL,"
	" governor_path TEXT NOT NULL DEFAULT '', governor_sha256 TEXT NOT NULL DEFAULT '',"
	" created_at TEXT NOT NULL);",
	"CREATE TABLE IF NOT EXISTS energy ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" scope TEXT NOT NULL CHECK (scope IN ('cpu', 'cluster', 'total')),"
	" name TEXT NOT NULL, joules REAL NOT NULL, PRIMARY KEY (run_id, scope, name));",
	"CREATE TABLE IF NOT EXISTS residency ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL CHECK (policy >= 0), freq_khz INTEGER NOT NULL,"
	" seconds REAL NOT NULL, PRIMARY KEY (run_id, policy, freq_khz));",
	"CREATE TABLE IF NOT EXISTS policy_stats ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL CHECK (policy >= 0), cluster INTEGER NOT NULL,"
	" transitions INTEGER NOT NULL, avg_freq_khz REAL, busy_s REAL NOT NULL,"
	" overutilized_s REAL NOT NULL, PRIMARY KEY (run_id, policy));",
	"CREATE TABLE IF NOT EXISTS task_stats ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, pid INTEGER NOT NULL, comm TEXT NOT NULL,"
	" runtime_s REAL NOT NULL, delay_s REAL NOT NULL, max_delay_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, seq));",
	"CREATE TABLE IF NOT EXISTS placement ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,"
	" mode TEXT NOT NULL, wakeups INTEGER NOT NULL, migrations INTEGER NOT NULL,"
	" misfit_pulls INTEGER NOT NULL, overutilized_s REAL NOT NULL);",
	"CREATE TABLE IF NOT EXISTS placement_tasks ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, cluster INTEGER NOT NULL, runtime_s REAL NOT NULL,"
	" migrations INTEGER NOT NULL, PRIMARY KEY (run_id, seq, cluster));",
	"CREATE TABLE IF NOT EXISTS placement_slices ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, pid INTEGER NOT NULL, cpu INTEGER NOT NULL,"
	" start_s REAL NOT NULL, end_s REAL NOT NULL, PRIMARY KEY (run_id, seq));",
	"CREATE TABLE IF NOT EXISTS uclamp_stats ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,"
	" key_on_at_s REAL, agg_ops INTEGER NOT NULL, agg_skipped INTEGER NOT NULL,"
	" clamped_up_s REAL NOT NULL, clamped_down_s REAL NOT NULL);",
	"CREATE TABLE IF NOT EXISTS timeline ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, time_s REAL NOT NULL, policy INTEGER NOT NULL CHECK (policy >= 0),"
	" freq_khz INTEGER NOT NULL, traced_khz INTEGER NOT NULL, util INTEGER NOT NULL,"
	" capacity INTEGER NOT NULL, PRIMARY KEY (run_id, seq));",
	"CREATE TABLE IF NOT EXISTS work ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" cpu INTEGER NOT NULL, work_in_s REAL NOT NULL, work_out_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, cpu));",
	"CREATE TABLE IF NOT EXISTS spans ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,"
	" traced_span_s REAL NOT NULL, stretch REAL NOT NULL);",
	"CREATE TABLE IF NOT EXISTS activity ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL CHECK (seq >= -1), activations INTEGER NOT NULL,"
	" throughput REAL NOT NULL,"
	" latency_mean_s REAL NOT NULL, latency_p95_s REAL NOT NULL, latency_max_s REAL NOT NULL,"
	" response_mean_s REAL NOT NULL, response_p95_s REAL NOT NULL,"
	" response_max_s REAL NOT NULL, lateness_mean_s REAL NOT NULL,"
	" lateness_p95_s REAL NOT NULL, lateness_max_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, seq));",
	"CREATE TABLE IF NOT EXISTS kernel_overhead ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" operation TEXT NOT NULL, calls INTEGER NOT NULL, time_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, operation));",
	"CREATE TABLE IF NOT EXISTS kernel_overhead_runs ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,"
	" costed INTEGER NOT NULL, total_s REAL NOT NULL, charged_s REAL NOT NULL);",
};

static void test_create_text(void **state)
{
	char *all, *joined;
	size_t len = 0;
	(void)state;

	assert_int_equal(store_nr_tables, (int)GS_ARRAY_SIZE(old_schema));
	for (int i = 0; i < store_nr_tables; i++)
		assert_true(store_tables[i]->nr_cols <= STORE_MAX_COLUMNS);
	for (int i = 0; i < store_nr_tables; i++) {
		char *sql = store_table_create_sql(store_tables[i]);
		assert_non_null(sql);
		assert_string_equal(sql, old_schema[i]);
		sqlite3_free(sql);
		len += strlen(old_schema[i]);
	}
	joined = calloc(1, len + 1);
	assert_non_null(joined);
	for (size_t i = 0; i < GS_ARRAY_SIZE(old_schema); i++)
		strcat(joined, old_schema[i]);
	all = store_schema_sql();
	assert_string_equal(all, joined);
	sqlite3_free(all);
	free(joined);
}

/* "name|sql\n" for every table of the file, by name: what `sqlite3 file .schema` shows. */
static char *schema_of(sqlite3 *db)
{
	sqlite3_str *out = sqlite3_str_new(db);
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT name, sql FROM sqlite_master WHERE type = "
					    "'table' ORDER BY name",
					    -1, &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		sqlite3_str_appendf(out, "%s|%s\n", sqlite3_column_text(st, 0),
				    sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return sqlite3_str_finish(out);
}

static void test_schema_on_disk(void **state)
{
	const char *old_path = test_tmppath("old.db"), *new_path = test_tmppath("new.db");
	struct gs_error err = {0};
	struct store *s;
	sqlite3 *db;
	char *a, *b;
	(void)state;

	assert_int_equal(sqlite3_open(old_path, &db), SQLITE_OK);
	for (size_t i = 0; i < GS_ARRAY_SIZE(old_schema); i++)
		assert_int_equal(sqlite3_exec(db, old_schema[i], NULL, NULL, NULL), SQLITE_OK);
	a = schema_of(db);
	sqlite3_close(db);
	if (store_open(new_path, &s, &err))
		fail_msg("%s", err.msg);
	store_close(s);
	assert_int_equal(sqlite3_open(new_path, &db), SQLITE_OK);
	b = schema_of(db);
	sqlite3_close(db);
	assert_string_equal(b, a);
	assert_non_null(strstr(a, "kernel_overhead_runs|CREATE TABLE kernel_overhead_runs ("));
	sqlite3_free(a);
	sqlite3_free(b);
	unlink(old_path);
	unlink(new_path);
}

/* A run with every stored field set, each to a value no other field has, all of them exact in
 * binary so that SQLite prints them as written below. */
static void make_run(struct run_result *r)
{
	run_result_init(r);
	snprintf(r->label, sizeof(r->label), "L");
	snprintf(r->trace, sizeof(r->trace), "T");
	snprintf(r->trace_sha256, sizeof(r->trace_sha256), "S");
	snprintf(r->platform, sizeof(r->platform), "P");
	snprintf(r->governor, sizeof(r->governor), "G");
	snprintf(r->timing, sizeof(r->timing), "work");
	snprintf(r->util_source, sizeof(r->util_source), "U");
	snprintf(r->power_model, sizeof(r->power_model), "M");
	snprintf(r->power_unit, sizeof(r->power_unit), "W");
	snprintf(r->policy, sizeof(r->policy), "Y");
	snprintf(r->params, sizeof(r->params), "A");
	snprintf(r->kernel, sizeof(r->kernel), "K");
	snprintf(r->notes, sizeof(r->notes), "N");
	snprintf(r->govsim_version, sizeof(r->govsim_version), "V");
	snprintf(r->governor_path, sizeof(r->governor_path), "GP");
	snprintf(r->governor_sha256, sizeof(r->governor_sha256), "GS");
	snprintf(r->placement, sizeof(r->placement), "eas");
	r->start_s = 1.5;
	r->span_s = 2.5;
	r->events = 7;
	r->nr_cpus = 2;
	r->nr_clusters = 1;
	r->energy_cpu[0] = 0.25;
	r->energy_cpu[1] = 0.375;
	r->energy_cluster[0] = 0.625;
	r->energy_total = 1.25;
	r->pol[0] = (struct run_policy_result){
		.policy = 0, .cluster = 0, .nr_opps = 2, .freq_khz = {1000, 2000},
		.residency_s = {0.125, 0.875}, .transitions = 3, .avg_freq_khz = 1500.5,
		.busy_s = 0.75, .overutilized_s = 0.0625};
	r->nr_tasks = 2;
	r->tasks = calloc(2, sizeof(*r->tasks));
	assert_non_null(r->tasks);
	r->tasks[0] = (struct run_task_result){.pid = 11, .comm = "c0", .runtime_s = 0.5,
					       .delay_s = 0.03125, .max_delay_s = 0.015625,
					       .cluster_runtime_s = {0.4375}, .migrations = 5};
	r->tasks[1] = (struct run_task_result){.pid = 12, .comm = "c1", .runtime_s = 3.5};
	r->tasks[1].act = (struct run_activity){8, {3.25, 3.375, 3.5}, {4.25, 4.375, 4.5},
						{-4.75, 4.875, 5.25}, 5.5};
	r->placement_wakeups = 21;
	r->placement_migrations = 22;
	r->misfit_pulls = 23;
	r->rd_overutilized_s = 0.1875;
	r->nr_slices = 1;
	r->slices = calloc(1, sizeof(*r->slices));
	assert_non_null(r->slices);
	r->slices[0] = (struct run_place_slice){.start_s = 0.5625, .end_s = 0.75, .pid = 11,
						.cpu = 1};
	r->key_on = true;
	r->key_on_at_s = 0.3125;
	r->agg_ops = 31;
	r->agg_skipped = 32;
	r->clamped_up_s = 5.625;
	r->clamped_down_s = 0.6875;
	r->nr_timeline = 1;
	r->timeline = calloc(1, sizeof(*r->timeline));
	assert_non_null(r->timeline);
	r->timeline[0] = (struct run_timeline_point){.time_s = 0.8125, .policy = 0,
						     .freq_khz = 1000, .traced_khz = 2000,
						     .util = 300, .capacity = 400};
	r->work_in_s[0] = 0.9375;
	r->work_out_s[0] = 1.0625;
	r->work_in_s[1] = 6.5;
	r->traced_span_s = 2.25;
	r->stretch = 1.125;
	r->act_total = (struct run_activity){40, {1.25, 1.375, 1.5}, {2.25, 2.375, 2.125},
					     {-0.25, 0.4375, 0.5}, 4.5};
	r->ovh.costed = true;
	r->ovh.calls[0] = 51;
	r->ovh.time_s[0] = 0.046875;
	r->ovh.total_s = 0.78125;
	r->ovh.charged_s = -0.09375;
}

/* Every column's value in the first row (rowid order) of run 1, as SQLite prints it. */
static const struct {
	const char *table, *column, *value;
} expected[] = {
	{"runs", "run_id", "1"},
	{"runs", "label", "L"},
	{"runs", "trace", "T"},
	{"runs", "trace_sha256", "S"},
	{"runs", "platform", "P"},
	{"runs", "governor", "G"},
	{"runs", "timing", "work"},
	{"runs", "util_source", "U"},
	{"runs", "power_model", "M"},
	{"runs", "power_unit", "W"},
	{"runs", "policy", "Y"},
	{"runs", "params", "A"},
	{"runs", "kernel", "K"},
	{"runs", "start_s", "1.5"},
	{"runs", "span_s", "2.5"},
	{"runs", "events", "7"},
	{"runs", "nr_cpus", "2"},
	{"runs", "nr_clusters", "1"},
	{"runs", "notes", "N"},
	{"runs", "govsim_version", "V"},
	{"runs", "governor_path", "GP"},
	{"runs", "governor_sha256", "GS"},
	{"runs", "created_at", "2020-09-13T12:26:40Z"}, /* SOURCE_DATE_EPOCH 1600000000 */
	{"energy", "run_id", "1"},
	{"energy", "scope", "cpu"},
	{"energy", "name", "cpu0"},
	{"energy", "joules", "0.25"},
	{"residency", "run_id", "1"},
	{"residency", "policy", "0"},
	{"residency", "freq_khz", "1000"},
	{"residency", "seconds", "0.125"},
	{"policy_stats", "run_id", "1"},
	{"policy_stats", "policy", "0"},
	{"policy_stats", "cluster", "0"},
	{"policy_stats", "transitions", "3"},
	{"policy_stats", "avg_freq_khz", "1500.5"},
	{"policy_stats", "busy_s", "0.75"},
	{"policy_stats", "overutilized_s", "0.0625"},
	{"task_stats", "run_id", "1"},
	{"task_stats", "seq", "0"},
	{"task_stats", "pid", "11"},
	{"task_stats", "comm", "c0"},
	{"task_stats", "runtime_s", "0.5"},
	{"task_stats", "delay_s", "0.03125"},
	{"task_stats", "max_delay_s", "0.015625"},
	{"placement", "run_id", "1"},
	{"placement", "mode", "eas"},
	{"placement", "wakeups", "21"},
	{"placement", "migrations", "22"},
	{"placement", "misfit_pulls", "23"},
	{"placement", "overutilized_s", "0.1875"},
	{"placement_tasks", "run_id", "1"},
	{"placement_tasks", "seq", "0"},
	{"placement_tasks", "cluster", "0"},
	{"placement_tasks", "runtime_s", "0.4375"},
	{"placement_tasks", "migrations", "5"},
	{"placement_slices", "run_id", "1"},
	{"placement_slices", "seq", "0"},
	{"placement_slices", "pid", "11"},
	{"placement_slices", "cpu", "1"},
	{"placement_slices", "start_s", "0.5625"},
	{"placement_slices", "end_s", "0.75"},
	{"uclamp_stats", "run_id", "1"},
	{"uclamp_stats", "key_on_at_s", "0.3125"},
	{"uclamp_stats", "agg_ops", "31"},
	{"uclamp_stats", "agg_skipped", "32"},
	{"uclamp_stats", "clamped_up_s", "5.625"},
	{"uclamp_stats", "clamped_down_s", "0.6875"},
	{"timeline", "run_id", "1"},
	{"timeline", "seq", "0"},
	{"timeline", "time_s", "0.8125"},
	{"timeline", "policy", "0"},
	{"timeline", "freq_khz", "1000"},
	{"timeline", "traced_khz", "2000"},
	{"timeline", "util", "300"},
	{"timeline", "capacity", "400"},
	{"work", "run_id", "1"},
	{"work", "cpu", "0"},
	{"work", "work_in_s", "0.9375"},
	{"work", "work_out_s", "1.0625"},
	{"spans", "run_id", "1"},
	{"spans", "traced_span_s", "2.25"},
	{"spans", "stretch", "1.125"},
	{"activity", "run_id", "1"},
	{"activity", "seq", "-1"},
	{"activity", "activations", "40"},
	{"activity", "throughput", "4.5"},
	{"activity", "latency_mean_s", "1.25"},
	{"activity", "latency_p95_s", "1.375"},
	{"activity", "latency_max_s", "1.5"},
	{"activity", "response_mean_s", "2.25"},
	{"activity", "response_p95_s", "2.375"},
	{"activity", "response_max_s", "2.125"},
	{"activity", "lateness_mean_s", "-0.25"},
	{"activity", "lateness_p95_s", "0.4375"},
	{"activity", "lateness_max_s", "0.5"},
	{"kernel_overhead", "run_id", "1"},
	{"kernel_overhead", "operation", "activate_task"},
	{"kernel_overhead", "calls", "51"},
	{"kernel_overhead", "time_s", "0.046875"},
	{"kernel_overhead_runs", "run_id", "1"},
	{"kernel_overhead_runs", "costed", "1"},
	{"kernel_overhead_runs", "total_s", "0.78125"},
	{"kernel_overhead_runs", "charged_s", "-0.09375"},
};

static const char *expected_value(const char *table, const char *column)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(expected); i++)
		if (strcmp(expected[i].table, table) == 0 && strcmp(expected[i].column, column) == 0)
			return expected[i].value;
	return NULL;
}

/* Column `column` of the first row of `table`, as text ("NULL" for NULL). */
static char *first_value(sqlite3 *db, const char *table, const char *column)
{
	char *sql = sqlite3_mprintf("SELECT CAST(%s AS TEXT) FROM %s ORDER BY rowid LIMIT 1",
				    column, table);
	sqlite3_stmt *st;
	char *v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_free(sql);
	if (sqlite3_step(st) != SQLITE_ROW)
		fail_msg("table %s has no row", table);
	v = strdup(sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "NULL");
	sqlite3_finalize(st);
	return v;
}

static void test_every_column_stored(void **state)
{
	const char *path = test_tmppath("cols.db");
	struct gs_error err = {0};
	struct run_result r;
	struct store *s;
	sqlite3 *db;
	s64 id = 0;
	int nr_cols = 0;
	(void)state;

	setenv("SOURCE_DATE_EPOCH", "1600000000", 1);
	make_run(&r);
	if (store_open(path, &s, &err) || store_write_run(s, &r, &id, &err))
		fail_msg("%s", err.msg);
	store_close(s);
	assert_int_equal(id, 1);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	for (int i = 0; i < store_nr_tables; i++) {
		const struct store_table *t = store_tables[i];
		for (int c = 0; c < t->nr_cols; c++, nr_cols++) {
			const char *want = expected_value(t->name, t->cols[c].name);
			char *got;
			if (!want)
				fail_msg("%s.%s: no expected value in this test", t->name,
					 t->cols[c].name);
			got = first_value(db, t->name, t->cols[c].name);
			if (strcmp(got, want) != 0)
				fail_msg("%s.%s: stored '%s', expected '%s'", t->name,
					 t->cols[c].name, got, want);
			free(got);
		}
	}
	assert_int_equal(nr_cols, (int)GS_ARRAY_SIZE(expected));
	sqlite3_close(db);
	unlink(path);
	run_result_release(&r);
}

/* Two values of one column are the same (NULL equal to NULL; doubles bit for bit). */
static bool same_value(const struct store_column *col, const struct store_value *a,
		       const struct store_value *b)
{
	if (a->null || b->null)
		return a->null == b->null;
	if (col->type == STORE_TEXT)
		return strcmp(a->t, b->t) == 0;
	if (col->type == STORE_DOUBLE)
		return memcmp(&a->d, &b->d, sizeof(double)) == 0;
	return a->i == b->i;
}

static void test_round_trip_every_column(void **state)
{
	const char *path = test_tmppath("rt.db");
	struct gs_error err = {0};
	struct run_result r, back, x, y;
	struct store *s;
	s64 id = 0;
	(void)state;

	make_run(&r);
	r.pol[0].avg_freq_khz = NAN; /* NULL in the database, NAN again when read */
	if (store_open(path, &s, &err) || store_write_run(s, &r, &id, &err) ||
	    store_read_run(s, id, &back, &err))
		fail_msg("%s", err.msg);
	store_close(s);
	for (int i = 0; i < store_nr_read_tables; i++) {
		const struct store_table *t = store_read_tables[i];
		struct store_row a, b;
		size_t pa = 0, pb = 0;
		int rows = 0;
		while (store_row_next(t, &r, id, "", &pa, &a)) {
			assert_true(store_row_next(t, &back, id, "", &pb, &b));
			for (int c = 0; c < t->nr_cols; c++)
				if (!same_value(&t->cols[c], &a.v[c], &b.v[c]))
					fail_msg("%s.%s row %d: not read back as written", t->name,
						 t->cols[c].name, rows);
			rows++;
		}
		assert_false(store_row_next(t, &back, id, "", &pb, &b));
		assert_true(rows > 0);
	}
	/* The whole run_result too, but for the placement figures, which are not read back. */
	assert_true(isnan(back.pol[0].avg_freq_khz));
	assert_int_equal(back.nr_tasks, 2);
	assert_int_equal(back.nr_slices, 1);
	assert_int_equal(back.nr_timeline, 1);
	assert_memory_equal(back.slices, r.slices, sizeof(*r.slices));
	assert_memory_equal(back.timeline, r.timeline, sizeof(*r.timeline));
	for (int i = 0; i < 2; i++) {
		struct run_task_result ta = r.tasks[i], tb = back.tasks[i];
		memset(ta.cluster_runtime_s, 0, sizeof(ta.cluster_runtime_s));
		ta.migrations = 0;
		assert_memory_equal(&ta, &tb, sizeof(ta));
	}
	x = r;
	y = back;
	x.tasks = y.tasks = NULL;
	x.slices = y.slices = NULL;
	x.timeline = y.timeline = NULL;
	memset(x.placement, 0, sizeof(x.placement));
	x.placement_wakeups = x.placement_migrations = x.misfit_pulls = 0;
	x.rd_overutilized_s = 0;
	assert_memory_equal(&x, &y, sizeof(x));
	run_result_release(&back);
	run_result_release(&r);
	unlink(path);
}

static void test_csv_header(void **state)
{
	char dir[512], path[600], line[1024];
	struct gs_error err = {0};
	struct run_result r;
	FILE *f;
	(void)state;

	make_run(&r);
	snprintf(dir, sizeof(dir), "%s", test_tmppath("csv"));
	if (store_write_csv(&r, 3, dir, &err))
		fail_msg("%s", err.msg);
	snprintf(path, sizeof(path), "%s/runs.csv", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "run_id,label,trace,trace_sha256,platform,governor,timing,"
				  "util_source,power_model,power_unit,policy,params,kernel,start_s,"
				  "span_s,events,nr_cpus,nr_clusters,notes,govsim_version,"
				  "governor_path,governor_sha256\n");
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "3,\"L\",\"T\",\"S\",\"P\",\"G\",\"work\",\"U\",\"M\",\"W\","
				  "\"Y\",\"A\",\"K\",1.5,2.5,7,2,1,\"N\",\"V\",\"GP\",\"GS\"\n");
	fclose(f);
	run_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_text),
		cmocka_unit_test(test_schema_on_disk),
		cmocka_unit_test(test_every_column_stored),
		cmocka_unit_test(test_round_trip_every_column),
		cmocka_unit_test(test_csv_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
