/*
 * platform.c - load a platform model from SQL into SQLite, validate it, fill struct platform.
 * This file: built-in models, running the SQL, platform_load*(); platform_priv.h lists the
 * others (validation, Wattson curves, derived numbers).
 *
 * Follows Linux v5.9 where it derives numbers: the EM power of an OPP as drivers/opp/of.c
 * _get_power(), the EM cost as kernel/power/energy_model.c em_create_perf_table(), the capacity at
 * an OPP as drivers/base/arch_topology.c (cpu_scale * freq_scale >> 10), the cpuidle exit latency
 * as drivers/cpuidle/dt_idle_states.c init_state_node(). See models/schema.sql for the tables.
 *
 * Every rule failure names the table, the row (by its key columns, as written in the file) and
 * the rule; the caller's struct platform is only written once the whole model is valid.
 */
#include "power/platform_priv.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/embedded.h"

#define SCHEMA_FILE "schema.sql"

/*
 * Bounds on a model: a model is a few thousand rows of short text, so the file,
 * every string or blob, the database and the SQLite work it may take are capped well above that
 * and far below what would hang or exhaust the machine. SQLite's progress handler is called every
 * PLATFORM_SQL_STEP_CHECK virtual-machine steps and stops the load after PLATFORM_SQL_MAX_STEPS in
 * all (a recursive CTE that never ends, a 50-million-row insert).
 */
#define PLATFORM_FILE_MAX       (16u << 20) /* bytes of SQL text */
#define PLATFORM_SQL_LENGTH_MAX (64 << 10)  /* SQLITE_LIMIT_LENGTH: one string or blob */
#define PLATFORM_DB_MAX_PAGES   "16384"     /* x 4096-byte pages: 64 MiB per database */
#define PLATFORM_SQL_STEP_CHECK 10000
#define PLATFORM_SQL_MAX_STEPS  2000000ULL

/* --- built-in models ------------------------------------------------------------------------ */

static const char *builtin_names[16];
static char builtin_name_buf[16][64];
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void builtin_names_init(void)
{
	size_t n = 0;

	for (const struct embedded_file *f = govsim_embedded_files; f->name; f++) {
		size_t len = strlen(f->name);
		if (len < 5 || strcmp(f->name + len - 4, ".sql") != 0 ||
		    strcmp(f->name, SCHEMA_FILE) == 0)
			continue;
		if (n + 1 >= GS_ARRAY_SIZE(builtin_names) || len - 4 >= sizeof(builtin_name_buf[0]))
			continue;
		memcpy(builtin_name_buf[n], f->name, len - 4);
		builtin_name_buf[n][len - 4] = '\0';
		builtin_names[n] = builtin_name_buf[n];
		n++;
	}
	qsort(builtin_names, n, sizeof(builtin_names[0]), cmp_str);
	builtin_names[n] = NULL;
}

const char *const *platform_builtin_names(void)
{
	pthread_once(&builtin_once, builtin_names_init);
	return builtin_names;
}

static const struct embedded_file *embedded_find(const char *base)
{
	for (const struct embedded_file *f = govsim_embedded_files; f->name; f++)
		if (strcmp(f->name, base) == 0)
			return f;
	return NULL;
}

/* --- running SQL text ------------------------------------------------------------------------ */

