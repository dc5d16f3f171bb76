/*
 * cmd_sweep.c - `govsim sweep TRACE... --db FILE`: the cross product of traces x clamp policy
 * variants x governors x tunable values, run in parallel worker processes, into one database.
 *
 * Determinism: every job runs in its own forked process and writes its own temporary database
 * (store_write_run); when all are done the parent appends them to --db with store_merge() in
 * JOB ORDER, in one transaction. So the database content does not depend on --jobs or on
 * scheduling, only created_at differs between sweeps. `--list-jobs` and `--job K` expose the
 * same job list for a cluster's job array (docs/cluster.md); `govsim merge` joins the pieces,
 * `--slurm FILE` writes the array's sbatch script. SIGINT/SIGTERM/SIGHUP stop the workers and
 * remove the temporary folder (see "the temporary folder" below).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_opts.h"
#include "sim/sim.h"
#include "store/store.h"

static const char sweep_usage[] =
	"usage: govsim sweep TRACE... --db FILE [--policy FILE]... [--action 'LINE']...\n"
	"         [--no-policy] [--governor NAME]... [--set KEY=V1,V2,...]...\n"
	"         [--jobs N] [--list-jobs] [--job K] [--label TEXT] [--platform P]\n"
	"         [--timing T] [--util-source S] [--power-model M] [--seed-util]\n"
	"         [--kernel NAME[,NAME...]|all] [--format F] [--strict] [--quiet]\n"
	"         [--slurm FILE]\n";

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
	"  --label TEXT      put TEXT in front of every run's label\n"
	"  --quiet           no progress, no summary; only errors\n"
	"Other options are those of 'govsim run' and apply to every run.\n"
	"\n"
	"Jobs are ordered trace, policy, kernel (--kernel A,B: a variable), governor,\n"
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
	struct gov_param params[RUN_OPTS_MAX_PARAMS];
	int nr_params;
	char label[SWEEP_LABEL_MAX];
};

/* What the parent knows of a job while and after it runs. */
struct sweep_slot {
	long index;
	pid_t pid;
	int status;            /* exit status; 0 ok */
	bool failed_early;     /* failed in the parent (policy variant), never forked */
	char db[PATH_MAX];
	char log[PATH_MAX];
};

/* --- the job list -------------------------------------------------------------------------- */

static void append_word(char *buf, size_t size, const char *word)
{
	size_t len = strlen(buf);
	if (len && len + 1 < size)
		buf[len++] = ' ';
	if (len < size)
		snprintf(buf + len, size - len, "%s", word);
}

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
	char word[SWEEP_LABEL_MAX];

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
		append_word(j->label, sizeof(j->label), j->pol->name);
	if (sw->nr_govs > 1 || sw->govs[0] != sw->o.sim.governor) {
		snprintf(word, sizeof(word), "governor=%s", j->gov_label);
		append_word(j->label, sizeof(j->label), word);
	}
	if (sw->o.nr_kernels > 1) {
		snprintf(word, sizeof(word), "kernel=%s", j->kernel->name);
		append_word(j->label, sizeof(j->label), word);
	}
	for (int k = 0; k < sw->nr_sets; k++) {
		if (!sw->sets[k].applies[g])
			continue;
		snprintf(word, sizeof(word), "%s=%s", sw->sets[k].key,
			 sw->sets[k].values[set_idx[k]]);
		append_word(j->label, sizeof(j->label), word);
		j->params[j->nr_params].key = sw->sets[k].key;
		j->params[j->nr_params].value = sw->sets[k].values[set_idx[k]];
		j->nr_params++;
	}
}

/*
 * Does governor `gov` take tunable key (with `value`)? The replay's own keys (hz, ...) every
 * governor takes; the others, the governor takes when its init marks them used, which a
 * simulation of the platform set up without a trace shows (a bad value still counts as taken:
 * its runs fail with the governor's message).
 */
