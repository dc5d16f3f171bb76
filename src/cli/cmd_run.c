/* cmd_run.c - `govsim run TRACE`: replay one trace and report frequency, energy and delay. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_opts.h"
#include "report/run_json.h"
#include "report/summary.h"
#include "store/store.h"

static const char run_usage[] =
	"usage: govsim run TRACE [--platform NAME|FILE.sql] [--governor NAME] [--set KEY=VALUE]...\n"
	"                  [--policy FILE]... [--action 'LINE']... [--timing traced|work]\n"
	"                  [--util-source emulated|trace] [--power-model em|costs|wattson]\n"
	"                  [--db FILE] [--label TEXT] [--csv DIR] [--timeline FILE.csv]\n"
	"                  [--task-timeline FILE.csv] [--perfetto OUT.pftrace]\n"
	"                  [--baselines] [--seed-util]\n"
	"                  [--warmup-ms MS] [--kernel NAME] [--format F] [--strict] [--quiet]\n"
	"                  [--json] [--placement traced|eas]\n"
	"                  [--traced-config uclamp=none|off|on|always,depth=N]\n";

/* The replay's tunables under `run --help`: descriptions from this column, lines up to this
 * width (the options' own). */
#define HELP_INDENT 21
#define HELP_WIDTH 91

static const char run_help[] =
	"\n"
	"Replays TRACE (ftrace text, trace-cmd report text, trace.dat or a CSV util trace; '-' is\n"
	"stdin) through the scheduler model, uclamp and the governor, and prints an 80-column\n"
	"summary: OPP residency, transitions, average frequency, energy per cluster and in total,\n"
	"task delay against the trace, and the uclamp static key and clamping figures.\n"
	"\n"
	"  --platform P       built-in platform (`govsim platforms list`) or a .sql model (default hikey960)\n"
	"  --governor G       schedutil (default), performance, powersave, userspace, ondemand,\n"
	"                     conservative; or a plugin: a file (./libmygov.so: a path or a name\n"
	"                     ending in .so), or a name found as NAME.so or libNAME.so in the\n"
	"                     directories of GOVSIM_PLUGIN_PATH (':'-separated); see README\n"
	"                     'Governor plugins'. 'run --help --governor G' shows its tunables\n"
	"  --governor-plugin FILE  a plugin's file (FILE, or searched in GOVSIM_PLUGIN_PATH)\n"
	"  --set KEY=VALUE    tunable, repeatable: rate_limit_us, up_rate_limit_us and\n"
	"                     down_rate_limit_us (Android's split limits), iowait_boost=0|1 (default\n"
	"                     0; 1 when the trace has the kernel's sugov_set_iowait_boost\n"
	"                     requests, which then drive it), freq_khz\n"
	"                     (userspace), up_threshold, sampling_rate, ... (ondemand/conservative),\n"
	"                     and the replay's own (any governor; listed below, 'The replay's\n"
	"                     own tunables'): a lab recording's .facts file sets these\n"
	"                     (docs/lab.md).\n"
	"                     policyN.KEY=VALUE sets a governor tunable for the policy whose\n"
	"                     first CPU is N only (e.g. policy4.rate_limit_us=2000)\n"
	"  --policy FILE      clamp policy file (repeatable); see README 'Clamp policies'\n"
	"  --action 'LINE'    one policy line, e.g. --action 'setattr comm=foo uclamp_max=300'\n"
	"  --timing T         work (default): traced work replayed at the emulated speed;\n"
	"                     traced: busy/idle exactly as traced\n"
	"  --placement P      traced (default): each slice on its traced CPU; eas: each wakeup's\n"
	"                     CPU chosen as Linux v5.9 would from the emulated state (EAS, or\n"
	"                     its fallback while overutilized; misfit pulls); needs --timing\n"
	"                     work (refused with traced); see README 'Task placement'\n"
	"  --util-source S    emulated (default): PELT rebuilt from the trace; trace: the trace's\n"
	"                     own util events (or a CSV util trace)\n"
	"  --power-model M    em (default): kernel energy model, mW; costs: EAS v1 sched-energy-costs\n"
	"                     wattson: Perfetto's measured curves (tensor), on the emulated states\n"
	"  --db FILE          store the run in a SQLite results database (one transaction)\n"
	"  --label TEXT       a label for the run in the database\n"
	"  --csv DIR          write the run's tables as CSV files into DIR (timeline.csv: per\n"
	"                     policy a row at every emulated and every traced frequency change,\n"
	"                     and per util bucket; values in force from time_s on)\n"
	"  --timeline F.csv   one row per governor evaluation per CPU\n"
	"  --task-timeline F.csv  one row per task event (wakeup, switch_in, tick, preempt,\n"
	"                     sleep, migrate) with its util_avg and util_est, and where the\n"
	"                     profile models EEVDF's delayed dequeue (v6.12+) its vlag_ns and\n"
	"                     delayed, with a delay_end row where a delayed task leaves its\n"
	"                     runqueue\n"
	"  --perfetto OUT     the emulated run as a Perfetto trace, to open beside the original:\n"
	"                     per policy emulated and traced frequency, per CPU util, clamped\n"
	"                     util and rq clamps, per task its slices on the CPUs it ran on\n"
	"  --baselines        also replay with powersave and performance and place this run\n"
	"                     between them (0% .. 100%) for energy and response p95\n"
	"  --seed-util        start tasks and runqueues from the trace's own util events\n"
	"  --warmup-ms MS     replay the first MS ms but measure only after them (every\n"
	"                     signal starts cold)\n"
	"  --kernel NAME      kernel profile to follow (govsim kernels list); default: the\n"
	"                     release the trace records, else v5.9 (the notes say which)\n"
	"  --traced-config C  what the traced kernel had: uclamp=none|off|on|always (not built,\n"
	"                     key off, key on, no static key), depth=N (cgroup levels of every\n"
	"                     task); default uclamp=off,depth=0. The replay charges the emulated\n"
	"                     kernel's enqueue/dequeue cost minus this one's (README 'Kernel\n"
	"                     overhead')\n"
	"  --format F         force the trace format: ftrace, tracecmd, dat, csv, perfetto,\n"
	"                     systrace\n"
	"  --strict           the first malformed trace line is an error (exit 3)\n"
	"  --quiet            print nothing but errors\n"
	"  --json             print the run as one JSON object instead (keys: README 'JSON\n"
	"                     output'); warnings stay on stderr\n";

