/*
 * kill_after_rows.c - a test seam for tests/golden/store_kill.sh, loaded with LD_PRELOAD into an
 * unchanged govsim: it interposes sqlite3_step() and, with GOVSIM_FAULT_KILL_AFTER_ROWS=N, kills
 * the process with SIGKILL right after the Nth successful INSERT step made inside a transaction
 * (a row of a run being written; schema set-up outside one is not counted). Nothing of this is in the library or the program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <strings.h>

#include <sqlite3.h>

int sqlite3_step(sqlite3_stmt *st)
{
	static int (*real_step)(sqlite3_stmt *);
	static long rows, kill_after = -1;
	const char *sql;
	int rc;

	if (!real_step)
		*(void **)&real_step = dlsym(RTLD_NEXT, "sqlite3_step");
	if (kill_after < 0) {
		const char *v = getenv("GOVSIM_FAULT_KILL_AFTER_ROWS");
		kill_after = v && *v ? strtol(v, NULL, 10) : 0;
	}
	rc = real_step(st);
	sql = sqlite3_sql(st);
	if (kill_after > 0 && rc == SQLITE_DONE && sql && strncasecmp(sql, "INSERT", 6) == 0 &&
	    !sqlite3_get_autocommit(sqlite3_db_handle(st)) && ++rows == kill_after)
		raise(SIGKILL);
	return rc;
}
