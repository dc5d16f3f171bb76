/*
 * store.c - the results database (SQLite) and its CSV twin; see store.h.
 *
 * Every statement is prepared with bound parameters; rows go in a fixed order (runs, energy
 * cpu..cluster..total, residency per policy and OPP, policy_stats, task_stats in the result's
 * order, uclamp_stats, timeline, work), so the same run_result always writes the same rows.
 */
#include "store/store.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include <math.h>
#include <sqlite3.h>

struct store {
	sqlite3 *db;
	char *path;
	bool plugin_cols; /* runs.governor_path/governor_sha256 exist (added after schema v1) */
};

static const char store_schema[] =
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
	" created_at TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS energy ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" scope TEXT NOT NULL CHECK (scope IN ('cpu', 'cluster', 'total')),"
	" name TEXT NOT NULL, joules REAL NOT NULL, PRIMARY KEY (run_id, scope, name));"
	"CREATE TABLE IF NOT EXISTS residency ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL CHECK (policy >= 0), freq_khz INTEGER NOT NULL,"
	" seconds REAL NOT NULL, PRIMARY KEY (run_id, policy, freq_khz));"
	"CREATE TABLE IF NOT EXISTS policy_stats ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" policy INTEGER NOT NULL CHECK (policy >= 0), cluster INTEGER NOT NULL,"
	" transitions INTEGER NOT NULL, avg_freq_khz REAL, busy_s REAL NOT NULL,"
	" overutilized_s REAL NOT NULL, PRIMARY KEY (run_id, policy));"
	"CREATE TABLE IF NOT EXISTS task_stats ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, pid INTEGER NOT NULL, comm TEXT NOT NULL,"
	" runtime_s REAL NOT NULL, delay_s REAL NOT NULL, max_delay_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, seq));"
	"CREATE TABLE IF NOT EXISTS uclamp_stats ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,"
	" key_on_at_s REAL, agg_ops INTEGER NOT NULL, agg_skipped INTEGER NOT NULL,"
	" clamped_up_s REAL NOT NULL, clamped_down_s REAL NOT NULL);"
	"CREATE TABLE IF NOT EXISTS timeline ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL, time_s REAL NOT NULL, policy INTEGER NOT NULL CHECK (policy >= 0),"
	" freq_khz INTEGER NOT NULL, traced_khz INTEGER NOT NULL, util INTEGER NOT NULL,"
	" capacity INTEGER NOT NULL, PRIMARY KEY (run_id, seq));"
	"CREATE TABLE IF NOT EXISTS work ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" cpu INTEGER NOT NULL, work_in_s REAL NOT NULL, work_out_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, cpu));"
	"CREATE TABLE IF NOT EXISTS spans ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(run_id) ON DELETE CASCADE,"
	" traced_span_s REAL NOT NULL, stretch REAL NOT NULL);"
	"CREATE TABLE IF NOT EXISTS activity ("
	" run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,"
	" seq INTEGER NOT NULL CHECK (seq >= -1), activations INTEGER NOT NULL,"
	" throughput REAL NOT NULL,"
	" latency_mean_s REAL NOT NULL, latency_p95_s REAL NOT NULL, latency_max_s REAL NOT NULL,"
	" response_mean_s REAL NOT NULL, response_p95_s REAL NOT NULL,"
	" response_max_s REAL NOT NULL, lateness_mean_s REAL NOT NULL,"
	" lateness_p95_s REAL NOT NULL, lateness_max_s REAL NOT NULL,"
	" PRIMARY KEY (run_id, seq));";

/* The activity row of a task (seq >= 0) or of all tasks (seq -1). */
static int insert_activity(struct store *s, sqlite3_stmt *st, struct gs_error *err, s64 id,
			   s64 seq, const struct run_activity *a);

