/* run_opts.c - replay options shared by run, validate and sweep; see run_opts.h. */
#include "cli/run_opts.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/outfile.h"
#include "core/parse.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "gov/tunables.h"
#include "store/store.h"
#include "output/perfetto_write.h"

enum {
	OPT_PLATFORM = 256,
	OPT_GOVERNOR,
	OPT_GOVERNOR_PLUGIN,
	OPT_SET,
	OPT_POLICY,
	OPT_ACTION,
	OPT_TIMING,
	OPT_UTIL_SOURCE,
	OPT_POWER_MODEL,
	OPT_DB,
	OPT_LABEL,
	OPT_CSV,
	OPT_TIMELINE,
	OPT_TASK_TIMELINE,
	OPT_PERFETTO,
	OPT_BASELINES,
	OPT_SEED_UTIL,
	OPT_FORMAT,
	OPT_STRICT,
	OPT_QUIET,
	OPT_WARMUP_MS,
	OPT_KERNEL,
	OPT_JSON,
	OPT_PLACEMENT,
	OPT_TRACED_CONFIG,
};

static const struct option long_opts[] = {
	{"platform", required_argument, NULL, OPT_PLATFORM},
	{"governor", required_argument, NULL, OPT_GOVERNOR},
	{"governor-plugin", required_argument, NULL, OPT_GOVERNOR_PLUGIN},
	{"set", required_argument, NULL, OPT_SET},
	{"policy", required_argument, NULL, OPT_POLICY},
	{"action", required_argument, NULL, OPT_ACTION},
	{"timing", required_argument, NULL, OPT_TIMING},
	{"placement", required_argument, NULL, OPT_PLACEMENT},
	{"util-source", required_argument, NULL, OPT_UTIL_SOURCE},
	{"power-model", required_argument, NULL, OPT_POWER_MODEL},
	{"db", required_argument, NULL, OPT_DB},
	{"label", required_argument, NULL, OPT_LABEL},
	{"csv", required_argument, NULL, OPT_CSV},
	{"timeline", required_argument, NULL, OPT_TIMELINE},
	{"task-timeline", required_argument, NULL, OPT_TASK_TIMELINE},
	{"perfetto", required_argument, NULL, OPT_PERFETTO},
	{"baselines", no_argument, NULL, OPT_BASELINES},
	{"seed-util", no_argument, NULL, OPT_SEED_UTIL},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"quiet", no_argument, NULL, OPT_QUIET},
	{"warmup-ms", required_argument, NULL, OPT_WARMUP_MS},
	{"kernel", required_argument, NULL, OPT_KERNEL},
	{"json", no_argument, NULL, OPT_JSON},
	{"traced-config", required_argument, NULL, OPT_TRACED_CONFIG},
	{NULL, 0, NULL, 0},
};

static int parse_opts(struct run_opts *o, int argc, char **argv, const char *usage,
		      enum run_opts_kind kind);

static const char *did_you_mean(const char *word, const char *const *cands, char *buf,
				size_t size);

