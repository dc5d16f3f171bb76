/*
 * cmd_sweep.c - `govsim sweep TRACE... --db FILE`: the cross product of traces x clamp policy
 * variants x governors x tunable values, run in parallel worker processes, into one database.
 *
 * The jobs run through the sweep engine (sweep_engine.h: forked workers, merged into --db in job
 * order, so the database does not depend on --jobs; SIGINT/SIGTERM/SIGHUP stop the workers and
 * remove the temporary folder). `--list-jobs` and `--job K` expose the same job list for a
 * cluster's job array (docs/cluster.md); `govsim merge` joins the pieces, `--slurm FILE` writes
 * the array's sbatch script.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_opts.h"
#include "cli/sweep_engine.h"
#include "core/outfile.h"
#include "core/words.h"
#include "store/store.h"

static const char sweep_usage[] =
	"usage: govsim sweep TRACE... --db FILE [--policy FILE]... [--action 'LINE']...\n"
	"         [--no-policy] [--governor NAME]... [--set KEY=V1,V2,...]...\n"
	"         [--jobs N] [--list-jobs] [--job K] [--label TEXT] [--platform P]\n"
	"         [--timing T] [--util-source S] [--power-model M] [--seed-util]\n"
	"         [--kernel NAME[,NAME...]|all] [--format F] [--strict] [--quiet]\n"
	"         [--placement traced,eas] [--slurm FILE]\n";

static const char sweep_help[] =
	"\n"
	"Runs every combination of TRACE x policy variant x governor x tunable value\n"
	"and stores each run in the results database FILE, labelled with what varied,\n"
	"e.g. 'policy=cap300.txt governor=schedutil rate_limit_us=1000'.\n"
	"\n"
	"  --policy FILE     a policy variant per file (repeatable); a file that does\n"
	"                    not parse fails its runs, the others still run\n"
	"  --action 'LINE'   a one-line policy variant (repeatable)\n"
	"  --no-policy       also run without a policy (label policy=none); the only\n"
	"                    variant when no --policy or --action is given\n"
	"  --governor NAME   a governor variant (repeatable; default schedutil,\n"
	"                    not labelled); a plugin's FILE too (see 'run --help')\n"
	"  --set KEY=V1,V2   a tunable and its values (repeatable: one dimension per\n"
	"                    key); it applies to the governors of the sweep that take\n"
	"                    it (their labels name it; the others run once, without\n"
	"                    it); a key none of them takes exits 2 before anything runs\n"
	"  --set GOV.KEY=V1,V2  the same for governor GOV alone\n"
	"  --jobs N          worker processes (default: the online CPUs)\n"
	"  --list-jobs       print the jobs, one 'INDEX<TAB>TRACE<TAB>LABEL' line each,\n"
	"                    and exit; indices from 0 (a Slurm array's task ids)\n"
	"  --job K           run job K only; join the databases with 'govsim merge'\n"
	"                    (docs/cluster.md)\n"
	"  --slurm FILE      write FILE, an sbatch script that runs the sweep as a\n"
	"                    Slurm job array (one --job K per task, into parts/), and\n"
	"                    print the number of jobs N; merge the parts with\n"
	"                    'govsim merge --expect N OUT.db parts/out-*.db'\n"
	"  --placement traced,eas  both placements, a variable (label placement=MODE;\n"
	"                    eas needs --timing work); one mode applies to every run\n"
	"  --label TEXT      put TEXT in front of every run's label\n"
	"  --quiet           no progress, no summary; only errors\n"
	"Other options are those of 'govsim run' and apply to every run.\n"
	"\n"
	"Jobs are ordered trace, policy, kernel (--kernel A,B: a variable), placement\n"
	"(--placement traced,eas), governor,\n"
	"then each --set key that applies to that governor in the order given (the\n"
	"last varies fastest). Each runs in its own process into its own database;\n"
	"they are merged into FILE in job order, so FILE does not depend on --jobs.\n"
	"Progress goes to stderr when it is a terminal. Ctrl-C (or SIGTERM) stops the\n"
	"workers, removes their temporary files and stores nothing.\n"
	"\n"
	"exit status: 0 every run stored; 3 some runs failed, all on bad input (trace,\n"
	"policy, platform); 1 some run failed otherwise, or FILE could not be written;\n"
	"2 bad command line. The runs that succeeded are stored in every case but a\n"
	"stop by a signal (then the exit is that signal's).\n";

#define SWEEP_MAX_VARIANTS 256
#define SWEEP_MAX_SETS     16
#define SWEEP_LABEL_MAX    1024

struct sweep_policy {
	char name[512];        /* the label word: policy=FILE, action="LINE" or policy=none */
	struct policy policy;
	bool has_policy;
	struct gs_error err;   /* a parse failure: every run of the variant fails with it */
};

