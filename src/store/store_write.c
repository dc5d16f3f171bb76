/*
 * store_write.c - a run into the results database (store.c opens it); see store.h.
 *
 * Every table of tables.h in schema order, each through one prepared INSERT naming its columns,
 * every value bound by its column's type; rows go in a fixed order (tables.c: energy
 * cpu..cluster..total, residency per policy and OPP, tasks in the result's order, ...), so the
 * same run_result always writes the same rows.
 */
#include "store/store_priv.h"
#include "store/tables.h"

#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Now, or $SOURCE_DATE_EPOCH (the command line refused a bad one before anything ran). */
static void created_at(char *buf, size_t size)
{
	s64 sde = 0;
	time_t t = gs_source_date_epoch(&sde) == 1 ? (time_t)sde : time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Whether column c of t is in the INSERT: not the id SQLite assigns, not a column the file
 * lacks. */
static bool col_written(const struct store *s, const struct store_table *t, int c)
{
	unsigned flags = t->cols[c].flags;

	return !(flags & STORE_COL_ROWID) && (s->plugin_cols || !(flags & STORE_COL_ADDED));
}

/* "INSERT INTO t (cols) VALUES (?, ...)" prepared into *st. */
static int prepare_insert(struct store *s, const struct store_table *t, sqlite3_stmt **st,
			  struct gs_error *err)
{
	sqlite3_str *sql = sqlite3_str_new(s->db);
	int n = 0, rc;
	char *text;

	sqlite3_str_appendf(sql, "INSERT INTO %s (", t->name);
	for (int c = 0; c < t->nr_cols; c++)
		if (col_written(s, t, c))
			sqlite3_str_appendf(sql, "%s%s", n++ ? ", " : "", t->cols[c].name);
	sqlite3_str_appendall(sql, ") VALUES (");
	for (int i = 0; i < n; i++)
		sqlite3_str_appendall(sql, i ? ", ?" : "?");
	sqlite3_str_appendall(sql, ")");
	if (!(text = sqlite3_str_finish(sql)))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	rc = sqlite3_prepare_v2(s->db, text, -1, st, NULL);
	sqlite3_free(text);
	if (rc != SQLITE_OK)
		return store_sql_error(s, err, "cannot write the run");
	return 0;
}

/* The values of one row bound by their columns' types, the row inserted, the statement reset. */
static int insert_row(struct store *s, const struct store_table *t, sqlite3_stmt *st,
		      const struct store_row *row, struct gs_error *err)
{
	int rc = SQLITE_OK, i = 0;

	for (int c = 0; c < t->nr_cols && rc == SQLITE_OK; c++) {
		const struct store_column *col = &t->cols[c];
		const struct store_value *v = &row->v[c];
		if (!col_written(s, t, c))
			continue;
		i++;
		if (v->null)
			rc = sqlite3_bind_null(st, i);
		else if (col->type == STORE_TEXT)
			rc = sqlite3_bind_text(st, i, v->t,
					       col->size ? (int)strnlen(v->t, col->size) : -1,
					       SQLITE_STATIC);
		else if (col->type == STORE_DOUBLE)
			rc = sqlite3_bind_double(st, i, v->d);
		else
			rc = sqlite3_bind_int64(st, i, v->i);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_OK)
		return store_sql_error(s, err, "cannot write the run");
	return 0;
}

/* Every row of run r in table t (run id `id`; a table an older file lacks is created first). */
static int write_table(struct store *s, const struct store_table *t, const struct run_result *r,
		       s64 id, const char *when, struct gs_error *err)
{
	struct store_row row;
	sqlite3_stmt *st = NULL;
	size_t pos = 0;
	int rc = 0;

	if (t->present && !t->present(r))
		return 0;
	if (t->optional) {
		char *create = store_table_create_sql(t);
		if (!create)
			return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
		rc = store_exec(s, create, "cannot write", err);
		sqlite3_free(create);
		if (rc)
			return rc;
	}
	if ((rc = prepare_insert(s, t, &st, err)))
		return rc;
	while (!rc && store_row_next(t, r, id, when, &pos, &row))
		rc = insert_row(s, t, st, &row, err);
	sqlite3_finalize(st);
	return rc;
}

bool result_in_limits(const struct run_result *r)
{
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS || r->nr_tasks < 0 || (r->nr_tasks && !r->tasks) ||
	    (r->nr_timeline && !r->timeline) || (r->nr_slices && !r->slices))
		return false;
	for (int c = 0; c < r->nr_clusters; c++)
		if (r->pol[c].nr_opps < 0 || r->pol[c].nr_opps > GS_MAX_OPPS)
			return false;
	return true;
}

int store_write_run(struct store *s, const struct run_result *r, s64 *run_id, struct gs_error *err)
{
	char when[32];
	s64 id;
	int rc;

	if (!result_in_limits(r))
		return gs_error_set(err, GS_EINTERNAL, "'%s': run result out of limits", s->path);
	if ((rc = store_exec(s, "BEGIN IMMEDIATE", "cannot write the run", err)))
		return rc;
	created_at(when, sizeof(when));
	if (!s->plugin_cols && r->governor_path[0]) {
		rc = gs_error_set(err, GS_ESQL,
				  "'%s': cannot add the governor_path column to an older results "
				  "database (read-only?)",
				  s->path);
		goto out_rollback;
	}
	/* the runs row first: its id is every other row's run_id */
	if ((rc = write_table(s, store_tables[0], r, 0, when, err)))
		goto out_rollback;
	id = sqlite3_last_insert_rowid(s->db);
	for (int i = 1; i < store_nr_tables && !rc; i++)
		rc = write_table(s, store_tables[i], r, id, when, err);
	if (rc)
		goto out_rollback;
	if ((rc = store_exec(s, "COMMIT", "cannot write the run", err)))
		goto out_rollback;
	*run_id = id;
	return 0;

out_rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
