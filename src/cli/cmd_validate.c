/*
 * cmd_validate.c - `govsim validate TRACE`: how close the emulation is to the kernel that wrote
 * the trace, per kernel profile and per cpufreq policy:
 *   (a) per-decision agreement: for each kernel frequency change (cpu_frequency of the
 *       policy's first CPU), whether the emulated OPP equals the kernel's within a window
 *       (default one rate-limit period), with the timing error;
 *   (b) the time-weighted share of time the emulated OPP equals the traced one, counted only
 *       while a CPU of the policy runs a task, and over all the time (util emulated, and util
 *       from the trace's own util events when it has them);
 *   (c) energy at the emulated frequencies against energy at the traced ones (em power, the
 *       same busy time);
 *   (d) util reconstruction error: the trace's util signals against the emulated ones at the
 *       same instants, tasks alive before the trace apart (their history is missing).
 * --kernel all validates under every profile in one table; --explain prints each decision.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_opts.h"
#include "core/parse.h"
#include "report/json.h"

static const char validate_usage[] =
	"usage: govsim validate TRACE... [--platform NAME|FILE.sql] [--kernel NAME[,NAME...]|all]\n"
	"                       [--window-ms MS] [--fail-below METRIC=PCT]... [--explain]\n"
	"                       [--governor NAME] [--set KEY=VALUE]...\n"
	"                       [--util-source emulated|trace] [--timing traced|work]\n"
	"                       [--format F] [--strict] [--json]\n";

static const char validate_help[] =
	"\n"
	"Replays each TRACE in traced timing under each kernel profile asked for (default:\n"
	"the one the trace records, else v5.9; 'all' for every profile) and prints, per\n"
	"cpufreq policy:\n"
	"  kernel      the kernel's decisions: cpu_frequency events of the policy's first\n"
	"              CPU that change its frequency (the first one too when the start is\n"
	"              known: a lab recording, or --set start_freq=max)\n"
	"  emulated    the emulation's decisions: changes of its frequency in force\n"
	"  recall      the share of kernel decisions matched one to one by an emulated\n"
	"              change to the same OPP within the window (--window-ms, default one\n"
	"              rate-limit period, at least one tick); |dt| is the mean timing\n"
	"              error of the matches\n"
	"  precision   the share of emulated decisions matched by a kernel one\n"
	"  busy        share of the time a CPU of the policy runs a task where the emulated\n"
	"              OPP equals the traced one (time-weighted)\n"
	"  time        the same over all the time with a traced frequency; 'util trace'\n"
	"              replays with the trace's own util events (n/a without them)\n"
	"  E emu/trc   energy at the emulated frequencies over energy at the traced ones\n"
	"              (em power of the OPP x busy CPU time)\n"
	"and the trace's util signals (sched_pelt_*, sched_load_*, sched_util_est_*)\n"
	"against the emulated ones at the same instants, tasks alive before the trace\n"
	"apart (mean and max |error|, the share exact and within 10); with the lab's\n"
	"resolve_freq and idle_calls probes (tools/lab/record --probes), the util the\n"
	"kernel's schedutil read at each of its own evaluations (idle_calls marks them;\n"
	"one without resolve_freq read the cached raw frequency) against the emulated\n"
	"evaluation of that CPU (of its policy, where the policy is shared) within\n"
	"200 us (paired, util error, unpaired ones), and how often the paired ones of a\n"
	"single-CPU policy agree on the busy hold (the idle-entry count unchanged since\n"
	"the CPU's last evaluation); and the departures: 3 or more paired evaluations of\n"
	"a policy in a row whose util is more than 10 from the kernel's.\n"
	"--explain prints every decision: the emulation's last evaluation (util,\n"
	"clamp, target) and its OPP beside the kernel's, and each missed one's cause\n"
	"(early, path, no-update, util, late) and the departure it falls in; every\n"
	"departure (its first probe's trace line); and the first samples of each util\n"
	"signal that differ, with their trace line.\n"
	"--fail-below METRIC=PCT (recall, precision, busy, time, or energy: 100 minus\n"
	"the energy error in percent; 'decisions' is recall) exits 1 when a policy with\n"
	"data is below PCT under some profile.\n"
	"A trace with neither cpu_frequency nor util events has nothing to validate\n"
	"against: exit 3.\n"
	"Example:\n"
	"  govsim validate traces/juno-r0/sched_load/trace.dat --platform juno-r0 --kernel all\n"
	"\n"
	"exit status: 0 ok; 1 a policy below --fail-below, or a runtime failure; 2 bad\n"
	"command line; 3 a trace that does not exist, cannot be read or has nothing to\n"
	"validate against, or a bad platform\n";

static const char *const val_names[SIM_VAL__COUNT] = {
	[SIM_VAL_CPU_UTIL] = "cpu util_avg (root cfs_rq)",
	[SIM_VAL_CPU_UTIL_EST] = "cpu util_est.enqueued",
	[SIM_VAL_CPU_UTIL_RT] = "cpu util_rt",
	[SIM_VAL_TASK_UTIL] = "task util_avg (new tasks)",
	[SIM_VAL_TASK_UTIL_EST] = "task util_est.enqueued",
	[SIM_VAL_TASK_UTIL_EST_EWMA] = "task util_est.ewma",
	[SIM_VAL_TASK_UTIL_PRE] = "task util_avg (pre-trace)",
	[SIM_VAL_GOV_UTIL] = "cpu util at kernel's evals",
	[SIM_VAL_CPU_RUNNABLE] = "cpu runnable (root cfs_rq)",
	[SIM_VAL_CPU_LOAD] = "cpu load_avg (root cfs_rq)",
};

enum metric { METRIC_RECALL, METRIC_PRECISION, METRIC_BUSY, METRIC_TIME, METRIC_ENERGY,
	      METRIC__COUNT };
static const char *const metric_names[METRIC__COUNT] = {"recall", "precision", "busy", "time",
							"energy"};

struct validate_opts {
	u64 window_ns;
	bool explain;
	double fail_below[METRIC__COUNT]; /* < 0: not asked */
};