struct sweep_set {
	const char *key;       /* the tunable, without a GOV. scope */
	const char *scope;     /* GOV of --set GOV.KEY=..., or NULL */
	bool applies[SWEEP_MAX_VARIANTS]; /* per governor of the sweep: it takes the key */
	char *buf;             /* the values, split in place */
	const char *values[SWEEP_MAX_VARIANTS];
	int nr;
};

struct sweep {
	struct run_opts o;
	bool opts_parsed;
	const char *policy_args[SWEEP_MAX_VARIANTS];
	bool policy_is_action[SWEEP_MAX_VARIANTS];
	int nr_policy_args;
	bool no_policy;
	struct sweep_policy *pols;
	int nr_pols;
	const char *govs[SWEEP_MAX_VARIANTS];      /* a name, or a plugin's resolved path */
	const char *gov_labels[SWEEP_MAX_VARIANTS]; /* as given */
	int nr_govs;
	struct sweep_set sets[SWEEP_MAX_SETS];
	int nr_sets;
	long gov_jobs[SWEEP_MAX_VARIANTS]; /* per governor: the product of its sets' values */
	long nr_jobs;          /* total */
	long parallel;         /* --jobs */
	long only_job;         /* --job, -1 for all */
	bool list_jobs;
	const char *slurm;     /* --slurm FILE */
	char **script_args;    /* the command line a job of the array runs (argc entries) */
	int nr_script_args;
};

/* One job, decoded from its index. */
struct sweep_job {
	long index;
	const char *trace;
	struct sweep_policy *pol;
	const char *gov;
	const char *gov_label;
	const struct kernel_profile *kernel; /* NULL: the trace's own */
	enum sim_placement placement;
	struct gov_param params[RUN_OPTS_MAX_PARAMS];
	int nr_params;
	char label[SWEEP_LABEL_MAX];
};

/* --- the job list -------------------------------------------------------------------------- */

/*
 * Decode index into (trace, policy, governor, set values): the last dimension varies fastest.
 * A governor runs with the values of the sets that apply to it only (the others do not vary
 * for it), so each (trace, policy) holds sum over governors g of gov_jobs[g] jobs; when every
 * set applies to every governor this is the plain cross product.
 */
