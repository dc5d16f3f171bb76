/*
 * store_read.c - a run back from the results database into a run_result (one read
 * transaction), and the selectors that list runs; see store.h.
 */
#include "store/store_priv.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_text(char *dst, size_t size, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	snprintf(dst, size, "%s", t ? (const char *)t : "");
}

static int read_error(struct store *s, struct gs_error *err, s64 run_id)
{
	return gs_error_set(err, GS_ESQL, "'%s': cannot read run %" PRId64 ": %s", s->path, run_id,
			    sqlite3_errmsg(s->db));
}

/* Prepares `sql` with ?1 bound to run_id. */
static int query(struct store *s, const char *sql, s64 run_id, sqlite3_stmt **st,
		 struct gs_error *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK ||
	    sqlite3_bind_int64(*st, 1, run_id) != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return read_error(s, err, run_id);
	}
	return 0;
}

static int finish(struct store *s, sqlite3_stmt *st, int rc, s64 run_id, struct gs_error *err)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return read_error(s, err, run_id);
	return 0;
}

static int bad_row(struct store *s, sqlite3_stmt *st, s64 run_id, const char *what,
		   struct gs_error *err)
{
	sqlite3_finalize(st);
	return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": %s", s->path, run_id, what);
}

static int read_runs_row(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s,
			"SELECT label, trace, trace_sha256, platform, governor, timing, util_source,"
			" power_model, power_unit, policy, params, kernel, start_s, span_s, events,"
			" nr_cpus, nr_clusters, notes, govsim_version FROM runs WHERE run_id = ?1",
			id, &st, err)))
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(st);
		return gs_error_set(err, GS_ENOTFOUND, "'%s': no run %" PRId64, s->path, id);
	}
	if (rc != SQLITE_ROW)
		return finish(s, st, rc, id, err);
	copy_text(r->label, sizeof(r->label), st, 0);
	copy_text(r->trace, sizeof(r->trace), st, 1);
	copy_text(r->trace_sha256, sizeof(r->trace_sha256), st, 2);
	copy_text(r->platform, sizeof(r->platform), st, 3);
	copy_text(r->governor, sizeof(r->governor), st, 4);
	copy_text(r->timing, sizeof(r->timing), st, 5);
	copy_text(r->util_source, sizeof(r->util_source), st, 6);
	copy_text(r->power_model, sizeof(r->power_model), st, 7);
	copy_text(r->power_unit, sizeof(r->power_unit), st, 8);
	copy_text(r->policy, sizeof(r->policy), st, 9);
	copy_text(r->params, sizeof(r->params), st, 10);
	copy_text(r->kernel, sizeof(r->kernel), st, 11);
	r->start_s = sqlite3_column_double(st, 12);
	r->span_s = sqlite3_column_double(st, 13);
	r->events = (u64)sqlite3_column_int64(st, 14);
	r->nr_cpus = sqlite3_column_int(st, 15);
	r->nr_clusters = sqlite3_column_int(st, 16);
	copy_text(r->notes, sizeof(r->notes), st, 17);
	copy_text(r->govsim_version, sizeof(r->govsim_version), st, 18);
	sqlite3_finalize(st);
	if (s->plugin_cols) {
		if ((rc = query(s, "SELECT governor_path, governor_sha256 FROM runs WHERE run_id = ?1",
				id, &st, err)))
			return rc;
		if ((rc = sqlite3_step(st)) != SQLITE_ROW)
			return finish(s, st, rc, id, err);
		copy_text(r->governor_path, sizeof(r->governor_path), st, 0);
		copy_text(r->governor_sha256, sizeof(r->governor_sha256), st, 1);
		sqlite3_finalize(st);
	}
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": nr_cpus or nr_clusters "
						  "out of range",
				    s->path, id);
	return 0;
}

static int read_energy(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s, "SELECT scope, name, joules FROM energy WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *scope = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		double j = sqlite3_column_double(st, 2);
		int n;

		if (!scope || !name)
			return bad_row(s, st, id, "energy row without scope or name", err);
		if (strcmp(scope, "total") == 0)
			r->energy_total = j;
		else if (strcmp(scope, "cpu") == 0 && sscanf(name, "cpu%d", &n) == 1 && n >= 0 &&
			 n < r->nr_cpus)
			r->energy_cpu[n] = j;
		else if (strcmp(scope, "cluster") == 0 && sscanf(name, "cluster%d", &n) == 1 &&
			 n >= 0 && n < r->nr_clusters)
			r->energy_cluster[n] = j;
		else
			return bad_row(s, st, id, "energy row names no cpu or cluster of the run", err);
	}
	return finish(s, st, rc, id, err);
}

