/*
 * store_priv.h - what the results store's files share: the handle and its SQL error helpers.
 * Only src/store/store*.c include it.
 *
 *   tables.c       every table's columns (tables.h), from which the others make their SQL;
 *   store.c        the schema, opening and checking a database;
 *   store_write.c  a run's rows into the database;
 *   store_read.c   a run's rows back into a run_result, and the run selectors;
 *   store_csv.c    a run's tables as CSV files.
 */
#ifndef GOVSIM_STORE_STORE_PRIV_H
#define GOVSIM_STORE_STORE_PRIV_H

#include "store/store.h"

#include <sqlite3.h>

struct store {
	sqlite3 *db;
	char *path;
	bool plugin_cols; /* runs.governor_path/governor_sha256 exist (added after schema v1) */
};

/*
 * Open the SQLite file at `path` into *db (sqlite3_open_v2's return; *db to sqlite3_close()
 * even on failure) with the busy timeout every connection of the store uses. Without
 * SQLITE_OPEN_CREATE in `flags` the file must exist; SQLITE_OPEN_READWRITE is what a reader
 * wants too: a hot journal left by a writer killed before its COMMIT is rolled back by the first
 * read of a connection that may write, while a read-only one fails ("attempt to write a readonly
 * database"). SQLite opens a write-protected file read-only.
 */
int store_db_open(const char *path, int flags, sqlite3 **db);

/* Before SQLite opens `path`: 0 when it does not exist or is a regular file (symlinks
 * followed); GS_EINPUT naming what it is otherwise (a FIFO blocks an open, a device gets a
 * journal written next to it: /dev/null-journal). */
int store_file_check(const char *path, struct gs_error *err);

/* How long a connection waits for another process's lock before SQLITE_BUSY: the environment's
 * GOVSIM_DB_BUSY_TIMEOUT_MS (decimal milliseconds, at most a day; tests shorten it), else 30 s. */
int store_busy_timeout_ms(void);

/* GS_ESQL "'path': what: SQLite's message" for the last failure on db; a busy or locked file
 * (another process held its lock longer than the busy timeout) says so. */
int store_db_error(sqlite3 *db, const char *path, const char *what, struct gs_error *err);

/* store_db_error() on the store's connection. */
int store_sql_error(struct store *s, struct gs_error *err, const char *what);
/* Runs a statement without results; GS_ESQL naming `what` on failure. */
int store_exec(struct store *s, const char *sql, const char *what, struct gs_error *err);

/* store_write.c: the counts and pointers of a run_result are within the tables' limits. */
bool result_in_limits(const struct run_result *r);

#endif