static void job_describe(struct sweep *sw, long index, struct sweep_job *j)
{
	long block = 0, within, rest = index;
	int set_idx[SWEEP_MAX_SETS], g = 0;

	memset(j, 0, sizeof(*j));
	j->index = index;
	for (int k = 0; k < sw->nr_govs; k++)
		block += sw->gov_jobs[k];
	within = rest % block;
	rest /= block;
	while (within >= sw->gov_jobs[g])
		within -= sw->gov_jobs[g++];
	for (int k = sw->nr_sets - 1; k >= 0; k--) {
		if (!sw->sets[k].applies[g])
			continue;
		set_idx[k] = (int)(within % sw->sets[k].nr);
		within /= sw->sets[k].nr;
	}
	j->gov = sw->govs[g];
	j->gov_label = sw->gov_labels[g];
	/* --placement traced,eas: a variable between governor and kernel */
	j->placement = sw->o.sim.placement;
	if (sw->o.nr_placements > 1) {
		j->placement = sw->o.placements[rest % sw->o.nr_placements];
		rest /= sw->o.nr_placements;
	}
	/* --kernel A,B,...: a variable between governor and policy */
	if (sw->o.nr_kernels) {
		j->kernel = sw->o.kernels[rest % sw->o.nr_kernels];
		rest /= sw->o.nr_kernels;
	}
	j->pol = &sw->pols[rest % sw->nr_pols];
	rest /= sw->nr_pols;
	j->trace = sw->o.traces[rest];

	if (sw->o.sim.label)
		snprintf(j->label, sizeof(j->label), "%s", sw->o.sim.label);
	if (sw->nr_policy_args || sw->no_policy)
		gs_words_add(j->label, sizeof(j->label), "%s", j->pol->name);
	if (sw->nr_govs > 1 || sw->govs[0] != sw->o.sim.governor)
		gs_words_add(j->label, sizeof(j->label), "governor=%s", j->gov_label);
	if (sw->o.nr_kernels > 1)
		gs_words_add(j->label, sizeof(j->label), "kernel=%s", j->kernel->name);
	if (sw->o.nr_placements > 1)
		gs_words_add(j->label, sizeof(j->label), "placement=%s",
			     j->placement == SIM_PLACEMENT_EAS ? "eas" : "traced");
	for (int k = 0; k < sw->nr_sets; k++) {
		if (!sw->sets[k].applies[g])
			continue;
		gs_words_add(j->label, sizeof(j->label), "%s=%s", sw->sets[k].key,
			     sw->sets[k].values[set_idx[k]]);
		j->params[j->nr_params].key = sw->sets[k].key;
		j->params[j->nr_params].value = sw->sets[k].values[set_idx[k]];
		j->nr_params++;
	}
}

/*
 * Which governors of the sweep each --set applies to: KEY to every one that takes it (none is
 * a mistake), GOV.KEY to GOV alone (which must be in the sweep and take it); a key may not
 * reach one governor twice. Then the jobs per governor. Returns 0 or the exit status (2).
 */
/* The governor g of the sweep (a plugin was loaded when parsed: found again). */
static const struct governor *sweep_gov(struct sweep *sw, int g)
{
	const struct governor *gov = NULL;
	struct gs_error err;

	gs_error_clear(&err);
	if (governor_lookup(sw->govs[g], &gov, &err))
		return NULL;
	return gov;
}

/* GOV of --set GOV.KEY names governor g: as given, or a plugin's own name. */
static bool sweep_scope_is(struct sweep *sw, const char *scope, int g)
{
	const struct governor *gov = sweep_gov(sw, g);

	return strcmp(scope, sw->gov_labels[g]) == 0 || (gov && strcmp(scope, gov->name) == 0);
}