/* One profile's replays of one trace: [0] util emulated, [1] util from the trace. */
struct kernel_val {
	const struct kernel_profile *kp;
	struct sim_validation val[2];
	bool ran[2];
};

static int replay_validate(struct run_opts *o, const struct validate_opts *vo, const char *trace,
			   const struct kernel_profile *kp, enum sim_util_source us,
			   struct sim_validation *val)
{
	struct replay_spec spec = {0};
	struct run_result r;
	struct gs_error err;
	int status;

	gs_error_clear(&err);
	run_result_init(&r);
	spec.trace = trace;
	spec.trace_file = run_opts_trace_file(o, trace);
	spec.cache = run_opts_trace_cache(o, trace);
	/* the options as given (run_opts_parse refused the what-ifs validate cannot score);
	 * validate varies the util source and the kernel profile */
	spec.opts = o->sim;
	spec.opts.util_source = us;
	spec.opts.kernel = kp;
	spec.validation_out = val;
	spec.val_window_ns = vo->window_ns;
	spec.no_hash = true;
	status = replay_run(&spec, &r, &err);
	run_result_release(&r);
	if (status)
		return cli_report(&err);
	return 0;
}

static double pct(u64 a, u64 b)
{
	return b ? 100.0 * (double)a / (double)b : -1.0;
}

static void print_pct(double p, int width)
{
	if (p < 0)
		printf(" %*s", width, "-");
	else
		printf(" %*.1f%%", width - 1, p);
}

/* The trace's own util signals (tracepoints), not the lab's probes of the kernel's
 * evaluations, which a --util-source trace replay cannot use. */
static bool has_util_events(const struct sim_validation *v)
{
	for (int k = 0; k < SIM_VAL__COUNT; k++)
		if (k != SIM_VAL_GOV_UTIL && v->n[k])
			return true;
	return false;
}

static const char *const miss_names[SIM_MISS__COUNT] = {
	[SIM_MISS_NONE] = "-",
	[SIM_MISS_EARLY] = "early",
	[SIM_MISS_PATH] = "path",
	[SIM_MISS_NO_UPDATE] = "no-update",
	[SIM_MISS_UTIL] = "util",
	[SIM_MISS_LATE] = "late",
};
static const char *const miss_why[SIM_MISS__COUNT] = {
	[SIM_MISS_NONE] = "",
	[SIM_MISS_EARLY] = "the emulation was at this OPP already (changed more than a window before)",
	[SIM_MISS_PATH] = "the emulation ran at another OPP before: the paths had diverged",
	[SIM_MISS_NO_UPDATE] = "no emulated evaluation in the window: the kernel decided at an "
			       "update point the replay does not have (a tick, a blocked-load update)",
	[SIM_MISS_UTIL] = "the emulated util gave another OPP",
	[SIM_MISS_LATE] = "the emulation evaluated only after the kernel's decision, within the "
			  "window, and chose otherwise: the trace shows the update's event after the "
			  "kernel acted (a sched_wakeup after its enqueue)",
};

/* --explain: the first samples of each util signal where the emulation differs from the
 * trace, with the trace line to read what happened just before. */
static void explain_divergences(const struct kernel_val *kv)
{
	const struct sim_validation *v = &kv->val[0];

	if (!has_util_events(v))
		return;
	printf("  first util divergences under %s (trace line, time, the kernel's value and the "
	       "emulation's):\n",
	       kv->kp->name);
	for (int sg = 0; sg < SIM_VAL__COUNT; sg++)
		for (u32 i = 0; i < v->nr_div[sg]; i++) {
			const struct sim_val_div *d = &v->div[sg][i];

			printf("    %-28s line %-8llu %.6f s  cpu %d  pid %d  kernel %llu  emulated "
			       "%llu\n",
			       val_names[sg], (unsigned long long)d->line, (double)d->t_ns / 1e9,
			       d->cpu, d->pid, (unsigned long long)d->traced,
			       (unsigned long long)d->emulated);
		}
}

/* The departure of dec's policy (its slot: the policy's first CPU) under way at the decision:
 * begun at most the policy's window before it and not ended more than that before it (the
 * decision's own window, which pairs it); NULL when none. */
static const struct sim_gov_departure *departure_at(const struct run_opts *o,
						    const struct sim_validation *v,
						    const struct sim_decision *dec)
{
	int slot = o->plat.clusters[dec->cluster].cpus[0];
	u64 t = dec->t_ns, window = v->window_ns[dec->cluster];

	for (size_t i = 0; i < v->nr_depart; i++) {
		const struct sim_gov_departure *d = &v->depart[i];

		if (d->cpu == slot && d->t_ns <= t + window && t <= d->last_ns + window)
			return d;
	}
	return NULL;
}

