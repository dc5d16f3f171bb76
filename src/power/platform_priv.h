/*
 * platform_priv.h - what the platform model's files share: the loader that validates a model's
 * database into a struct platform, and its column helpers. Only src/power/platform*.c include it.
 *
 *   platform.c           built-in models, running a model's SQL, platform_load*();
 *   platform_validate.c  the rules of each core table (platform, clusters, cpus, opps, idle
 *                        states, costs), row by row;
 *   platform_wattson.c   the optional Wattson curve tables;
 *   platform_query.c     the numbers derived from a model (EM power and cost, capacity at an
 *                        OPP) and the device-name lookup.
 */
#ifndef GOVSIM_POWER_PLATFORM_PRIV_H
#define GOVSIM_POWER_PLATFORM_PRIV_H

#include "power/platform.h"

#include <sqlite3.h>
#include <string.h>

struct loader {
	sqlite3 *db;
	const char *label;
	struct gs_error *err;
	struct platform *p;
	int cpu_cluster[GS_MAX_CPUS]; /* -1 until cluster_cpus places the CPU */
	u32 cpu_capacity[GS_MAX_CPUS];
	bool cpu_seen[GS_MAX_CPUS];
	bool cpu_assumed[GS_MAX_CPUS]; /* the capacity row's source starts "assumed" */
	bool idle_cost_seen[GS_MAX_CLUSTERS][2][GS_MAX_IDLE_STATES];
};

/* "'label': <message>", GS_EMODEL. */
int model_error(struct loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepares sql; a model error naming SQLite's reason when it cannot. */
int loader_prepare(struct loader *l, const char *sql, sqlite3_stmt **st);
/* The end of a query: SQLITE_DONE is fine, anything else is an error naming SQLite's reason. */
int loader_step_done(struct loader *l, sqlite3_stmt *st, int rc);
/* "<row>: <col> must be an integer in lo..hi". */
int bad_int(struct loader *l, const char *row, const char *col, s64 lo, s64 hi);

/* The column as the file wrote it, for naming a row. */
static inline const char *coltxt(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "NULL";
}

static inline bool col_is_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

/* An integer column within [lo, hi]; false when it is NULL, not an integer or out of range. */
static inline bool col_int(sqlite3_stmt *st, int i, s64 lo, s64 hi, s64 *v)
{
	if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
		return false;
	*v = sqlite3_column_int64(st, i);
	return *v >= lo && *v <= hi;
}

/* Copies a text column into buf; false when NULL or too long. */
static inline bool col_str(sqlite3_stmt *st, int i, char *buf, size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	if (!t || strlen((const char *)t) >= size)
		return false;
	strcpy(buf, (const char *)t);
	return true;
}

/*
 * A model table, read by one generic loader: load_rows() selects `cols` in file
 * order ("SELECT <cols> FROM <table> ORDER BY rowid"), names each row by its key columns as
 * the file wrote them ("<table> row <key>=<value> ...", quoted as '<value>' when quote_keys),
 * and hands the row to row(), which reads column i of cols at index i, checks its table's
 * rules and stores it. The first nonzero return of row() stops the load and is returned; an
 * SQLite failure is a model error naming SQLite's reason.
 */
struct model_col {
	const char *name;
	bool key; /* names the row in messages */
};

struct model_table {
	const char *table;
	const struct model_col *cols;
	int nr_cols;
	bool quote_keys;
	int (*row)(struct loader *l, sqlite3_stmt *st, const char *row, void *arg);
};

#define MODEL_TABLE(table, cols, quote_keys, row) \
	{(table), (cols), (int)GS_ARRAY_SIZE(cols), (quote_keys), (row)}
#define MODEL_ROW_NAME_MAX 192

int load_rows(struct loader *l, const struct model_table *t, void *arg);

/* platform_validate.c: the whole model in db into p (zeroed first), or an error naming the
 * first rule broken. */
int platform_validate_db(sqlite3 *db, const char *label, struct platform *p,
			 struct gs_error *err);

/* platform_wattson.c: the Wattson curve tables, when the model has them. */
int load_wattson(struct loader *l);

/* platform_kernel_cost.c: the kernel cost table (kernel_costs), when the model has one. */
int load_kernel_costs(struct loader *l);

#endif
