/*
 * finish.c - the end of a replay: finish the work timing, close the open idle intervals, and
 * fill struct run_result (spans, residency, energy from power/energy.c, tasks, activity,
 * timeline, uclamp figures, notes).
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "power/energy.h"
#include "power/power.h"
#include "version.h"

struct collect_ctx {
	struct sim *s;
	struct run_result *r;
	int cap;
	bool oom;
};

static void collect_task(void *ctx, struct task *p)
{
	struct collect_ctx *cc = ctx;
	struct sim_task *st = sim_task_data(p);
	struct run_task_result *t;

	if (!st || p->is_governor || p->pid == 0)
		return;
	if (cc->r->nr_tasks == cc->cap) {
		int n = cc->cap ? cc->cap * 2 : 64;
		void *q = realloc(cc->r->tasks, (size_t)n * sizeof(*cc->r->tasks));
		if (!q) {
			cc->oom = true;
			return;
		}
		cc->r->tasks = q;
		cc->cap = n;
	}
	t = &cc->r->tasks[cc->r->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = p->pid;
	snprintf(t->comm, sizeof(t->comm), "%s", p->comm);
	t->runtime_s = ns_to_s(st->runtime_ns);
	if (cc->s->work)
		work_task_result(cc->s->work, p->pid, &t->delay_s, &t->max_delay_s, &t->act);
	for (int c = 0; c < cc->s->plat->nr_clusters; c++)
		t->cluster_runtime_s[c] = ns_to_s(st->runtime_cl_ns[c]);
	t->migrations = st->migrations;
}

/* Close the open hindsight idle intervals at end. */
static void finish_idle(struct sim *s, u64 end)
{
	const struct platform *p = s->plat;

	for (int c = 0; c < p->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = cl->pc;
		if (s->cfg.has_traced_idle || pc->nr_idle == 0)
			continue;
		for (int i = 0; i < pc->nr_cpus; i++) {
			struct sim_cpu *sc = &s->cpu[pc->cpus[i]];
			if (!sc->busy && end > sc->idle_since_ns)
				sc->idle_ns_state[power_pick_idle_state(pc, end - sc->idle_since_ns,
									  false)] +=
					end - sc->idle_since_ns;
		}
		if (cl->all_idle && end > cl->all_idle_since_ns)
			cl->idle_ns_state[power_pick_idle_state(pc, end - cl->all_idle_since_ns,
								  true)] += end - cl->all_idle_since_ns;
	}
}

/* The run's span and what it replayed with. */
static void finish_identity(struct sim *s, struct run_result *r, u64 span)
{
	const struct platform *p = s->plat;

	r->start_s = ns_to_s(s->measured_from);
	r->span_s = ns_to_s(span);
	r->traced_span_s = ns_to_s(s->t_last > s->measured_from ? s->t_last - s->measured_from : 0);
	r->stretch = r->traced_span_s > 0 ? r->span_s / r->traced_span_s : 1.0;
	r->events = s->events;
	snprintf(r->platform, sizeof(r->platform), "%s", p->name);
	snprintf(r->governor, sizeof(r->governor), "%s", s->cfg.gov->name);
	snprintf(r->governor_path, sizeof(r->governor_path), "%s",
		 s->cfg.gov->path ? s->cfg.gov->path : "");
	snprintf(r->governor_sha256, sizeof(r->governor_sha256), "%s",
		 s->cfg.gov->sha256 ? s->cfg.gov->sha256 : "");
	snprintf(r->timing, sizeof(r->timing), "%s",
		 s->cfg.opts.timing == SIM_TIMING_WORK ? "work" : "traced");
	snprintf(r->util_source, sizeof(r->util_source), "%s",
		 s->cfg.opts.util_source == SIM_UTIL_TRACE ? "trace" : "emulated");
	snprintf(r->power_model, sizeof(r->power_model), "%s",
		 power_model_name(s->cfg.opts.power_model));
	snprintf(r->power_unit, sizeof(r->power_unit), "%s",
		 s->cfg.opts.power_model != POWER_MODEL_COSTS ? "J"
							      : power_unit(p, s->cfg.opts.power_model));
	snprintf(r->kernel, sizeof(r->kernel), "%s", s->kp->name);
	snprintf(r->placement, sizeof(r->placement), "%s", "traced"); /* the driver's: "eas" */
	snprintf(r->govsim_version, sizeof(r->govsim_version), "%s", GOVSIM_VERSION);
}

