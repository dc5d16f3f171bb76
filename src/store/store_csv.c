/*
 * store_csv.c - a run's tables as CSV files, the database's twin (same columns, same rows);
 * see store.h.
 */
#include "store/store_priv.h"

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

/* The header line: column names, comma separated (no quoting needed). */
static int csv_open(struct csv_out *o, const char *dir, const char *name, const char *header,
		    char *path, size_t size, struct gs_error *err)
{
	snprintf(path, size, "%s/%s", dir, name);
	o->f = fopen(path, "w");
	if (!o->f)
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", path, strerror(errno));
	fprintf(o->f, "%s\n", header);
	o->first = true;
	return 0;
}

static int csv_close(struct csv_out *o, const char *path, struct gs_error *err)
{
	bool bad = ferror(o->f);
	if (fclose(o->f) != 0 || bad)
		return gs_error_set(err, GS_EIO, "'%s': write error", path);
	return 0;
}

int store_write_csv(const struct run_result *r, s64 run_id, const char *dir, struct gs_error *err)
{
	struct csv_out o = {NULL, true};
	char path[4096];
	int rc;

	if (!result_in_limits(r))
		return gs_error_set(err, GS_EINTERNAL, "'%s': run result out of limits", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", dir, strerror(errno));

	if ((rc = csv_open(&o, dir, "runs.csv",
			   "run_id,label,trace,trace_sha256,platform,governor,timing,util_source,"
			   "power_model,power_unit,policy,params,kernel,start_s,span_s,events,"
			   "nr_cpus,nr_clusters,notes,govsim_version,governor_path,governor_sha256",
			   path, sizeof(path), err)))
		return rc;
	csv_int(&o, run_id);
	csv_text(&o, r->label);
	csv_text(&o, r->trace);
	csv_text(&o, r->trace_sha256);
	csv_text(&o, r->platform);
	csv_text(&o, r->governor);
	csv_text(&o, r->timing);
	csv_text(&o, r->util_source);
	csv_text(&o, r->power_model);
	csv_text(&o, r->power_unit);
	csv_text(&o, r->policy);
	csv_text(&o, r->params);
	csv_text(&o, r->kernel);
	csv_double(&o, r->start_s);
	csv_double(&o, r->span_s);
	csv_uint(&o, r->events);
	csv_int(&o, r->nr_cpus);
	csv_int(&o, r->nr_clusters);
	csv_text(&o, r->notes);
	csv_text(&o, r->govsim_version);
	csv_text(&o, r->governor_path);
	csv_text(&o, r->governor_sha256);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "energy.csv", "run_id,scope,name,joules", path, sizeof(path),
			   err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		char name[32];
		snprintf(name, sizeof(name), "cpu%d", cpu);
		csv_int(&o, run_id);
		csv_text(&o, "cpu");
		csv_text(&o, name);
		csv_double(&o, r->energy_cpu[cpu]);
		csv_eol(&o);
	}
	for (int c = 0; c < r->nr_clusters; c++) {
		char name[32];
		snprintf(name, sizeof(name), "cluster%d", c);
		csv_int(&o, run_id);
		csv_text(&o, "cluster");
		csv_text(&o, name);
		csv_double(&o, r->energy_cluster[c]);
		csv_eol(&o);
	}
	csv_int(&o, run_id);
	csv_text(&o, "total");
	csv_text(&o, "total");
	csv_double(&o, r->energy_total);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "residency.csv", "run_id,policy,freq_khz,seconds", path,
			   sizeof(path), err)))
		return rc;
	for (int c = 0; c < r->nr_clusters; c++)
		for (int k = 0; k < r->pol[c].nr_opps; k++) {
			csv_int(&o, run_id);
			csv_int(&o, r->pol[c].policy);
			csv_uint(&o, r->pol[c].freq_khz[k]);
			csv_double(&o, r->pol[c].residency_s[k]);
			csv_eol(&o);
		}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "policy_stats.csv",
			   "run_id,policy,cluster,transitions,avg_freq_khz,busy_s,overutilized_s",
			   path, sizeof(path), err)))
		return rc;
	for (int c = 0; c < r->nr_clusters; c++) {
		const struct run_policy_result *pr = &r->pol[c];
		csv_int(&o, run_id);
		csv_int(&o, pr->policy);
		csv_int(&o, pr->cluster);
		csv_uint(&o, pr->transitions);
		if (isnan(pr->avg_freq_khz))
			csv_null(&o); /* no activity: NULL, as in the database */
		else
			csv_double(&o, pr->avg_freq_khz);
		csv_double(&o, pr->busy_s);
		csv_double(&o, pr->overutilized_s);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "task_stats.csv",
			   "run_id,seq,pid,comm,runtime_s,delay_s,max_delay_s", path, sizeof(path),
			   err)))
		return rc;
	for (int i = 0; i < r->nr_tasks; i++) {
		const struct run_task_result *t = &r->tasks[i];
		char comm[TASK_COMM_LEN];
		snprintf(comm, sizeof(comm), "%s", t->comm);
		csv_int(&o, run_id);
		csv_int(&o, i);
		csv_int(&o, t->pid);
		csv_text(&o, comm);
		csv_double(&o, t->runtime_s);
		csv_double(&o, t->delay_s);
		csv_double(&o, t->max_delay_s);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "uclamp_stats.csv",
			   "run_id,key_on_at_s,agg_ops,agg_skipped,clamped_up_s,clamped_down_s",
			   path, sizeof(path), err)))
		return rc;
	csv_int(&o, run_id);
	if (r->key_on)
		csv_double(&o, r->key_on_at_s);
	else
		csv_null(&o);
	csv_uint(&o, r->agg_ops);
	csv_uint(&o, r->agg_skipped);
	csv_double(&o, r->clamped_up_s);
	csv_double(&o, r->clamped_down_s);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "timeline.csv",
			   "run_id,seq,time_s,policy,freq_khz,traced_khz,util,capacity", path,
			   sizeof(path), err)))
		return rc;
	for (size_t i = 0; i < r->nr_timeline; i++) {
		const struct run_timeline_point *tp = &r->timeline[i];
		csv_int(&o, run_id);
		csv_uint(&o, i);
		csv_double(&o, tp->time_s);
		csv_int(&o, tp->policy);
		csv_uint(&o, tp->freq_khz);
		csv_uint(&o, tp->traced_khz);
		csv_uint(&o, tp->util);
		csv_uint(&o, tp->capacity);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "work.csv", "run_id,cpu,work_in_s,work_out_s", path,
			   sizeof(path), err)))
		return rc;
	for (int cpu = 0; cpu < r->nr_cpus; cpu++) {
		csv_int(&o, run_id);
		csv_int(&o, cpu);
		csv_double(&o, r->work_in_s[cpu]);
		csv_double(&o, r->work_out_s[cpu]);
		csv_eol(&o);
	}
	if ((rc = csv_close(&o, path, err)))
		return rc;

	if ((rc = csv_open(&o, dir, "spans.csv", "run_id,traced_span_s,stretch", path,
			   sizeof(path), err)))
		return rc;
	csv_int(&o, run_id);
	csv_double(&o, r->traced_span_s);
	csv_double(&o, r->stretch);
	csv_eol(&o);
	if ((rc = csv_close(&o, path, err)) || strcmp(r->timing, "work") != 0)
		return rc;

	if ((rc = csv_open(&o, dir, "activity.csv",
			   "run_id,seq,activations,throughput,latency_mean_s,latency_p95_s,"
			   "latency_max_s,response_mean_s,response_p95_s,response_max_s,"
			   "lateness_mean_s,lateness_p95_s,lateness_max_s",
			   path, sizeof(path), err)))
		return rc;
	for (int i = -1; i < r->nr_tasks; i++) {
		const struct run_activity *a = i < 0 ? &r->act_total : &r->tasks[i].act;
		if (i >= 0 && !a->activations)
			continue;
		csv_int(&o, run_id);
		csv_int(&o, i);
		csv_uint(&o, a->activations);
		csv_double(&o, a->throughput);
		csv_double(&o, a->latency.mean_s);
		csv_double(&o, a->latency.p95_s);
		csv_double(&o, a->latency.max_s);
		csv_double(&o, a->response.mean_s);
		csv_double(&o, a->response.p95_s);
		csv_double(&o, a->response.max_s);
		csv_double(&o, a->lateness.mean_s);
		csv_double(&o, a->lateness.p95_s);
		csv_double(&o, a->lateness.max_s);
		csv_eol(&o);
	}
	return csv_close(&o, path, err);
}