static int sweep_resolve_sets(struct sweep *sw, const char *usage)
{
	for (int k = 0; k < sw->nr_sets; k++) {
		struct sweep_set *set = &sw->sets[k];
		bool in_sweep = false;
		int nr = 0;

		for (int g = 0; g < sw->nr_govs; g++) {
			if (set->scope && !sweep_scope_is(sw, set->scope, g))
				continue;
			in_sweep = true;
			set->applies[g] = sweep_gov(sw, g) &&
					  sweep_gov_takes(&sw->o.plat, sweep_gov(sw, g), set->key,
							  set->values[0]);
			nr += set->applies[g];
			if (set->scope && !set->applies[g])
				return cli_usage_error(usage,
						       "--set '%s.%s': governor '%s' has no tunable "
						       "'%s'",
						       set->scope, set->key, set->scope, set->key);
		}
		if (set->scope && !in_sweep && !governor_find(set->scope))
			return cli_usage_error(usage, "--set '%s.%s': unknown governor '%s'",
					       set->scope, set->key, set->scope);
		if (set->scope && nr == 0)
			return cli_usage_error(usage,
					       "--set '%s.%s': '%s' is not a governor of the sweep "
					       "(add --governor %s)",
					       set->scope, set->key, set->scope, set->scope);
		if (nr == 0) {
			char govs[512] = "";
			for (int g = 0; g < sw->nr_govs; g++)
				gs_words_add(govs, sizeof(govs), "%s", sw->gov_labels[g]);
			return cli_usage_error(usage,
					       "--set '%s': no governor of the sweep takes it (%s)",
					       set->key, govs);
		}
		for (int o = 0; o < k; o++) {
			if (strcmp(sw->sets[o].key, set->key) != 0)
				continue;
			for (int g = 0; g < sw->nr_govs; g++)
				if (set->applies[g] && sw->sets[o].applies[g])
					return cli_usage_error(usage,
							       "--set '%s' given twice for "
							       "governor '%s'",
							       set->key, sw->gov_labels[g]);
		}
	}
	for (int g = 0; g < sw->nr_govs; g++) {
		sw->gov_jobs[g] = 1;
		for (int k = 0; k < sw->nr_sets; k++)
			if (sw->sets[k].applies[g])
				sw->gov_jobs[g] *= sw->sets[k].nr;
	}
	return 0;
}

/* --- command line -------------------------------------------------------------------------- */

/* run options that take a value, passed through to run_opts_parse() with it */
static const char *const passthrough_with_value[] = {
	"--platform", "--timing", "--util-source", "--power-model", "--db", "--label", "--format",
	"--kernel",
};

static const char *const refused[] = {"--csv", "--timeline", "--task-timeline", "--perfetto",
				       "--baselines"};

/* If arg is `--name` or `--name=V`: 1, and *value is V (or the next argument, consumed). */
static int match_opt(const char *name, int argc, char **argv, int *i, const char **value,
		     bool needs_value, int *missing)
{
	const char *arg = argv[*i];
	size_t len = strlen(name);

	if (strncmp(arg, name, len) != 0 || (arg[len] != '\0' && arg[len] != '='))
		return 0;
	if (!needs_value)
		return arg[len] == '\0';
	if (arg[len] == '=') {
		*value = arg + len + 1;
	} else if (*i + 1 < argc) {
		*value = argv[++*i];
	} else {
		*missing = 1;
		return 0;
	}
	return 1;
}

static int parse_long(const char *s, long min, long *out)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min)
		return -1;
	*out = v;
	return 0;
}

static int add_set(struct sweep *sw, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct sweep_set *set;

	if (!eq || eq == arg || !eq[1])
		return cli_usage_error(sweep_usage, "--set '%s': expected KEY=V1[,V2...]", arg);
	if (sw->nr_sets == SWEEP_MAX_SETS)
		return cli_usage_error(sweep_usage, "too many --set options");
	set = &sw->sets[sw->nr_sets];
	set->buf = strdup(arg);
	if (!set->buf)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	sw->nr_sets++;
	set->buf[eq - arg] = '\0';
	set->key = set->buf;
	/* GOV.KEY: the key for that governor alone */
	char *dot = strchr(set->buf, '.');
	if (dot) {
		*dot = '\0';
		set->scope = set->buf;
		set->key = dot + 1;
		if (!*set->scope || !*set->key)
			return cli_usage_error(sweep_usage, "--set '%s': expected [GOV.]KEY=V1[,V2...]",
					       arg);
	}
	/* split on every comma: an empty value (a,,b or a trailing comma) is a mistake, not
	 * something to drop silently */
	for (char *v = set->buf + (eq - arg) + 1;; ) {
		char *comma = strchr(v, ',');
		if (comma)
			*comma = '\0';
		if (!*v)
			return cli_usage_error(sweep_usage, "--set '%s': empty value", arg);
		if (set->nr == SWEEP_MAX_VARIANTS)
			return cli_usage_error(sweep_usage, "--set '%s': too many values", set->key);
		set->values[set->nr++] = v;
		if (!comma)
			break;
		v = comma + 1;
	}
	return 0;
}