/* Every departure of the util at the kernel's evaluations, and how many misses fall in one. */
static void explain_departures(const struct run_opts *o, const struct kernel_val *kv)
{
	const struct sim_validation *v = &kv->val[0];
	size_t missed = 0, in = 0;

	if (!v->gov_evals)
		return;
	for (size_t i = 0; i < v->nr_dec; i++) {
		const struct sim_decision *d = &v->dec[i];

		if (d->agree)
			continue;
		missed++;
		in += departure_at(o, v, d) != NULL;
	}
	printf("  util departures at the kernel's evaluations under %s (%d or more paired "
	       "evaluations of a policy in a row more than %d apart; its first: the probe's trace "
	       "line, time, the kernel's util and the emulation's; how many in a row, until when, "
	       "the largest |error|): %zu of the %zu missed decisions fall in one (within the "
	       "policy's window)\n",
	       kv->kp->name, SIM_GOV_DEPART_MIN, SIM_GOV_UTIL_NEAR, in, missed);
	for (size_t i = 0; i < v->nr_depart; i++) {
		const struct sim_gov_departure *d = &v->depart[i];

		printf("    line %-8llu %12.6f policy%-2d kernel %4llu emulated %4llu  %3u evaluations "
		       "to %.6f, max |error| %llu\n",
		       (unsigned long long)d->line, (double)d->t_ns / 1e9, d->cpu,
		       (unsigned long long)d->kernel, (unsigned long long)d->emulated, d->evals,
		       (double)d->last_ns / 1e9, (unsigned long long)d->max_abs);
	}
}

static void explain(const struct run_opts *o, const struct kernel_val *kv)
{
	const struct sim_validation *v = &kv->val[0];

	explain_divergences(kv);
	explain_departures(o, kv);

	printf("  missed kernel decisions under %s, by cause:\n", kv->kp->name);
	for (int m = SIM_MISS_EARLY; m < SIM_MISS__COUNT; m++) {
		printf("    %-10s", miss_names[m]);
		for (int c = 0; c < o->plat.nr_clusters; c++)
			printf(" policy%d %5llu", o->plat.clusters[c].cpus[0],
			       (unsigned long long)v->misses[c][m]);
		printf("  %s\n", miss_why[m]);
	}

	printf("  decisions under %s (kernel's cpu_frequency of each policy's first CPU; the "
	       "emulation's last evaluation before it):\n",
	       kv->kp->name);
	for (size_t i = 0; i < v->nr_dec; i++) {
		const struct sim_decision *d = &v->dec[i];
		double t = (double)(d->t_ns) / 1e9;

		printf("    %12.6f policy%-2d kernel %7u -> %7u  emulated %7u", t,
		       o->plat.clusters[d->cluster].cpus[0], d->kernel_prev_khz, d->kernel_khz,
		       d->emu_khz);
		if (d->has_eval)
			printf("  (util %lu/%lu clamp %u..%u target %u at %+.1f ms)", d->util, d->max,
			       d->uclamp_min, d->uclamp_max, d->target_khz,
			       ((double)d->eval_t_ns - (double)d->t_ns) / 1e6);
		else
			printf("  (no evaluation yet)");
		if (d->agree) {
			printf("  agree %+.1f ms\n", (double)d->timing_err_ns / 1e6);
		} else {
			const struct sim_gov_departure *dp = departure_at(o, v, d);

			printf("  DIFFER (%s)", miss_names[d->miss]);
			if (dp)
				printf("  in the util departure from %.6f (line %llu)",
				       (double)dp->t_ns / 1e9, (unsigned long long)dp->line);
			printf("\n");
		}
	}
}

static double share(u64 a, u64 b)
{
	return b ? (double)a / (double)b : NAN;
}

/* --placement eas: placement agreement per policy; with --explain each disagreement with the
 * energy deltas of find_energy_efficient_cpu's candidates. */
