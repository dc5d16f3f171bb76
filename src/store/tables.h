/*
 * tables.h - every results table's columns, defined once. Only src/store/ includes it.
 *
 * A table is a list of columns (name, SQL declaration, C type, and where the value lives in the
 * run_result) plus two small functions that walk its rows: one says which record a row to write
 * comes from (and fills the key columns no field holds, such as energy's scope and name), the
 * other where a row read back goes. From that one list store.c makes the CREATE TABLE text,
 * store_write.c the INSERT and its typed binds, store_read.c the SELECT and the reads, and
 * store_csv.c the CSV header and rows, so a column is added in one place.
 */
#ifndef GOVSIM_STORE_TABLES_H
#define GOVSIM_STORE_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/types.h"

/* The C type of a column's value; integers are bound and read as SQLite's 64-bit integers. */
enum store_type {
	STORE_TEXT,   /* char[size]: bound up to its first NUL; read back cut to size - 1 */
	STORE_DOUBLE, /* double */
	STORE_INT,    /* int (s32); the CSV prints it signed */
	STORE_U32,    /* u32; the CSV prints it unsigned */
	STORE_U64,    /* u64, bound as its int64 bit pattern; the CSV prints it unsigned */
	STORE_BOOL,   /* bool, 0 or 1 */
};

/* The C type of a struct field, checked by the compiler: a field of any other type does not
 * compile. */
#define STORE_TYPE_OF(x)                                                                       \
	_Generic((x), char *: STORE_TEXT, double: STORE_DOUBLE, int: STORE_INT,                \
		 unsigned int: STORE_U32, unsigned long: STORE_U64, bool: STORE_BOOL)

enum store_col_flags {
	STORE_COL_RUN_ID = 1,     /* the run's id (the runs table's own: assigned by SQLite) */
	STORE_COL_CREATED_AT = 2, /* when the run was written; not read back, not in the CSV */
	STORE_COL_ADDED = 4,      /* runs' plugin columns: a read-only older file may lack them */
	STORE_COL_NAN_NULL = 8,   /* a double whose NAN is stored as NULL and read back as NAN */
	STORE_COL_ROWID = 16,     /* runs.run_id: assigned by SQLite when the row is inserted */
};

#define STORE_NO_FIELD ((size_t)-1)

struct store_column {
	const char *name;
	const char *decl; /* SQL type and column constraints, as in CREATE TABLE */
	enum store_type type;
	size_t off, size; /* the field in the table's record; STORE_NO_FIELD: a key column */
	unsigned flags;
};

/* A column held by field `field` of struct `rec`. */
#define STORE_FIELD(name, decl, rec, field, flags)                                             \
	{(name), (decl), STORE_TYPE_OF(((rec *)0)->field), offsetof(rec, field),               \
	 sizeof(((rec *)0)->field), (flags)}
/* A column no field holds: the run id, a row number, a name made from an index. */
#define STORE_KEY(name, decl, type, flags) {(name), (decl), (type), STORE_NO_FIELD, 0, (flags)}

/* One value of a row; the integers of every integer type in i. */
struct store_value {
	bool null;
	s64 i;
	double d;
	const char *t;
};

#define STORE_MAX_COLUMNS 24

/* A row on its way in or out: its values, in the table's column order, and room for text a
 * key column makes ("cpu3"). */
struct store_row {
	struct store_value v[STORE_MAX_COLUMNS];
	char text[32];
};

/* While a run is read back: what the row functions keep between rows. */
struct store_read_state {
	int nr_policies; /* policy_stats rows read */
};

struct store_table {
	const char *name;
	const struct store_column *cols;
	int nr_cols;
	const char *constraints; /* table constraint after the columns ("PRIMARY KEY (...)"), or
				  * NULL */
	const char *read_order;  /* the ORDER BY of a read back, or NULL (rowid order) */
	bool csv;                /* store_write_csv() writes it as <name>.csv */
	bool optional;           /* a file made before it existed lacks it: created before a run
				  * is written into it, read as no rows */
	/* Whether run r has rows in it at all (NULL: always). */
	bool (*present)(const struct run_result *r);
	/*
	 * The row to write at or after *pos (0 for the first): fills row's key columns, advances
	 * *pos past it and returns the record its field columns are read from (r itself for a
	 * table of one row per run); NULL when there are no more rows.
	 */
	const void *(*row_out)(const struct run_result *r, size_t *pos, struct store_row *row);
	/*
	 * A row read back, its key columns in row: returns the record its field columns go into,
	 * or NULL to skip the row (*bad NULL) or refuse it (*bad says why). NULL: not read back.
	 */
	void *(*row_in)(struct run_result *r, struct store_read_state *rs,
			const struct store_row *row, const char **bad);
	/* After every row was read (NULL: nothing to do); *bad as row_in. */
	void (*read_done)(struct run_result *r, const char **bad);
};

/* Every results table, in the order of the schema (the order they are created in); runs
 * first. */
extern const struct store_table *const store_tables[];
extern const int store_nr_tables;

/* The tables read back into a run_result, in the order they are read: runs first, a table
 * whose rows name rows of another after it. */
extern const struct store_table *const store_read_tables[];
extern const int store_nr_read_tables;

/* The CREATE TABLE IF NOT EXISTS statement of t, as sqlite3_malloc'd text (NULL: out of
 * memory); the caller sqlite3_free()s it. */
char *store_table_create_sql(const struct store_table *t);

/* Every table's CREATE TABLE statement, concatenated in store_tables order; sqlite3_free(). */
char *store_schema_sql(void);

/*
 * The next row of t to write for run r at or after *pos (0 for the first), every column's
 * value into row (run_id and created_at from the arguments); advances *pos. false when there
 * are no more rows.
 */
bool store_row_next(const struct store_table *t, const struct run_result *r, s64 run_id,
		    const char *created_at, size_t *pos, struct store_row *row);

/*
 * A row read back (the values of the columns read; the others NULL) into r: 1 when it went in,
 * 0 when it was skipped, -1 when it was refused (*bad says why). Text values are copied.
 */
int store_row_take(const struct store_table *t, struct run_result *r, struct store_read_state *rs,
		   const struct store_row *row, const char **bad);

/* Whether column c of t is read back (not the run id or created_at, not an absent one). */
bool store_col_read(const struct store_table *t, int c, bool plugin_cols);

#endif
