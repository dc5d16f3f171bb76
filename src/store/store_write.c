/*
 * store_write.c - a run into the results database (store.c opens it); see store.h.
 *
 * Every statement is prepared with bound parameters; rows go in a fixed order (runs, energy
 * cpu..cluster..total, residency per policy and OPP, policy_stats, task_stats in the result's
 * order, uclamp_stats, timeline, work), so the same run_result always writes the same rows.
 */
#include "store/store_priv.h"

#include "core/parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The activity row of a task (seq >= 0) or of all tasks (seq -1). */
static int insert_activity(struct store *s, sqlite3_stmt *st, struct gs_error *err, s64 id,
			   s64 seq, const struct run_activity *a);

/* Binds values by position: one format letter per parameter. t text, i int64, d double, n NULL. */
static int bind_args(sqlite3_stmt *st, const char *fmt, va_list ap)
{
	for (int i = 1; *fmt; fmt++, i++) {
		int rc = SQLITE_OK;
		switch (*fmt) {
		case 't':
			rc = sqlite3_bind_text(st, i, va_arg(ap, const char *), -1, SQLITE_STATIC);
			break;
		case 'i':
			rc = sqlite3_bind_int64(st, i, va_arg(ap, s64));
			break;
		case 'd':
			rc = sqlite3_bind_double(st, i, va_arg(ap, double));
			break;
		case 'n':
			rc = sqlite3_bind_null(st, i);
			break;
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* Runs a prepared insert with these values, then resets it for the next row. */
static int insert(struct store *s, sqlite3_stmt *st, struct gs_error *err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = bind_args(st, fmt, ap);
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE && rc != SQLITE_OK)
		return store_sql_error(s, err, "cannot write the run");
	return 0;
}

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st, struct gs_error *err)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return store_sql_error(s, err, "cannot write the run");
	return 0;
}

/* Now, or $SOURCE_DATE_EPOCH (the command line refused a bad one before anything ran). */
static void created_at(char *buf, size_t size)
{
	s64 sde = 0;
	time_t t = gs_source_date_epoch(&sde) == 1 ? (time_t)sde : time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* energy (cpus, clusters, total) and residency rows. */
static int write_energy(struct store *s, const struct run_result *r, s64 id, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	char name[32];
	int rc;

	if ((rc = prepare(s, "INSERT INTO energy VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus && !rc; cpu++) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		rc = insert(s, st, err, "ittd", id, "cpu", name, r->energy_cpu[cpu]);
	}
	for (int c = 0; c < r->nr_clusters && !rc; c++) {
		snprintf(name, sizeof(name), "cluster%d", c);
		rc = insert(s, st, err, "ittd", id, "cluster", name, r->energy_cluster[c]);
	}
	if (!rc)
		rc = insert(s, st, err, "ittd", id, "total", "total", r->energy_total);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO residency VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int c = 0; c < r->nr_clusters && !rc; c++) {
		const struct run_policy_result *pr = &r->pol[c];
		for (int k = 0; k < pr->nr_opps && !rc; k++)
			rc = insert(s, st, err, "iiid", id, (s64)pr->policy, (s64)pr->freq_khz[k],
				    pr->residency_s[k]);
	}
	sqlite3_finalize(st);
	return rc;
}

/* policy_stats, task_stats and uclamp_stats rows. */
static int write_stats(struct store *s, const struct run_result *r, s64 id, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = prepare(s, "INSERT INTO policy_stats VALUES (?, ?, ?, ?, ?, ?, ?)", &st,
				err)))
		return rc;
	for (int c = 0; c < r->nr_clusters && !rc; c++) {
		const struct run_policy_result *pr = &r->pol[c];
		rc = insert(s, st, err, "iiiiddd", id, (s64)pr->policy, (s64)pr->cluster,
			    (s64)pr->transitions, pr->avg_freq_khz, pr->busy_s, pr->overutilized_s);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO task_stats VALUES (?, ?, ?, ?, ?, ?, ?)", &st,
				err)))
		return rc;
	for (int i = 0; i < r->nr_tasks && !rc; i++) {
		const struct run_task_result *t = &r->tasks[i];
		char comm[TASK_COMM_LEN];
		snprintf(comm, sizeof(comm), "%s", t->comm);
		rc = insert(s, st, err, "iiitddd", id, (s64)i, (s64)t->pid, comm, t->runtime_s,
			    t->delay_s, t->max_delay_s);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO uclamp_stats VALUES (?, ?, ?, ?, ?, ?)", &st, err)))
		return rc;
	if (r->key_on)
		rc = insert(s, st, err, "idiidd", id, r->key_on_at_s, (s64)r->agg_ops,
			    (s64)r->agg_skipped, r->clamped_up_s, r->clamped_down_s);
	else
		rc = insert(s, st, err, "iniidd", id, (s64)r->agg_ops, (s64)r->agg_skipped,
			    r->clamped_up_s, r->clamped_down_s);
	sqlite3_finalize(st);
	return rc;
}