static void placement_agreement(const struct run_opts *o, const struct kernel_val *kv,
				bool explain_all)
{
	const struct sim_validation *v = &kv->val[0];

	printf("  placement under %s: traced wakeups of sleeping CFS tasks where v5.9's "
	       "select_task_rq_fair, from the emulated state, picks the traced CPU:\n",
	       kv->kp->name);
	for (int c = 0; c < o->plat.nr_clusters; c++)
		printf("    policy%-2d %8llu wakeups, %8llu agree (%5.1f%%)\n",
		       o->plat.clusters[c].cpus[0], (unsigned long long)v->place_n[c],
		       (unsigned long long)v->place_agree[c],
		       100.0 * share(v->place_agree[c], v->place_n[c]));
	printf("  traced sched_migrate_task of CFS tasks where the emulation, from the same state, "
	       "moves the task to the traced CPU (asleep: select_task_rq_fair; runnable: the misfit "
	       "pull):\n");
	for (int c = 0; c < o->plat.nr_clusters; c++)
		printf("    policy%-2d %8llu migrations, %6llu agree (%5.1f%%)\n",
		       o->plat.clusters[c].cpus[0], (unsigned long long)v->mig_n[c],
		       (unsigned long long)v->mig_agree[c],
		       100.0 * share(v->mig_agree[c], v->mig_n[c]));
	if (!explain_all)
		return;
	for (size_t i = 0; i < v->nr_pdis; i++) {
		const struct sim_place_dis *d = &v->pdis[i];

		printf("    %12.6f %-16s %7d prev %d traced %d emulated %d", (double)d->t_ns / 1e9,
		       d->comm, d->pid, d->prev, d->traced, d->emulated);
		if (d->queued)
			printf("  (migrate of a runnable task: %s)",
			       d->emulated == d->prev ? "no misfit pull, stays" : "misfit pull");
		else if (d->migrate && (d->overutilized || !d->nr))
			printf("  (migrate at wakeup; overutilized or no EM: fallback)");
		else if (d->overutilized || !d->nr)
			printf("  (overutilized or no EM: fallback)");
		else
			printf("  %sbase %lu,", d->migrate ? "(migrate at wakeup) " : "",
			       d->base_energy);
		for (int k = 0; k < d->nr; k++)
			printf(" cpu%d +%lu", d->cand_cpu[k], d->cand_delta[k]);
		printf("\n");
	}
}

/* --json: a replay's util signals, with the first samples of each that differ. */
static void json_signals(struct json_out *j, const struct sim_validation *v, bool ran)
{
	json_out_begin_array(j, "signals");
	for (int sg = 0; ran && sg < SIM_VAL__COUNT; sg++) {
		if (!v->n[sg])
			continue;
		json_out_begin_object(j, NULL);
		json_out_string(j, "signal", val_names[sg]);
		json_out_int(j, "samples", (long long)v->n[sg]);
		json_out_number(j, "mean_abs_err", v->sum_abs[sg] / (double)v->n[sg]);
		json_out_int(j, "max_abs_err", (long long)v->max_abs[sg]);
		json_out_int(j, "exact", (long long)v->exact[sg]);
		json_out_int(j, "within_10", (long long)v->near[sg]);
		json_out_begin_array(j, "first_divergences");
		for (u32 i = 0; i < v->nr_div[sg]; i++) {
			const struct sim_val_div *d = &v->div[sg][i];

			json_out_begin_object(j, NULL);
			json_out_int(j, "line", (long long)d->line);
			json_out_number(j, "time_s", (double)d->t_ns / 1e9);
			json_out_int(j, "cpu", d->cpu);
			json_out_int(j, "pid", d->pid);
			json_out_int(j, "traced", (long long)d->traced);
			json_out_int(j, "emulated", (long long)d->emulated);
			json_out_end_object(j);
		}
		json_out_end_array(j);
		json_out_end_object(j);
	}
	json_out_end_array(j);
}

/* "decision_times": the policy's kernel decisions and emulated changes in time order, each
 * [trace time in ns, 1 if paired else 0]: what a caller needs to score a part of the trace
 * (tools/lab/measure: before and after the workload's start) with validate's own pairing. */
static void json_decision_times(struct json_out *j, const struct sim_validation *v, int c)
{
	json_out_begin_object(j, "decision_times");
	json_out_begin_array(j, "kernel");
	for (size_t i = 0; i < v->nr_dec; i++) {
		if (v->dec[i].cluster != c)
			continue;
		json_out_begin_array(j, NULL);
		json_out_int(j, NULL, (long long)v->dec[i].t_ns);
		json_out_int(j, NULL, v->dec[i].agree);
		json_out_end_array(j);
	}
	json_out_end_array(j);
	json_out_begin_array(j, "emulated");
	for (size_t i = 0; i < v->nr_emu_chg[c]; i++) {
		json_out_begin_array(j, NULL);
		json_out_int(j, NULL, (long long)v->emu_chg[c][i].t_ns);
		json_out_int(j, NULL, v->emu_chg[c][i].matched);
		json_out_end_array(j);
	}
	json_out_end_array(j);
	json_out_end_object(j);
}

/* The departures of the util at the kernel's evaluations (sim_gov_departure), in JSON. */
static void json_departures(struct json_out *j, const struct sim_validation *v)
{
	json_out_begin_array(j, "departures");
	for (size_t i = 0; i < v->nr_depart; i++) {
		const struct sim_gov_departure *d = &v->depart[i];

		json_out_begin_object(j, NULL);
		json_out_int(j, "line", (long long)d->line);
		json_out_int(j, "t_ns", (long long)d->t_ns);
		json_out_int(j, "cpu", d->cpu);
		json_out_int(j, "kernel", (long long)d->kernel);
		json_out_int(j, "emulated", (long long)d->emulated);
		json_out_int(j, "evaluations", (long long)d->evals);
		json_out_int(j, "last_t_ns", (long long)d->last_ns);
		json_out_int(j, "max_abs_err", (long long)d->max_abs);
		json_out_end_object(j);
	}
	json_out_end_array(j);
}