static int sql_error(struct store *s, struct gs_error *err, const char *what)
{
	return gs_error_set(err, GS_ESQL, "'%s': %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

/* Runs a statement without results; GS_ESQL naming `what` on failure. */
static int exec(struct store *s, const char *sql, const char *what, struct gs_error *err)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_error(s, err, what);
	return 0;
}

/* A governor plugin's file and SHA-256 are two columns of runs added within schema version 1
 * (empty for a built-in governor; created_at stays last in a new file). A database written
 * before them gets them, at the end, when opened (an old govsim ignores them; columns are
 * always named); one that cannot be altered (read-only) is read without them. */
static void plugin_columns(struct store *s)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(s->db, "SELECT governor_path, governor_sha256 FROM runs LIMIT 0", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		s->plugin_cols = true;
		return;
	}
	sqlite3_finalize(st);
	s->plugin_cols =
		sqlite3_exec(s->db,
			     "BEGIN IMMEDIATE;"
			     "ALTER TABLE runs ADD COLUMN governor_path TEXT NOT NULL DEFAULT '';"
			     "ALTER TABLE runs ADD COLUMN governor_sha256 TEXT NOT NULL DEFAULT '';"
			     "COMMIT",
			     NULL, NULL, NULL) == SQLITE_OK;
	if (!s->plugin_cols)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

/*
 * Whether the open database is govsim's, or empty, before anything is created in it (#18.8: a
 * foreign SQLite file used to get govsim's tables added, then fail on its own 'runs'). Version 0
 * must hold no table at all; a versioned file must have govsim's runs table. GS_EINPUT for a
 * foreign file or not a database at all, GS_ESCHEMA for a newer govsim's.
 */
static int check_schema(struct store *s, int *version_out, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int version, tables;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return gs_error_set(err, GS_EINPUT, "'%s': not a results database: %s", s->path,
				    sqlite3_errmsg(s->db));
	}
	version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version > STORE_SCHEMA_VERSION)
		return gs_error_set(err, GS_ESCHEMA,
				    "'%s': results schema version %d is newer than this govsim "
				    "supports (%d)",
				    s->path, version, STORE_SCHEMA_VERSION);
	if (sqlite3_prepare_v2(s->db,
			       "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return gs_error_set(err, GS_EINPUT, "'%s': not a results database: %s", s->path,
				    sqlite3_errmsg(s->db));
	}
	tables = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (version == 0 && tables > 0)
		return gs_error_set(err, GS_EINPUT,
				    "'%s': an SQLite database, but not a govsim results database "
				    "(%d tables, no govsim schema version): nothing was written to it",
				    s->path, tables);
	if (version > 0 &&
	    sqlite3_prepare_v2(s->db, "SELECT run_id, label, trace, trace_sha256, platform, "
				      "governor, params, kernel FROM runs LIMIT 0",
			       -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return gs_error_set(err, GS_EINPUT,
				    "'%s': schema version %d, but no govsim runs table (%s): not a "
				    "govsim results database",
				    s->path, version, sqlite3_errmsg(s->db));
	}
	sqlite3_finalize(st);
	*version_out = version;
	return 0;
}

int store_check(const char *path, struct gs_error *err)
{
	struct store s = {.path = (char *)path};
	int version, rc;

	if (access(path, F_OK) != 0)
		return 0; /* created when the run is stored */
	if (sqlite3_open_v2(path, &s.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		rc = s.db ? gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", path,
					 sqlite3_errmsg(s.db))
			  : gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
		sqlite3_close(s.db);
		return rc;
	}
	sqlite3_busy_timeout(s.db, 30000);
	rc = check_schema(&s, &version, err);
	sqlite3_close(s.db);
	return rc;
}

int store_open(const char *path, struct store **out, struct gs_error *err)
{
	struct store *s = calloc(1, sizeof(*s));
	int version, rc;

	*out = NULL;
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
	}
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = s->db ? sql_error(s, err, "cannot open")
			   : gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
		goto out_close;
	}
	/* Parallel jobs of a sweep may share one file: wait for each other's transactions. */
	sqlite3_busy_timeout(s->db, 30000);
	if ((rc = exec(s, "PRAGMA foreign_keys = ON", "cannot open", err)))
		goto out_close;

	if ((rc = check_schema(s, &version, err)))
		goto out_close;
	if (version < STORE_SCHEMA_VERSION) {
		char sql[64];
		/* A new file (version 0): the tables and the version, all or nothing. */
		if ((rc = exec(s, "BEGIN IMMEDIATE", "cannot create the schema", err)))
			goto out_close;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
		if ((rc = exec(s, store_schema, "cannot create the schema", err)) ||
		    (rc = exec(s, sql, "cannot create the schema", err)) ||
		    (rc = exec(s, "COMMIT", "cannot create the schema", err))) {
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			goto out_close;
		}
	}
	plugin_columns(s);
	*out = s;
	return 0;

out_close:
	store_close(s);
	return rc;
}

/* --- writing ------------------------------------------------------------------------------ */

