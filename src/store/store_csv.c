/*
 * store_csv.c - a run's tables as CSV files, the database's twin (same columns, same rows);
 * see store.h.
 */
#include "store/store_priv.h"

#include "core/outfile.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
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

static void csv_text(struct csv_out *o, const char *s)
{
	csv_sep(o);
	csv_fwrite(o->f, s, strlen(s));
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

/* The files one run writes (one per table). */
#define CSV_MAX_FILES 10

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

static int csv_runs(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "runs.csv",
			   "run_id,label,trace,trace_sha256,platform,governor,timing,util_source,"
			   "power_model,power_unit,policy,params,kernel,start_s,span_s,events,"
			   "nr_cpus,nr_clusters,notes,govsim_version,governor_path,governor_sha256")))
		return rc;
	csv_int(o, w->run_id);
	csv_text(o, w->r->label);
	csv_text(o, w->r->trace);
	csv_text(o, w->r->trace_sha256);
	csv_text(o, w->r->platform);
	csv_text(o, w->r->governor);
	csv_text(o, w->r->timing);
	csv_text(o, w->r->util_source);
	csv_text(o, w->r->power_model);
	csv_text(o, w->r->power_unit);
	csv_text(o, w->r->policy);
	csv_text(o, w->r->params);
	csv_text(o, w->r->kernel);
	csv_double(o, w->r->start_s);
	csv_double(o, w->r->span_s);
	csv_uint(o, w->r->events);
	csv_int(o, w->r->nr_cpus);
	csv_int(o, w->r->nr_clusters);
	csv_text(o, w->r->notes);
	csv_text(o, w->r->govsim_version);
	csv_text(o, w->r->governor_path);
	csv_text(o, w->r->governor_sha256);
	csv_eol(o);
	return csv_close(w);
}

static int csv_energy(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "energy.csv", "run_id,scope,name,joules")))
		return rc;
	for (int cpu = 0; cpu < w->r->nr_cpus; cpu++) {
		char name[32];
		snprintf(name, sizeof(name), "cpu%d", cpu);
		csv_int(o, w->run_id);
		csv_text(o, "cpu");
		csv_text(o, name);
		csv_double(o, w->r->energy_cpu[cpu]);
		csv_eol(o);
	}
	for (int c = 0; c < w->r->nr_clusters; c++) {
		char name[32];
		snprintf(name, sizeof(name), "cluster%d", c);
		csv_int(o, w->run_id);
		csv_text(o, "cluster");
		csv_text(o, name);
		csv_double(o, w->r->energy_cluster[c]);
		csv_eol(o);
	}
	csv_int(o, w->run_id);
	csv_text(o, "total");
	csv_text(o, "total");
	csv_double(o, w->r->energy_total);
	csv_eol(o);
	return csv_close(w);
}

static int csv_residency(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "residency.csv", "run_id,policy,freq_khz,seconds")))
		return rc;
	for (int c = 0; c < w->r->nr_clusters; c++)
		for (int k = 0; k < w->r->pol[c].nr_opps; k++) {
			csv_int(o, w->run_id);
			csv_int(o, w->r->pol[c].policy);
			csv_uint(o, w->r->pol[c].freq_khz[k]);
			csv_double(o, w->r->pol[c].residency_s[k]);
			csv_eol(o);
		}
	return csv_close(w);
}

static int csv_policy_stats(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "policy_stats.csv",
			   "run_id,policy,cluster,transitions,avg_freq_khz,busy_s,overutilized_s")))
		return rc;
	for (int c = 0; c < w->r->nr_clusters; c++) {
		const struct run_policy_result *pr = &w->r->pol[c];
		csv_int(o, w->run_id);
		csv_int(o, pr->policy);
		csv_int(o, pr->cluster);
		csv_uint(o, pr->transitions);
		if (isnan(pr->avg_freq_khz))
			csv_null(o); /* no activity: NULL, as in the database */
		else
			csv_double(o, pr->avg_freq_khz);
		csv_double(o, pr->busy_s);
		csv_double(o, pr->overutilized_s);
		csv_eol(o);
	}
	return csv_close(w);
}