/*
 * --json: one trace's figures, the same as the text table (shares 0..1, null when unknown):
 * {"trace", "kernels": [{"kernel", "policies": [{"policy", "decisions", "decisions_agree",
 * "timing_err_ms", "busy", "time", "time_util_trace", "energy_ratio", "energy_traced_mj",
 * "energy_emulated_mj", "foreign_khz", "kernel_decisions", "window_ns", "misses", "decision_times":
 * {"kernel": [[ns, paired]], "emulated": [[ns, paired]]}}], "kernel_evaluations": {"count",
 * "paired", "util_within", "unpaired", "busy_compared", "busy_agree", "departures": [{"line",
 * "t_ns", "cpu", "kernel", "emulated", "evaluations", "last_t_ns", "max_abs_err"}]},
 * "signals": [{"signal", "samples", "mean_abs_err", "max_abs_err", "exact", "within_10",
 * "first_divergences": [{"line", "time_s", "cpu", "pid", "traced", "emulated"}]}]}]}
 */
static void validate_json(struct json_out *j, const struct run_opts *o, const char *trace,
			  const struct kernel_val *kv, int nr_kv)
{
	json_out_begin_object(j, NULL);
	json_out_string(j, "trace", trace);
	json_out_begin_array(j, "kernels");
	for (int k = 0; k < nr_kv; k++) {
		const struct sim_validation *v = &kv[k].val[0], *vt = &kv[k].val[1];

		json_out_begin_object(j, NULL);
		json_out_string(j, "kernel", kv[k].kp->name);
		json_out_begin_array(j, "policies");
		for (int c = 0; kv[k].ran[0] && c < o->plat.nr_clusters; c++) {
			json_out_begin_object(j, NULL);
			json_out_int(j, "policy", o->plat.clusters[c].cpus[0]);
			json_out_int(j, "decisions", (long long)v->decisions[c]);
			json_out_number(j, "decisions_agree",
					share(v->decisions_agree[c], v->decisions[c]));
			json_out_int(j, "emulated_decisions", (long long)v->nr_emu_chg[c]);
			json_out_number(j, "recall", share(v->decisions_agree[c], v->decisions[c]));
			json_out_number(j, "precision", v->kernel_freq_events[c]
							    ? share(v->emu_matched[c], v->nr_emu_chg[c])
							    : NAN);
			json_out_number(j, "timing_err_ms",
				    v->decisions_agree[c] ? v->sum_abs_timing_ns[c] /
								   (double)v->decisions_agree[c] / 1e6
							 : NAN);
			json_out_number(j, "busy", share(v->busy_match_ns[c], v->busy_known_ns[c]));
			json_out_number(j, "time", share(v->opp_match_ns[c], v->opp_known_ns[c]));
			json_out_number(j, "time_util_trace",
				    kv[k].ran[1] ? share(vt->opp_match_ns[c], vt->opp_known_ns[c]) : NAN);
			json_out_number(j, "energy_ratio",
				    v->energy_traced_mwns[c] > 0
					    ? v->energy_emul_mwns[c] / v->energy_traced_mwns[c]
					    : NAN);
			/* the ratio's terms (mW x ns = 1e-9 mJ), which a corpus sums */
			json_out_number(j, "energy_traced_mj", v->energy_traced_mwns[c] / 1e9);
			json_out_number(j, "energy_emulated_mj", v->energy_emul_mwns[c] / 1e9);
			if (v->foreign_khz[c])
				json_out_int(j, "foreign_khz", v->foreign_khz[c]);
			else
				json_out_null(j, "foreign_khz");
			json_out_int(j, "kernel_decisions", (long long)v->kernel_freq_events[c]);
			json_out_int(j, "window_ns", (long long)v->window_ns[c]);
			json_out_begin_object(j, "misses");
			for (int m = SIM_MISS_EARLY; m < SIM_MISS__COUNT; m++)
				json_out_int(j, miss_names[m], (long long)v->misses[c][m]);
			json_out_end_object(j);
			json_decision_times(j, v, c);
			json_out_end_object(j);
		}
		json_out_end_array(j);
		json_out_begin_object(j, "kernel_evaluations");
		json_out_int(j, "count", (long long)v->gov_evals);
		json_out_int(j, "paired", (long long)v->n[SIM_VAL_GOV_UTIL]);
		json_out_int(j, "util_within", (long long)v->gov_within);
		json_out_int(j, "unpaired", (long long)v->gov_unmatched);
		json_out_int(j, "busy_compared", (long long)v->gov_busy_compared);
		json_out_int(j, "busy_agree", (long long)v->gov_busy_agree);
		json_departures(j, v);
		json_out_end_object(j);
		json_signals(j, v, kv[k].ran[0]);
		json_out_end_object(j);
	}
	json_out_end_array(j);
	json_out_end_object(j);
}

/* Replay trace under each profile of kv, util emulated and (where it has util events) from
 * the trace; *util_events, *decisions: whether the trace has anything to validate against. */
static int validate_replays(struct run_opts *o, const struct validate_opts *vo, const char *trace,
			    struct kernel_val *kv, int nr_kv, bool *util_events, bool *decisions)
{
	int status = 0;