/* kernel_overhead (one row per operation) and kernel_overhead_runs rows (issue #16). */
static int write_overhead(struct store *s, const struct run_result *r, s64 id,
			  struct gs_error *err)
{
	const struct run_overhead *o = &r->ovh;
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = prepare(s, "INSERT INTO kernel_overhead VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int i = 0; i < RUN_KERNEL_OPS && !rc; i++)
		rc = insert(s, st, err, "itid", id, run_kernel_op_names[i], (s64)o->calls[i],
			    o->time_s[i]);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO kernel_overhead_runs VALUES (?, ?, ?, ?)", &st,
				err)))
		return rc;
	rc = insert(s, st, err, "iidd", id, (s64)o->costed, o->total_s, o->charged_s);
	sqlite3_finalize(st);
	return rc;
}

/* timeline, work, spans and (work timing) activity rows. */
static int write_timeline(struct store *s, const struct run_result *r, s64 id, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if ((rc = prepare(s, "INSERT INTO timeline VALUES (?, ?, ?, ?, ?, ?, ?, ?)", &st,
				err)))
		return rc;
	for (size_t i = 0; i < r->nr_timeline && !rc; i++) {
		const struct run_timeline_point *tp = &r->timeline[i];
		rc = insert(s, st, err, "iidiiiii", id, (s64)i, tp->time_s, (s64)tp->policy,
			    (s64)tp->freq_khz, (s64)tp->traced_khz, (s64)tp->util,
			    (s64)tp->capacity);
	}
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO work VALUES (?, ?, ?, ?)", &st, err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus && !rc; cpu++)
		rc = insert(s, st, err, "iidd", id, (s64)cpu, r->work_in_s[cpu], r->work_out_s[cpu]);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO spans VALUES (?, ?, ?)", &st, err)))
		return rc;
	rc = insert(s, st, err, "idd", id, r->traced_span_s, r->stretch);
	sqlite3_finalize(st);
	if (rc || strcmp(r->timing, "work") != 0)
		return rc;
	if ((rc = prepare(s, "INSERT INTO activity VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			  &st, err)))
		return rc;
	rc = insert_activity(s, st, err, id, -1, &r->act_total);
	for (int i = 0; i < r->nr_tasks && !rc; i++)
		if (r->tasks[i].act.activations)
			rc = insert_activity(s, st, err, id, i, &r->tasks[i].act);
	sqlite3_finalize(st);
	return rc;
}

/* Every row of the run but its runs row, in the tables' fixed order. */
/* --placement eas: the run's figures, and per task (task_stats seq) its runtime per cluster and
 * its migrations. Nothing for traced placement. */
static int write_placement(struct store *s, const struct run_result *r, s64 id,
			   struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (strcmp(r->placement, "eas") != 0)
		return 0;
	if ((rc = prepare(s, "INSERT INTO placement VALUES (?, ?, ?, ?, ?, ?)", &st, err)))
		return rc;
	rc = insert(s, st, err, "itiiid", id, r->placement, (s64)r->placement_wakeups,
		    (s64)r->placement_migrations, (s64)r->misfit_pulls, r->rd_overutilized_s);
	sqlite3_finalize(st);
	if (rc || (rc = prepare(s, "INSERT INTO placement_tasks VALUES (?, ?, ?, ?, ?)", &st, err)))
		return rc;
	for (int i = 0; i < r->nr_tasks && !rc; i++)
		for (int c = 0; c < r->nr_clusters && !rc; c++)
			rc = insert(s, st, err, "iiidi", id, (s64)i, (s64)c,
				    r->tasks[i].cluster_runtime_s[c], (s64)r->tasks[i].migrations);
	sqlite3_finalize(st);
	if (rc || (rc = store_exec(s, PLACEMENT_SLICES_TABLE, "cannot write", err)) ||
	    (rc = prepare(s, "INSERT INTO placement_slices VALUES (?, ?, ?, ?, ?, ?)", &st, err)))
		return rc;
	for (size_t i = 0; i < r->nr_slices && !rc; i++)
		rc = insert(s, st, err, "iiiidd", id, (s64)i, (s64)r->slices[i].pid,
			    (s64)r->slices[i].cpu, r->slices[i].start_s, r->slices[i].end_s);
	sqlite3_finalize(st);
	return rc;
}

static int write_rows(struct store *s, const struct run_result *r, s64 id, struct gs_error *err)
{
	int rc;

	if ((rc = write_energy(s, r, id, err)) || (rc = write_stats(s, r, id, err)) ||
	    (rc = write_placement(s, r, id, err)) || (rc = write_overhead(s, r, id, err)))
		return rc;
	return write_timeline(s, r, id, err);
}

static int insert_activity(struct store *s, sqlite3_stmt *st, struct gs_error *err, s64 id,
			   s64 seq, const struct run_activity *a)
{
	return insert(s, st, err, "iiidddddddddd", id, seq, (s64)a->activations, a->throughput,
		      a->latency.mean_s, a->latency.p95_s, a->latency.max_s, a->response.mean_s,
		      a->response.p95_s, a->response.max_s, a->lateness.mean_s, a->lateness.p95_s,
		      a->lateness.max_s);
}

bool result_in_limits(const struct run_result *r)
{
	if (r->nr_cpus < 0 || r->nr_cpus > GS_MAX_CPUS || r->nr_clusters < 0 ||
	    r->nr_clusters > GS_MAX_CLUSTERS || r->nr_tasks < 0 || (r->nr_tasks && !r->tasks) ||
	    (r->nr_timeline && !r->timeline) || (r->nr_slices && !r->slices))
		return false;
	for (int c = 0; c < r->nr_clusters; c++)
		if (r->pol[c].nr_opps < 0 || r->pol[c].nr_opps > GS_MAX_OPPS)
			return false;
	return true;
}

int store_write_run(struct store *s, const struct run_result *r, s64 *run_id, struct gs_error *err)
{
	sqlite3_stmt *st = NULL;
	char when[32];
	s64 id;
	int rc;

	if (!result_in_limits(r))
		return gs_error_set(err, GS_EINTERNAL, "'%s': run result out of limits", s->path);
	if ((rc = store_exec(s, "BEGIN IMMEDIATE", "cannot write the run", err)))
		return rc;
	created_at(when, sizeof(when));
	if (!s->plugin_cols && r->governor_path[0]) {
		rc = gs_error_set(err, GS_ESQL,
				  "'%s': cannot add the governor_path column to an older results "
				  "database (read-only?)",
				  s->path);
		goto out_rollback;
	}
	if ((rc = prepare(s,
			  s->plugin_cols
				  ? "INSERT INTO runs (label, trace, trace_sha256, platform, governor,"
				    " timing, util_source, power_model, power_unit, policy, params,"
				    " kernel, start_s, span_s, events, nr_cpus, nr_clusters, notes,"
				    " govsim_version, created_at, governor_path, governor_sha256)"
				    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
				    " ?, ?, ?)"
				  : "INSERT INTO runs (label, trace, trace_sha256, platform, governor,"
				    " timing, util_source, power_model, power_unit, policy, params,"
				    " kernel, start_s, span_s, events, nr_cpus, nr_clusters, notes,"
				    " govsim_version, created_at)"
				    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
				    " ?)",
			  &st, err)))
		goto out_rollback;
	/* the two last values are bound only when the statement has them */
	rc = insert(s, st, err, s->plugin_cols ? "ttttttttttttddiiittttt" : "ttttttttttttddiiittt",
		    r->label, r->trace, r->trace_sha256, r->platform, r->governor, r->timing,
		    r->util_source, r->power_model, r->power_unit, r->policy, r->params, r->kernel,
		    r->start_s, r->span_s, (s64)r->events, (s64)r->nr_cpus, (s64)r->nr_clusters,
		    r->notes, r->govsim_version, when, r->governor_path, r->governor_sha256);
	sqlite3_finalize(st);
	if (rc)
		goto out_rollback;
	id = sqlite3_last_insert_rowid(s->db);
	if ((rc = write_rows(s, r, id, err)))
		goto out_rollback;
	if ((rc = store_exec(s, "COMMIT", "cannot write the run", err)))
		goto out_rollback;
	*run_id = id;
	return 0;

out_rollback:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}