static int read_policies(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc, c = 0;

	if ((rc = query(s,
			"SELECT policy, cluster, transitions, avg_freq_khz, busy_s, overutilized_s"
			" FROM policy_stats WHERE run_id = ?1 ORDER BY cluster, policy",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_policy_result *pr;
		if (c >= r->nr_clusters)
			return bad_row(s, st, id, "more policy_stats rows than clusters", err);
		pr = &r->pol[c++];
		pr->policy = sqlite3_column_int(st, 0);
		pr->cluster = sqlite3_column_int(st, 1);
		pr->transitions = (u64)sqlite3_column_int64(st, 2);
		pr->avg_freq_khz = sqlite3_column_type(st, 3) == SQLITE_NULL
					   ? NAN
					   : sqlite3_column_double(st, 3);
		pr->busy_s = sqlite3_column_double(st, 4);
		pr->overutilized_s = sqlite3_column_double(st, 5);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;

	if ((rc = query(s,
			"SELECT policy, freq_khz, seconds FROM residency WHERE run_id = ?1"
			" ORDER BY policy, freq_khz",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int policy = sqlite3_column_int(st, 0);
		struct run_policy_result *pr = NULL;

		for (int i = 0; i < r->nr_clusters; i++)
			if (r->pol[i].policy == policy)
				pr = &r->pol[i];
		if (!pr || pr->nr_opps >= GS_MAX_OPPS)
			return bad_row(s, st, id, "residency row of no policy of the run", err);
		pr->freq_khz[pr->nr_opps] = (u32)sqlite3_column_int64(st, 1);
		pr->residency_s[pr->nr_opps] = sqlite3_column_double(st, 2);
		pr->nr_opps++;
	}
	return finish(s, st, rc, id, err);
}

static int read_tasks(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM task_stats WHERE run_id = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n > INT32_MAX)
		return gs_error_set(err, GS_ESQL, "'%s': run %" PRId64 ": too many tasks", s->path,
				    id);
	if (n && !(r->tasks = calloc((size_t)n, sizeof(*r->tasks))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query(s,
			"SELECT pid, comm, runtime_s, delay_s, max_delay_s FROM task_stats"
			" WHERE run_id = ?1 ORDER BY seq",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && r->nr_tasks < n) {
		struct run_task_result *t = &r->tasks[r->nr_tasks++];
		t->pid = (s32)sqlite3_column_int(st, 0);
		copy_text(t->comm, sizeof(t->comm), st, 1);
		t->runtime_s = sqlite3_column_double(st, 2);
		t->delay_s = sqlite3_column_double(st, 3);
		t->max_delay_s = sqlite3_column_double(st, 4);
	}
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE; /* more rows than counted cannot happen inside one read */
	return finish(s, st, rc, id, err);
}

static int read_uclamp(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s,
			"SELECT key_on_at_s, agg_ops, agg_skipped, clamped_up_s, clamped_down_s"
			" FROM uclamp_stats WHERE run_id = ?1",
			id, &st, err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->key_on = sqlite3_column_type(st, 0) != SQLITE_NULL;
		r->key_on_at_s = r->key_on ? sqlite3_column_double(st, 0) : 0;
		r->agg_ops = (u64)sqlite3_column_int64(st, 1);
		r->agg_skipped = (u64)sqlite3_column_int64(st, 2);
		r->clamped_up_s = sqlite3_column_double(st, 3);
		r->clamped_down_s = sqlite3_column_double(st, 4);
		rc = sqlite3_step(st);
	}
	return finish(s, st, rc, id, err);
}

static int read_timeline(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;
	s64 n = 0;

	if ((rc = query(s, "SELECT count(*) FROM timeline WHERE run_id = ?1", id, &st, err)))
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n && !(r->timeline = calloc((size_t)n, sizeof(*r->timeline))))
		return gs_error_set(err, GS_ENOMEM, "'%s': out of memory", s->path);
	if ((rc = query(s,
			"SELECT time_s, policy, freq_khz, traced_khz, util, capacity FROM timeline"
			" WHERE run_id = ?1 ORDER BY seq",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && (s64)r->nr_timeline < n) {
		struct run_timeline_point *tp = &r->timeline[r->nr_timeline++];
		tp->time_s = sqlite3_column_double(st, 0);
		tp->policy = sqlite3_column_int(st, 1);
		tp->freq_khz = (u32)sqlite3_column_int64(st, 2);
		tp->traced_khz = (u32)sqlite3_column_int64(st, 3);
		tp->util = (u32)sqlite3_column_int64(st, 4);
		tp->capacity = (u32)sqlite3_column_int64(st, 5);
	}
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE;
	return finish(s, st, rc, id, err);
}

static int read_work(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if ((rc = query(s, "SELECT cpu, work_in_s, work_out_s FROM work WHERE run_id = ?1", id,
			&st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int cpu = sqlite3_column_int(st, 0);
		if (cpu < 0 || cpu >= r->nr_cpus)
			return bad_row(s, st, id, "work row of no cpu of the run", err);
		r->work_in_s[cpu] = sqlite3_column_double(st, 1);
		r->work_out_s[cpu] = sqlite3_column_double(st, 2);
	}
	return finish(s, st, rc, id, err);
}

/* Spans (a run without its row: nothing moved, the replay's span is the trace's) and the
 * activity rows (work timing). */
static int read_spans(struct store *s, s64 id, struct run_result *r, struct gs_error *err)
{
	sqlite3_stmt *st;
	int rc;

	r->traced_span_s = r->span_s;
	r->stretch = 1;
	if ((rc = query(s, "SELECT traced_span_s, stretch FROM spans WHERE run_id = ?1", id, &st,
			err)))
		return rc;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->traced_span_s = sqlite3_column_double(st, 0);
		r->stretch = sqlite3_column_double(st, 1);
		rc = sqlite3_step(st);
	}
	if ((rc = finish(s, st, rc, id, err)))
		return rc;
	if ((rc = query(s,
			"SELECT seq, activations, throughput, latency_mean_s, latency_p95_s,"
			" latency_max_s, response_mean_s, response_p95_s, response_max_s,"
			" lateness_mean_s, lateness_p95_s, lateness_max_s FROM activity"
			" WHERE run_id = ?1 ORDER BY seq",
			id, &st, err)))
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		s64 seq = sqlite3_column_int64(st, 0);
		struct run_activity *a;
		if (seq == -1)
			a = &r->act_total;
		else if (seq >= 0 && seq < r->nr_tasks)
			a = &r->tasks[seq].act;
		else
			return bad_row(s, st, id, "activity row of no task of the run", err);
		a->activations = (u64)sqlite3_column_int64(st, 1);
		a->throughput = sqlite3_column_double(st, 2);
		a->latency.mean_s = sqlite3_column_double(st, 3);
		a->latency.p95_s = sqlite3_column_double(st, 4);
		a->latency.max_s = sqlite3_column_double(st, 5);
		a->response.mean_s = sqlite3_column_double(st, 6);
		a->response.p95_s = sqlite3_column_double(st, 7);
		a->response.max_s = sqlite3_column_double(st, 8);
		a->lateness.mean_s = sqlite3_column_double(st, 9);
		a->lateness.p95_s = sqlite3_column_double(st, 10);
		a->lateness.max_s = sqlite3_column_double(st, 11);
	}
	return finish(s, st, rc, id, err);
}

int store_read_run(struct store *s, s64 run_id, struct run_result *r, struct gs_error *err)
{
	int rc;

	run_result_init(r);
	/* One read transaction: a concurrent writer cannot show us half of anything. */
	if ((rc = store_exec(s, "BEGIN", "cannot read", err)))
		return rc;
	if (!(rc = read_runs_row(s, run_id, r, err)) && !(rc = read_energy(s, run_id, r, err)) &&
	    !(rc = read_policies(s, run_id, r, err)) && !(rc = read_tasks(s, run_id, r, err)) &&
	    !(rc = read_uclamp(s, run_id, r, err)) && !(rc = read_timeline(s, run_id, r, err)) &&
	    !(rc = read_work(s, run_id, r, err)))
		rc = read_spans(s, run_id, r, err);
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
	char sql[1024] = "SELECT run_id FROM runs WHERE 1";
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
	if (by_id) {
		strcat(sql, " AND run_id = ?1");
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
			snprintf(sql + strlen(sql), sizeof(sql) - strlen(sql), " AND %s = ?%d",
				 selector_keys[k], nr_values + 1);
			values[nr_values++] = eq + 1;
		}
	}
	strcat(sql, " ORDER BY run_id");
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
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
	return rc;
}

int store_list_runs(struct store *s, s64 **ids, size_t *n, struct gs_error *err)
{
	return store_select_runs(s, NULL, ids, n, err);
}
