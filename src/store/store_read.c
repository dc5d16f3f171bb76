/*
 * store_read.c - a run back from the results database into a run_result (one read
 * transaction), every table of tables.h through one SELECT of its columns; and the selectors
 * that list runs; see store.h.
 */
#include "store/store_priv.h"
#include "store/tables.h"

#include "core/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_error(struct store *s, struct gs_error *err, s64 run_id)
{
	return gs_error_set(err, GS_ESQL, "'%s': cannot read run %" PRId64 ": %s", s->path, run_id,
			    sqlite3_errmsg(s->db));
}

/* Whether table t exists (an optional one may not, in a file made before it). */
static int table_exists(struct store *s, const struct store_table *t, bool *yes,
			struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db,
			       "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
			       -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return store_sql_error(s, err, "cannot read");
	}
	rc = sqlite3_step(st);
	*yes = rc == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : store_sql_error(s, err, "cannot read");
}

/* "SELECT <the columns read> FROM t WHERE run_id = ?1 [ORDER BY ...]" prepared, ?1 bound. */
static int prepare_select(struct store *s, const struct store_table *t, s64 run_id,
			  sqlite3_stmt **st, struct gs_error *err)
{
	sqlite3_str *sql = sqlite3_str_new(s->db);
	int n = 0, rc;
	char *text;

	sqlite3_str_appendall(sql, "SELECT ");
	for (int c = 0; c < t->nr_cols; c++)
		if (store_col_read(t, c, s->plugin_cols))
			sqlite3_str_appendf(sql, "%s%s", n++ ? ", " : "", t->cols[c].name);
	sqlite3_str_appendf(sql, " FROM %s WHERE run_id = ?1", t->name);
	if (t->read_order)
		sqlite3_str_appendf(sql, " ORDER BY %s", t->read_order);
	if (!(text = sqlite3_str_finish(sql)))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	rc = sqlite3_prepare_v2(s->db, text, -1, st, NULL);
	sqlite3_free(text);
	if (rc != SQLITE_OK || sqlite3_bind_int64(*st, 1, run_id) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return read_error(s, err, run_id);
	}
	return 0;
}

/* The row st is on into row->v (the columns not read: NULL); text points into st. */
static void read_values(const struct store *s, const struct store_table *t, sqlite3_stmt *st,
			struct store_row *row)
{
	int i = 0;

	memset(row->v, 0, sizeof(row->v));
	for (int c = 0; c < t->nr_cols; c++) {
		struct store_value *v = &row->v[c];
		if (!store_col_read(t, c, s->plugin_cols)) {
			v->null = true;
			continue;
		}
		v->null = sqlite3_column_type(st, i) == SQLITE_NULL;
		if (t->cols[c].type == STORE_TEXT) {
			const unsigned char *text = sqlite3_column_text(st, i);
			v->t = text ? (const char *)text : "";
		} else if (t->cols[c].type == STORE_DOUBLE) {
			v->d = sqlite3_column_double(st, i);
		} else {
			v->i = sqlite3_column_int64(st, i);
		}
		i++;
	}
}

/* Every row of run `id` in table t into r; *nr_rows (may be NULL) counts them. */
static int read_table(struct store *s, const struct store_table *t, s64 id, struct run_result *r,
		      struct store_read_state *rs, s64 *nr_rows, struct gs_error *err)
{
	struct store_row row;
	const char *bad = NULL;
	sqlite3_stmt *st;
	bool exists = true;
	s64 n = 0;
	int rc;

	if (t->optional && ((rc = table_exists(s, t, &exists, err)) || !exists))
		return rc;
	if ((rc = prepare_select(s, t, id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		read_values(s, t, st, &row);
		n++;
		if (store_row_take(t, r, rs, &row, &bad) < 0)
			break;
	}
	sqlite3_finalize(st);
	if (!bad && rc != SQLITE_DONE)
		return read_error(s, err, id);
	if (!bad && t->read_done && n)
		t->read_done(r, &bad);
	if (bad)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": %s", s->path, id, bad);
	if (nr_rows)
		*nr_rows = n;
	return 0;
}

int store_read_run(struct store *s, s64 run_id, struct run_result *r, struct gs_error *err)
{
	struct store_read_state rs = {0};
	s64 nr_runs = 0;
	int rc;

	run_result_init(r);
	/* One read transaction: a concurrent writer cannot show us half of anything. */
	if ((rc = store_exec(s, "BEGIN", "cannot read", err)))
		return rc;
	rc = read_table(s, store_read_tables[0], run_id, r, &rs, &nr_runs, err);
	if (!rc && !nr_runs)
		rc = gs_error_set(err, GS_ENOTFOUND, "'%s': no run %" PRId64, s->path, run_id);
	for (int i = 1; i < store_nr_read_tables && !rc; i++)
		rc = read_table(s, store_read_tables[i], run_id, r, &rs, NULL, err);
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
	struct strbuf sql = STRBUF_INIT;
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
	strbuf_addf(&sql, "SELECT run_id FROM runs WHERE 1");
	if (by_id) {
		strbuf_addf(&sql, " AND run_id = ?1");
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
			strbuf_addf(&sql, " AND %s = ?%d", selector_keys[k], nr_values + 1);
			values[nr_values++] = eq + 1;
		}
	}
	if (strbuf_addf(&sql, " ORDER BY run_id")) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_free;
	}
	if (sqlite3_prepare_v2(s->db, strbuf_str(&sql), -1, &st, NULL) != SQLITE_OK) {
		rc = store_sql_error(s, err, "cannot list runs");
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
		rc = store_sql_error(s, err, "cannot list runs");
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
	strbuf_free(&sql);
	return rc;
}

int store_list_runs(struct store *s, s64 **ids, size_t *n, struct gs_error *err)
{
	return store_select_runs(s, NULL, ids, n, err);
}