/* A run option at argv[*i] (with its value, when it takes one) goes to rest[] for
 * run_opts_parse(); run's outputs are refused. Returns 0 or the exit status. */
static int pass_through(int argc, char **argv, int *i, char **rest, int *nr_rest)
{
	const char *v = NULL;
	int missing = 0;

	for (size_t k = 0; k < GS_ARRAY_SIZE(refused); k++)
		if (match_opt(refused[k], argc, argv, i, &v, false, &missing) ||
		    strncmp(argv[*i], refused[k], strlen(refused[k])) == 0)
			return cli_usage_error(sweep_usage, "%s is for 'govsim run', not sweep",
					       refused[k]);
	for (size_t k = 0; k < GS_ARRAY_SIZE(passthrough_with_value); k++) {
		if (strcmp(argv[*i], passthrough_with_value[k]) == 0 && *i + 1 < argc) {
			rest[(*nr_rest)++] = argv[(*i)++];
			rest[(*nr_rest)++] = argv[*i];
			return 0;
		}
	}
	rest[(*nr_rest)++] = argv[*i];
	return 0;
}

/* --governor NAME: one more governor of the sweep (a plugin is loaded here, before the
 * workers fork). */
static int add_governor(struct sweep *sw, const char *v)
{
	const char *name;
	int status;

	if ((status = run_opts_governor(v, false, sweep_usage, &name)))
		return status;
	for (int k = 0; k < sw->nr_govs; k++)
		if (strcmp(sw->govs[k], name) == 0)
			return cli_usage_error(sweep_usage, "--governor '%s' given twice", v);
	if (sw->nr_govs == SWEEP_MAX_VARIANTS)
		return cli_usage_error(sweep_usage, "too many governors");
	sw->gov_labels[sw->nr_govs] = v;
	sw->govs[sw->nr_govs++] = name;
	return 0;
}

/*
 * Take sweep's own options out of argv, pass the rest to run_opts_parse(). `rest` has room
 * for argc entries.
 */
static int sweep_parse(struct sweep *sw, int argc, char **argv, char **rest)
{
	int nr_rest = 0, status;

	sw->parallel = 0;
	sw->only_job = -1;
	rest[nr_rest++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *v = NULL;
		int missing = 0, first = i;
		bool keep = true;

		if (strcmp(argv[i], "--") == 0) {
			while (i < argc) {
				sw->script_args[sw->nr_script_args++] = argv[i];
				rest[nr_rest++] = argv[i++];
			}
			break;
		}
		bool is_action = false;

		if (match_opt("--policy", argc, argv, &i, &v, true, &missing) ||
		    (is_action = match_opt("--action", argc, argv, &i, &v, true, &missing))) {
			if (sw->nr_policy_args == SWEEP_MAX_VARIANTS)
				return cli_usage_error(sweep_usage, "too many policy variants");
			sw->policy_is_action[sw->nr_policy_args] = is_action;
			sw->policy_args[sw->nr_policy_args++] = v;
		} else if (match_opt("--governor", argc, argv, &i, &v, true, &missing)) {
			if ((status = add_governor(sw, v)))
				return status;
		} else if (match_opt("--set", argc, argv, &i, &v, true, &missing)) {
			if ((status = add_set(sw, v)))
				return status;
		} else if (match_opt("--jobs", argc, argv, &i, &v, true, &missing)) {
			keep = false;
			if (parse_long(v, 1, &sw->parallel))
				return cli_usage_error(sweep_usage, "--jobs '%s': expected a number >= 1",
						       v);
		} else if (match_opt("--job", argc, argv, &i, &v, true, &missing)) {
			keep = false;
			if (parse_long(v, 0, &sw->only_job))
				return cli_usage_error(sweep_usage, "--job '%s': expected a job index",
						       v);
		} else if (match_opt("--list-jobs", argc, argv, &i, &v, false, &missing)) {
			sw->list_jobs = true;
		} else if (match_opt("--slurm", argc, argv, &i, &v, true, &missing)) {
			sw->slurm = v;
			keep = false;
		} else if (match_opt("--no-policy", argc, argv, &i, &v, false, &missing)) {
			sw->no_policy = true;
		} else {
			if ((status = pass_through(argc, argv, &i, rest, &nr_rest)))
				return status;
			/* the script's jobs choose their own --db and are --quiet */
			if (strcmp(argv[first], "--db") == 0 || strncmp(argv[first], "--db=", 5) == 0 ||
			    strcmp(argv[first], "--quiet") == 0)
				keep = false;
		}
		if (missing)
			return cli_usage_error(sweep_usage, "option '%s' needs a value", argv[i]);
		for (int k = first; keep && k <= i; k++)
			sw->script_args[sw->nr_script_args++] = argv[k];
	}
	status = run_opts_parse(&sw->o, nr_rest, rest, sweep_usage, RUN_OPTS_SWEEP);
	if (status)
		return status;
	sw->opts_parsed = true;
	if (sw->slurm && (sw->list_jobs || sw->only_job >= 0))
		return cli_usage_error(sweep_usage, "--slurm writes every job: not with %s",
				       sw->list_jobs ? "--list-jobs" : "--job");
	if (!sw->list_jobs && !sw->slurm && !sw->o.db)
		return cli_usage_error(sweep_usage, "--db FILE is required");
	if (sw->nr_govs == 0) {
		sw->gov_labels[sw->nr_govs] = sw->o.sim.governor;
		sw->govs[sw->nr_govs++] = sw->o.sim.governor;
	}
	return 0;
}

