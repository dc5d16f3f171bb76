/*
 * merge.c - store_merge(): append the runs of several results databases to one; see store.h.
 *
 * What a sweep's workers and a cluster's job array produce is one database per job; this is the
 * step that makes them one file. It copies rows generically, in SQL: the tables and their
 * columns are read from the output's own schema (runs first, then the others in creation
 * order), each input is checked to have exactly the same, then attached to the output's
 * connection and copied with INSERT ... SELECT, so a column added to the schema later needs no
 * change here. Only run_id is rewritten: runs get new ids after the output's, the other
 * tables' run_id columns follow them.
 *
 * The parts of a job array say which job of how many they are (table sweep_part, written by
 * `sweep --job K`); before anything is written, every input's marks are read, so a merge of
 * parts refuses (or, asked to, reports) missing jobs and puts the parts in job order.
 */
#include "store/store_priv.h"

#include "core/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MERGE_MAX_TABLES  32
#define MERGE_MAX_COLUMNS 64

struct merge_table {
	char *name;
	char *cols[MERGE_MAX_COLUMNS];
	int nr_cols;
	int run_id_col; /* index of the run_id column */
};

struct merge_schema {
	struct merge_table t[MERGE_MAX_TABLES];
	int n;
};

static void schema_release(struct merge_schema *sc)
{
	for (int i = 0; i < sc->n; i++) {
		free(sc->t[i].name);
		for (int k = 0; k < sc->t[i].nr_cols; k++)
			free(sc->t[i].cols[k]);
	}
	sc->n = 0;
}

/* The columns of `table` in `db`, in declaration order, into t (name already set). */
static int read_columns(sqlite3 *db, const char *path, struct merge_table *t,
			struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf("PRAGMA table_info(\"%w\")", t->name);
	int rc;

	t->nr_cols = 0;
	t->run_id_col = -1;
	if (!sql)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return store_db_error(db, path, "cannot read the schema", err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		if (!name || t->nr_cols == MERGE_MAX_COLUMNS) {
			sqlite3_finalize(st);
			return gs_error_set(err, GS_ESCHEMA, "'%s': table '%s': unexpected columns",
					    path, t->name);
		}
		if (!(t->cols[t->nr_cols] = strdup(name))) {
			sqlite3_finalize(st);
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		}
		if (strcmp(name, "run_id") == 0)
			t->run_id_col = t->nr_cols;
		t->nr_cols++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(db, path, "cannot read the schema", err);
	if (t->run_id_col < 0)
		return gs_error_set(err, GS_ESCHEMA, "'%s': table '%s' has no run_id column", path,
				    t->name);
	return 0;
}

/* Every table of `db` except SQLite's own: runs first, then in creation order. */
static int read_schema(sqlite3 *db, const char *path, struct merge_schema *sc,
		       struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	sc->n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT name FROM sqlite_master WHERE type = 'table'"
			       " AND name NOT LIKE 'sqlite_%' AND name <> 'sweep_part'"
			       " ORDER BY name <> 'runs', rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return store_db_error(db, path, "cannot read the schema", err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (sc->n == MERGE_MAX_TABLES) {
			sqlite3_finalize(st);
			return gs_error_set(err, GS_ESCHEMA, "'%s': too many tables", path);
		}
		memset(&sc->t[sc->n], 0, sizeof(sc->t[sc->n]));
		if (!name || !(sc->t[sc->n].name = strdup(name))) {
			sqlite3_finalize(st);
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		}
		sc->n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(db, path, "cannot read the schema", err);
	if (sc->n == 0 || strcmp(sc->t[0].name, "runs") != 0)
		return gs_error_set(err, GS_ESCHEMA, "'%s': not a govsim results database", path);
	for (int i = 0; i < sc->n; i++)
		if ((rc = read_columns(db, path, &sc->t[i], err)))
			return rc;
	return 0;
}

