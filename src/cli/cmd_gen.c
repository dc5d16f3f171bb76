/* cmd_gen.c - `govsim gen WORKLOAD -o FILE`: deterministic synthetic ftrace text (gen/gen.h). */
#include "cli/cli.h"
#include "core/outfile.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "power/platform.h"
#include "gen/gen.h"

static const char gen_usage[] =
	"usage: govsim gen periodic|pipe|mix -o FILE [--seed N] [--size LINES] [--count N]\n"
	"                  [--platform NAME | --cpus N --max-khz KHZ]\n"
	"       govsim gen pipe -o FILE [--cpus LIST] [--loops N] [--platform NAME]\n"
	"                  [--task name=t0,period_ms=16,duty=0.5,cpu=0,prio=120,count=100]...\n";

static const char gen_help[] =
	"\nWrites a synthetic trace as kernel ftrace text (sched_wakeup, sched_switch, cpu_idle,\n"
	"and a cpu_frequency_devlib marker per CPU at its max frequency). The same options and\n"
	"seed give the same bytes. -o - writes to stdout.\n\n"
	"  periodic   rt-app-like periodic tasks, one --task per task (default: one 16 ms, 50%)\n"
	"             --task keys: name, period_ms|period_us, duty, cpu, prio (< 100 RT), count,\n"
	"             phases=DUTYxCOUNT/... (rt-app phases, e.g. phases=0.5x50/0.25x50)\n"
	"  pipe       two tasks ping-ponging through a pipe on CPUs 0 and 1 (perf bench sched\n"
	"             pipe); --cpus 4,5 puts them on CPUs 4 and 5, --cpus 2 both on CPU 2\n"
	"             (taskset 1); --loops N round trips (perf's -l N; like --count)\n"
	"  mix        per CPU one RT task and two CFS tasks\n"
	"  --size N   about N lines (activations unlimited), for benchmarks\n"
	"  --count N  activations per task / pipe rounds (default 100 / 200 mix / 1000 pipe)\n"
	"  --platform NAME  the CPUs of a platform (govsim platforms list), each at its\n"
	"             policy's highest OPP (default: hikey960, unless --cpus or --max-khz)\n"
	"  --cpus N, --max-khz KHZ  N CPUs (default 8) at KHZ (default 2000000) instead\n"
	"\n"
	"exit status: 0 ok; 1 FILE cannot be written; 2 bad command line\n";

/* What gen's options say beside struct gen_opts. */
struct gen_args {
	const char *outpath, *platform, *cpus;
	u64 max_khz;
	bool loops;
	bool has_workload;
	enum gen_workload workload;
};

/* One option a with its value val; 0 or the exit status after printing the problem. */
static int gen_option(struct gen_opts *o, struct gen_args *g, const char *a, const char *val,
		      struct gs_error *err)
{
	u64 v;

	if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
		g->outpath = val;
	} else if (strcmp(a, "--seed") == 0) {
		if (gs_parse_u64(val, &o->prng_seed))
			return cli_usage_error(gen_usage, "gen: bad seed '%s' (want 0..18446744073709551615)", val);
	} else if (strcmp(a, "--size") == 0) {
		if (gs_parse_u64(val, &o->size_lines) || o->size_lines == 0)
			return cli_usage_error(gen_usage, "gen: bad size '%s' (want lines, 1..18446744073709551615)", val);
	} else if (strcmp(a, "--count") == 0) {
		if (gs_parse_u64(val, &v) || v == 0 || v > 1000000000)
			return cli_usage_error(gen_usage, "gen: bad count '%s' (want 1..1000000000)", val);
		o->count = (u32)v;
	} else if (strcmp(a, "--loops") == 0) {
		if (gs_parse_u64(val, &v) || v == 0 || v > 1000000000)
			return cli_usage_error(gen_usage, "gen: bad loops '%s' (1..1000000000)",
					       val);
		o->count = (u32)v;
		g->loops = true;
	} else if (strcmp(a, "--cpus") == 0) {
		g->cpus = val; /* a count, or for pipe a list: read once the workload is known */
	} else if (strcmp(a, "--max-khz") == 0) {
		if (gs_parse_u64(val, &g->max_khz) || g->max_khz == 0 ||
		    g->max_khz > UINT32_MAX)
			return cli_usage_error(gen_usage, "gen: bad max-khz '%s' (want 1..4294967295)", val);
	} else if (strcmp(a, "--platform") == 0) {
		g->platform = val;
	} else if (strcmp(a, "--task") == 0) {
		if (gen_parse_task(o, val, err) < 0)
			return cli_usage_error(gen_usage, "gen: %s", err->msg);
	} else {
		return cli_usage_error(gen_usage, "gen: unknown option '%s'", a);
	}
	return 0;
}

/* The arguments; 0 or the exit status after printing the problem; *help after --help. */
static int gen_parse(int argc, char **argv, struct gen_opts *o, struct gen_args *g, bool *help)
{
	struct gs_error err;
	int ret;

	gs_error_clear(&err);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (cli_is_help(a)) {
			*help = true;
			return 0;
		}
		if (a[0] != '-') {
			int wl;
			if (g->has_workload)
				return cli_usage_error(gen_usage, "gen: more than one workload");
			wl = gen_workload_from_name(a);
			if (wl < 0)
				return cli_usage_error(gen_usage,
						       "gen: unknown workload '%s' (want periodic, pipe "
						       "or mix)",
						       a);
			g->workload = (enum gen_workload)wl;
			g->has_workload = true;
			continue;
		}
		if (!val)
			return cli_usage_error(gen_usage, "gen: option '%s' needs a value", a);
		i++;
		ret = gen_option(o, g, a, val, &err);
		if (ret)
			return ret;
	}
	return 0;
}