/* Parse every policy variant up front; a bad one is remembered, not fatal. */
static int sweep_load_policies(struct sweep *sw)
{
	int n = sw->nr_policy_args + (sw->no_policy || sw->nr_policy_args == 0);

	sw->pols = calloc((size_t)n, sizeof(*sw->pols));
	if (!sw->pols)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	if (sw->no_policy || sw->nr_policy_args == 0) {
		struct sweep_policy *p = &sw->pols[sw->nr_pols++];
		policy_init(&p->policy);
		snprintf(p->name, sizeof(p->name), "policy=none");
	}
	for (int i = 0; i < sw->nr_policy_args; i++) {
		struct sweep_policy *p = &sw->pols[sw->nr_pols++];
		const char *arg = sw->policy_args[i];
		policy_init(&p->policy);
		gs_error_clear(&p->err);
		if (sw->policy_is_action[i]) {
			snprintf(p->name, sizeof(p->name), "action=\"%s\"", arg);
			policy_parse_line(&p->policy, arg, "--action", 1, &p->err);
		} else {
			snprintf(p->name, sizeof(p->name), "policy=%s", arg);
			policy_parse_file(&p->policy, arg, &p->err);
		}
		p->has_policy = p->err.code == 0;
	}
	return 0;
}

static void sweep_release(struct sweep *sw)
{
	for (int i = 0; i < sw->nr_pols; i++)
		policy_release(&sw->pols[i].policy);
	free(sw->pols);
	free(sw->script_args);
	for (int k = 0; k < sw->nr_sets; k++)
		free(sw->sets[k].buf);
	if (sw->opts_parsed)
		run_opts_release(&sw->o);
}

/* --- running ------------------------------------------------------------------------------- */

/* In the worker: replay job j into the database `db`; returns the exit status. */
static int run_job(struct sweep *sw, const struct sweep_job *j, const char *db)
{
	struct run_opts *o = &sw->o;
	struct run_result r;
	int status;

	if (j->pol->err.code)
		return cli_report(&j->pol->err);
	/* the job's point of the sweep's axes; the rest of o->sim as given */
	o->sim.governor = j->gov;
	o->sim.kernel = j->kernel;
	o->sim.placement = j->placement;
	o->sim.params = j->params;
	o->sim.nr_params = j->nr_params;
	o->sim.policy = j->pol->has_policy ? &j->pol->policy : NULL;
	o->sim.label = j->label;
	o->db = db;
	o->csv_dir = NULL;
	run_result_init(&r);
	status = run_opts_replay(o, j->trace, NULL, &r);
	if (!status)
		status = run_opts_store(o, &r);
	run_result_release(&r);
	return status;
}