int run_opts_governor(const char *arg, bool plugin, const char *usage, const char **name)
{
	const struct governor *g;
	struct gs_error err;
	int ret;

	gs_error_clear(&err);
	if (!plugin && governor_find(arg)) {
		*name = arg;
		return 0;
	}
	ret = plugin ? governor_load_plugin(arg, &g, &err) : governor_lookup(arg, &g, &err);
	if (ret == GS_ENOTFOUND && !plugin && !governor_is_path(arg)) {
		/* neither built in nor a plugin in GOVSIM_PLUGIN_PATH */
		struct strbuf names = STRBUF_INIT;
		const char *gnames[32];
		char hint[96];
		int k = 0;
		for (int i = 0; governor_table[i]; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", governor_table[i]->name);
		for (; governor_table[k] && k < 31; k++)
			gnames[k] = governor_table[k]->name;
		gnames[k] = NULL;
		ret = cli_usage_error(usage,
				      "unknown governor '%s'%s (one of: %s; or a plugin: a path, "
				      "--governor-plugin FILE, GOVSIM_PLUGIN_PATH)",
				      arg, did_you_mean(arg, gnames, hint, sizeof(hint)),
				      strbuf_str(&names));
		strbuf_free(&names);
		return ret;
	}
	if (ret) /* a plugin that cannot be used is bad input */
		return cli_fail(EXIT_BAD_INPUT, "%s", err.msg);
	/* the replay finds a plugin again by its resolved path (loaded once per process) */
	*name = g->path ? g->path : g->name;
	return 0;
}

/* --placement traced|eas, or (sweep) a comma list of them: a variable of the sweep. */
static int parse_placements(struct run_opts *o, const char *arg, const char *usage,
			    enum run_opts_kind kind)
{
	char buf[64], *save = NULL;

	o->nr_placements = 0;
	snprintf(buf, sizeof(buf), "%s", arg);
	if (!buf[0] || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,") || buf[0] == ',')
		return cli_usage_error(usage, "--placement '%s': empty value", arg);
	for (char *n = strtok_r(buf, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		enum sim_placement p;

		if (strcmp(n, "traced") == 0)
			p = SIM_PLACEMENT_TRACED;
		else if (strcmp(n, "eas") == 0)
			p = SIM_PLACEMENT_EAS;
		else
			return cli_usage_error(usage, "--placement '%s': expected traced or eas%s",
					       n, kind == RUN_OPTS_SWEEP ? " (or a list of them)" : "");
		for (int k = 0; k < o->nr_placements; k++)
			if (o->placements[k] == p)
				return cli_usage_error(usage, "--placement: '%s' given twice", n);
		o->placements[o->nr_placements++] = p;
	}
	if (kind != RUN_OPTS_SWEEP && o->nr_placements > 1)
		return cli_usage_error(usage, "--placement: one mode per run (use 'govsim sweep "
					      "--placement traced,eas' for both)");
	o->sim.placement = o->placements[0];
	return 0;
}

/* --kernel NAME[,NAME...] or all (validate and sweep); run takes one. */
static int parse_kernels(struct run_opts *o, const char *arg, const char *usage,
			 enum run_opts_kind kind)
{
	char buf[256], *save = NULL;

	if (strcmp(arg, "all") == 0 && kind != RUN_OPTS_RUN) {
		o->nr_kernels = 0;
		for (int i = 0; kernel_profiles[i] && o->nr_kernels < 16; i++)
			o->kernels[o->nr_kernels++] = kernel_profiles[i];
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	for (char *n = strtok_r(buf, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		const struct kernel_profile *kp = kernel_profile_find(n);
		if (!kp) {
			struct strbuf names = STRBUF_INIT;
			int ret;
			for (int i = 0; kernel_profiles[i]; i++)
				strbuf_addf(&names, "%s%s", i ? ", " : "", kernel_profiles[i]->name);
			ret = cli_usage_error(usage, "unknown kernel profile '%s' (one of: %s%s)", n,
					      strbuf_str(&names), kind == RUN_OPTS_RUN ? "" : ", all");
			strbuf_free(&names);
			return ret;
		}
		if (o->nr_kernels == 16)
			return cli_usage_error(usage, "too many kernel profiles");
		o->kernels[o->nr_kernels++] = kp;
	}
	if (kind == RUN_OPTS_RUN && o->nr_kernels > 1)
		return cli_usage_error(usage, "--kernel: one profile per run (use 'govsim sweep' "
					      "or 'govsim validate' for several)");
	return 0;
}

/*
 * Without --platform, the platform the trace's recording device names (trace_stats.device, e.g.
 * a Perfetto trace's system_info SoC model or build fingerprint; platform_for_device()), or NULL.
 * Only a regular file is peeked at (its first events: the back ends fill the device from their
 * headers): a pipe is read once, by the replay.
 */
static const char *detect_platform(const char *trace, const struct reader_opts *ropts,
				   char *device, size_t size)
{
	struct trace_reader *rd = NULL;
	struct gs_error err = {0};
	const char *name = NULL;
	struct event ev;
	struct stat sb;

	if (strcmp(trace, "-") == 0 || stat(trace, &sb) != 0 || !S_ISREG(sb.st_mode))
		return NULL;
	if (trace_reader_open(trace, ropts, &rd, &err))
		return NULL; /* the replay reports it */
	for (int i = 0; i < 64 && !trace_reader_stats(rd)->device[0]; i++)
		if (trace_reader_next(rd, &ev, &err) <= 0)
			break;
	if (trace_reader_stats(rd)->device[0]) {
		snprintf(device, size, "%s", trace_reader_stats(rd)->device);
		name = platform_for_device(device);
	}
	trace_reader_free(rd);
	return name;
}

/* "; did you mean 'X'?" for word among cands, or "". */
static const char *did_you_mean(const char *word, const char *const *cands, char *buf,
				size_t size)
{
	const char *s = gs_suggest(word, cands);

	if (!s)
		return "";
	snprintf(buf, size, "; did you mean '%s'?", s);
	return buf;
}

/* "unknown option '--platfrom'; did you mean '--platform'?" */
static int unknown_option(const char *usage, const char *arg)
{
	const char *names[GS_ARRAY_SIZE(long_opts)];
	char word[64], hint[96];
	size_t n = 0;

	for (size_t i = 0; long_opts[i].name; i++)
		names[n++] = long_opts[i].name;
	names[n] = NULL;
	snprintf(word, sizeof(word), "%s", arg + strspn(arg, "-"));
	word[strcspn(word, "=")] = '\0';
	if (gs_suggest(word, names))
		snprintf(hint, sizeof(hint), "; did you mean '--%s'?", gs_suggest(word, names));
	else
		hint[0] = '\0';
	return cli_usage_error(usage, "unknown option '%s'%s", arg, hint);
}

/* names, ", "-separated, after the text in sb (nothing for none) */
static void join_names(const char *const *names, struct strbuf *sb)
{
	for (size_t k = 0; names[k]; k++)
		strbuf_addf(sb, "%s%s", k ? ", " : "", names[k]);
}

/*
 * The tunables each built-in governor takes (the init of each gov/ file), and the replay's own
 * (sim/config.c's table, sim_param_key()), for "did you mean" and the list given with an
 * unknown one. A governor not listed here (a plugin) is not checked up front: the replay
 * reports it.
 */
static const struct {
	const char *governor;
	const char *tunables[6];
} gov_tunables[] = {
	{"schedutil", {"rate_limit_us", "up_rate_limit_us", "down_rate_limit_us", "iowait_boost",
		       NULL}},
	{"performance", {NULL}},
	{"powersave", {NULL}},
	{"userspace", {"freq_khz", NULL}},
	{"ondemand", {"sampling_rate", "up_threshold", "sampling_down_factor", NULL}},
	{"conservative",
	 {"sampling_rate", "up_threshold", "sampling_down_factor", "down_threshold", "freq_step",
	  NULL}},
};

/* 0 when every --set key is one the governor or the replay takes; else a usage error naming
 * the nearest key and the governor's tunables. */
static int check_tunables(const struct run_opts *o, const char *usage)
{
	const char *const *gt = NULL;
	const char *all[64], *const *replay_tunables; /* the governor's, then the replay's */
	size_t n = 0;

	for (size_t i = 0; i < GS_ARRAY_SIZE(gov_tunables); i++)
		if (strcmp(gov_tunables[i].governor, o->sim.governor) == 0)
			gt = gov_tunables[i].tunables;
	if (!gt)
		return 0;
	for (size_t i = 0; gt[i]; i++)
		all[n++] = gt[i];
	replay_tunables = all + n;
	for (size_t i = 0; n + 1 < GS_ARRAY_SIZE(all) && sim_param_key(i, NULL); i++)
		all[n++] = sim_param_key(i, NULL);
	all[n] = NULL;
	for (int i = 0; i < o->sim.nr_params; i++) {
		const char *key = o->params[i].key;
		int policy;
		const char *own = gov_param_policy(key, &policy);
		struct strbuf list = STRBUF_INIT, replay = STRBUF_INIT;
		char hint[96];
		bool known = false;
		int ret;

		for (size_t k = 0; all[k]; k++)
			known = known || strcmp(all[k], key) == 0;
		/* policyN.NAME: a governor tunable for one policy (the replay's own are global) */
		for (size_t k = 0; own && gt[k]; k++)
			known = known || strcmp(gt[k], own) == 0;
		if (known)
			continue;
		join_names(gt, &list);
		join_names(replay_tunables, &replay);
		ret = cli_usage_error(usage,
				      "unknown tunable '%s' for governor '%s'%s (%s takes %s; "
				      "the replay: %s)",
				      key, o->sim.governor, did_you_mean(key, all, hint, sizeof(hint)),
				      o->sim.governor, list.len ? strbuf_str(&list) : "no tunables",
				      strbuf_str(&replay));
		strbuf_free(&list);
		strbuf_free(&replay);
		return ret;
	}
	return 0;
}

/* On failure nothing is left to release (the policy lines parsed before a bad one are freed). */
int run_opts_parse(struct run_opts *o, int argc, char **argv, const char *usage,
		   enum run_opts_kind kind)
{
	int status = parse_opts(o, argc, argv, usage, kind);

	if (status)
		run_opts_release(o);
	return status;
}

/* run_opt_apply()'s answer for an option it does not know (not an exit status). */
enum { OPT_NOT_HANDLED = INT_MIN };

/* What parsing needs beside the options themselves. */
struct parse_state {
	const char *usage;
	enum run_opts_kind kind;
	long nr_actions; /* --action lines so far (their line numbers in messages) */
	bool platform_given;
	struct gs_error err;
};

/* --set KEY=VALUE (arg is cut at the '='; o->params keeps pointers into it). */
static int parse_set(struct run_opts *o, char *arg, const char *usage)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(usage, "--set '%s': expected KEY=VALUE", arg);
	if (o->sim.nr_params == RUN_OPTS_MAX_PARAMS)
		return cli_usage_error(usage, "too many --set options");
	*eq = '\0';
	o->params[o->sim.nr_params].key = arg;
	o->params[o->sim.nr_params].value = eq + 1;
	o->sim.nr_params++;
	return 0;
}

/* The settings that select how the trace is read and what the replay models. */
static int apply_model_opt(struct run_opts *o, int c, char *arg, struct parse_state *ps)
{
	switch (c) {
	case OPT_TIMING:
		if (strcmp(arg, "traced") == 0)
			o->sim.timing = SIM_TIMING_TRACED;
		else if (strcmp(arg, "work") == 0)
			o->sim.timing = SIM_TIMING_WORK;
		else
			return cli_usage_error(ps->usage, "--timing '%s': expected traced or work",
					       arg);
		return 0;
	case OPT_PLACEMENT:
		return parse_placements(o, arg, ps->usage, ps->kind);
	case OPT_UTIL_SOURCE:
		if (strcmp(arg, "emulated") == 0)
			o->sim.util_source = SIM_UTIL_EMULATED;
		else if (strcmp(arg, "trace") == 0)
			o->sim.util_source = SIM_UTIL_TRACE;
		else
			return cli_usage_error(ps->usage,
					       "--util-source '%s': expected emulated or trace", arg);
		o->util_source_set = true;
		return 0;
	case OPT_POWER_MODEL:
		if (!power_model_from_name(arg, &o->sim.power_model))
			return cli_usage_error(ps->usage,
					       "--power-model '%s': expected em, costs or wattson",
					       arg);
		return 0;
	case OPT_FORMAT:
		if (!trace_format_from_name(arg, &o->sim.ropts.format))
			return cli_usage_error(ps->usage,
					       "--format '%s': expected ftrace, tracecmd, dat, csv, "
					       "perfetto or systrace%s",
					       arg, trace_format_hint(arg));
		return 0;
	case OPT_WARMUP_MS: {
		u64 ms;
		if (gs_parse_u64(arg, &ms) != 0 || ms > 3600000)
			return cli_usage_error(ps->usage, "--warmup-ms '%s': expected 0..3600000",
					       arg);
		o->sim.warmup_ns = ms * NSEC_PER_MSEC;
		return 0;
	}
	case OPT_KERNEL:
		return parse_kernels(o, arg, ps->usage, ps->kind);
	case OPT_TRACED_CONFIG: {
		struct gs_error err = {0};
		if (kcost_config_parse(arg, &o->sim.traced, &err))
			return cli_usage_error(ps->usage, "--traced-config %s", err.msg);
		o->sim.has_traced_config = true;
		return 0;
	}
	default:
		return OPT_NOT_HANDLED;
	}
}

/*
 * One option c with its argument arg: stored into o (the replay's settings into o->sim).
 * Returns 0, the exit status after printing the problem, or OPT_NOT_HANDLED.
 */
static int run_opt_apply(struct run_opts *o, int c, char *arg, struct parse_state *ps)
{
	int ret;

	switch (c) {
	case OPT_PLATFORM:
		o->platform_name = arg;
		ps->platform_given = true;
		return 0;
	case OPT_GOVERNOR:
	case OPT_GOVERNOR_PLUGIN:
		return run_opts_governor(arg, c == OPT_GOVERNOR_PLUGIN, ps->usage,
					 &o->sim.governor);
	case OPT_SET:
		return parse_set(o, arg, ps->usage);
	case OPT_POLICY:
	case OPT_ACTION:
		ret = c == OPT_POLICY ? policy_parse_file(&o->policy, arg, &ps->err)
				      : policy_parse_line(&o->policy, arg, "--action",
							  ++ps->nr_actions, &ps->err);
		if (ret)
			return cli_report(&ps->err);
		o->sim.policy = &o->policy;
		return 0;
	case OPT_DB:
		o->db = arg;
		return 0;
	case OPT_LABEL:
		o->sim.label = arg;
		return 0;
	case OPT_CSV:
		o->csv_dir = arg;
		return 0;
	case OPT_TIMELINE:
		o->timeline_path = arg;
		return 0;
	case OPT_TASK_TIMELINE:
		o->task_timeline_path = arg;
		return 0;
	case OPT_PERFETTO:
		o->perfetto_path = arg;
		return 0;
	case OPT_BASELINES:
		o->baselines = true;
		return 0;
	case OPT_SEED_UTIL:
		o->sim.start_from_trace_util = true;
		return 0;
	case OPT_STRICT:
		o->sim.ropts.strict = true;
		return 0;
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	case OPT_JSON:
		if (ps->kind == RUN_OPTS_SWEEP)
			return cli_usage_error(ps->usage, "unknown option '--json'");
		o->json = true;
		return 0;
	default:
		return apply_model_opt(o, c, arg, ps);
	}
}

/*
 * validate holds the emulation against what the traced kernel did with the traced
 * configuration: a what-if (a clamp policy, a warm-up cut) or a run's outputs would be
 * silently meaningless there, so they are refused. The option given, or NULL.
 */
static const char *validate_refused(const struct run_opts *o)
{
	return o->sim.policy          ? "--policy/--action"
	       : o->sim.warmup_ns     ? "--warmup-ms"
	       : o->db                ? "--db"
	       : o->csv_dir           ? "--csv"
	       : o->timeline_path     ? "--timeline"
	       : o->task_timeline_path ? "--task-timeline"
	       : o->perfetto_path     ? "--perfetto"
	       : o->baselines         ? "--baselines"
	       : o->sim.label         ? "--label"
				      : NULL;
}

/* The operands: the traces, checked against what the command takes. */
static int parse_traces(struct run_opts *o, int argc, char **argv, const struct parse_state *ps)
{
	for (int i = optind; i < argc; i++) {
		if (o->nr_traces == RUN_OPTS_MAX_TRACES)
			return cli_usage_error(ps->usage, "too many traces");
		o->traces[o->nr_traces++] = argv[i];
	}
	if (o->nr_traces == 0)
		return cli_usage_error(ps->usage, "no trace given");
	if (ps->kind == RUN_OPTS_RUN && o->nr_traces > 1)
		return cli_usage_error(ps->usage,
				       "one trace at a time (use 'govsim sweep' for several)");
	if (ps->kind == RUN_OPTS_VALIDATE && validate_refused(o))
		return cli_usage_error(ps->usage,
				       "validate takes no %s (that is 'govsim run'): it replays "
				       "the traced configuration against the kernel's own "
				       "decisions",
				       validate_refused(o));
	if (ps->kind != RUN_OPTS_VALIDATE && o->sim.timing != SIM_TIMING_WORK &&
	    (o->sim.placement == SIM_PLACEMENT_EAS ||
	     (o->nr_placements > 1 && o->placements[1] == SIM_PLACEMENT_EAS)))
		return cli_usage_error(ps->usage,
				       "--placement eas needs --timing work: moved work runs at its "
				       "new CPU's capacity and frequency");
	return 0;
}

/* A pipe is read once, here: every pass after this reads the copy. */
static int spool_traces(struct run_opts *o, struct gs_error *err)
{
	for (int i = 0; i < o->nr_traces; i++) {
		o->spools[i].fd = -1;
		o->spools[i].path[0] = '\0';
		o->nr_spools = i + 1;
		if (strcmp(run_opts_trace_file(o, o->traces[i]), o->traces[i]) != 0)
			continue; /* the same name given twice: spooled already */
		if (trace_spool(o->traces[i], &o->spools[i], err))
			return cli_report(err);
	}
	return 0;
}

/* --platform, or without it the one the trace's recording device names, else the default. */
static int load_platform(struct run_opts *o, struct parse_state *ps)
{
	bool detected = false;

	if (!ps->platform_given && o->nr_traces == 1) {
		char device[128];
		const char *name =
			detect_platform(o->traces[0], &o->sim.ropts, device, sizeof(device));
		struct gs_error derr = {0};
		if (name && platform_load(name, &o->plat, &derr) == 0) {
			fprintf(stderr,
				"govsim: note: platform '%s' from the trace's device '%s' "
				"(--platform overrides)\n",
				name, device);
			o->platform_name = name;
			detected = true;
		}
	}
	if (!detected && platform_load(o->platform_name, &o->plat, &ps->err)) {
		char hint[96];
		const char *h = did_you_mean(o->platform_name, platform_builtin_names(), hint,
					     sizeof(hint));
		if (*h && strlen(ps->err.msg) + strlen(h) < sizeof(ps->err.msg))
			strcat(ps->err.msg, h);
		return cli_report(&ps->err);
	}
	o->sim.plat = &o->plat;
	return 0;
}

static int parse_opts(struct run_opts *o, int argc, char **argv, const char *usage,
		      enum run_opts_kind kind)
{
	struct parse_state ps = {.usage = usage, .kind = kind};
	int c, ret;

	memset(o, 0, sizeof(*o));
	policy_init(&o->policy);
	sim_opts_init(&o->sim);
	o->platform_name = PLATFORM_DEFAULT;
	o->sim.governor = "schedutil";
	o->sim.params = o->params;
	o->sim.timing = kind == RUN_OPTS_VALIDATE ? SIM_TIMING_TRACED : SIM_TIMING_WORK;
	gs_error_clear(&ps.err);

	optind = 1;
	opterr = 0;
	/* ":": a missing value comes back as ':', an unknown option (short ones too) as '?' */
	while ((c = getopt_long(argc, argv, ":", long_opts, NULL)) != -1) {
		if (c == ':')
			return cli_usage_error(usage, "option '%s' needs a value", argv[optind - 1]);
		ret = run_opt_apply(o, c, optarg, &ps);
		if (ret == OPT_NOT_HANDLED)
			return unknown_option(usage, argv[optind - 1]);
		if (ret)
			return ret;
	}
	if (o->nr_kernels == 1)
		o->sim.kernel = o->kernels[0];
	if ((ret = parse_traces(o, argc, argv, &ps)) || (ret = spool_traces(o, &ps.err)) ||
	    (ret = run_opts_apply_facts(o, &ps.platform_given, &ps.err)))
		return ret;
	if (kind != RUN_OPTS_SWEEP && (ret = check_tunables(o, usage)))
		return ret;
	if ((ret = load_platform(o, &ps)))
		return ret;
	/* a foreign or newer database is refused before anything is replayed */
	if (o->db && (ret = store_check(o->db, &ps.err)))
		return cli_report(&ps.err);
	return 0;
}

void run_opts_cache(struct run_opts *o, int i, bool hash)
{
	unsigned long long max = trace_cache_max_bytes();
	const char *file = run_opts_trace_file(o, o->traces[i]);
	struct gs_error err;
	int ret;

	if (o->caches[i] || run_opts_trace_cache(o, o->traces[i]) || strcmp(file, "-") == 0 ||
	    max == 0)
		return;
	gs_error_clear(&err);
	ret = replay_cache_load(o->traces[i], file, &o->sim.ropts,
				max > o->cached_bytes ? max - o->cached_bytes : 0, hash,
				&o->caches[i], &err);
	if (ret == GS_EUNSUPPORTED && !o->quiet)
		fprintf(stderr,
			"govsim: note: '%s': not kept in memory: %s (GOVSIM_CACHE_MAX_MB sets "
			"the bound, %llu MiB): each run reads the file\n",
			o->traces[i], err.msg, max >> 20);
	if (!ret)
		o->cached_bytes += trace_cache_bytes(o->caches[i]->events);
}

void run_opts_uncache(struct run_opts *o, int i)
{
	if (!o->caches[i])
		return;
	o->cached_bytes -= trace_cache_bytes(o->caches[i]->events);
	replay_cache_free(o->caches[i]);
	o->caches[i] = NULL;
}

const struct replay_cache *run_opts_trace_cache(const struct run_opts *o, const char *trace)
{
	for (int i = 0; i < o->nr_traces; i++)
		if (o->caches[i] && strcmp(o->traces[i], trace) == 0)
			return o->caches[i];
	return NULL;
}

void run_opts_release(struct run_opts *o)
{
	for (int i = 0; i < o->nr_traces; i++)
		run_opts_uncache(o, i);
	policy_release(&o->policy);
	for (int i = 0; i < o->nr_spools; i++)
		trace_spool_release(&o->spools[i]);
	o->nr_spools = 0;
}

const char *run_opts_trace_file(const struct run_opts *o, const char *trace)
{
	for (int i = 0; i < o->nr_spools; i++)
		if (o->spools[i].path[0] && strcmp(o->traces[i], trace) == 0)
			return o->spools[i].path;
	return trace;
}

/* The run's output files (--timeline, --task-timeline, --perfetto): each written to a temporary
 * name and renamed into place only when the whole run was written (core/outfile.h). */
struct run_outputs {
	struct outfile timeline, task_timeline, perfetto;
	struct pf_writer *pf;
};

static int open_output(struct outfile *o, const char *path, FILE **f, struct gs_error *err)
{
	int ret;

	if (!path)
		return 0;
	ret = outfile_open(o, path, err);
	if (!ret)
		*f = o->f;
	return ret;
}

/* Finishes the --perfetto writer: the run's settings from r, or nothing more (r NULL: the run
 * failed). 0, or GS_EIO / GS_ENOMEM with err set. */
static int finish_perfetto(struct run_outputs *out, const struct run_result *r,
			   struct gs_error *err)
{
	if (!out->pf)
		return 0;
	if (!r) {
		pf_writer_free(out->pf);
		out->pf = NULL;
		return 0;
	}
	if (pf_writer_finish(out->pf, r, err) < 0) {
		out->pf = NULL;
		return gs_error_set(err, GS_EIO, "'%s': write error: %s", out->perfetto.path,
				    strerror(errno ? errno : ENOMEM));
	}
	out->pf = NULL;
	return 0;
}

/* Open the outputs the run asked for and point the replay at them. 0, or the error (nothing
 * left open). */
static int open_outputs(const struct run_opts *o, struct replay_spec *spec,
			struct run_outputs *out, struct gs_error *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->timeline.slot = out->task_timeline.slot = out->perfetto.slot = -1;
	if ((ret = open_output(&out->timeline, o->timeline_path, &spec->opts.timeline, err)) ||
	    (ret = open_output(&out->task_timeline, o->task_timeline_path,
			       &spec->opts.task_timeline, err)))
		goto out_abort;
	if (o->perfetto_path) {
		FILE *f = NULL;
		if ((ret = open_output(&out->perfetto, o->perfetto_path, &f, err)))
			goto out_abort;
		out->pf = pf_writer_new(f);
		if (!out->pf) {
			ret = gs_error_set(err, GS_ENOMEM, "out of memory");
			goto out_abort;
		}
		spec->opts.sink = pf_writer_sink(out->pf);
	}
	return 0;
out_abort:
	outfile_abort(&out->timeline);
	outfile_abort(&out->task_timeline);
	outfile_abort(&out->perfetto);
	return ret;
}

/* Close the outputs: renamed into place when the run succeeded (r set) and everything reached
 * the disk, removed otherwise. 0, or GS_EIO with err naming the first output that was lost. */
static int close_outputs(struct run_outputs *out, const struct run_result *r,
			 struct gs_error *err)
{
	struct outfile *files[] = {&out->timeline, &out->task_timeline, &out->perfetto};
	int ret = finish_perfetto(out, r, err);

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!files[i]->f)
			continue;
		if (ret || !r)
			outfile_abort(files[i]);
		else
			ret = outfile_commit(files[i], err);
	}
	return ret;
}

int run_opts_replay(struct run_opts *o, const char *trace, const char *governor_override,
		    struct run_result *r)
{
	struct replay_spec spec = {0};
	struct trace_stats stats;
	struct gs_error err;
	struct run_outputs out = {.timeline.slot = -1, .task_timeline.slot = -1,
				  .perfetto.slot = -1};
	int ret;

	gs_error_clear(&err);
	spec.trace = trace;
	spec.trace_file = run_opts_trace_file(o, trace);
	spec.cache = run_opts_trace_cache(o, trace);
	spec.opts = o->sim;
	if (governor_override) {
		/* baselines: the governor's own tunables do not apply */
		spec.opts.governor = governor_override;
		spec.opts.nr_params = 0;
	}
	spec.stats_out = &stats;
	/* the trace's hash identifies stored runs; a printed summary does not need it */
	spec.no_hash = governor_override || (!o->db && !o->csv_dir);
	spec.no_slices = spec.no_hash;
	memset(&stats, 0, sizeof(stats));
	if (!governor_override && (ret = open_outputs(o, &spec, &out, &err)))
		return cli_report(&err);
	ret = replay_run(&spec, r, &err);
	if (ret) {
		close_outputs(&out, NULL, NULL);
		return cli_report(&err);
	}
	if (close_outputs(&out, r, &err))
		return cli_report(&err);
	if (governor_override)
		return 0;
	/* --strict: time going back beyond the re-ordering window is bad input (the reader only
	 * counts it); strict stopped at any malformed line, so the reports are all of this kind. */
	if (o->sim.ropts.strict && stats.disorder_beyond_window && stats.nr_reported)
		return cli_fail(EXIT_BAD_INPUT, "%s", stats.reported[0]);
	if (stats.malformed)
		fprintf(stderr, "govsim: warning: '%s': %" PRIu64 " malformed line%s skipped\n",
			trace, stats.malformed, stats.malformed == 1 ? "" : "s");
	if (stats.disorder_beyond_window)
		fprintf(stderr,
			"govsim: warning: '%s': %" PRIu64 " event%s older than the re-ordering "
			"window, replayed late\n",
			trace, stats.disorder_beyond_window,
			stats.disorder_beyond_window == 1 ? "" : "s");
	if (stats.malformed || stats.disorder_beyond_window)
		for (int i = 0; i < stats.nr_reported; i++)
			fprintf(stderr, "govsim:   %s\n", stats.reported[i]);
	return 0;
}

void run_opts_warn_actions(const struct run_result *r)
{
	int late = 0, unmatched = 0;

	for (int i = 0; i < r->nr_actions; i++) {
		const struct run_action_result *a = &r->actions[i];
		bool is_late;

		if (!run_action_unmatched(a, &is_late))
			continue;
		if (is_late && ++late <= RUN_ACTIONS_LISTED)
			fprintf(stderr,
				"govsim: warning: '%s':%ld: '%s' is timed after the trace's end: "
				"not run\n",
				a->origin, a->line, a->text);
		else if (!is_late && ++unmatched <= RUN_ACTIONS_LISTED)
			fprintf(stderr, "govsim: warning: '%s':%ld: '%s' matched no task\n",
				a->origin, a->line, a->text);
	}
	if (unmatched > RUN_ACTIONS_LISTED)
		fprintf(stderr, "govsim: warning: %d more action%s matched no task\n",
			unmatched - RUN_ACTIONS_LISTED,
			unmatched - RUN_ACTIONS_LISTED == 1 ? "" : "s");
	if (late > RUN_ACTIONS_LISTED)
		fprintf(stderr,
			"govsim: warning: %d more action%s timed after the trace's end: not run\n",
			late - RUN_ACTIONS_LISTED,
			late - RUN_ACTIONS_LISTED == 1 ? " is" : "s are");
}

int run_opts_store(const struct run_opts *o, const struct run_result *r)
{
	struct gs_error err;
	s64 run_id = 0;
	int ret;

	gs_error_clear(&err);
	if (o->db) {
		struct store *st;
		ret = store_open(o->db, &st, &err);
		if (ret)
			return cli_report(&err);
		ret = store_write_run(st, r, &run_id, &err);
		store_close(st);
		if (ret)
			return cli_report(&err);
	}
	if (o->csv_dir) {
		if (mkdir(o->csv_dir, 0777) != 0 && errno != EEXIST)
			return cli_fail(EXIT_FAILURE_RT, "'%s': %s", o->csv_dir, strerror(errno));
		ret = store_write_csv(r, run_id, o->csv_dir, &err);
		if (ret)
			return cli_report(&err);
	}
	return 0;
}