/* r->notes: the loop's own, then the scheduler model's, the kernel profile's, the work
 * backlog's, the observers' notes hooks' (the placement driver's) and the warm-up's. 0, or
 * GS_ENOMEM. */
static int finish_notes(struct sim *s, struct run_result *r, u64 end)
{
	int ret = 0;

	r->notes[0] = '\0';
	if (!s->any_traced_freq && s->cfg.opts.timing == SIM_TIMING_WORK)
		run_result_note(r, "the trace has no cpu_frequency events: traced work assumed at "
				   "max frequency");
	if (s->notes[0])
		run_result_note(r, "%s", s->notes);
	{
		struct sched_stats st;
		sched_get_stats(s->sched, &st);
		r->peak_task_states = st.peak_live_tasks;
		u64 disagreed = st.switch_prev_mismatch + st.switch_next_elsewhere +
				(s->work ? work_disagreements(s->work) : 0);
		if (disagreed)
			run_result_note(r,
					"%" PRIu64 " sched_switch events disagreed with the model "
					"(events lost by the tracer?), the trace was trusted",
					disagreed);
		if (s->duplicates)
			run_result_note(r,
					"%" PRIu64 " duplicate events (the same event twice at one "
					"time on one CPU) ignored",
					s->duplicates);
	}
	if (s->cfg.kernel_note || s->uc.no_static_key)
		run_result_note(r, "%s%s%s", s->cfg.kernel_note ? s->cfg.kernel_note : "",
				s->cfg.kernel_note && s->uc.no_static_key ? "; " : "",
				s->uc.no_static_key ? "this kernel has no uclamp static key: "
						      "clamp aggregation always runs"
						    : "");
	if (s->work) {
		struct strbuf note = STRBUF_INIT;
		ret = work_backlog_note(s->work, &note);
		if (note.len && !ret)
			run_result_note(r, "%s", strbuf_str(&note));
		strbuf_free(&note);
	}
	sim_observers_notes(&s->obs, s, end, r);
	if (s->cfg.opts.warmup_ns)
		run_result_note(r, "the first %" PRIu64 " ms are a warm-up, not measured",
				(u64)(s->cfg.opts.warmup_ns / NSEC_PER_MSEC));
	return ret;
}

/* Energy, residency and frequency per policy (the timeline's util bucket cut at end). */
static void finish_policies(struct sim *s, struct run_result *r, u64 end, u64 span)
{
	const struct platform *p = s->plat;

	r->nr_cpus = p->nr_cpus;
	r->nr_clusters = p->nr_clusters;
	r->energy_total = 0;
	for (int c = 0; c < p->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = cl->pc;
		struct run_policy_result *pr = &r->pol[c];
		double cl_energy = 0, freq_sum = 0;

		for (int i = 0; i < pc->nr_cpus; i++) {
			int cpu = pc->cpus[i];
			struct sim_cpu *sc = &s->cpu[cpu];
			double e = energy_cpu(p, s->cfg.opts.power_model, cpu, sc->busy_ns_opp,
					      sc->idle_ns_state);
			r->energy_cpu[cpu] = e;
			cl_energy += e;
			pr->busy_s += ns_to_s(sc->busy_ns);
		}
		cl_energy = energy_cluster_add(cl_energy, p, s->cfg.opts.power_model, c, cl->busy_ns_opp,
					       cl->idle_ns_state);
		r->energy_cluster[c] = cl_energy;
		r->energy_total += cl_energy;

		pr->policy = pc->cpus[0];
		pr->cluster = c;
		pr->nr_opps = pc->nr_opps;
		for (int k = 0; k < pc->nr_opps; k++) {
			pr->freq_khz[k] = pc->opps[k].freq_khz;
			pr->residency_s[k] = ns_to_s(cl->residency_ns[k]);
			freq_sum += (double)pc->opps[k].freq_khz * (double)cl->residency_ns[k];
		}
		pr->transitions = cl->transitions;
		/* a cluster nothing ran on has no average frequency to speak of:
		 * NAN, "no activity" in the summary, NULL in the database, left out of compare */
		pr->avg_freq_khz = pr->busy_s <= 0 ? NAN
				   : span	     ? freq_sum / (double)span
						     : cl->pol.cur_khz;
		pr->overutilized_s = ns_to_s(s->overutil_ns[c]);
		sim_timeline_end(cl, end);
	}
}