/* The engine's callbacks (sweep_engine.h): a policy variant that did not parse fails its jobs
 * in the parent; a job runs in its worker; a job is named by its trace and label. */
static int engine_precheck(void *ctx, long i, const char **msg)
{
	struct sweep *sw = ctx;
	struct sweep_job j;

	job_describe(sw, i, &j);
	if (!j.pol->err.code)
		return 0;
	*msg = j.pol->err.msg;
	return gs_exit_status(j.pol->err.code);
}

static int engine_run(void *ctx, long i, const char *db, const char *out)
{
	struct sweep *sw = ctx;
	struct sweep_job j;

	(void)out;
	job_describe(sw, i, &j);
	return run_job(sw, &j, db);
}

static void engine_describe(void *ctx, long i, char *buf, size_t size)
{
	struct sweep_job j;

	job_describe(ctx, i, &j);
	snprintf(buf, size, "%s%s%s", j.trace, j.label[0] ? ", " : "", j.label);
}

static int run_all(struct sweep *sw)
{
	struct sweep_engine e = {
		.name = "sweep",
		.first = sw->only_job >= 0 ? sw->only_job : 0,
		.nr_jobs = sw->only_job >= 0 ? 1 : sw->nr_jobs,
		.parallel = sw->parallel,
		.quiet = sw->o.quiet,
		.db = sw->o.db,
		.ctx = sw,
		.precheck = engine_precheck,
		.run = engine_run,
		.describe = engine_describe,
	};
	struct store_part part;
	struct sweep_job j;
	int status;

	/* --job K: the database says it is job K of the sweep, for merge */
	if (sw->only_job >= 0) {
		job_describe(sw, sw->only_job, &j);
		part.job = sw->only_job;
		part.nr_jobs = sw->nr_jobs;
		part.trace = j.trace;
		part.label = j.label;
		e.mark = &part;
	}
	/* a trace replayed more than once is read once, here, before the workers fork */
	if (sw->only_job < 0 && sw->nr_jobs > sw->o.nr_traces)
		for (int i = 0; i < sw->o.nr_traces; i++)
			run_opts_cache(&sw->o, i, true);
	status = sweep_engine_run(&e);
	if (!sw->o.quiet)
		fprintf(stderr, "govsim sweep: %zu of %ld run%s stored in '%s', %ld failed\n",
			e.merged, e.nr_jobs, e.nr_jobs == 1 ? "" : "s", sw->o.db, e.failed);
	return status;
}

/* --- a Slurm job array ---------------------------------------------------------------------- */

/* Write s as one shell word, in single quotes. */
static void shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/*
 * --slurm FILE: an sbatch script whose array task K runs `govsim sweep ... --job K` into
 * parts/out-K.db, from this directory with this govsim binary; parts/ is made now, because
 * Slurm opens the tasks' logs there before they start. Prints N on stdout.
 */