/* The input must have the output's tables with the same columns in the same order. */
static int same_schema(const struct merge_schema *out, const struct merge_schema *in,
		       const char *in_path, struct gs_error *err)
{
	if (out->n != in->n)
		return gs_error_set(err, GS_ESCHEMA, "'%s': its tables differ from the output's",
				    in_path);
	for (int i = 0; i < out->n; i++) {
		const struct merge_table *a = &out->t[i], *b = &in->t[i];
		bool same = strcmp(a->name, b->name) == 0 && a->nr_cols == b->nr_cols;
		for (int k = 0; same && k < a->nr_cols; k++)
			same = strcmp(a->cols[k], b->cols[k]) == 0;
		if (!same)
			return gs_error_set(err, GS_ESCHEMA,
					    "'%s': table '%s' differs from the output's", in_path,
					    a->name);
	}
	return 0;
}

/*
 * Open input `path` (never created): a file that does not exist or is no regular file is bad
 * input (GS_EINPUT), as is one that is not a database (input_version() says so).
 */
static int input_open(const char *path, sqlite3 **in, struct gs_error *err)
{
	struct stat st;
	int rc;

	*in = NULL;
	if (stat(path, &st) != 0)
		return gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", path, strerror(errno));
	if ((rc = store_file_check(path, err)))
		return rc;
	if (store_db_open(path, SQLITE_OPEN_READWRITE, in) != SQLITE_OK)
		return *in ? store_db_error(*in, path, "cannot open", err)
			   : gs_error_set(err, GS_ENOMEM, "out of memory");
	return 0;
}

