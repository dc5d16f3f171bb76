/*
 * cmd_validate.c - `govsim validate TRACE`: how close the emulation is to the kernel that wrote
 * the trace. Two figures: the trace's own util signals (sched_pelt_*, sched_load_*,
 * sched_util_est_*) against the emulated ones at the same instants, and the time-weighted share
 * of time the emulated OPP equals the trace's cpu_frequency, per policy, replaying with the
 * emulated util and with the trace's util.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_opts.h"
#include "report/json.h"

static const char validate_usage[] =
	"usage: govsim validate TRACE... [--platform NAME|FILE.sql] [--governor NAME]\n"
	"                       [--set KEY=VALUE]... [--util-source emulated|trace]\n"
	"                       [--timing traced|work] [--format F] [--strict] [--json]\n";

static const char validate_help[] =
	"\n"
	"Replays each TRACE in traced timing and prints:\n"
	"  - for every util signal the trace carries (sched_pelt_cfs/se/rt, sched_load_cfs_rq/se,\n"
	"    sched_load_avg_cpu/task, sched_util_est_cfs/se), the number of samples and the mean\n"
	"    and max absolute difference between the trace's value and the emulated one at the\n"
	"    same instant (--util-source emulated);\n"
	"  - per cpufreq policy, the share of time (time-weighted) where the emulated OPP equals\n"
	"    the trace's own cpu_frequency, with --util-source emulated and trace (or the one given).\n"
	"Use it on traces that carry the kernel's schedutil decisions, e.g.\n"
	"  govsim validate traces/juno-r0/sched_load/trace.dat --platform juno-r0\n"
	"\n"
	"--json prints one object {\"platform\", \"governor\", \"timing\", \"kernel\", \"traces\": [{\n"
	"\"trace\", \"signals\": [{\"signal\", \"samples\", \"mean_abs_err\", \"max_abs_err\"}],\n"
	"\"policies\": [{\"policy\", \"opp_match_emulated\", \"opp_match_trace\" (shares 0..1, null\n"
	"when not run or no cpu_frequency), \"foreign_khz\" (a traced frequency that is no OPP,\n"
	"or null)}]}]}.\n";

static const char *const val_names[SIM_VAL__COUNT] = {
	[SIM_VAL_CPU_UTIL] = "cpu util_avg (root cfs_rq)",
	[SIM_VAL_CPU_UTIL_EST] = "cpu util_est.enqueued",
	[SIM_VAL_CPU_UTIL_RT] = "cpu util_rt",
	[SIM_VAL_TASK_UTIL] = "task util_avg",
	[SIM_VAL_TASK_UTIL_EST] = "task util_est.enqueued",
	[SIM_VAL_TASK_UTIL_EST_EWMA] = "task util_est.ewma",
};

/* The share of time the emulated OPP was the traced one; NAN when unknown. */
static double opp_share(const struct sim_validation *v, bool ran, int c)
{
	if (!ran || !v->opp_known_ns[c])
		return NAN;
	return (double)v->opp_match_ns[c] / (double)v->opp_known_ns[c];
}