/* Binds values by position: one format letter per parameter. t text, i int64, d double, n NULL. */
static int bind_args(sqlite3_stmt *st, const char *fmt, va_list ap)
{
	for (int i = 1; *fmt; fmt++, i++) {
		int rc = SQLITE_OK;
		switch (*fmt) {
		case 't':
			rc = sqlite3_bind_text(st, i, va_arg(ap, const char *), -1, SQLITE_STATIC);
			break;
		case 'i':
			rc = sqlite3_bind_int64(st, i, va_arg(ap, s64));
			break;
		case 'd':
			rc = sqlite3_bind_double(st, i, va_arg(ap, double));
			break;
		case 'n':
			rc = sqlite3_bind_null(st, i);
			break;
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* Runs a prepared insert with these values, then resets it for the next row. */
static int insert(struct store *s, sqlite3_stmt *st, struct gs_error *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = bind_args(st, fmt, ap);
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_OK)
		return sql_error(s, err, "cannot write the run");
	return 0;
}

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st, struct gs_error *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return sql_error(s, err, "cannot write the run");
	return 0;
}

static void created_at(char *buf, size_t size)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_rows(struct store *s, const struct run_result *r, s64 id, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	char name[32];
	int rc;

	if ((rc = prepare(s, "INSERT INTO energy VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus && !rc; cpu++) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		rc = insert(s, st, err, "ittd", id, "cpu", name, r->energy_cpu[cpu]);
	}
	for (int c = 0; c < r->nr_clusters && !rc; c++) {
		snprintf(name, sizeof(name), "cluster%d", c);
		rc = insert(s, st, err, "ittd", id, "cluster", name, r->energy_cluster[c]);
	}
	if (!rc)
		rc = insert(s, st, err, "ittd", id, "total", "total", r->energy_total);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO residency VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int c = 0; c < r->nr_clusters && !rc; c++) {
		const struct run_policy_result *pr = &r->pol[c];
		for (int k = 0; k < pr->nr_opps && !rc; k++)
			rc = insert(s, st, err, "iiid", id, (s64)pr->policy, (s64)pr->freq_khz[k],
				    pr->residency_s[k]);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO policy_stats VALUES (?, ?, ?, ?, ?, ?, ?)", &st,
				err)))
		return rc;
	for (int c = 0; c < r->nr_clusters && !rc; c++) {
		const struct run_policy_result *pr = &r->pol[c];
		rc = insert(s, st, err, "iiiiddd", id, (s64)pr->policy, (s64)pr->cluster,
			    (s64)pr->transitions, pr->avg_freq_khz, pr->busy_s, pr->overutilized_s);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO task_stats VALUES (?, ?, ?, ?, ?, ?, ?)", &st,
				err)))
		return rc;
	for (int i = 0; i < r->nr_tasks && !rc; i++) {
		const struct run_task_result *t = &r->tasks[i];
		char comm[TASK_COMM_LEN];
		snprintf(comm, sizeof(comm), "%s", t->comm);
		rc = insert(s, st, err, "iiitddd", id, (s64)i, (s64)t->pid, comm, t->runtime_s,
			    t->delay_s, t->max_delay_s);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO uclamp_stats VALUES (?, ?, ?, ?, ?, ?)", &st, err)))
		return rc;
	if (r->key_on)
		rc = insert(s, st, err, "idiidd", id, r->key_on_at_s, (s64)r->agg_ops,
			    (s64)r->agg_skipped, r->clamped_up_s, r->clamped_down_s);
	else
		rc = insert(s, st, err, "iniidd", id, (s64)r->agg_ops, (s64)r->agg_skipped,
			    r->clamped_up_s, r->clamped_down_s);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO timeline VALUES (?, ?, ?, ?, ?, ?, ?, ?)", &st,
				err)))
		return rc;
	for (size_t i = 0; i < r->nr_timeline && !rc; i++) {
		const struct run_timeline_point *tp = &r->timeline[i];
		rc = insert(s, st, err, "iidiiiii", id, (s64)i, tp->time_s, (s64)tp->policy,
			    (s64)tp->freq_khz, (s64)tp->traced_khz, (s64)tp->util,
			    (s64)tp->capacity);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO work VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus && !rc; cpu++)
		rc = insert(s, st, err, "iidd", id, (s64)cpu, r->work_in_s[cpu], r->work_out_s[cpu]);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO spans VALUES (?, ?, ?)", &st, err)))
		return rc;
	rc = insert(s, st, err, "idd", id, r->traced_span_s, r->stretch);
	sqlite3_finalize(st);
	if (rc || strcmp(r->timing, "work") != 0)
		return rc;
	if ((rc = prepare(s, "INSERT INTO activity VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			  &st, err)))
		return rc;
	rc = insert_activity(s, st, err, id, -1, &r->act_total);
	for (int i = 0; i < r->nr_tasks && !rc; i++)
		if (r->tasks[i].act.activations)
			rc = insert_activity(s, st, err, id, i, &r->tasks[i].act);
	sqlite3_finalize(st);
	return rc;
}

static int insert_activity(struct store *s, sqlite3_stmt *st, struct gs_error *err, s64 id,
			   s64 seq, const struct run_activity *a)
{
	return insert(s, st, err, "iiidddddddddd", id, seq, (s64)a->activations, a->throughput,
		      a->latency.mean_s, a->latency.p95_s, a->latency.max_s, a->response.mean_s,
		      a->response.p95_s, a->response.max_s, a->lateness.mean_s, a->lateness.p95_s,
		      a->lateness.max_s);
}

static bool result_in_limits(const struct run_result *r)
{
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS || r->nr_tasks < 0 || (r->nr_tasks && !r->tasks) ||
	    (r->nr_timeline && !r->timeline))
		return false;
	for (int c = 0; c < r->nr_clusters; c++)
		if (r->pol[c].nr_opps < 0 || r->pol[c].nr_opps > GS_MAX_OPPS)
			return false;
	return true;
}

int store_write_run(struct store *s, const struct run_result *r, s64 *run_id, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	char when[32];
	s64 id;
	int rc;

	if (!result_in_limits(r))
		return gs_error_set(err, GS_EINTERNAL, "'%s': run result out of limits", s->path);
	if ((rc = exec(s, "BEGIN IMMEDIATE", "cannot write the run", err)))
		return rc;
	created_at(when, sizeof(when));
	if (!s->plugin_cols && r->governor_path[0]) {
		rc = gs_error_set(err, GS_ESQL,
				  "'%s': cannot add the governor_path column to an older results "
				  "database (read-only?)",
				  s->path);
		goto out_rollback;
	}
	if ((rc = prepare(s,
			  s->plugin_cols
				  ? "INSERT INTO runs (label, trace, trace_sha256, platform, governor,"
				    " timing, util_source, power_model, power_unit, policy, params,"
				    " kernel, start_s, span_s, events, nr_cpus, nr_clusters, notes,"
				    " govsim_version, created_at, governor_path, governor_sha256)"
				    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
				    " ?, ?, ?)"
				  : "INSERT INTO runs (label, trace, trace_sha256, platform, governor,"
				    " timing, util_source, power_model, power_unit, policy, params,"
				    " kernel, start_s, span_s, events, nr_cpus, nr_clusters, notes,"
				    " govsim_version, created_at)"
				    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
				    " ?)",
			  &st, err)))
		goto out_rollback;
	/* the two last values are bound only when the statement has them */
	rc = insert(s, st, err, s->plugin_cols ? "ttttttttttttddiiittttt" : "ttttttttttttddiiittt",
		    r->label, r->trace, r->trace_sha256, r->platform, r->governor, r->timing,
		    r->util_source, r->power_model, r->power_unit, r->policy, r->params, r->kernel,
		    r->start_s, r->span_s, (s64)r->events, (s64)r->nr_cpus, (s64)r->nr_clusters,
		    r->notes, r->govsim_version, when, r->governor_path, r->governor_sha256);
	sqlite3_finalize(st);
	if (rc)
		goto out_rollback;
	id = sqlite3_last_insert_rowid(s->db);
	if ((rc = write_rows(s, r, id, err)))
		goto out_rollback;
	if ((rc = exec(s, "COMMIT", "cannot write the run", err)))
		goto out_rollback;
	*run_id = id;
	return 0;

out_rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* --- reading ------------------------------------------------------------------------------ */

static void copy_text(char *dst, size_t size, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(dst, size, "%s", t ? (const char *)t : "");
}

static int read_error(struct store *s, struct gs_error *err, s64 run_id)
{
	return gs_error_set(err, GS_ESQL, "'%s': cannot read run %" PRId64 ": %s", s->path, run_id,
			    sqlite3_errmsg(s->db));
}

/* Prepares `sql` with ?1 bound to run_id. */
static int query(struct store *s, const char *sql, s64 run_id, sqlite3_stmt **st,
		 struct gs_error *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(*st, 1, run_id) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return read_error(s, err, run_id);
	}
	return 0;
}

static int finish(struct store *s, sqlite3_stmt *st, int rc, s64 run_id, struct gs_error *err)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return read_error(s, err, run_id);
	return 0;
}