static const char run_help_summary[] =
	"\n"
	"The summary, line by line:\n"
	"  trace: ... S s from T, N events  the trace's span, its first timestamp and the\n"
	"                     events read; when the replay ends after the trace: S s traced,\n"
	"                     R s replayed (stretch R/S) (work timing)\n"
	"  platform: ...      platform, governor, timing, util source and power model\n"
	"  set:               the tunables (--set) and the other options that change the\n"
	"                     result: placement=eas, seed_util=1, warmup_ms=MS,\n"
	"                     traced_uclamp=MODE, traced_depth=N (--traced-config, when not the\n"
	"                     default), iowait_source=trace (the trace's iowait requests drive\n"
	"                     the iowait boost); runs.params and --json params hold the same\n"
	"                     words\n"
	"  policy: ... (N tasks)  each clamp policy action and how many tasks it reached\n"
	"  note:              what the run assumed or could not do (a warning per action that\n"
	"                     matched no task or was timed after the trace's end)\n"
	"  policyN: avg F MHz   a cpufreq policy (named by its first CPU) and its time-weighted\n"
	"                     average frequency over the span; \"no activity\" when nothing ran on\n"
	"                     its CPUs (no average then: null in --json, NULL in the database)\n"
	"  N transitions      frequency changes of the policy (\"1 transition\")\n"
	"  busy S s           CPU time its CPUs ran workload, summed over the CPUs\n"
	"  overutilized S s   CPU time, summed over the policy's CPUs, during which a CPU's util\n"
	"                     (cfs + rt, as the governor last read it) was above its capacity at\n"
	"                     the current OPP; shown when not 0\n"
	"  kHz / time / share residency at each OPP over the span\n"
	"  energy             per cluster (its CPUs and its own cluster power) and in total;\n"
	"                     avg power = total / span\n"
	"  activations: N, throughput T /s  work timing: an activation runs from a task's\n"
	"                     wakeup to the end of the work before its next sleep; throughput\n"
	"                     is completed activations per second of span\n"
	"  latency            wakeup to first run (mean, p95, max over all activations)\n"
	"  response           wakeup to the activation's end\n"
	"  lateness           the activation's end, emulated minus traced (negative: ahead)\n"
	"  tasks: N           workload tasks; the governor's sugov:N kthreads are left out, so\n"
	"                     'trace info' may count more (it says how many are sugov:N)\n"
	"  slice lateness summed, worst slice  work timing: how much later each slice of\n"
	"                     every task finished than in the trace, added over all slices\n"
	"                     (not time lost: a run 10 ms behind over 1000 slices sums to\n"
	"                     about 10 s), and the latest single slice\n"
	"  placement eas: ... --placement eas: wakeups placed, migrations (misfit pulls), the\n"
	"                     root domain's overutilized time, and per task its runtime share\n"
	"                     on each cluster and its migrations\n"
	"  uclamp: static key on|off  the sched_uclamp_used static key, and the trace time it\n"
	"                     flipped on\n"
	"  aggregations run   uclamp_rq_inc/dec bucket updates done (the key on); skipped: those\n"
	"                     the key being off saved\n"
	"  clamped up/down (CPU time)  busy CPU time, summed over CPUs, during which uclamp\n"
	"                     raised / lowered the util the governor last used\n"
	"                     (uclamp_rq_util_with); at most the busy time\n"
	"  kernel overhead T ms (P % of busy), charged to the replay C ms  the emulated\n"
	"                     kernel's own CPU time in its scheduler and cpufreq paths, then a\n"
	"                     line per operation (calls, time); charged (work timing): the\n"
	"                     enqueue/dequeue cost the emulated configuration adds over the\n"
	"                     traced one (--traced-config), added to the tasks' work\n"
	"                     (docs/kernel-overhead.md)\n"
	"  baselines          --baselines: the energy and response p95 of the same replay with\n"
	"                     powersave (0%) and performance (100%), and where this run falls\n"
	"                     between them\n"
	"\n"
	"exit status: 0 ok; 1 an output cannot be written, or another runtime failure;\n"
	"2 bad command line; 3 a trace, platform or policy that does not exist, cannot\n"
	"be read or is malformed\n";