/* Clamp aggregation, work in and out, the tasks (the live ones, then the observers' task rows:
 * the ones that died) and their activity. */
static int finish_clamps_tasks(struct sim *s, struct run_result *r, u64 end, u64 span,
			       struct gs_error *err)
{
	const struct platform *p = s->plat;
	struct collect_ctx cc = {s, r, 0, false};
	int ret;

	r->key_on = s->uc.stats.key_on;
	r->key_on_at_s = s->uc.stats.key_on ? ns_to_s(s->uc.stats.key_on_at_ns - s->t0) : 0;
	r->agg_ops = s->uc.stats.agg_ops - s->agg_ops_base;
	r->agg_skipped = s->uc.stats.agg_skipped - s->agg_skipped_base;
	r->clamped_up_s = ns_to_s(s->clamped_up_ns);
	r->clamped_down_s = ns_to_s(s->clamped_down_ns);

	if (s->work)
		for (int c = 0; c < p->nr_cpus; c++) {
			double in, out;
			work_totals(s->work, c, &in, &out);
			r->work_in_s[c] = in / (double)NSEC_PER_SEC;
			r->work_out_s[c] = out / (double)NSEC_PER_SEC;
		}

	sched_for_each_task(s->sched, collect_task, &cc);
	if (cc.oom)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ret = sim_observers_finish_tasks(&s->obs, s, end, r, err);
	if (ret)
		return ret;
	if (s->work) {
		r->peak_work_tasks = work_peak_tasks(s->work);
		work_total_activity(s->work, &r->act_total);
		r->act_total.throughput = span ? (double)r->act_total.activations / r->span_s : 0;
		for (int i = 0; i < r->nr_tasks; i++)
			r->tasks[i].act.throughput =
				span ? (double)r->tasks[i].act.activations / r->span_s : 0;
	}
	return 0;
}

int sim_finish(struct sim *s, struct run_result *r, struct gs_error *err)
{
	u64 end, span;
	int ret;

	if ((ret = sim_feed_held(s, err)))
		return ret;
	if (!s->started)
		return gs_error_set(err, GS_ETRACE, "the trace has no usable event");
	if (s->work) {
		ret = work_finish(s->work, err);
		if (ret)
			return ret;
	}
	/* the replay covers the trace to its last event (cpu_idle, markers, ... after the last
	 * sched_switch included) and, in work timing, to the end of the last emulated work */
	end = gs_max_u64(s->now, s->t_last);
	ret = sim_advance(s, end, err);
	if (ret)
		return ret;
	if (s->warmup_at != NO_TIME)
		return gs_error_set(err, GS_EARG,
				    "--warmup-ms %" PRIu64 ": the replay is only %.3f ms long",
				    (u64)(s->cfg.opts.warmup_ns / NSEC_PER_MSEC),
				    (double)(end - s->t0) / (double)NSEC_PER_MSEC);
	sim_cluster_flush_all(s);
	finish_idle(s, end);
	span = end - s->measured_from;
	finish_identity(s, r, span);
	ret = finish_notes(s, r, end);
	if (ret)
		return gs_error_set(err, ret, "out of memory for the run's notes");
	sim_gov_start_notes(s, r);
	finish_policies(s, r, end, span);
	ret = sim_observers_finish(&s->obs, s, end, r, err);
	if (ret)
		return ret;
	ret = sim_timeline_finish(s, r, err);
	if (ret)
		return ret;
	return finish_clamps_tasks(s, r, end, span, err);
}