static int input_version(sqlite3 *in, const char *path, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int version;

	if (sqlite3_prepare_v2(in, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		int code = sqlite3_errcode(in);
		sqlite3_finalize(st);
		if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
			return gs_error_set(err, GS_EINPUT, "'%s': not a results database: %s",
					    path, sqlite3_errmsg(in));
		return store_db_error(in, path, "cannot open", err);
	}
	version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (version == 0)
		return gs_error_set(err, GS_EINPUT, "'%s': not a govsim results database", path);
	if (version != STORE_SCHEMA_VERSION)
		return gs_error_set(err, GS_ESCHEMA,
				    "'%s': results schema version %d, this govsim merges version %d",
				    path, version, STORE_SCHEMA_VERSION);
	return 0;
}

/* --- copying through ATTACH ---------------------------------------------------------------- */

/*
 * An input is read through the output's connection (ATTACH ... AS merge_input) into staging
 * tables of the connection's temp schema, then detached: SQLite attaches at most 10 files at
 * once and cannot detach one inside a transaction, while a sweep's parts are often more. The
 * output's one transaction then copies the staged rows with INSERT ... SELECT:
 *   temp.merge_runs(input, old_id)    a row per run, in merge order (its rowid: the order)
 *   temp.merge_stage_<i>(merge_input, <the columns of the output's table i>)
 * A run's new id is the output's largest run_id before the merge plus its place in
 * merge_runs, the id SQLite would give it appended alone; every other table's run_id follows.
 */

/* sqlite3_exec of a statement made with sqlite3_str; GS_ESQL naming `path` and `what`. */
static int exec_str(sqlite3 *db, sqlite3_str *sql, const char *path, const char *what,
		    struct gs_error *err)
{
	char *text = sqlite3_str_finish(sql);
	int rc;

	if (!text)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	rc = sqlite3_exec(db, text, NULL, NULL, NULL);
	sqlite3_free(text);
	return rc == SQLITE_OK ? 0 : store_db_error(db, path, what, err);
}

/* The columns of t, comma separated, each with `prefix` ("s." or ""), run_id as `run_id`. */
static void append_cols(sqlite3_str *sql, const struct merge_table *t, const char *prefix,
			const char *run_id)
{
	for (int k = 0; k < t->nr_cols; k++) {
		if (k)
			sqlite3_str_appendall(sql, ", ");
		if (k == t->run_id_col && run_id)
			sqlite3_str_appendall(sql, run_id);
		else
			sqlite3_str_appendf(sql, "%s\"%w\"", prefix, t->cols[k]);
	}
}

/* The empty staging tables, one per table of the output. */
static int stage_create(sqlite3 *out, const char *out_path, const struct merge_schema *osc,
			struct gs_error *err)
{
	int rc;

	if (sqlite3_exec(out, "CREATE TEMP TABLE merge_runs (input INTEGER NOT NULL,"
			      " old_id INTEGER NOT NULL)",
			 NULL, NULL, NULL) != SQLITE_OK)
		return store_db_error(out, out_path, "cannot merge", err);
	for (int i = 0; i < osc->n; i++) {
		sqlite3_str *sql = sqlite3_str_new(out);
		sqlite3_str_appendf(sql, "CREATE TEMP TABLE merge_stage_%d AS SELECT 0 AS merge_input, ",
				    i);
		append_cols(sql, &osc->t[i], "", NULL);
		sqlite3_str_appendf(sql, " FROM main.\"%w\" WHERE 0", osc->t[i].name);
		if ((rc = exec_str(out, sql, out_path, "cannot merge", err)))
			return rc;
	}
	return 0;
}

/* Every run of input number k, attached as merge_input, and its rows into the staging tables
 * (runs in run_id order, other rows in their rowid order), in one read of the input. */
static int stage_input(sqlite3 *out, const char *in_path, const struct merge_schema *osc, int k,
		       struct gs_error *err)
{
	sqlite3_str *sql = sqlite3_str_new(out);
	int rc;

	sqlite3_str_appendf(sql, "BEGIN; INSERT INTO temp.merge_runs (input, old_id) SELECT %d,"
				 " run_id FROM merge_input.runs ORDER BY run_id;",
			    k);
	for (int i = 0; i < osc->n; i++) {
		sqlite3_str_appendf(sql, "INSERT INTO temp.merge_stage_%d SELECT %d, ", i, k);
		append_cols(sql, &osc->t[i], "", NULL);
		sqlite3_str_appendf(sql, " FROM merge_input.\"%w\" ORDER BY rowid;",
				    osc->t[i].name);
	}
	sqlite3_str_appendall(sql, "COMMIT");
	if ((rc = exec_str(out, sql, in_path, "cannot read runs", err)))
		sqlite3_exec(out, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/*
 * Check input number k (its own connection: a file that is no results database, or of
 * another schema, is named as such, and a hot journal in it is rolled back), then stage it.
 */
static int merge_one(sqlite3 *out, const char *out_path, const struct merge_schema *osc,
		     const char *in_path, int k, struct gs_error *err)
{
	struct merge_schema isc = {.n = 0};
	sqlite3_stmt *attach = NULL;
	sqlite3 *in = NULL;
	int rc;

	if ((rc = input_open(in_path, &in, err)) || (rc = input_version(in, in_path, err)) ||
	    (rc = read_schema(in, in_path, &isc, err)) ||
	    (rc = same_schema(osc, &isc, in_path, err)))
		goto out_close;
	if (sqlite3_prepare_v2(out, "ATTACH DATABASE ?1 AS merge_input", -1, &attach, NULL) !=
		    SQLITE_OK ||
	    sqlite3_bind_text(attach, 1, in_path, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(attach) != SQLITE_DONE) {
		rc = store_db_error(out, in_path, "cannot open", err);
		goto out_close;
	}
	rc = stage_input(out, in_path, osc, k, err);
	if (sqlite3_exec(out, "DETACH DATABASE merge_input", NULL, NULL, NULL) != SQLITE_OK && !rc)
		rc = store_db_error(out, in_path, "cannot close", err);
out_close:
	sqlite3_finalize(attach);
	sqlite3_close(in);
	schema_release(&isc);
	return rc;
}

/* The staged runs and their rows into the output (inside its transaction); *count: runs. */
static int copy_staged(sqlite3 *out, const char *out_path, const struct merge_schema *osc,
		       size_t *count, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	s64 base = 0, n = 0;
	int rc;

	if (sqlite3_prepare_v2(out, "SELECT (SELECT coalesce(max(run_id), 0) FROM main.runs),"
				    " (SELECT count(*) FROM temp.merge_runs)",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return store_db_error(out, out_path, "cannot merge", err);
	}
	base = sqlite3_column_int64(st, 0);
	n = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	for (int i = 0; i < osc->n; i++) {
		sqlite3_str *sql = sqlite3_str_new(out);
		char run_id[64];
		snprintf(run_id, sizeof(run_id), "%" PRId64 " + m.rowid", base);
		sqlite3_str_appendf(sql, "INSERT INTO main.\"%w\" (", osc->t[i].name);
		append_cols(sql, &osc->t[i], "", NULL);
		sqlite3_str_appendall(sql, ") SELECT ");
		append_cols(sql, &osc->t[i], "s.", run_id);
		sqlite3_str_appendf(sql, " FROM temp.merge_stage_%d s JOIN temp.merge_runs m"
					 " ON m.input = s.merge_input AND m.old_id = s.run_id"
					 " ORDER BY m.rowid, s.rowid",
				    i);
		if ((rc = exec_str(out, sql, out_path, "cannot merge", err)))
			return rc;
	}
	*count = (size_t)n;
	return 0;
}

/* --- parts of a job array ------------------------------------------------------------------ */

#define PART_TABLE_SQL                                                                           \
	"CREATE TABLE IF NOT EXISTS sweep_part (job INTEGER NOT NULL, nr_jobs INTEGER NOT NULL," \
	" trace TEXT, label TEXT)"

/* What one input says of itself: the jobs it holds (none: not a part). */
struct part_info {
	const char *path;
	long *jobs;
	size_t nr_jobs_held;
	long nr_jobs; /* of the sweep */
};

/* Read the sweep_part rows of `path` into *pi (no table: no jobs). */
static int read_part(const char *path, struct part_info *pi, struct gs_error *err)
{
	sqlite3 *in = NULL;
	sqlite3_stmt *st = NULL;
	int rc;

	pi->path = path;
	if ((rc = input_open(path, &in, err)))
		goto out;
	if ((rc = input_version(in, path, err)))
		goto out;
	rc = sqlite3_prepare_v2(in,
				"SELECT job, nr_jobs FROM sweep_part WHERE EXISTS (SELECT 1 FROM"
				" sqlite_master WHERE type = 'table' AND name = 'sweep_part')"
				" ORDER BY job",
				-1, &st, NULL);
	if (rc != SQLITE_OK) {
		/* no such table: prepare fails on the FROM before EXISTS is looked at */
		rc = 0;
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long *jobs = realloc(pi->jobs, (pi->nr_jobs_held + 1) * sizeof(*jobs));
		long job = (long)sqlite3_column_int64(st, 0), nr = (long)sqlite3_column_int64(st, 1);
		if (!jobs) {
			rc = gs_error_set(err, GS_ENOMEM, "out of memory");
			goto out;
		}
		pi->jobs = jobs;
		if (nr < 1 || job < 0 || job >= nr || (pi->nr_jobs_held && nr != pi->nr_jobs)) {
			rc = gs_error_set(err, GS_EINPUT, "'%s': its sweep_part rows are damaged", path);
			goto out;
		}
		pi->jobs[pi->nr_jobs_held++] = job;
		pi->nr_jobs = nr;
	}
	rc = rc == SQLITE_DONE ? 0 : store_db_error(in, path, "cannot read sweep_part", err);
out:
	sqlite3_finalize(st);
	sqlite3_close(in);
	return rc;
}

/* The missing jobs as ranges ("2-3,6-7") in sb, cut short with ",..." where a range would
 * not leave room for it in a field of size bytes (the text, ",..." and a NUL). */
static long missing_ranges(const unsigned char *seen, long nr_jobs, struct strbuf *sb,
			   size_t size)
{
	long count = 0;
	bool cut = false;

	for (long a = 0; a < nr_jobs; a++) {
		long b = a;
		char range[48];
		int w;

		if (seen[a])
			continue;
		while (b + 1 < nr_jobs && !seen[b + 1])
			b++;
		count += b - a + 1;
		if (a == b)
			w = snprintf(range, sizeof(range), "%s%ld", sb->len ? "," : "", a);
		else
			w = snprintf(range, sizeof(range), "%s%ld-%ld", sb->len ? "," : "", a, b);
		if (!cut && sb->len + (size_t)w + 4 < size) {
			strbuf_addn(sb, range, (size_t)w);
		} else if (!cut) {
			strbuf_addf(sb, "%s...", sb->len ? "," : "");
			cut = true;
		}
		a = b;
	}
	return count;
}

static int compare_parts(const void *a, const void *b)
{
	const struct part_info *x = a, *y = b;
	return (x->jobs[0] > y->jobs[0]) - (x->jobs[0] < y->jobs[0]);
}

/*
 * Check the inputs as parts of one sweep and put them in job order in `order`; missing jobs
 * fail (or, with opts->partial, are named in opts->missing).
 */
static int check_parts(const char *const *inputs, size_t n, struct store_merge_opts *opts,
		       const char **order, struct gs_error *err)
{
	struct part_info *pi = calloc(n ? n : 1, sizeof(*pi));
	unsigned char *seen = NULL;
	const char **holder = NULL;
	size_t nr_marked = 0;
	long nr_jobs = 0;
	struct strbuf missing = STRBUF_INIT;
	long nr_missing;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		order[i] = inputs[i];
	if (!pi)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		rc = read_part(inputs[i], &pi[i], err);
		if (!rc && pi[i].nr_jobs_held)
			nr_marked++;
		else if (!rc && opts->expect > 0)
			rc = gs_error_set(err, GS_EINPUT,
					  "'%s': not a part of a sweep (written by 'sweep --job K')",
					  inputs[i]);
	}
	if (rc || nr_marked == 0 || nr_marked < n)
		goto out; /* not (all) parts: merged as given */

	nr_jobs = opts->expect > 0 ? opts->expect : pi[0].nr_jobs;
	for (size_t i = 0; i < n; i++) {
		if (pi[i].nr_jobs != nr_jobs) {
			rc = gs_error_set(err, GS_EINPUT, "'%s': a part of a sweep of %ld jobs, %s %ld",
					  inputs[i], pi[i].nr_jobs,
					  opts->expect > 0 ? "expected" : "not", nr_jobs);
			goto out;
		}
	}
	seen = calloc((size_t)nr_jobs, 1);
	holder = calloc((size_t)nr_jobs, sizeof(*holder));
	if (!seen || !holder) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < pi[i].nr_jobs_held; k++) {
			long j = pi[i].jobs[k];
			if (seen[j]) {
				rc = gs_error_set(err, GS_EINPUT, "job %ld is in both '%s' and '%s'",
						  j, holder[j], inputs[i]);
				goto out;
			}
			seen[j] = 1;
			holder[j] = inputs[i];
		}
	}
	nr_missing = missing_ranges(seen, nr_jobs, &missing, sizeof(opts->missing));
	if (strbuf_error(&missing)) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out;
	}
	if (nr_missing && !opts->partial) {
		rc = gs_error_set(err, GS_ENOTFOUND,
				  "missing %ld of %ld job%s: %s (no part for them); nothing merged",
				  nr_missing, nr_jobs, nr_jobs == 1 ? "" : "s",
				  strbuf_str(&missing));
		goto out;
	}
	if (nr_missing)
		strbuf_copy(&missing, opts->missing, sizeof(opts->missing));
	qsort(pi, n, sizeof(*pi), compare_parts);
	for (size_t i = 0; i < n; i++)
		order[i] = pi[i].path;
out:
	for (size_t i = 0; i < n; i++)
		free(pi[i].jobs);
	free(pi);
	free(seen);
	free(holder);
	strbuf_free(&missing);
	return rc;
}

/* Record the output as part `p` (in the merge's transaction). */
static int write_part(sqlite3 *out, const char *out_path, const struct store_part *p,
		      struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_exec(out, PART_TABLE_SQL, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(out, "INSERT INTO sweep_part VALUES (?, ?, ?, ?)", -1, &st, NULL) !=
		    SQLITE_OK ||
	    sqlite3_bind_int64(st, 1, p->job) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 2, p->nr_jobs) != SQLITE_OK ||
	    sqlite3_bind_text(st, 3, p->trace, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_bind_text(st, 4, p->label, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE)
		rc = store_db_error(out, out_path, "cannot record the sweep part", err);
	sqlite3_finalize(st);
	return rc;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int store_merge(const char *out_path, const char *const *inputs, size_t n, size_t *nr_runs,
		struct gs_error *err)
{
	return store_merge_ext(out_path, inputs, n, NULL, nr_runs, err);
}

int store_merge_ext(const char *out_path, const char *const *inputs, size_t n,
		    struct store_merge_opts *opts, size_t *nr_runs, struct gs_error *err)
{
	struct store_merge_opts none = {.expect = 0};
	struct merge_schema osc = {.n = 0};
	struct store *st;
	sqlite3 *out = NULL;
	const char **order;
	size_t count = 0;
	int rc;

	if (nr_runs)
		*nr_runs = 0;
	if (!opts)
		opts = &none;
	opts->missing[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (same_file(out_path, inputs[i]))
			return gs_error_set(err, GS_EARG, "'%s': cannot merge a database into itself",
					    inputs[i]);
	order = calloc(n ? n : 1, sizeof(*order));
	if (!order)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	/* Before the output is created: a refused merge leaves no file behind. */
	if ((rc = check_parts(inputs, n, opts, order, err))) {
		free(order);
		return rc;
	}
	inputs = order;
	/* Creates the output's tables, or checks an existing file's version. */
	if ((rc = store_open(out_path, &st, err))) {
		free(order);
		return rc;
	}
	store_close(st);

	if (store_db_open(out_path, SQLITE_OPEN_READWRITE, &out) != SQLITE_OK) {
		rc = out ? store_db_error(out, out_path, "cannot open", err)
			 : gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_close;
	}
	if (sqlite3_exec(out, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
		rc = store_db_error(out, out_path, "cannot open", err);
		goto out_close;
	}
	if ((rc = read_schema(out, out_path, &osc, err)))
		goto out_close;
	if ((rc = stage_create(out, out_path, &osc, err)))
		goto out_close;
	for (size_t i = 0; i < n; i++)
		if ((rc = merge_one(out, out_path, &osc, inputs[i], (int)i, err)))
			goto out_close;
	if (sqlite3_exec(out, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		rc = store_db_error(out, out_path, "cannot merge", err);
		goto out_close;
	}
	if ((rc = copy_staged(out, out_path, &osc, &count, err)))
		goto out_rollback;
	if (opts->mark && (rc = write_part(out, out_path, opts->mark, err)))
		goto out_rollback;
	if (sqlite3_exec(out, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		rc = store_db_error(out, out_path, "cannot merge", err);
		goto out_rollback;
	}
	if (nr_runs)
		*nr_runs = count;
	goto out_close;

out_rollback:
	sqlite3_exec(out, "ROLLBACK", NULL, NULL, NULL);
out_close:
	sqlite3_close(out);
	schema_release(&osc);
	free(order);
	return rc;
}
