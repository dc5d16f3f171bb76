/* run_json.c - a run as JSON; see run_json.h. */
#include "report/run_json.h"

#include "report/placement.h"
#include "report/kernel_overhead.h"

#include <math.h>
#include <string.h>

void report_json_notes(struct json_out *j, const char *notes)
{
	const char *p = notes;
	char buf[sizeof(((struct run_result *)0)->notes)];

	json_out_begin_array(j, "notes");
	while (*p) {
		const char *sep = strstr(p, "; ");
		size_t len = sep ? (size_t)(sep - p) : strlen(p);
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		json_out_string(j, NULL, buf);
		p += len + (sep ? 2 : 0);
		if (!sep)
			break;
	}
	json_out_end_array(j);
}

static void json_policies(struct json_out *j, const struct run_result *r)
{
	json_out_begin_array(j, "policies");
	for (int c = 0; c < r->nr_clusters; c++) {
		const struct run_policy_result *p = &r->pol[c];

		json_out_begin_object(j, NULL);
		json_out_int(j, "policy", p->policy);
		json_out_int(j, "cluster", p->cluster);
		json_out_bool(j, "active", !isnan(p->avg_freq_khz));
		json_out_number(j, "avg_khz", p->avg_freq_khz); /* null: no activity */
		json_out_int(j, "transitions", (long long)p->transitions);
		json_out_number(j, "busy_s", p->busy_s);
		json_out_number(j, "overutilized_s", p->overutilized_s);
		json_out_begin_array(j, "residency");
		for (int k = 0; k < p->nr_opps; k++) {
			json_out_begin_object(j, NULL);
			json_out_int(j, "khz", p->freq_khz[k]);
			json_out_number(j, "s", p->residency_s[k]);
			json_out_end_object(j);
		}
		json_out_end_array(j);
		json_out_end_object(j);
	}
	json_out_end_array(j);
}

static void json_dist(struct json_out *j, const char *key, const struct run_dist *d)
{
	json_out_begin_object(j, key);
	json_out_number(j, "mean_s", d->mean_s);
	json_out_number(j, "p95_s", d->p95_s);
	json_out_number(j, "max_s", d->max_s);
	json_out_end_object(j);
}

/* Work timing's activations (core/result.h struct run_activity); null in traced timing. */
static void json_activity(struct json_out *j, const char *key, const struct run_result *r,
			  const struct run_activity *a)
{
	if (strcmp(r->timing, "work") != 0) {
		json_out_null(j, key);
		return;
	}
	json_out_begin_object(j, key);
	json_out_int(j, "activations", (long long)a->activations);
	json_out_number(j, "throughput_per_s", a->throughput);
	json_dist(j, "latency", &a->latency);
	json_dist(j, "response", &a->response);
	json_dist(j, "lateness", &a->lateness);
	json_out_end_object(j);
}

static void json_tasks(struct json_out *j, const struct run_result *r)
{
	const struct run_task_result *worst;
	double delay = report_total_delay(r, &worst);

	json_out_begin_object(j, "tasks");
	json_out_int(j, "count", r->nr_tasks);
	json_out_number(j, "total_delay_s", delay);
	if (worst) {
		json_out_begin_object(j, "worst");
		json_out_int(j, "pid", worst->pid);
		json_out_string(j, "comm", worst->comm);
		json_out_number(j, "max_delay_s", worst->max_delay_s);
		json_out_end_object(j);
	} else {
		json_out_null(j, "worst");
	}
	json_out_begin_array(j, "list");
	for (int i = 0; i < r->nr_tasks; i++) {
		const struct run_task_result *t = &r->tasks[i];
		json_out_begin_object(j, NULL);
		json_out_int(j, "pid", t->pid);
		json_out_string(j, "comm", t->comm);
		json_out_number(j, "runtime_s", t->runtime_s);
		json_out_number(j, "delay_s", t->delay_s);
		json_out_number(j, "max_delay_s", t->max_delay_s);
		json_activity(j, "activity", r, &t->act);
		json_out_end_object(j);
	}
	json_out_end_array(j);
	json_out_end_object(j);
}

