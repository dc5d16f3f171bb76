/*
 * store_csv.c - a run's tables as CSV files, the database's twin (same columns, same rows);
 * see store.h.
 */
#include "store/store_priv.h"
#include "store/tables.h"

#include "core/outfile.h"
#include "core/strbuf.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static void csv_text(struct csv_out *o, const char *s, size_t len)
{
	csv_sep(o);
	csv_fwrite(o->f, s, len);
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

/* The files one run writes at most (one per table). */
#define CSV_MAX_FILES 16

/* One run's CSV files being written: each csv_<table>() writes <table>.csv in dir, to a
 * temporary name; store_write_csv() renames them all into place once all were written. */
struct csv_run {
	struct csv_out o;
	const struct run_result *r;
	s64 run_id;
	const char *dir;
	struct outfile files[CSV_MAX_FILES];
	char paths[CSV_MAX_FILES][4096];
	int nr_files;
	struct gs_error *err;
};

/* Start <dir>/<name> with its header line: column names, comma separated (no quoting needed). */
static int csv_open(struct csv_run *w, const char *name, const char *header)
{
	char *path = w->paths[w->nr_files];
	int rc;

	if (w->nr_files == CSV_MAX_FILES)
		return gs_error_set(w->err, GS_EINTERNAL, "'%s': too many tables", w->dir);
	snprintf(path, sizeof(w->paths[0]), "%s/%s", w->dir, name);
	if ((rc = outfile_open(&w->files[w->nr_files], path, w->err)))
		return rc;
	w->o.f = w->files[w->nr_files++].f;
	fprintf(w->o.f, "%s\n", header);
	w->o.first = true;
	return 0;
}

/* A table written: 0, or GS_EIO when a write to it failed already (a full disk). */
static int csv_close(struct csv_run *w)
{
	struct outfile *f = &w->files[w->nr_files - 1];

	if (fflush(f->f) != 0 || ferror(f->f))
		return gs_error_set(w->err, GS_EIO, "'%s': write error: %s", f->path,
				    strerror(errno ? errno : EIO));
	return 0;
}

/* One table of the run: its header (the columns but created_at) and its rows, every value
 * printed by its column's type. */
static int csv_table(struct csv_run *w, const struct store_table *t)
{
	struct csv_out *o = &w->o;
	struct store_row row;
	struct strbuf header = STRBUF_INIT;
	char name[64];
	size_t pos = 0;
	int rc;

	snprintf(name, sizeof(name), "%s.csv", t->name);
	for (int c = 0; c < t->nr_cols; c++)
		if (!(t->cols[c].flags & STORE_COL_CREATED_AT))
			strbuf_addf(&header, "%s%s", header.len ? "," : "", t->cols[c].name);
	rc = strbuf_error(&header) ? gs_error_set(w->err, GS_ENOMEM, "out of memory")
				   : csv_open(w, name, strbuf_str(&header));
	strbuf_free(&header);
	if (rc)
		return rc;
	while (store_row_next(t, w->r, w->run_id, "", &pos, &row)) {
		for (int c = 0; c < t->nr_cols; c++) {
			const struct store_column *col = &t->cols[c];
			const struct store_value *v = &row.v[c];
			if (col->flags & STORE_COL_CREATED_AT)
				continue;
			if (v->null)
				csv_null(o); /* as in the database */
			else if (col->type == STORE_TEXT)
				csv_text(o, v->t, col->size ? strnlen(v->t, col->size) : strlen(v->t));
			else if (col->type == STORE_DOUBLE)
				csv_double(o, v->d);
			else if (col->type == STORE_INT)
				csv_int(o, v->i);
			else
				csv_uint(o, (u64)v->i);
		}
		csv_eol(o);
	}
	return csv_close(w);
}

/* Every table with a CSV twin that the run has rows in, in the database's order. */
static int csv_tables(struct csv_run *w)
{
	int rc = 0;

	for (int i = 0; i < store_nr_tables && !rc; i++) {
		const struct store_table *t = store_tables[i];
		if (t->csv && (!t->present || t->present(w->r)))
			rc = csv_table(w, t);
	}
	return rc;
}

int store_write_csv(const struct run_result *r, s64 run_id, const char *dir, struct gs_error *err)
{
	struct csv_run *w;
	int rc;

	if (!result_in_limits(r))
		return gs_error_set(err, GS_EINTERNAL, "'%s': run result out of limits", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", dir, strerror(errno));
	w = calloc(1, sizeof(*w));
	if (!w)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	*w = (struct csv_run){.o = {NULL, true}, .r = r, .run_id = run_id, .dir = dir, .err = err};
	/* every table reached the disk before any replaces its previous version */
	rc = csv_tables(w);
	for (int i = 0; i < w->nr_files; i++) {
		if (rc)
			outfile_abort(&w->files[i]);
		else
			rc = outfile_commit(&w->files[i], err);
	}
	free(w);
	return rc;
}