/* Skips blanks and SQL comments; returns the first byte of the next token. */
static const char *skip_blank(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
			p++;
		if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

static int line_of(const char *text, const char *at)
{
	int line = 1;
	for (const char *p = text; p < at && *p; p++)
		if (*p == '\n')
			line++;
	return line;
}

/* The load's SQLite work so far, in progress-handler calls; see PLATFORM_SQL_MAX_STEPS. */
struct sql_budget {
	u64 calls;
	bool exhausted;
};

static int sql_budget_check(void *arg)
{
	struct sql_budget *b = arg;

	if (++b->calls * PLATFORM_SQL_STEP_CHECK <= PLATFORM_SQL_MAX_STEPS)
		return 0;
	b->exhausted = true;
	return 1; /* interrupts the statement */
}

/*
 * A model only creates and fills tables: no PRAGMA (which could lift the bounds), no ATTACH, and
 * none of the functions that make large values in one call, where the progress handler cannot
 * stop them (printf('%.900000000c') loops for seconds even under SQLITE_LIMIT_LENGTH).
 */
static int model_authorizer(void *arg, int action, const char *a, const char *b, const char *c,
			    const char *d)
{
	static const char *const denied[] = {"printf", "format", "zeroblob", "randomblob",
					     "load_extension"};
	(void)arg;
	(void)a;
	(void)c;
	(void)d;
	if (action == SQLITE_PRAGMA || action == SQLITE_ATTACH || action == SQLITE_DETACH)
		return SQLITE_DENY;
	if (action == SQLITE_FUNCTION && b)
		for (size_t i = 0; i < GS_ARRAY_SIZE(denied); i++)
			if (strcasecmp(b, denied[i]) == 0)
				return SQLITE_DENY;
	return SQLITE_OK;
}

/* The message of a failed statement: SQLite's, or the budget's when it stopped the statement. */
static const char *sql_errmsg(sqlite3 *db, const struct sql_budget *budget, char *buf,
			      size_t size)
{
	if (!budget || !budget->exhausted)
		return sqlite3_errmsg(db);
	snprintf(buf, size,
		 "the model's SQL runs too long (stopped after %llu SQLite steps; a model is a "
		 "few thousand rows)",
		 (unsigned long long)PLATFORM_SQL_MAX_STEPS);
	return buf;
}

/*
 * Runs every statement of `sql`, one at a time so that a failure can name its line. An error is
 * GS_EMODEL with SQLite's own message: "'copy.sql':12: near \"INSERTT\": syntax error".
 */
static int exec_sql(sqlite3 *db, const char *label, const char *sql, struct gs_error *err,
		    const struct sql_budget *budget)
{
	const char *p = sql;
	char msg[160];

	while (*(p = skip_blank(p))) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc = sqlite3_prepare_v2(db, p, -1, &st, &tail);

		if (rc != SQLITE_OK) {
			int off = sqlite3_error_offset(db);
			const char *at = off >= 0 ? p + off : p;
			return gs_error_set(err, GS_EMODEL, "'%s':%d: %s", label, line_of(sql, at),
					    sql_errmsg(db, budget, msg, sizeof(msg)));
		}
		if (!st) /* only a comment or a lone ';' */
			break;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		if (rc != SQLITE_DONE) {
			gs_error_set(err, GS_EMODEL, "'%s':%d: %s", label, line_of(sql, p),
				     sql_errmsg(db, budget, msg, sizeof(msg)));
			sqlite3_finalize(st);
			return GS_EMODEL;
		}
		sqlite3_finalize(st);
		p = tail;
	}
	return 0;
}

/* --- loading ---------------------------------------------------------------------------------- */

int platform_load_sql(const char *label, const char *sql, struct platform *out,
		      struct gs_error *err)
{
	const struct embedded_file *schema = embedded_find(SCHEMA_FILE);
	struct sql_budget budget = {0, false};
	struct platform *tmp;
	sqlite3 *db = NULL;
	int rc;

	if (!schema)
		return gs_error_set(err, GS_EINTERNAL, "'%s' is not built in", SCHEMA_FILE);
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = gs_error_set(err, GS_ESQL, "cannot open an in-memory database: %s",
				  db ? sqlite3_errmsg(db) : "out of memory");
		goto out_close_db;
	}
	/* A model file only fills tables: it has no business attaching other databases. */
	sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_limit(db, SQLITE_LIMIT_LENGTH, PLATFORM_SQL_LENGTH_MAX);
	sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 10);
	if ((rc = exec_sql(db, "bounds", "PRAGMA main.max_page_count = " PLATFORM_DB_MAX_PAGES ";"
					 "PRAGMA temp.max_page_count = " PLATFORM_DB_MAX_PAGES ";",
			   err, NULL)))
		goto out_close_db;
	sqlite3_progress_handler(db, PLATFORM_SQL_STEP_CHECK, sql_budget_check, &budget);
	sqlite3_set_authorizer(db, model_authorizer, NULL);

	if ((rc = exec_sql(db, SCHEMA_FILE, schema->text, err, &budget)))
		goto out_close_db;
	if ((rc = exec_sql(db, label, sql, err, &budget)))
		goto out_close_db;

	tmp = malloc(sizeof(*tmp));
	if (!tmp) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory loading '%s'", label);
		goto out_close_db;
	}
	rc = platform_validate_db(db, label, tmp, err);
	if (!rc)
		*out = *tmp;
	free(tmp);