static int write_slurm(struct sweep *sw)
{
	char cwd[PATH_MAX], exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct outfile out;
	struct gs_error err;
	FILE *f;

	if (!getcwd(cwd, sizeof(cwd)))
		return cli_fail(EXIT_FAILURE_RT, "cannot get the current directory: %s",
				strerror(errno));
	if (len <= 0)
		snprintf(exe, sizeof(exe), "govsim");
	else
		exe[len] = '\0';
	if (mkdir("parts", 0777) && errno != EEXIST)
		return cli_fail(EXIT_FAILURE_RT, "'parts': cannot create: %s", strerror(errno));
	if (outfile_open(&out, sw->slurm, &err))
		return cli_report(&err);
	f = out.f;
	fprintf(f, "#!/bin/bash\n");
	fprintf(f, "#SBATCH --job-name=govsim-sweep\n");
	fprintf(f, "#SBATCH --array=0-%ld\n", sw->nr_jobs - 1);
	fprintf(f, "#SBATCH --cpus-per-task=1\n");
	fprintf(f, "#SBATCH --chdir=%s\n", cwd);
	fprintf(f, "#SBATCH --output=parts/sweep-%%A_%%a.log\n");
	fprintf(f, "#\n# Written by 'govsim sweep --slurm': the sweep's %ld job%s as a Slurm job "
		   "array.\n", sw->nr_jobs, sw->nr_jobs == 1 ? "" : "s");
	fprintf(f, "# Submit: sbatch %s\n", sw->slurm);
	fprintf(f, "# Then:   govsim merge --expect %ld %s parts/out-*.db\n\n", sw->nr_jobs,
		sw->o.db ? sw->o.db : "results.db");
	fprintf(f, "exec ");
	shell_quote(f, exe);
	fprintf(f, " sweep");
	for (int i = 0; i < sw->nr_script_args; i++) {
		fputc(' ', f);
		shell_quote(f, sw->script_args[i]);
	}
	fprintf(f, " \\\n    --job \"$SLURM_ARRAY_TASK_ID\" --db \"parts/out-$SLURM_ARRAY_TASK_ID.db\""
		   " --quiet\n");
	if (outfile_commit(&out, &err))
		return cli_report(&err);
	chmod(sw->slurm, 0755);
	printf("%ld\n", sw->nr_jobs);
	if (!sw->o.quiet)
		fprintf(stderr,
			"govsim sweep: wrote '%s', %ld job%s; submit it with 'sbatch %s', then "
			"'govsim merge --expect %ld %s parts/out-*.db'\n",
			sw->slurm, sw->nr_jobs, sw->nr_jobs == 1 ? "" : "s", sw->slurm, sw->nr_jobs,
			sw->o.db ? sw->o.db : "results.db");
	return EXIT_OK;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep sw;
	char **rest;
	int status;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", sweep_usage, sweep_help);
		return EXIT_OK;
	}
	memset(&sw, 0, sizeof(sw));
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	sw.script_args = calloc((size_t)argc + 1, sizeof(*sw.script_args));
	if (!rest || !sw.script_args) {
		free(rest);
		free(sw.script_args);
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	status = sweep_parse(&sw, argc, argv, rest);
	if (status)
		goto out;
	status = sweep_resolve_sets(&sw, sweep_usage);
	if (status)
		goto out;
	status = sweep_load_policies(&sw);
	if (status)
		goto out;

	sw.nr_jobs = 0;
	for (int g = 0; g < sw.nr_govs; g++)
		sw.nr_jobs += sw.gov_jobs[g];
	sw.nr_jobs *= (long)sw.o.nr_traces * sw.nr_pols *
		      (sw.o.nr_kernels > 1 ? sw.o.nr_kernels : 1) *
		      (sw.o.nr_placements > 1 ? sw.o.nr_placements : 1);
	if (sw.only_job >= sw.nr_jobs) {
		status = cli_usage_error(sweep_usage, "--job %ld: the sweep has jobs 0 to %ld",
					 sw.only_job, sw.nr_jobs - 1);
		goto out;
	}
	if (sw.slurm) {
		status = write_slurm(&sw);
		goto out;
	}
	if (sw.list_jobs) {
		for (long i = 0; i < sw.nr_jobs; i++) {
			struct sweep_job j;
			if (sw.only_job >= 0 && i != sw.only_job)
				continue;
			job_describe(&sw, i, &j);
			printf("%ld\t%s\t%s\n", i, j.trace, j.label);
		}
		goto out;
	}
	status = run_all(&sw);
out:
	sweep_release(&sw);
	free(rest);
	return status;
}