static int csv_task_stats(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "task_stats.csv", "run_id,seq,pid,comm,runtime_s,delay_s,max_delay_s")))
		return rc;
	for (int i = 0; i < w->r->nr_tasks; i++) {
		const struct run_task_result *t = &w->r->tasks[i];
		char comm[TASK_COMM_LEN];
		snprintf(comm, sizeof(comm), "%s", t->comm);
		csv_int(o, w->run_id);
		csv_int(o, i);
		csv_int(o, t->pid);
		csv_text(o, comm);
		csv_double(o, t->runtime_s);
		csv_double(o, t->delay_s);
		csv_double(o, t->max_delay_s);
		csv_eol(o);
	}
	return csv_close(w);
}

static int csv_uclamp_stats(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "uclamp_stats.csv",
			   "run_id,key_on_at_s,agg_ops,agg_skipped,clamped_up_s,clamped_down_s")))
		return rc;
	csv_int(o, w->run_id);
	if (w->r->key_on)
		csv_double(o, w->r->key_on_at_s);
	else
		csv_null(o);
	csv_uint(o, w->r->agg_ops);
	csv_uint(o, w->r->agg_skipped);
	csv_double(o, w->r->clamped_up_s);
	csv_double(o, w->r->clamped_down_s);
	csv_eol(o);
	return csv_close(w);
}

static int csv_timeline(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "timeline.csv",
			   "run_id,seq,time_s,policy,freq_khz,traced_khz,util,capacity")))
		return rc;
	for (size_t i = 0; i < w->r->nr_timeline; i++) {
		const struct run_timeline_point *tp = &w->r->timeline[i];
		csv_int(o, w->run_id);
		csv_uint(o, i);
		csv_double(o, tp->time_s);
		csv_int(o, tp->policy);
		csv_uint(o, tp->freq_khz);
		csv_uint(o, tp->traced_khz);
		csv_uint(o, tp->util);
		csv_uint(o, tp->capacity);
		csv_eol(o);
	}
	return csv_close(w);
}

static int csv_work(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "work.csv", "run_id,cpu,work_in_s,work_out_s")))
		return rc;
	for (int cpu = 0; cpu < w->r->nr_cpus; cpu++) {
		csv_int(o, w->run_id);
		csv_int(o, cpu);
		csv_double(o, w->r->work_in_s[cpu]);
		csv_double(o, w->r->work_out_s[cpu]);
		csv_eol(o);
	}
	return csv_close(w);
}

static int csv_spans(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "spans.csv", "run_id,traced_span_s,stretch")))
		return rc;
	csv_int(o, w->run_id);
	csv_double(o, w->r->traced_span_s);
	csv_double(o, w->r->stretch);
	csv_eol(o);
	return csv_close(w);
}

static int csv_activity(struct csv_run *w)
{
	struct csv_out *o = &w->o;
	int rc;

	if ((rc = csv_open(w, "activity.csv",
			   "run_id,seq,activations,throughput,latency_mean_s,latency_p95_s,"
			   "latency_max_s,response_mean_s,response_p95_s,response_max_s,"
			   "lateness_mean_s,lateness_p95_s,lateness_max_s")))
		return rc;
	for (int i = -1; i < w->r->nr_tasks; i++) {
		const struct run_activity *a = i < 0 ? &w->r->act_total : &w->r->tasks[i].act;
		if (i >= 0 && !a->activations)
			continue;
		csv_int(o, w->run_id);
		csv_int(o, i);
		csv_uint(o, a->activations);
		csv_double(o, a->throughput);
		csv_double(o, a->latency.mean_s);
		csv_double(o, a->latency.p95_s);
		csv_double(o, a->latency.max_s);
		csv_double(o, a->response.mean_s);
		csv_double(o, a->response.p95_s);
		csv_double(o, a->response.max_s);
		csv_double(o, a->lateness.mean_s);
		csv_double(o, a->lateness.p95_s);
		csv_double(o, a->lateness.max_s);
		csv_eol(o);
	}
	return csv_close(w);
}

/* Every table of the run, in the database's order; activity.csv for work timing only. */
static int csv_tables(struct csv_run *w)
{
	int rc;

	if ((rc = csv_runs(w)))
		return rc;
	if ((rc = csv_energy(w)))
		return rc;
	if ((rc = csv_residency(w)))
		return rc;
	if ((rc = csv_policy_stats(w)))
		return rc;
	if ((rc = csv_task_stats(w)))
		return rc;
	if ((rc = csv_uclamp_stats(w)))
		return rc;
	if ((rc = csv_timeline(w)))
		return rc;
	if ((rc = csv_work(w)))
		return rc;
	if ((rc = csv_spans(w)) || strcmp(w->r->timing, "work") != 0)
		return rc;
	return csv_activity(w);
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