static void json_uclamp(struct json_out *j, const struct run_result *r)
{
	json_out_begin_object(j, "uclamp");
	json_out_string(j, "static_key", r->key_on ? "on" : "off");
	if (r->key_on)
		json_out_number(j, "on_since_s", r->key_on_at_s);
	else
		json_out_null(j, "on_since_s");
	json_out_int(j, "aggregations_run", (long long)r->agg_ops);
	json_out_int(j, "aggregations_skipped", (long long)r->agg_skipped);
	json_out_number(j, "clamped_up_s", r->clamped_up_s);
	json_out_number(j, "clamped_down_s", r->clamped_down_s);
	json_out_begin_array(j, "actions");
	for (int i = 0; i < r->nr_actions; i++) {
		const struct run_action_result *a = &r->actions[i];
		json_out_begin_object(j, NULL);
		json_out_string(j, "action", a->text);
		json_out_string(j, "origin", a->origin);
		json_out_int(j, "line", a->line);
		json_out_number(j, "at_s", a->at_s);
		json_out_bool(j, "ran", a->ran);
		if (a->selects_tasks) {
			json_out_int(j, "matched", a->matched);
			json_out_int(j, "matched_later", a->matched_later);
			json_out_int(j, "rejected", a->rejected);
		} else {
			json_out_null(j, "matched");
			json_out_null(j, "matched_later");
			json_out_null(j, "rejected");
		}
		json_out_end_object(j);
	}
	json_out_end_array(j);
	json_out_end_object(j);
}

void report_run_json_members(struct json_out *j, const struct run_result *r)
{
	json_out_string(j, "govsim_version", r->govsim_version);
	json_out_string(j, "trace", r->trace);
	json_out_string(j, "label", r->label);
	json_out_string(j, "platform", r->platform);
	json_out_string(j, "governor", r->governor);
	json_out_string(j, "kernel", r->kernel);
	json_out_string(j, "timing", r->timing);
	json_out_string(j, "util_source", r->util_source);
	json_out_string(j, "power_model", r->power_model);
	json_out_string(j, "energy_unit", r->power_unit[0] ? r->power_unit : "J");
	json_out_string(j, "params", r->params);
	json_out_number(j, "start_s", r->start_s);
	json_out_number(j, "traced_span_s", r->traced_span_s);
	json_out_number(j, "span_s", r->span_s);
	json_out_number(j, "stretch", r->stretch);
	json_out_int(j, "events", (long long)r->events);
	json_out_number(j, "energy_j", r->energy_total);
	json_out_number(j, "avg_power_w", r->span_s > 0 ? r->energy_total / r->span_s : NAN);
	json_out_begin_array(j, "energy_by_cluster");
	for (int c = 0; c < r->nr_clusters; c++) {
		json_out_begin_object(j, NULL);
		json_out_int(j, "cluster", c);
		json_out_int(j, "policy", r->pol[c].policy);
		json_out_number(j, "energy_j", r->energy_cluster[c]);
		json_out_end_object(j);
	}
	json_out_end_array(j);
	json_policies(j, r);
	json_activity(j, "activity", r, &r->act_total);
	json_tasks(j, r);
	report_placement_json(j, r);
	json_uclamp(j, r);
	kernel_overhead_json(j, r);
	report_json_notes(j, r->notes);
}

void report_run_json(FILE *out, const struct run_result *r, const struct summary_baselines *b)
{
	struct json_out j;

	json_out_init(&j, out);
	json_out_begin_object(&j, NULL);
	report_run_json_members(&j, r);
	if (b && b->present) {
		double delay = report_total_delay(r, NULL);
		json_out_begin_object(&j, "baselines");
		json_out_number(&j, "powersave_energy_j", b->powersave_energy);
		json_out_number(&j, "performance_energy_j", b->performance_energy);
		json_out_number(&j, "powersave_delay_s", b->powersave_delay_s);
		json_out_number(&j, "performance_delay_s", b->performance_delay_s);
		json_out_number(&j, "energy_position_pct",
			    report_position(r->energy_total, b->powersave_energy,
					    b->performance_energy));
		json_out_number(&j, "delay_position_pct",
			    report_position(delay, b->powersave_delay_s, b->performance_delay_s));
		if (strcmp(r->timing, "work") == 0) {
			json_out_number(&j, "powersave_response_p95_s",
					b->powersave_response_p95_s);
			json_out_number(&j, "performance_response_p95_s",
					b->performance_response_p95_s);
			json_out_number(&j, "response_p95_position_pct",
				    report_position(r->act_total.response.p95_s,
						    b->powersave_response_p95_s,
						    b->performance_response_p95_s));
		} else {
			json_out_null(&j, "powersave_response_p95_s");
			json_out_null(&j, "performance_response_p95_s");
			json_out_null(&j, "response_p95_position_pct");
		}
		json_out_end_object(&j);
	} else {
		json_out_null(&j, "baselines");
	}
	json_out_end_object(&j);
}