	for (int k = 0; k < nr_kv; k++) {
		for (int src = 0; src < 2 && !status; src++) {
			enum sim_util_source us = src ? SIM_UTIL_TRACE : SIM_UTIL_EMULATED;
			if (o->util_source_set && o->sim.util_source != us)
				continue;
			/* the trace's util only where it has each CPU's (the root cfs_rq's, seen by
			 * the emulated run): task signals alone are compared, not replayed from */
			if (src && kv[k].ran[0] && !kv[k].val[0].n[SIM_VAL_CPU_UTIL])
				continue;
			status = replay_validate(o, vo, trace, kv[k].kp, us, &kv[k].val[src]);
			kv[k].ran[src] = !status;
		}
		if (status)
			return status;
		for (int src = 0; src < 2; src++) {
			if (!kv[k].ran[src])
				continue;
			*util_events |= has_util_events(&kv[k].val[src]);
			for (int c = 0; c < o->plat.nr_clusters; c++)
				*decisions |= kv[k].val[src].kernel_freq_events[c] > 0;
		}
	}
	return 0;
}

/* The trace, the configuration and, without --kernel, the profile chosen and why. */
static void print_validate_header(const struct run_opts *o, const char *trace,
				  const struct kernel_val *kv)
{
	printf("%s (platform %s, governor %s, timing %s)\n", trace, o->plat.name, o->sim.governor,
	       o->sim.timing == SIM_TIMING_WORK ? "work" : "traced");
	if (o->nr_kernels == 0) {
		char why[384];
		char release[96];
		replay_trace_kernel(run_opts_trace_file(o, trace), &o->sim.ropts, why, sizeof(why));
		printf("  %s\n", why);
		if (kernel_release_from_plat_info(trace, release, sizeof(release))) {
			const struct kernel_profile *hint =
				kernel_profile_for_release(release, why, sizeof(why));
			if (hint && hint != kv[0].kp)
				printf("  (plat_info.yml beside the trace names kernel %s: try --kernel "
				       "%s)\n",
				       release, hint->name);
		}
	}
}

/* One row of the frequency table: profile kv, policy (cluster) c; *failed when a figure is
 * below its --fail-below. */
static void print_policy_row(const struct run_opts *o, const struct validate_opts *vo,
			     const char *trace, const struct kernel_val *kv, int c, bool *failed)
{
	const struct sim_validation *v = &kv->val[0];
	const struct sim_validation *vt = &kv->val[1];
	double m[METRIC__COUNT];

	printf("    %-12s policy%-2d", kv->kp->name, o->plat.clusters[c].cpus[0]);
	if (!kv->ran[0]) {
		printf(" %9s\n", "-");
		return;
	}
	m[METRIC_RECALL] = pct(v->decisions_agree[c], v->decisions[c]);
	/* no cpu_frequency of the kernel for this policy: nothing to hold its changes to */
	m[METRIC_PRECISION] = v->kernel_freq_events[c] ? pct(v->emu_matched[c], v->nr_emu_chg[c])
						       : -1;
	m[METRIC_BUSY] = pct(v->busy_match_ns[c], v->busy_known_ns[c]);
	m[METRIC_TIME] = pct(v->opp_match_ns[c], v->opp_known_ns[c]);
	m[METRIC_ENERGY] = v->energy_traced_mwns[c] > 0
				   ? 100.0 - 100.0 * fabs(v->energy_emul_mwns[c] /
								v->energy_traced_mwns[c] - 1.0)
				   : -1;
	printf(" %7llu %8llu", (unsigned long long)v->decisions[c],
	       (unsigned long long)v->nr_emu_chg[c]);
	print_pct(m[METRIC_RECALL], 7);
	print_pct(m[METRIC_PRECISION], 9);
	if (v->decisions_agree[c])
		printf(" %9.2f", v->sum_abs_timing_ns[c] / (double)v->decisions_agree[c] /
					 1e6);
	else
		printf(" %9s", "-");
	print_pct(m[METRIC_BUSY], 7);
	print_pct(m[METRIC_TIME], 7);
	if (!kv->ran[1])
		printf(" %11s", o->util_source_set ? "-" : "n/a");
	else
		print_pct(pct(vt->opp_match_ns[c], vt->opp_known_ns[c]), 11);
	if (v->energy_traced_mwns[c] > 0)
		printf(" %9.3f", v->energy_emul_mwns[c] / v->energy_traced_mwns[c]);
	else
		printf(" %9s", "-");
	putchar('\n');
	if (!v->opp_known_ns[c] && !v->markers_only[c])
		printf("      (no cpu_frequency for policy%d)\n",
		       o->plat.clusters[c].cpus[0]);
	else if (!v->kernel_freq_events[c])
		printf("      (no kernel decisions for policy%d: its frequency comes "
		       "from the tracer's markers only)\n",
		       o->plat.clusters[c].cpus[0]);
	if (v->foreign_khz[c])
		printf("      (the trace runs policy%d at %u kHz, which is no OPP of "
		       "'%s': wrong --platform?)\n",
		       o->plat.clusters[c].cpus[0], v->foreign_khz[c], o->plat.name);
	for (int mi = 0; mi < METRIC__COUNT; mi++) {
		if (vo->fail_below[mi] < 0 || m[mi] < 0 || m[mi] >= vo->fail_below[mi])
			continue;
		fprintf(stderr,
			"govsim: validate: %s under %s, policy%d: %s %.1f%% is below "
			"%.1f%%\n",
			trace, kv->kp->name, o->plat.clusters[c].cpus[0],
			metric_names[mi], m[mi], vo->fail_below[mi]);
		*failed = true;
	}
}