static int bad_row(struct store *s, sqlite3_stmt *st, s64 run_id, const char *what,
		   struct gs_error *err)
{
	sqlite3_finalize(st);
	return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": %s", s->path, run_id, what);
}

static int read_runs_row(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s,
			"SELECT label, trace, trace_sha256, platform, governor, timing, util_source,"
			" power_model, power_unit, policy, params, kernel, start_s, span_s, events,"
			" nr_cpus, nr_clusters, notes, govsim_version FROM runs WHERE run_id = ?1",
			id, &st, err)))
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return gs_error_set(err, GS_ENOTFOUND, "'%s': no run %" PRId64, s->path, id);
	}
	if (rc != SQLITE_ROW)
		return finish(s, st, rc, id, err);
	copy_text(r->label, sizeof(r->label), st, 0);
	copy_text(r->trace, sizeof(r->trace), st, 1);
	copy_text(r->trace_sha256, sizeof(r->trace_sha256), st, 2);
	copy_text(r->platform, sizeof(r->platform), st, 3);
	copy_text(r->governor, sizeof(r->governor), st, 4);
	copy_text(r->timing, sizeof(r->timing), st, 5);
	copy_text(r->util_source, sizeof(r->util_source), st, 6);
	copy_text(r->power_model, sizeof(r->power_model), st, 7);
	copy_text(r->power_unit, sizeof(r->power_unit), st, 8);
	copy_text(r->policy, sizeof(r->policy), st, 9);
	copy_text(r->params, sizeof(r->params), st, 10);
	copy_text(r->kernel, sizeof(r->kernel), st, 11);
	r->start_s = sqlite3_column_double(st, 12);
	r->span_s = sqlite3_column_double(st, 13);
	r->events = (u64)sqlite3_column_int64(st, 14);
	r->nr_cpus = sqlite3_column_int(st, 15);
	r->nr_clusters = sqlite3_column_int(st, 16);
	copy_text(r->notes, sizeof(r->notes), st, 17);
	copy_text(r->govsim_version, sizeof(r->govsim_version), st, 18);
	sqlite3_finalize(st);
	if (s->plugin_cols) {
		if ((rc = query(s, "SELECT governor_path, governor_sha256 FROM runs WHERE run_id = ?1",
				id, &st, err)))
			return rc;
		if ((rc = sqlite3_step(st)) != SQLITE_ROW)
			return finish(s, st, rc, id, err);
		copy_text(r->governor_path, sizeof(r->governor_path), st, 0);
		copy_text(r->governor_sha256, sizeof(r->governor_sha256), st, 1);
		sqlite3_finalize(st);
	}
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": nr_cpus or nr_clusters "
						  "out of range",
				    s->path, id);
	return 0;
}