out_close_db:
	sqlite3_close(db);
	return rc;
}

/* Other names of built-in platforms: the phones a SoC is known by. */
static const struct {
	const char *alias, *name;
} platform_aliases[] = {
	{"pixel6", "tensor"},
};

static bool is_path(const char *s)
{
	size_t len = strlen(s);
	return strchr(s, '/') || (len >= 4 && strcmp(s + len - 4, ".sql") == 0);
}

static int read_file(const char *path, char **text, struct gs_error *err)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return gs_error_set(err, GS_EMODEL, "'%s': cannot open: %s", path, strerror(errno));
	/* a file or a pipe (<(...)), read up to the cap; not a device such as /dev/zero */
	if (fstat(fileno(f), &sb) != 0 || !(S_ISREG(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		fclose(f);
		return gs_error_set(err, GS_EMODEL, "'%s': not a regular file or a pipe", path);
	}
	if (S_ISREG(sb.st_mode) && sb.st_size > (off_t)PLATFORM_FILE_MAX) {
		fclose(f);
		return gs_error_set(err, GS_EMODEL, "'%s': larger than %u MiB (a model is a few "
						    "hundred KiB of SQL)",
				    path, PLATFORM_FILE_MAX >> 20);
	}
	do {
		if (len > PLATFORM_FILE_MAX) {
			free(buf);
			fclose(f);
			return gs_error_set(err, GS_EMODEL, "'%s': larger than %u MiB (a model is a "
							    "few hundred KiB of SQL)",
					    path, PLATFORM_FILE_MAX >> 20);
		}
		if (cap - len < 4096) {
			char *nbuf = realloc(buf, cap = cap ? cap * 2 : 16384);
			if (!nbuf) {
				free(buf);
				fclose(f);
				return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", path);
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return gs_error_set(err, GS_EIO, "'%s': read error", path);
	}
	fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return gs_error_set(err, GS_EMODEL, "'%s': not a text file (NUL byte)", path);
	}
	*text = buf;
	return 0;
}

int platform_load(const char *name_or_path, struct platform *out, struct gs_error *err)
{
	const struct embedded_file *f;
	char base[96];
	char *text = NULL;
	int rc;

	if (is_path(name_or_path)) {
		if ((rc = read_file(name_or_path, &text, err)))
			return rc;
		rc = platform_load_sql(name_or_path, text, out, err);
		free(text);
		return rc;
	}
	f = NULL;
	for (size_t i = 0; i < GS_ARRAY_SIZE(platform_aliases); i++)
		if (strcmp(name_or_path, platform_aliases[i].alias) == 0)
			name_or_path = platform_aliases[i].name;
	if (strlen(name_or_path) + 5 <= sizeof(base) && strcmp(name_or_path, "schema") != 0) {
		snprintf(base, sizeof(base), "%s.sql", name_or_path);
		f = embedded_find(base);
	}
	if (!f) {
		char names[256] = "";
		for (const char *const *n = platform_builtin_names(); *n; n++) {
			if (names[0])
				strncat(names, ", ", sizeof(names) - strlen(names) - 1);
			strncat(names, *n, sizeof(names) - strlen(names) - 1);
		}
		return gs_error_set(err, GS_EMODEL,
				    "'%s': no such built-in platform (built-in: %s; a model file "
				    "is named by a path ending in .sql)",
				    name_or_path, names);
	}
	return platform_load_sql(base, f->text, out, err);
}