static void validate_json(struct json_out *j, const struct run_opts *o, const char *trace,
			  const struct sim_validation val[2], const bool ran[2])
{
	json_begin_object(j, NULL);
	json_string(j, "trace", trace);
	json_begin_array(j, "signals");
	for (int k = 0; ran[0] && k < SIM_VAL__COUNT; k++) {
		if (!val[0].n[k])
			continue;
		json_begin_object(j, NULL);
		json_string(j, "signal", val_names[k]);
		json_int(j, "samples", (long long)val[0].n[k]);
		json_number(j, "mean_abs_err", val[0].sum_abs[k] / (double)val[0].n[k]);
		json_int(j, "max_abs_err", (long long)val[0].max_abs[k]);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "policies");
	for (int c = 0; c < o->plat.nr_clusters; c++) {
		u32 foreign = ran[0] && val[0].foreign_khz[c]	? val[0].foreign_khz[c]
			      : ran[1] && val[1].foreign_khz[c] ? val[1].foreign_khz[c]
								 : 0;
		json_begin_object(j, NULL);
		json_int(j, "policy", o->plat.clusters[c].cpus[0]);
		json_number(j, "opp_match_emulated", opp_share(&val[0], ran[0], c));
		json_number(j, "opp_match_trace", opp_share(&val[1], ran[1], c));
		if (foreign)
			json_int(j, "foreign_khz", foreign);
		else
			json_null(j, "foreign_khz");
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static int validate_one(struct run_opts *o, const char *trace, struct json_out *j)
{
	struct sim_validation val[2];
	bool ran[2] = {false, false};
	struct run_result r;
	int status = 0;

	memset(val, 0, sizeof(val));
	if (!j)
		printf("%s (platform %s, governor %s, timing %s, kernel profile v5.9)\n", trace,
		       o->plat.name, o->governor, o->timing == SIM_TIMING_WORK ? "work" : "traced");
	for (int src = 0; src < 2; src++) {
		struct replay_spec spec = {0};
		struct gs_error err;
		enum sim_util_source us = src ? SIM_UTIL_TRACE : SIM_UTIL_EMULATED;

		if (o->util_source_set && o->util_source != us)
			continue;
		gs_error_clear(&err);
		run_result_init(&r);
		spec.trace = trace;
		spec.ropts = o->ropts;
		spec.plat = &o->plat;
		spec.governor = o->governor;
		spec.params = o->params;
		spec.nr_params = o->nr_params;
		spec.timing = o->timing;
		spec.util_source = us;
		spec.power_model = o->power_model;
		spec.seed_util = o->seed_util;
		spec.validation_out = &val[src];
		spec.no_hash = true;
		status = replay_run(&spec, &r, &err);
		run_result_release(&r);
		if (status)
			return cli_report(&err);
		ran[src] = true;
	}

	if (j) {
		validate_json(j, o, trace, val, ran);
		return 0;
	}
	if (ran[0]) {
		bool any = false;
		printf("  util signals, trace vs emulated at the trace's events:\n");
		printf("    %-28s %9s %11s %9s\n", "signal", "samples", "mean |err|", "max |err|");
		for (int k = 0; k < SIM_VAL__COUNT; k++) {
			if (!val[0].n[k])
				continue;
			any = true;
			printf("    %-28s %9llu %11.2f %9llu\n", val_names[k],
			       (unsigned long long)val[0].n[k], val[0].sum_abs[k] / (double)val[0].n[k],
			       (unsigned long long)val[0].max_abs[k]);
		}
		if (!any)
			printf("    (the trace carries no util events)\n");
	}
	printf("  emulated OPP = traced OPP, share of time with a traced frequency:\n");
	printf("    %-8s %18s %18s\n", "policy", "util emulated", "util trace");
	for (int c = 0; c < o->plat.nr_clusters; c++) {
		printf("    policy%-2d", o->plat.clusters[c].cpus[0]);
		for (int src = 0; src < 2; src++) {
			if (!ran[src] || !val[src].opp_known_ns[c])
				printf(" %18s", ran[src] ? "no cpu_frequency" : "-");
			else
				printf(" %17.1f%%", 100.0 * (double)val[src].opp_match_ns[c] /
							    (double)val[src].opp_known_ns[c]);
		}
		putchar('\n');
		for (int src = 0; src < 2; src++) {
			if (ran[src] && val[src].foreign_khz[c]) {
				printf("      (the trace runs policy%d at %u kHz, which is no OPP of '%s': "
				       "wrong --platform?)\n",
				       o->plat.clusters[c].cpus[0], val[src].foreign_khz[c], o->plat.name);
				break;
			}
		}
	}
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	struct run_opts o;
	int status;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", validate_usage, validate_help);
		return EXIT_OK;
	}
	status = run_opts_parse(&o, argc, argv, validate_usage, RUN_OPTS_VALIDATE);
	if (status)
		return status;
	if (o.json) {
		/* the object is written only once every trace replayed: no partial output */
		char *buf = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&buf, &len);
		struct json_out j;

		if (!mem) {
			run_opts_release(&o);
			return cli_fail(EXIT_FAILURE_RT, "out of memory");
		}
		json_init(&j, mem);
		json_begin_object(&j, NULL);
		json_string(&j, "platform", o.plat.name);
		json_string(&j, "governor", o.governor);
		json_string(&j, "timing", o.timing == SIM_TIMING_WORK ? "work" : "traced");
		json_string(&j, "kernel", "v5.9");
		json_begin_array(&j, "traces");
		for (int i = 0; i < o.nr_traces && !status; i++)
			status = validate_one(&o, o.traces[i], &j);
		json_end_array(&j);
		json_end_object(&j);
		fclose(mem);
		if (!status)
			fputs(buf, stdout);
		free(buf);
		run_opts_release(&o);
		return status;
	}
	for (int i = 0; i < o.nr_traces && !status; i++) {
		if (i)
			putchar('\n');
		status = validate_one(&o, o.traces[i], NULL);
	}
	run_opts_release(&o);
	return status;
}