/* How many departures, and how many paired evaluations they hold. */
static void print_departures_line(const struct sim_validation *v)
{
	u64 evals = 0;

	for (size_t i = 0; i < v->nr_depart; i++)
		evals += v->depart[i].evals;
	printf("    departures (%d or more paired evaluations of a policy in a row with the util "
	       "more than %d from the kernel's): %zu, holding %llu of the paired evaluations\n",
	       SIM_GOV_DEPART_MIN, SIM_GOV_UTIL_NEAR, v->nr_depart, (unsigned long long)evals);
}

/* The util reconstruction table (util emulated). */
static void print_signals(const struct kernel_val *kv, int nr_kv, bool util_events)
{
	printf("  util signals, trace vs emulated at the trace's events (util emulated):\n");
	if (!util_events) {
		printf("    (the trace carries no util events)\n");
	} else {
		printf("    %-12s %-28s %9s %11s %9s %6s %7s\n", "kernel", "signal", "samples",
		       "mean |err|", "max |err|", "exact", "<=10");
		for (int k = 0; k < nr_kv; k++) {
			const struct sim_validation *v = &kv[k].val[0];
			for (int s = 0; s < SIM_VAL__COUNT; s++) {
				if (!kv[k].ran[0] || !v->n[s] || s == SIM_VAL_GOV_UTIL)
					continue;
				printf("    %-12s %-28s %9llu %11.2f %9llu %5.1f%% %6.1f%%\n",
				       kv[k].kp->name, val_names[s], (unsigned long long)v->n[s],
				       v->sum_abs[s] / (double)v->n[s],
				       (unsigned long long)v->max_abs[s],
				       100.0 * (double)v->exact[s] / (double)v->n[s],
				       100.0 * (double)v->near[s] / (double)v->n[s]);
			}
		}
	}
	for (int k = 0; k < nr_kv; k++) {
		const struct sim_validation *v = &kv[k].val[0];

		if (!kv[k].ran[0] || !v->gov_evals)
			continue;
		printf("  the kernel's own evaluations under %s (the trace's resolve_freq and idle_calls "
		       "probes, its util from the raw frequency):\n"
		       "    %llu; %llu with an emulated evaluation of the CPU within %llu us (util "
		       "mean |err| %.2f, max %llu, %.1f%% within %d); %llu without (update points the "
		       "replay does not have)\n",
		       kv[k].kp->name, (unsigned long long)v->gov_evals,
		       (unsigned long long)v->n[SIM_VAL_GOV_UTIL],
		       (unsigned long long)(SIM_GOV_PAIR_NS / 1000),
		       v->n[SIM_VAL_GOV_UTIL] ? v->sum_abs[SIM_VAL_GOV_UTIL] /
							(double)v->n[SIM_VAL_GOV_UTIL]
					      : 0.0,
		       (unsigned long long)v->max_abs[SIM_VAL_GOV_UTIL],
		       v->n[SIM_VAL_GOV_UTIL] ? 100.0 * (double)v->gov_within /
							(double)v->n[SIM_VAL_GOV_UTIL]
					      : 0.0,
		       SIM_GOV_UTIL_NEAR, (unsigned long long)v->gov_unmatched);
		if (v->gov_busy_compared)
			printf("    busy hold (the idle-entry count unchanged since the CPU's last "
			       "evaluation): the replay's says the same as the kernel's at %llu of "
			       "%llu (%.1f%%)\n",
			       (unsigned long long)v->gov_busy_agree,
			       (unsigned long long)v->gov_busy_compared,
			       100.0 * (double)v->gov_busy_agree / (double)v->gov_busy_compared);
		print_departures_line(v);
	}
}

static int validate_one(struct run_opts *o, const struct validate_opts *vo, const char *trace,
			struct kernel_val *kv, int nr_kv, bool *failed, struct json_out *j)
{
	bool util_events = false, decisions = false;
	int status = validate_replays(o, vo, trace, kv, nr_kv, &util_events, &decisions);

	if (status)
		return status;
	if (!util_events && !decisions)
		return cli_fail(EXIT_BAD_INPUT,
				"'%s': nothing to validate against: the trace has neither the "
				"kernel's cpu_frequency events nor util events",
				trace);
	if (j) {
		validate_json(j, o, trace, kv, nr_kv);
		return 0;
	}

	print_validate_header(o, trace, kv);
	printf("  frequency, per policy (decisions: kernel and emulated changes paired within "
	       "the window; busy/time: OPP = kernel's, time-weighted):\n");
	printf("    %-12s %-8s %7s %8s %7s %9s %9s %7s %7s %11s %9s\n", "profile", "policy",
	       "kernel", "emulated", "recall", "precision", "|dt| ms", "busy", "time",
	       "util trace", "E emu/trc");
	for (int k = 0; k < nr_kv; k++)
		for (int c = 0; c < o->plat.nr_clusters; c++)
			print_policy_row(o, vo, trace, &kv[k], c, failed);
	print_signals(kv, nr_kv, util_events);
	if (o->sim.placement == SIM_PLACEMENT_EAS)
		for (int k = 0; k < nr_kv; k++)
			if (kv[k].ran[0])
				placement_agreement(o, &kv[k], vo->explain);
	if (vo->explain)
		for (int k = 0; k < nr_kv; k++)
			if (kv[k].ran[0])
				explain(o, &kv[k]);
	return 0;
}