static bool gov_takes(struct sweep *sw, const struct governor_ops *gov, const char *key,
		      const char *value)
{
	struct gov_param param = {.key = key, .value = value, .used = false};
	struct sim_config cfg;
	struct gs_error err;
	struct sim *s = NULL;

	sim_config_init(&cfg);
	cfg.opts.plat = &sw->o.plat;
	cfg.gov = gov;
	cfg.params = &param;
	cfg.opts.nr_params = 1;
	gs_error_clear(&err);
	/* an error here is a bad value of a key it knows */
	if (sim_config_parse_params(&cfg, &err) || param.used)
		return true;
	gs_error_clear(&err);
	if (sim_new(&cfg, &s, &err) == 0)
		sim_free(s);
	return param.used;
}

/*
 * Which governors of the sweep each --set applies to: KEY to every one that takes it (none is
 * a mistake), GOV.KEY to GOV alone (which must be in the sweep and take it); a key may not
 * reach one governor twice. Then the jobs per governor. Returns 0 or the exit status (2).
 */
/* The governor_ops of governor g of the sweep (a plugin was loaded when parsed: found again). */
static const struct governor_ops *sweep_gov(struct sweep *sw, int g)
{
	const struct governor_ops *gov = NULL;
	struct gs_error err;

	gs_error_clear(&err);
	if (governor_lookup(sw->govs[g], &gov, &err))
		return NULL;
	return gov;
}

