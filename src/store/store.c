/*
 * store.c - the results database (SQLite): its schema, opening and checking a file; see store.h.
 * Writing a run is in store_write.c, reading it back in store_read.c, the CSV twin in
 * store_csv.c (store_priv.h lists what they share).
 */
#include "store/store_priv.h"
#include "store/tables.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE_BUSY_TIMEOUT_MS     30000
#define STORE_BUSY_TIMEOUT_MAX_MS 86400000 /* a day */

int store_busy_timeout_ms(void)
{
	const char *v = getenv("GOVSIM_DB_BUSY_TIMEOUT_MS");
	long ms = 0;

	if (!v || !*v)
		return STORE_BUSY_TIMEOUT_MS;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9' || ms > STORE_BUSY_TIMEOUT_MAX_MS)
			return STORE_BUSY_TIMEOUT_MS;
		ms = ms * 10 + (*p - '0');
	}
	return ms > STORE_BUSY_TIMEOUT_MAX_MS ? STORE_BUSY_TIMEOUT_MS : (int)ms;
}

int store_db_open(const char *path, int flags, sqlite3 **db)
{
	int rc = sqlite3_open_v2(path, db, flags, NULL);

	/* Parallel jobs of a sweep may share one file: wait for each other's transactions. */
	if (*db)
		sqlite3_busy_timeout(*db, store_busy_timeout_ms());
	return rc;
}

int store_db_error(sqlite3 *db, const char *path, const char *what, struct gs_error *err)
{
	int code = sqlite3_errcode(db);

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return gs_error_set(err, GS_ESQL,
				    "'%s': %s: database is locked by another process "
				    "(waited %d ms)",
				    path, what, store_busy_timeout_ms());
	return gs_error_set(err, GS_ESQL, "'%s': %s: %s", path, what, sqlite3_errmsg(db));
}

int store_file_check(const char *path, struct gs_error *err)
{
	struct stat st, lst;
	char real[PATH_MAX];
	const char *kind;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
		return 0; /* missing: created when a run is stored (or SQLite says why not) */
	kind = S_ISDIR(st.st_mode)    ? "a directory"
	       : S_ISFIFO(st.st_mode) ? "a FIFO"
	       : S_ISCHR(st.st_mode)  ? "a character device"
	       : S_ISBLK(st.st_mode)  ? "a block device"
	       : S_ISSOCK(st.st_mode) ? "a socket"
				      : "something else";
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && realpath(path, real))
		return gs_error_set(err, GS_EINPUT, "'%s': is %s ('%s'), not a regular file", path,
				    kind, real);
	return gs_error_set(err, GS_EINPUT, "'%s': is %s, not a regular file", path, kind);
}

/* GS_ESQL with the path, `what` and SQLite's message. */
int store_sql_error(struct store *s, struct gs_error *err, const char *what)
{
	return store_db_error(s->db, s->path, what, err);
}

/* Runs a statement without results; GS_ESQL naming `what` on failure. */
int store_exec(struct store *s, const char *sql, const char *what, struct gs_error *err)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_sql_error(s, err, what);
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
 * A query of check_schema() failed: the file's content is bad input (not a database, or a
 * damaged one); anything else (locked by another process, I/O, memory) a runtime failure.
 */
static int schema_read_error(struct store *s, struct gs_error *err)
{
	int code = sqlite3_errcode(s->db);

	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return gs_error_set(err, GS_EINPUT, "'%s': not a results database: %s", s->path,
				    sqlite3_errmsg(s->db));
	return store_sql_error(s, err, "cannot read");
}

/*
 * Whether the open database is govsim's, or empty, before anything is created in it (a foreign
 * SQLite file must not get govsim's tables added to it). Version 0
 * must hold no table at all; a versioned file must have govsim's runs table. GS_EINPUT for a
 * foreign file or not a database at all, GS_ESCHEMA for a newer govsim's, GS_ESQL when it
 * cannot be read (locked by another process for longer than the busy timeout).
 */
static int check_schema(struct store *s, int *version_out, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int version, tables;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return schema_read_error(s, err);
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
		return schema_read_error(s, err);
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
		int code = sqlite3_errcode(s->db);
		sqlite3_finalize(st);
		if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
			return store_sql_error(s, err, "cannot read");
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

	if ((rc = store_file_check(path, err)))
		return rc;
	if (access(path, F_OK) != 0)
		return 0; /* created when the run is stored */
	/* read-write: a hot journal is rolled back before the file is judged */
	if (store_db_open(path, SQLITE_OPEN_READWRITE, &s.db) != SQLITE_OK) {
		rc = s.db ? gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", path,
					 sqlite3_errmsg(s.db))
			  : gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
		sqlite3_close(s.db);
		return rc;
	}
	rc = check_schema(&s, &version, err);
	sqlite3_close(s.db);
	return rc;
}

/* A new file (version 0) or an older one: the tables it lacks and the version, all or
 * nothing. */
static int create_schema(struct store *s, struct gs_error *err)
{
	char *schema = store_schema_sql();
	char sql[64];
	int rc;

	if (!schema)
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
	if ((rc = store_exec(s, "BEGIN IMMEDIATE", "cannot create the schema", err)) == 0 &&
	    ((rc = store_exec(s, schema, "cannot create the schema", err)) ||
	     (rc = store_exec(s, sql, "cannot create the schema", err)) ||
	     (rc = store_exec(s, "COMMIT", "cannot create the schema", err))))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_free(schema);
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
	if ((rc = store_file_check(path, err)))
		goto out_close;
	if (store_db_open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &s->db) != SQLITE_OK) {
		rc = s->db ? store_sql_error(s, err, "cannot open")
			   : gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
		goto out_close;
	}
	if ((rc = store_exec(s, "PRAGMA foreign_keys = ON", "cannot open", err)))
		goto out_close;

	if ((rc = check_schema(s, &version, err)))
		goto out_close;
	if (version < STORE_SCHEMA_VERSION && (rc = create_schema(s, err)))
		goto out_close;
	plugin_columns(s);
	*out = s;
	return 0;

out_close:
	store_close(s);
	return rc;
}