/* Take validate's own options out of argv (the rest goes to run_opts_parse). */
static int parse_own(struct validate_opts *vo, int argc, char **argv, char **rest, int *nr_rest)
{
	for (int m = 0; m < METRIC__COUNT; m++)
		vo->fail_below[m] = -1;
	*nr_rest = 0;
	rest[(*nr_rest)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = NULL;

		if (strcmp(a, "--") == 0) {
			while (i < argc)
				rest[(*nr_rest)++] = argv[i++];
			break;
		}
		if (strcmp(a, "--explain") == 0) {
			vo->explain = true;
			continue;
		}
		if (strcmp(a, "--window-ms") == 0 || strcmp(a, "--fail-below") == 0) {
			if (i + 1 >= argc)
				return cli_usage_error(validate_usage, "option '%s' needs a value", a);
			v = argv[++i];
		} else if (strncmp(a, "--window-ms=", 12) == 0) {
			v = a + 12;
			a = "--window-ms";
		} else if (strncmp(a, "--fail-below=", 13) == 0) {
			v = a + 13;
			a = "--fail-below";
		} else {
			rest[(*nr_rest)++] = argv[i];
			continue;
		}
		if (strcmp(a, "--window-ms") == 0) {
			double ms;
			char *end;
			ms = strtod(v, &end);
			if (end == v || *end || ms <= 0 || ms > 60000)
				return cli_usage_error(validate_usage,
						       "--window-ms '%s': expected a duration in ms, "
						       "0 < MS <= 60000",
						       v);
			vo->window_ns = (u64)(ms * 1e6);
		} else {
			const char *eq = strchr(v, '=');
			double p;
			char *end;
			int m;
			for (m = 0; m < METRIC__COUNT; m++)
				if (eq && strlen(metric_names[m]) == (size_t)(eq - v) &&
				    strncmp(v, metric_names[m], (size_t)(eq - v)) == 0)
					break;
			if (eq && eq - v == 9 && strncmp(v, "decisions", 9) == 0)
				m = METRIC_RECALL;
			if (m == METRIC__COUNT)
				return cli_usage_error(validate_usage,
						       "--fail-below '%s': expected METRIC=PCT, METRIC "
						       "one of recall, precision, busy, time, energy",
						       v);
			p = strtod(eq + 1, &end);
			if (end == eq + 1 || (*end && strcmp(end, "%") != 0) || p < 0 || p > 100)
				return cli_usage_error(validate_usage,
						       "--fail-below '%s': expected a percentage 0..100",
						       v);
			vo->fail_below[m] = p;
		}
	}
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts vo = {0};
	struct run_opts o;
	struct kernel_val *kv;
	struct json_out j;
	char **rest, *buf = NULL;
	size_t len = 0;
	FILE *mem = NULL;
	int nr_rest, nr_kv, status;
	bool failed = false;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", validate_usage, validate_help);
		return EXIT_OK;
	}
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	status = parse_own(&vo, argc, argv, rest, &nr_rest);
	if (!status)
		status = run_opts_parse(&o, nr_rest, rest, validate_usage, RUN_OPTS_VALIDATE);
	free(rest);
	if (status)
		return status;
	nr_kv = o.nr_kernels ? o.nr_kernels : 1;
	kv = calloc((size_t)nr_kv, sizeof(*kv));
	if (!kv) {
		run_opts_release(&o);
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	if (o.json) {
		/* the object is written only once every trace replayed: no partial output */
		mem = open_memstream(&buf, &len);
		if (!mem) {
			free(kv);
			run_opts_release(&o);
			return cli_fail(EXIT_FAILURE_RT, "out of memory");
		}
		json_out_init(&j, mem);
		json_out_begin_object(&j, NULL);
		json_out_string(&j, "platform", o.plat.name);
		json_out_string(&j, "governor", o.sim.governor);
		json_out_string(&j, "timing", o.sim.timing == SIM_TIMING_WORK ? "work" : "traced");
		json_out_begin_array(&j, "traces");
	}
	for (int i = 0; i < o.nr_traces && !status; i++) {
		if (i && !o.json)
			putchar('\n');
		memset(kv, 0, (size_t)nr_kv * sizeof(*kv));
		for (int k = 0; k < nr_kv; k++) {
			char why[384];
			kv[k].kp = o.nr_kernels ? o.kernels[k]
						: replay_trace_kernel(
							  run_opts_trace_file(&o, o.traces[i]),
							  &o.sim.ropts, why, sizeof(why));
		}
		/* each profile replays the trace once or twice: read it once */
		run_opts_cache(&o, i, false);
		status = validate_one(&o, &vo, o.traces[i], kv, nr_kv, &failed,
				      o.json ? &j : NULL);
		run_opts_uncache(&o, i);
		for (int k = 0; k < nr_kv; k++) {
			sim_validation_release(&kv[k].val[0]);
			sim_validation_release(&kv[k].val[1]);
		}
	}
	if (o.json) {
		json_out_end_array(&j);
		json_out_end_object(&j);
		fclose(mem);
		if (!status)
			fputs(buf, stdout);
		free(buf);
	}
	free(kv);
	run_opts_release(&o);
	if (!status && failed)
		status = EXIT_FAILURE_RT;
	return status;
}