/* GOV of --set GOV.KEY names governor g: as given, or a plugin's own name. */
static bool sweep_scope_is(struct sweep *sw, const char *scope, int g)
{
	const struct governor_ops *gov = sweep_gov(sw, g);

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
					  gov_takes(sw, sweep_gov(sw, g), set->key, set->values[0]);
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
				append_word(govs, sizeof(govs), sw->gov_labels[g]);
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

static const char *const refused[] = {"--csv", "--timeline", "--task-timeline", "--baselines"};

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
		bool passed = false, keep = true;

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
			const char *name;

			/* a plugin is loaded here, before the workers fork */
			if ((status = run_opts_governor(v, false, sweep_usage, &name)))
				return status;
			for (int k = 0; k < sw->nr_govs; k++)
				if (strcmp(sw->govs[k], name) == 0)
					return cli_usage_error(sweep_usage,
							       "--governor '%s' given twice", v);
			if (sw->nr_govs == SWEEP_MAX_VARIANTS)
				return cli_usage_error(sweep_usage, "too many governors");
			sw->gov_labels[sw->nr_govs] = v;
			sw->govs[sw->nr_govs++] = name;
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
			for (size_t k = 0; k < GS_ARRAY_SIZE(refused); k++)
				if (match_opt(refused[k], argc, argv, &i, &v, false, &missing) ||
				    strncmp(argv[i], refused[k], strlen(refused[k])) == 0)
					return cli_usage_error(sweep_usage,
							       "%s is for 'govsim run', not sweep",
							       refused[k]);
			for (size_t k = 0; k < GS_ARRAY_SIZE(passthrough_with_value); k++) {
				const char *name = passthrough_with_value[k];
				if (strcmp(argv[i], name) == 0 && i + 1 < argc) {
					rest[nr_rest++] = argv[i++];
					rest[nr_rest++] = argv[i];
					passed = true;
					break;
				}
			}
			if (!passed)
				rest[nr_rest++] = argv[i];
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

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void format_duration(char *buf, size_t size, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

struct progress {
	bool on;
	double start;
	long done, failed, total;
};

static void progress_clear(struct progress *p)
{
	if (p->on)
		fputs("\r\033[K", stderr);
}

static void progress_show(struct progress *p)
{
	char el[32], eta[32];
	double elapsed;

	if (!p->on)
		return;
	elapsed = now_s() - p->start;
	format_duration(el, sizeof(el), elapsed);
	if (p->done)
		format_duration(eta, sizeof(eta), elapsed / (double)p->done *
							  (double)(p->total - p->done));
	else
		snprintf(eta, sizeof(eta), "?");
	fprintf(stderr, "\r\033[Kgovsim sweep: %ld/%ld runs, %ld failed, elapsed %s, eta %s",
		p->done, p->total, p->failed, el, eta);
	fflush(stderr);
}

/* Print what a job wrote on stderr, under a line naming the job. */
static void report_job(struct sweep *sw, const struct sweep_slot *s)
{
	struct sweep_job j;
	char line[2048];
	FILE *f = s->failed_early ? NULL : fopen(s->log, "r");
	bool header = false;

	job_describe(sw, s->index, &j);
	if (s->status) {
		fprintf(stderr, "govsim: job %ld (%s%s%s) failed:\n", s->index, j.trace,
			j.label[0] ? ", " : "", j.label);
		header = true;
	}
	if (s->failed_early)
		fprintf(stderr, "  govsim: %s\n", j.pol->err.msg);
	while (f && fgets(line, sizeof(line), f)) {
		if (!header) {
			fprintf(stderr, "govsim: job %ld (%s%s%s):\n", s->index, j.trace,
				j.label[0] ? ", " : "", j.label);
			header = true;
		}
		fprintf(stderr, "  %s", line);
		if (!strchr(line, '\n'))
			fputc('\n', stderr);
	}
	if (f)
		fclose(f);
}

/* The signal mask a worker runs with: the parent's before it blocked the stop signals. */
static const sigset_t *worker_mask;

static void start_job(struct sweep *sw, struct sweep_slot *s)
{
	struct sweep_job j;
	pid_t pid;

	job_describe(sw, s->index, &j);
	if (j.pol->err.code) {
		s->failed_early = true;
		s->status = gs_exit_status(j.pol->err.code);
		s->pid = 0;
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		s->status = EXIT_FAILURE_RT;
		s->pid = 0;
		snprintf(s->log, sizeof(s->log), "%s", "");
		fprintf(stderr, "govsim: job %ld: cannot fork: %s\n", s->index, strerror(errno));
		return;
	}
	if (pid == 0) {
		int fd, status;

		/* a worker dies of SIGINT/SIGTERM like any program; the parent cleans up */
		if (worker_mask)
			sigprocmask(SIG_SETMASK, worker_mask, NULL);
		fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		status = run_job(sw, &j, s->db);
		fflush(NULL);
		_exit(status);
	}
	s->pid = pid;
}

/*
 * Wait for one child; returns its slot, NULL when none is left or when a signal in `stop` (which
 * the caller blocks, with SIGCHLD) arrived first: then *sig is that signal. Blocking them and
 * taking them with sigwaitinfo() leaves no window where a signal is lost between a check and
 * the wait.
 */
static struct sweep_slot *reap(struct sweep_slot *slots, long n, const sigset_t *wait_set,
			       int *sig)
{
	int ws;
	pid_t pid;

	*sig = 0;
	for (;;) {
		pid = waitpid(-1, &ws, WNOHANG);
		if (pid > 0)
			break;
		if (pid < 0 && errno != EINTR)
			return NULL;
		if (pid == 0) {
			int got = sigwaitinfo(wait_set, NULL);
			if (got > 0 && got != SIGCHLD) {
				*sig = got;
				return NULL;
			}
		}
	}
	for (long i = 0; i < n; i++) {
		if (slots[i].pid == pid) {
			if (WIFEXITED(ws))
				slots[i].status = WEXITSTATUS(ws);
			else
				slots[i].status = EXIT_FAILURE_RT;
			if (WIFSIGNALED(ws)) {
				FILE *f = fopen(slots[i].log, "a");
				if (f) {
					fprintf(f, "govsim: killed by signal %d\n", WTERMSIG(ws));
					fclose(f);
				}
			}
			slots[i].pid = 0;
			return &slots[i];
		}
	}
	return NULL;
}

/* --- the temporary folder ------------------------------------------------------------------- */

/*
 * A sweep keeps its jobs' databases and logs in TMPDIR/govsim-sweep.XXXXXX and holds an flock
 * on its `lock` file for as long as it or one of its workers lives (the workers inherit the
 * descriptor). It removes the folder when it ends, also on SIGINT, SIGTERM and SIGHUP; what a
 * kill -9 leaves, the next sweep removes: a folder whose lock nobody holds.
 */
#define SWEEP_DIR_PREFIX "govsim-sweep."
/* a lock younger than this may be one a starting sweep has created and not yet locked */
#define SWEEP_LOCK_GRACE_S 2

/* Remove what a sweep leaves in its folder, then the folder. */
static void remove_sweep_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "job-", 4) != 0 && strcmp(e->d_name, "lock") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The folders of sweeps that died without cleaning up (kill -9, a crash, a power cut). */
static void clean_stale_dirs(const char *tmpdir)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	time_t now = time(NULL);

	while (d && (e = readdir(d))) {
		char dir[PATH_MAX], lock[PATH_MAX + 8];
		struct stat st;
		int fd;

		if (strncmp(e->d_name, SWEEP_DIR_PREFIX, strlen(SWEEP_DIR_PREFIX)) != 0 ||
		    strlen(e->d_name) != strlen(SWEEP_DIR_PREFIX) + 6)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", tmpdir, e->d_name);
		if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
			continue;
		snprintf(lock, sizeof(lock), "%s/lock", dir);
		fd = open(lock, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue; /* no lock: not ours to judge */
		if (fstat(fd, &st) == 0 && now - st.st_mtime >= SWEEP_LOCK_GRACE_S &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0)
			remove_sweep_dir(dir);
		close(fd);
	}
	if (d)
		closedir(d);
}

static int run_all(struct sweep *sw)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[PATH_MAX - 64]; /* room for "/job-<index>.db" in a slot's paths */
	char lock[PATH_MAX];
	int lock_fd, sig = 0;
	sigset_t wait_set, old_mask;
	struct sweep_slot *slots;
	const char **inputs;
	struct progress prog = {0};
	struct gs_error err;
	long n = sw->only_job >= 0 ? 1 : sw->nr_jobs, next = 0, running = 0, parallel;
	size_t nr_inputs = 0, nr_merged = 0;
	int status = EXIT_OK;
	bool all_bad_input = true;

	gs_error_clear(&err);
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	clean_stale_dirs(tmpdir);
	snprintf(dir, sizeof(dir), "%s/" SWEEP_DIR_PREFIX "XXXXXX", tmpdir);
	if (!mkdtemp(dir))
		return cli_fail(EXIT_FAILURE_RT, "'%s': cannot create: %s", dir, strerror(errno));
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	lock_fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX) != 0) {
		status = cli_fail(EXIT_FAILURE_RT, "'%s': cannot lock: %s", lock, strerror(errno));
		if (lock_fd >= 0)
			close(lock_fd);
		remove_sweep_dir(dir);
		return status;
	}
	slots = calloc((size_t)n, sizeof(*slots));
	inputs = calloc((size_t)n, sizeof(*inputs));
	if (!slots || !inputs) {
		free(slots);
		free(inputs);
		close(lock_fd);
		remove_sweep_dir(dir);
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	for (long i = 0; i < n; i++) {
		slots[i].index = sw->only_job >= 0 ? sw->only_job : i;
		snprintf(slots[i].db, sizeof(slots[i].db), "%s/job-%ld.db", dir, slots[i].index);
		snprintf(slots[i].log, sizeof(slots[i].log), "%s/job-%ld.log", dir, slots[i].index);
	}
	parallel = sw->parallel ? sw->parallel : sysconf(_SC_NPROCESSORS_ONLN);
	if (parallel < 1)
		parallel = 1;

	/* SIGCHLD and the signals that stop a sweep are taken by reap(); workers unblock them */
	sigemptyset(&wait_set);
	sigaddset(&wait_set, SIGCHLD);
	sigaddset(&wait_set, SIGINT);
	sigaddset(&wait_set, SIGTERM);
	sigaddset(&wait_set, SIGHUP);
	sigprocmask(SIG_BLOCK, &wait_set, &old_mask);
	worker_mask = &old_mask;

	prog.on = !sw->o.quiet && isatty(STDERR_FILENO);
	prog.start = now_s();
	prog.total = n;
	progress_show(&prog);
	for (long done = 0; done < n;) {
		struct sweep_slot *s = NULL;
		while (running < parallel && next < n) {
			start_job(sw, &slots[next]);
			if (slots[next].pid == 0) {
				s = &slots[next++];
				break;
			}
			next++;
			running++;
		}
		if (!s) {
			s = reap(slots, n, &wait_set, &sig);
			if (!s && sig)
				break;
			if (!s) {
				status = cli_fail(EXIT_FAILURE_RT, "lost track of the sweep's workers");
				break;
			}
			running--;
		}
		done++;
		prog.done = done;
		if (s->status) {
			prog.failed++;
			if (s->status != EXIT_BAD_INPUT)
				all_bad_input = false;
		}
		progress_clear(&prog);
		report_job(sw, s);
		progress_show(&prog);
	}
	progress_clear(&prog);
	if (sig) {
		/* stopped: stop the workers, remove every file, then die of the same signal */
		for (long i = 0; i < n; i++)
			if (slots[i].pid > 0)
				kill(slots[i].pid, SIGTERM);
		for (long i = 0; i < n; i++)
			while (slots[i].pid > 0 && waitpid(slots[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		close(lock_fd);
		remove_sweep_dir(dir);
		fprintf(stderr, "govsim sweep: stopped by %s; no run stored\n", strsignal(sig));
		free(slots);
		free(inputs);
		signal(sig, SIG_DFL);
		raise(sig);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		return EXIT_FAILURE_RT;
	}

	/* The successful jobs' databases, in job order. */
	for (long i = 0; i < n; i++)
		if (slots[i].status == 0 && !slots[i].failed_early && slots[i].pid == 0)
			inputs[nr_inputs++] = slots[i].db;
	/* No run to store: leave --db alone, so a failed --job K leaves no file behind. */
	if (status == EXIT_OK && nr_inputs) {
		/* --job K: the database says it is job K of the sweep, for merge */
		struct store_merge_opts mo = {.expect = 0};
		struct store_part part;
		struct sweep_job j;
		if (sw->only_job >= 0) {
			job_describe(sw, sw->only_job, &j);
			part.job = sw->only_job;
			part.nr_jobs = sw->nr_jobs;
			part.trace = j.trace;
			part.label = j.label;
			mo.mark = &part;
		}
		if (store_merge_ext(sw->o.db, inputs, nr_inputs, &mo, &nr_merged, &err))
			status = cli_report(&err);
	}
	if (status == EXIT_OK && prog.failed)
		status = all_bad_input ? EXIT_BAD_INPUT : EXIT_FAILURE_RT;
	if (!sw->o.quiet)
		fprintf(stderr, "govsim sweep: %zu of %ld run%s stored in '%s', %ld failed\n",
			nr_merged, n, n == 1 ? "" : "s", sw->o.db, prog.failed);

	close(lock_fd);
	remove_sweep_dir(dir);
	free(slots);
	free(inputs);
	/* a stop signal during the merge: the files are gone; let it act now */
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
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
	f = fopen(sw->slurm, "w");
	if (!f)
		return cli_fail(EXIT_FAILURE_RT, "'%s': cannot write: %s", sw->slurm,
				strerror(errno));
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
	if (ferror(f) | fclose(f))
		return cli_fail(EXIT_FAILURE_RT, "'%s': cannot write: %s", sw->slurm,
				strerror(errno));
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
		      (sw.o.nr_kernels > 1 ? sw.o.nr_kernels : 1);
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