/* --cpus for the pipe workload: "4,5" or "2", the CPUs the two sides run on. */
static int gen_pipe_cpus(struct gen_opts *o, const char *cpus)
{
	char *end;
	const char *p = cpus;

	while (*p && o->nr_pipe_cpus < 2) {
		unsigned long c = strtoul(p, &end, 10);
		if (end == p || c >= GS_MAX_CPUS || (*end && *end != ','))
			break;
		o->pipe_cpus[o->nr_pipe_cpus++] = (int)c;
		p = *end ? end + 1 : end;
	}
	if (*p || !o->nr_pipe_cpus)
		return cli_usage_error(gen_usage,
				       "gen: bad cpu list '%s' (one or two CPUs 0..%d: 0,1)", cpus,
				       GS_MAX_CPUS - 1);
	for (int i = 0; i < o->nr_pipe_cpus; i++)
		if (o->pipe_cpus[i] >= o->nr_cpus)
			o->nr_cpus = o->pipe_cpus[i] + 1; /* without --platform: up to the last */
	return 0;
}

/* --platform: its CPU count and each CPU's maximum frequency. */
static int gen_platform(struct gen_opts *o, const char *name)
{
	struct gs_error err;
	struct platform *p = malloc(sizeof(*p));

	gs_error_clear(&err);
	if (!p)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	if (platform_load(name, p, &err) < 0) {
		free(p);
		return cli_report(&err);
	}
	o->nr_cpus = p->nr_cpus;
	for (int c = 0; c < p->nr_cpus; c++)
		o->max_khz[c] = plat_cluster_max_khz(platform_cluster_of(p, c));
	free(p);
	return 0;
}

/* The CPUs and frequencies (--cpus, --max-khz, --platform), checked against the workload. */
static int gen_machine(struct gen_opts *o, const struct gen_args *g)
{
	bool cpus_given = false;
	u64 v;

	if (g->loops && o->workload != GEN_PIPE)
		return cli_usage_error(gen_usage, "gen: --loops is for the pipe workload");
	if (g->cpus && o->workload == GEN_PIPE) {
		int ret = gen_pipe_cpus(o, g->cpus);
		if (ret)
			return ret;
	} else if (g->cpus) {
		if (gs_parse_u64(g->cpus, &v) || v < 1 || v > GS_MAX_CPUS)
			return cli_usage_error(gen_usage, "gen: bad cpus '%s' (want 1..%d)", g->cpus,
					       GS_MAX_CPUS);
		o->nr_cpus = (int)v;
		cpus_given = true;
	}
	if (g->platform && (cpus_given || g->max_khz))
		return cli_usage_error(gen_usage, "gen: --platform sets the cpus and frequencies");
	if (g->platform || (!cpus_given && !g->max_khz)) {
		/* the default platform's when nothing else is said: `run` replays it as traced */
		int ret = gen_platform(o, g->platform ? g->platform : PLATFORM_DEFAULT);
		if (ret)
			return ret;
		for (int i = 0; i < o->nr_pipe_cpus; i++)
			if (o->pipe_cpus[i] >= o->nr_cpus)
				return cli_usage_error(gen_usage, "gen: cpu %d is not a CPU of '%s' "
							"(0..%d)", o->pipe_cpus[i],
							g->platform ? g->platform : PLATFORM_DEFAULT,
							o->nr_cpus - 1);
		return 0;
	}
	if (g->max_khz)
		for (int c = 0; c < GS_MAX_CPUS; c++)
			o->max_khz[c] = (u32)g->max_khz;
	return 0;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_opts o;
	struct gen_args g = {0};
	struct gs_error err;
	bool help = false;
	struct outfile out;
	int ret;

	gs_error_clear(&err);
	gen_opts_init(&o);
	ret = gen_parse(argc, argv, &o, &g, &help);
	if (ret)
		return ret;
	if (help) {
		printf("%s%s", gen_usage, gen_help);
		return EXIT_OK;
	}
	if (!g.has_workload)
		return cli_usage_error(gen_usage, "gen: no workload given");
	if (!g.outpath)
		return cli_usage_error(gen_usage, "gen: no output file (-o FILE)");
	o.workload = g.workload;
	ret = gen_machine(&o, &g);
	if (ret)
		return ret;

	if (outfile_open(&out, g.outpath, &err))
		return cli_report(&err);
	ret = gen_write(out.f, &o, NULL, &err);
	if (ret == GS_EIO) {
		/* gen_write() stopped at the first lost write: name the file */
		char why[sizeof(err.msg)];
		snprintf(why, sizeof(why), "%s", err.msg);
		gs_error_set(&err, GS_EIO, "'%s': %s", g.outpath, why);
	}
	if (ret)
		outfile_abort(&out);
	else
		ret = outfile_commit(&out, &err);
	if (ret < 0) {
		if (ret == GS_EARG)
			return cli_usage_error(gen_usage, "gen: %s", err.msg);
		return cli_report(&err);
	}
	return EXIT_OK;
}