static int read_energy(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s, "SELECT scope, name, joules FROM energy WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *scope = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		double j = sqlite3_column_double(st, 2);
		int n;

		if (!scope || !name)
			return bad_row(s, st, id, "energy row without scope or name", err);
		if (strcmp(scope, "total") == 0)
			r->energy_total = j;
		else if (strcmp(scope, "cpu") == 0 && sscanf(name, "cpu%d", &n) == 1 && n >= 0 &&
			 n < r->nr_cpus)
			r->energy_cpu[n] = j;
		else if (strcmp(scope, "cluster") == 0 && sscanf(name, "cluster%d", &n) == 1 &&
			 n >= 0 && n < r->nr_clusters)
			r->energy_cluster[n] = j;
		else
			return bad_row(s, st, id, "energy row names no cpu or cluster of the run", err);
	}
	return finish(s, st, rc, id, err);
}

static int read_policies(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc, c = 0;

	if ((rc = query(s,
			"SELECT policy, cluster, transitions, avg_freq_khz, busy_s, overutilized_s"
			" FROM policy_stats WHERE run_id = ?1 ORDER BY cluster, policy",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_policy_result *pr;
		if (c >= r->nr_clusters)
			return bad_row(s, st, id, "more policy_stats rows than clusters", err);
		pr = &r->pol[c++];
		pr->policy = sqlite3_column_int(st, 0);
		pr->cluster = sqlite3_column_int(st, 1);
		pr->transitions = (u64)sqlite3_column_int64(st, 2);
		pr->avg_freq_khz = sqlite3_column_type(st, 3) == SQLITE_NULL
					   ? NAN
					   : sqlite3_column_double(st, 3);
		pr->busy_s = sqlite3_column_double(st, 4);
		pr->overutilized_s = sqlite3_column_double(st, 5);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;

	if ((rc = query(s,
			"SELECT policy, freq_khz, seconds FROM residency WHERE run_id = ?1"
			" ORDER BY policy, freq_khz",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int policy = sqlite3_column_int(st, 0);
		struct run_policy_result *pr = NULL;

		for (int i = 0; i < r->nr_clusters; i++)
			if (r->pol[i].policy == policy)
				pr = &r->pol[i];
		if (!pr || pr->nr_opps >= GS_MAX_OPPS)
			return bad_row(s, st, id, "residency row of no policy of the run", err);
		pr->freq_khz[pr->nr_opps] = (u32)sqlite3_column_int64(st, 1);
		pr->residency_s[pr->nr_opps] = sqlite3_column_double(st, 2);
		pr->nr_opps++;
	}
	return finish(s, st, rc, id, err);
}

static int read_tasks(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM task_stats WHERE run_id = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n > INT32_MAX)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": too many tasks", s->path,
				    id);
	if (n && !(r->tasks = calloc((size_t)n, sizeof(*r->tasks))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query(s,
			"SELECT pid, comm, runtime_s, delay_s, max_delay_s FROM task_stats"
			" WHERE run_id = ?1 ORDER BY seq",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nr_tasks < n) {
		struct run_task_result *t = &r->tasks[r->nr_tasks++];
		t->pid = (s32)sqlite3_column_int(st, 0);
		copy_text(t->comm, sizeof(t->comm), st, 1);
		t->runtime_s = sqlite3_column_double(st, 2);
		t->delay_s = sqlite3_column_double(st, 3);
		t->max_delay_s = sqlite3_column_double(st, 4);
	}
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE; /* more rows than counted cannot happen inside one read */
	return finish(s, st, rc, id, err);
}

static int read_uclamp(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s,
			"SELECT key_on_at_s, agg_ops, agg_skipped, clamped_up_s, clamped_down_s"
			" FROM uclamp_stats WHERE run_id = ?1",
			id, &st, err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->key_on = sqlite3_column_type(st, 0) != SQLITE_NULL;
		r->key_on_at_s = r->key_on ? sqlite3_column_double(st, 0) : 0;
		r->agg_ops = (u64)sqlite3_column_int64(st, 1);
		r->agg_skipped = (u64)sqlite3_column_int64(st, 2);
		r->clamped_up_s = sqlite3_column_double(st, 3);
		r->clamped_down_s = sqlite3_column_double(st, 4);
		rc = sqlite3_step(st);
	}
	return finish(s, st, rc, id, err);
}

static int read_timeline(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM timeline WHERE run_id = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n && !(r->timeline = calloc((size_t)n, sizeof(*r->timeline))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query(s,
			"SELECT time_s, policy, freq_khz, traced_khz, util, capacity FROM timeline"
			" WHERE run_id = ?1 ORDER BY seq",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && (s64)r->nr_timeline < n) {
		struct run_timeline_point *tp = &r->timeline[r->nr_timeline++];
		tp->time_s = sqlite3_column_double(st, 0);
		tp->policy = sqlite3_column_int(st, 1);
		tp->freq_khz = (u32)sqlite3_column_int64(st, 2);
		tp->traced_khz = (u32)sqlite3_column_int64(st, 3);
		tp->util = (u32)sqlite3_column_int64(st, 4);
		tp->capacity = (u32)sqlite3_column_int64(st, 5);
	}
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	return finish(s, st, rc, id, err);
}

static int read_work(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s, "SELECT cpu, work_in_s, work_out_s FROM work WHERE run_id = ?1", id,
			&st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int cpu = sqlite3_column_int(st, 0);
		if (cpu < 0 || cpu >= r->nr_cpus)
			return bad_row(s, st, id, "work row of no cpu of the run", err);
		r->work_in_s[cpu] = sqlite3_column_double(st, 1);
		r->work_out_s[cpu] = sqlite3_column_double(st, 2);
	}
	return finish(s, st, rc, id, err);
}

/* Spans (a run without its row: nothing moved, the replay's span is the trace's) and the
 * activity rows (work timing). */
static int read_spans(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	r->traced_span_s = r->span_s;
	r->stretch = 1;
	if ((rc = query(s, "SELECT traced_span_s, stretch FROM spans WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->traced_span_s = sqlite3_column_double(st, 0);
		r->stretch = sqlite3_column_double(st, 1);
		rc = sqlite3_step(st);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;
	if ((rc = query(s,
			"SELECT seq, activations, throughput, latency_mean_s, latency_p95_s,"
			" latency_max_s, response_mean_s, response_p95_s, response_max_s,"
			" lateness_mean_s, lateness_p95_s, lateness_max_s FROM activity"
			" WHERE run_id = ?1 ORDER BY seq",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		s64 seq = sqlite3_column_int64(st, 0);
		struct run_activity *a;
		if (seq == -1)
			a = &r->act_total;
		else if (seq >= 0 && seq < r->nr_tasks)
			a = &r->tasks[seq].act;
		else
			return bad_row(s, st, id, "activity row of no task of the run", err);
		a->activations = (u64)sqlite3_column_int64(st, 1);
		a->throughput = sqlite3_column_double(st, 2);
		a->latency.mean_s = sqlite3_column_double(st, 3);
		a->latency.p95_s = sqlite3_column_double(st, 4);
		a->latency.max_s = sqlite3_column_double(st, 5);
		a->response.mean_s = sqlite3_column_double(st, 6);
		a->response.p95_s = sqlite3_column_double(st, 7);
		a->response.max_s = sqlite3_column_double(st, 8);
		a->lateness.mean_s = sqlite3_column_double(st, 9);
		a->lateness.p95_s = sqlite3_column_double(st, 10);
		a->lateness.max_s = sqlite3_column_double(st, 11);
	}
	return finish(s, st, rc, id, err);
}

int store_read_run(struct store *s, s64 run_id, struct run_result *r, struct gs_error *err)
{
	int rc;

	run_result_init(r);
	/* One read transaction: a concurrent writer cannot show us half of anything. */
	if ((rc = exec(s, "BEGIN", "cannot read", err)))
		return rc;
	if (!(rc = read_runs_row(s, run_id, r, err)) && !(rc = read_energy(s, run_id, r, err)) &&
	    !(rc = read_policies(s, run_id, r, err)) && !(rc = read_tasks(s, run_id, r, err)) &&
	    !(rc = read_uclamp(s, run_id, r, err)) && !(rc = read_timeline(s, run_id, r, err)) &&
	    !(rc = read_work(s, run_id, r, err)))
		rc = read_spans(s, run_id, r, err);
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return rc;
}

/* --- listing ------------------------------------------------------------------------------ */

static const char *const selector_keys[] = {
	"label", "trace", "trace_sha256", "platform", "governor", "timing", "util_source",
	"power_model", "kernel", "governor_path", "governor_sha256",
};

int store_select_runs(struct store *s, const char *selector, s64 **ids, size_t *n,
		      struct gs_error *err)
{
	char sql[1024] = "SELECT run_id FROM runs WHERE 1";
	char *sel = NULL, *save = NULL;
	const char *values[32];
	int nr_values = 0, rc = 0;
	bool by_id = false;
	s64 want_id = 0, *out = NULL;
	size_t count = 0, cap = 0;
	sqlite3_stmt *st = NULL;

	*ids = NULL;
	*n = 0;
	if (selector && *selector) {
		char *end;
		want_id = strtoll(selector, &end, 10);
		by_id = *end == '\0';
	}
	if (by_id) {
		strcat(sql, " AND run_id = ?1");
	} else if (selector && *selector) {
		if (!(sel = strdup(selector)))
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		for (char *tok = strtok_r(sel, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			size_t k;
			if (!eq || eq == tok || nr_values >= (int)GS_ARRAY_SIZE(values)) {
				rc = gs_error_set(err, GS_EARG,
						  "'%s': a run selector is key=value[,key=value...]",
						  selector);
				goto out_free;
			}
			*eq = '\0';
			for (k = 0; k < GS_ARRAY_SIZE(selector_keys); k++)
				if (strcmp(tok, selector_keys[k]) == 0)
					break;
			if (k == GS_ARRAY_SIZE(selector_keys)) {
				rc = gs_error_set(err, GS_EARG, "'%s': unknown run selector key", tok);
				goto out_free;
			}
			/* Column names come from the fixed list above, values are bound. */
			snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " AND %s = ?%d",
				 selector_keys[k], nr_values + 1);
			values[nr_values++] = eq + 1;
		}
	}
	strcat(sql, " ORDER BY run_id");
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		rc = sql_error(s, err, "cannot list runs");
		goto out_free;
	}
	if (by_id)
		sqlite3_bind_int64(st, 1, want_id);
	for (int i = 0; i < nr_values; i++)
		sqlite3_bind_text(st, i + 1, values[i], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (count == cap) {
			s64 *nout = realloc(out, (cap = cap ? cap * 2 : 16) * sizeof(*out));
			if (!nout) {
				rc = gs_error_set(err, GS_ENOMEM, "out of memory");
				goto out_free;
			}
			out = nout;
		}
		out[count++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE) {
		rc = sql_error(s, err, "cannot list runs");
		goto out_free;
	}
	rc = 0;
	*ids = out;
	*n = count;
	out = NULL;
out_free:
	sqlite3_finalize(st);
	free(out);
	free(sel);
	return rc;
}

int store_list_runs(struct store *s, s64 **ids, size_t *n, struct gs_error *err)
{
	return store_select_runs(s, NULL, ids, n, err);
}

/* --- CSV ---------------------------------------------------------------------------------- */

struct csv_out {
	FILE *f;
	bool first; /* no separator before the first field of a line */
};

static void csv_sep(struct csv_out *o)
{
	if (!o->first)
		fputc(',', o->f);
	o->first = false;
}

static void csv_text(struct csv_out *o, const char *s)
{
	csv_sep(o);
	csv_fwrite(o->f, s, strlen(s));
}

static void csv_int(struct csv_out *o, s64 v)
{
	csv_sep(o);
	fprintf(o->f, "%" PRId64, v);
}

static void csv_uint(struct csv_out *o, u64 v)
{
	csv_sep(o);
	fprintf(o->f, "%" PRIu64, v);
}

static void csv_double(struct csv_out *o, double v)
{
	csv_sep(o);
	fprintf(o->f, "%.17g", v);
}

static void csv_null(struct csv_out *o)
{
	csv_sep(o);
}

static void csv_eol(struct csv_out *o)
{
	fputc('\n', o->f);
	o->first = true;
}

/* The header line: column names, comma separated (no quoting needed). */
static int csv_open(struct csv_out *o, const char *dir, const char *name, const char *header,
		    char *path, size_t size, struct gs_error *err)
{
	snprintf(path, size, "%s/%s", dir, name);
	o->f = fopen(path, "w");
	if (!o->f)
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", path, strerror(errno));
	fprintf(o->f, "%s\n", header);
	o->first = true;
	return 0;
}

static int csv_close(struct csv_out *o, const char *path, struct gs_error *err)
{
	bool bad = ferror(o->f);
	if (fclose(o->f) != 0 || bad)
		return gs_error_set(err, GS_EIO, "'%s': write error", path);
	return 0;
}

int store_write_csv(const struct run_result *r, s64 run_id, const char *dir, struct gs_error *err)
{
	struct csv_out o = {NULL, true};
	char path[4096];
	int rc;

	if (!result_in_limits(r))
		return gs_error_set(err, GS_EINTERNAL, "'%s': run result out of limits", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", dir, strerror(errno));

	if ((rc = csv_open(&o, dir, "runs.csv",
			   "run_id,label,trace,trace_sha256,platform,governor,timing,util_source,"
			   "power_model,power_unit,policy,params,kernel,start_s,span_s,events,"
			   "nr_cpus,nr_clusters,notes,govsim_version,governor_path,governor_sha256",
			   path, sizeof(path), err)))
		return rc;
	csv_int(&o, run_id);
	csv_text(&o, r->label);
	csv_text(&o, r->trace);
	csv_text(&o, r->trace_sha256);
	csv_text(&o, r->platform);
	csv_text(&o, r->governor);
	csv_text(&o, r->timing);
	csv_text(&o, r->util_source);
	csv_text(&o, r->power_model);
	csv_text(&o, r->power_unit);
	csv_text(&o, r->policy);
	csv_text(&o, r->params);
	csv_text(&o, r->kernel);
	csv_double(&o, r->start_s);
	csv_double(&o, r->span_s);
	csv_uint(&o, r->events);
	csv_int(&o, r->nr_cpus);
	csv_int(&o, r->nr_clusters);
	csv_text(&o, r->notes);
	csv_text(&o, r->govsim_version);
	csv_text(&o, r->governor_path);
	csv_text(&o, r->governor_sha256);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "energy.csv", "run_id,scope,name,joules", path, sizeof(path),
			   err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		char name[32];
		snprintf(name, sizeof(name), "cpu%d", cpu);
		csv_int(&o, run_id);
		csv_text(&o, "cpu");
		csv_text(&o, name);
		csv_double(&o, r->energy_cpu[cpu]);
		csv_eol(&o);
	}
	for (int c = 0; c < r->nr_clusters; c++) {
		char name[32];
		snprintf(name, sizeof(name), "cluster%d", c);
		csv_int(&o, run_id);
		csv_text(&o, "cluster");
		csv_text(&o, name);
		csv_double(&o, r->energy_cluster[c]);
		csv_eol(&o);
	}
	csv_int(&o, run_id);
	csv_text(&o, "total");
	csv_text(&o, "total");
	csv_double(&o, r->energy_total);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "residency.csv", "run_id,policy,freq_khz,seconds", path,
			   sizeof(path), err)))
		return rc;
	for (int c = 0; c < r->nr_clusters; c++)
		for (int k = 0; k < r->pol[c].nr_opps; k++) {
			csv_int(&o, run_id);
			csv_int(&o, r->pol[c].policy);
			csv_uint(&o, r->pol[c].freq_khz[k]);
			csv_double(&o, r->pol[c].residency_s[k]);
			csv_eol(&o);
		}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "policy_stats.csv",
			   "run_id,policy,cluster,transitions,avg_freq_khz,busy_s,overutilized_s",
			   path, sizeof(path), err)))
		return rc;
	for (int c = 0; c < r->nr_clusters; c++) {
		const struct run_policy_result *pr = &r->pol[c];
		csv_int(&o, run_id);
		csv_int(&o, pr->policy);
		csv_int(&o, pr->cluster);
		csv_uint(&o, pr->transitions);
		if (isnan(pr->avg_freq_khz))
			csv_null(&o); /* no activity: NULL, as in the database */
		else
			csv_double(&o, pr->avg_freq_khz);
		csv_double(&o, pr->busy_s);
		csv_double(&o, pr->overutilized_s);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "task_stats.csv",
			   "run_id,seq,pid,comm,runtime_s,delay_s,max_delay_s", path, sizeof(path),
			   err)))
		return rc;
	for (int i = 0; i < r->nr_tasks; i++) {
		const struct run_task_result *t = &r->tasks[i];
		char comm[TASK_COMM_LEN];
		snprintf(comm, sizeof(comm), "%s", t->comm);
		csv_int(&o, run_id);
		csv_int(&o, i);
		csv_int(&o, t->pid);
		csv_text(&o, comm);
		csv_double(&o, t->runtime_s);
		csv_double(&o, t->delay_s);
		csv_double(&o, t->max_delay_s);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "uclamp_stats.csv",
			   "run_id,key_on_at_s,agg_ops,agg_skipped,clamped_up_s,clamped_down_s",
			   path, sizeof(path), err)))
		return rc;
	csv_int(&o, run_id);
	if (r->key_on)
		csv_double(&o, r->key_on_at_s);
	else
		csv_null(&o);
	csv_uint(&o, r->agg_ops);
	csv_uint(&o, r->agg_skipped);
	csv_double(&o, r->clamped_up_s);
	csv_double(&o, r->clamped_down_s);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "timeline.csv",
			   "run_id,seq,time_s,policy,freq_khz,traced_khz,util,capacity", path,
			   sizeof(path), err)))
		return rc;
	for (size_t i = 0; i < r->nr_timeline; i++) {
		const struct run_timeline_point *tp = &r->timeline[i];
		csv_int(&o, run_id);
		csv_uint(&o, i);
		csv_double(&o, tp->time_s);
		csv_int(&o, tp->policy);
		csv_uint(&o, tp->freq_khz);
		csv_uint(&o, tp->traced_khz);
		csv_uint(&o, tp->util);
		csv_uint(&o, tp->capacity);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "work.csv", "run_id,cpu,work_in_s,work_out_s", path,
			   sizeof(path), err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		csv_int(&o, run_id);
		csv_int(&o, cpu);
		csv_double(&o, r->work_in_s[cpu]);
		csv_double(&o, r->work_out_s[cpu]);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "spans.csv", "run_id,traced_span_s,stretch", path,
			   sizeof(path), err)))
		return rc;
	csv_int(&o, run_id);
	csv_double(&o, r->traced_span_s);
	csv_double(&o, r->stretch);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)) || strcmp(r->timing, "work") != 0)
		return rc;

	if ((rc = csv_open(&o, dir, "activity.csv",
			   "run_id,seq,activations,throughput,latency_mean_s,latency_p95_s,"
			   "latency_max_s,response_mean_s,response_p95_s,response_max_s,"
			   "lateness_mean_s,lateness_p95_s,lateness_max_s",
			   path, sizeof(path), err)))
		return rc;
	for (int i = -1; i < r->nr_tasks; i++) {
		const struct run_activity *a = i < 0 ? &r->act_total : &r->tasks[i].act;
		if (i >= 0 && !a->activations)
			continue;
		csv_int(&o, run_id);
		csv_int(&o, i);
		csv_uint(&o, a->activations);
		csv_double(&o, a->throughput);
		csv_double(&o, a->latency.mean_s);
		csv_double(&o, a->latency.p95_s);
		csv_double(&o, a->latency.max_s);
		csv_double(&o, a->response.mean_s);
		csv_double(&o, a->response.p95_s);
		csv_double(&o, a->response.max_s);
		csv_double(&o, a->lateness.mean_s);
		csv_double(&o, a->lateness.p95_s);
		csv_double(&o, a->lateness.max_s);
		csv_eol(&o);
	}
	return csv_close(&o, path, err);
}