/* The replay's own --set keys, each with its help (sim/config.c's table) wrapped under the
 * options' descriptions. */
static void print_replay_tunables(void)
{
	const char *help;

	printf("\nThe replay's own tunables (--set KEY=VALUE, with any governor):\n");
	for (size_t i = 0; sim_param_key(i, &help); i++) {
		int col = printf("  %s", sim_param_key(i, NULL));
		const char *w = help;

		/* a key too long for its column is followed by two spaces, as the options' are */
		col += printf("%*s", col < HELP_INDENT - 1 ? HELP_INDENT - col : 2, "");
		for (bool first = true; *w; first = false) {
			int len = (int)strcspn(w, " ");

			if (!first && col + 1 + len > HELP_WIDTH)
				col = printf("\n%*s", HELP_INDENT, "") - 1;
			else if (!first)
				col += printf(" ");
			col += printf("%.*s", len, w);
			w += len + strspn(w + len, " ");
		}
		printf("\n");
	}
}

/* `run --help --governor G`: what the governor is and the tunables it takes. */
static int print_governor_help(int argc, char **argv)
{
	const struct governor *g = NULL;
	struct gs_error err;

	for (int i = 1; i < argc; i++) {
		bool plugin = false;
		const char *v = NULL;

		if (strcmp(argv[i], "--governor") == 0 || (plugin = strcmp(argv[i],
									   "--governor-plugin") == 0))
			v = i + 1 < argc ? argv[++i] : NULL;
		else if (strncmp(argv[i], "--governor=", 11) == 0)
			v = argv[i] + 11;
		else if ((plugin = strncmp(argv[i], "--governor-plugin=", 18) == 0))
			v = argv[i] + 18;
		if (!v)
			continue;
		gs_error_clear(&err);
		if ((plugin ? governor_load_plugin(v, &g, &err) : governor_lookup(v, &g, &err))) {
			if (err.code == GS_ENOTFOUND)
				return cli_usage_error(run_usage, "%s", err.msg);
			return cli_fail(EXIT_BAD_INPUT, "%s", err.msg);
		}
	}
	if (!g)
		return EXIT_OK;
	printf("\ngovernor %s", g->name);
	if (g->path)
		printf(" (plugin '%s', sha256 %s, ABI %u.%u)", g->path, g->sha256, g->pub->abi_major,
		       g->pub->abi_minor);
	printf(":\n  %s\n", governor_help(g));
	if (g->pub && g->pub->tunables && g->pub->tunables[0].name) {
		printf("  tunables (--set NAME=VALUE):\n");
		for (const struct govsim_tunable *t = g->pub->tunables; t->name; t++)
			printf("    %-20s %s\n", t->name, t->help ? t->help : "");
	}
	return EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct run_result r, base_ps, base_perf;
	struct summary_baselines b = {0};
	int status;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", run_usage, run_help);
		print_replay_tunables();
		printf("%s", run_help_summary);
		return print_governor_help(argc, argv);
	}
	status = run_opts_parse(&o, argc, argv, run_usage, RUN_OPTS_RUN);
	if (status)
		return status;

	run_result_init(&r);
	status = run_opts_replay(&o, o.traces[0], NULL, &r);
	if (status)
		goto out;
	run_opts_warn_actions(&r);

	if (o.baselines) {
		run_result_init(&base_ps);
		run_result_init(&base_perf);
		status = run_opts_replay(&o, o.traces[0], "powersave", &base_ps);
		if (!status)
			status = run_opts_replay(&o, o.traces[0], "performance", &base_perf);
		if (!status) {
			b.present = true;
			b.powersave_energy = base_ps.energy_total;
			b.performance_energy = base_perf.energy_total;
			b.powersave_delay_s = report_total_delay(&base_ps, NULL);
			b.performance_delay_s = report_total_delay(&base_perf, NULL);
			b.powersave_response_p95_s = base_ps.act_total.response.p95_s;
			b.performance_response_p95_s = base_perf.act_total.response.p95_s;
		}
		run_result_release(&base_ps);
		run_result_release(&base_perf);
		if (status)
			goto out;
	}

	status = run_opts_store(&o, &r);
	if (status)
		goto out;
	if (o.json)
		report_run_json(stdout, &r, b.present ? &b : NULL);
	else if (!o.quiet)
		report_summary(stdout, &r, b.present ? &b : NULL);
out:
	run_result_release(&r);
	run_opts_release(&o);
	return status;
}
