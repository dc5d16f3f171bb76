/*
 * cmd_tune.c - `govsim tune TRACE... --vary SPEC [--minimize M | --find smallest|largest]
 * --subject-to C...`: the clamp value or tunable that meets a target, found by replaying the
 * traces at the values src/tune/search.c chooses. Every replay (the baselines', then each round's
 * points on every trace) runs through the sweep engine (forked workers, merged into --db in job
 * order), so the answer and the stored rows do not depend on --jobs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run_opts.h"
#include "cli/sweep_engine.h"
#include "cli/tune_cli.h"
#include "core/words.h"

static const char tune_usage[] =
	"usage: govsim tune TRACE... --vary SPEC [--vary SPEC]\n"
	"         (--find smallest|largest | --minimize METRIC | --maximize METRIC)\n"
	"         [--subject-to 'CONSTRAINT']... [--db FILE] [--jobs N] [--batch N]\n"
	"         [--grid N] [--json] [--plot FILE.png|FILE.svg] [--label TEXT] [--quiet]\n"
	"         [run options: --platform P --governor G --set K=V --policy F ...]\n";

static const char tune_help[] =
	"\n"
	"Finds the value of a clamp or tunable that meets a target on every TRACE.\n"
	"\n"
	"  --vary SPEC       the unknown: a policy line or a tunable with ? for its\n"
	"                    value, ?[LO:HI:STEP] to give the range:\n"
	"                      'setattr comm=RenderThread uclamp_min=?'   0..1024 by 1\n"
	"                      'sysctl sched_util_clamp_max ?'            0..1024 by 1\n"
	"                      'cgroup /top-app cpu.uclamp.min ?'         0..100 by 0.01\n"
	"                      'rate_limit_us=?'                          0..50000 by 500\n"
	"                      'up_threshold=?[50:95:5]'  (other tunables: give the range)\n"
	"                    twice for two unknowns (--minimize/--maximize only)\n"
	"  --find smallest   the smallest value where every constraint holds; assumes\n"
	"                    that once they hold they hold above too (largest: below)\n"
	"  --minimize METRIC the feasible value with the least METRIC (mean over the\n"
	"                    traces); --maximize the greatest\n"
	"  --subject-to 'C'  a constraint (repeatable; all must hold on every trace):\n"
	"                    METRIC OP VALUE [vs BASELINE], OP one of <= < >= >\n"
	"                      'response_p95(comm=RenderThread) <= +10% vs governor=performance'\n"
	"                      'lateness_max(pid=1234) < 4ms'\n"
	"                      'energy <= -5% vs base'\n"
	"                    METRIC: one of those listed below; those marked t also\n"
	"                    of some tasks with (comm=GLOB) or (pid=N): the worst task's\n"
	"                    p95/max, the mean over their activations, sums otherwise.\n"
	"                    VALUE: the metric's (s, ms, us, ns for times); with a\n"
	"                    BASELINE the change from it: % relative, else a difference.\n"
	"                    BASELINE: the run without the varied value and with\n"
	"                    KEY=VALUE[,...] changed: governor=, policy=none|FILE,\n"
	"                    action=LINE (instead of --policy/--action), kernel=, a\n"
	"                    tunable; 'base' changes nothing\n"
	"  --db FILE         store every replay (baselines and points) in FILE\n"
	"  --jobs N          worker processes (default: the online CPUs)\n"
	"  --batch N         points per round of --find (default 3): a round splits the\n"
	"                    interval left in N+1\n"
	"  --grid N          points per unknown of --minimize's first round (default 17);\n"
	"                    then the two best are refined until the step is reached\n"
	"  --json            the answer as one JSON object on stdout\n"
	"  --plot FILE       objective and constraints against the value, the feasible\n"
	"                    values shaded, the answer marked, units on the axes, a log\n"
	"                    y axis where values span decades (PNG or SVG by the name)\n"
	"Other options are those of 'govsim run' and apply to every replay.\n"
	"\n"
	"The points evaluated depend on the range, --batch, --grid and the results, never\n"
	"on --jobs: the answer and the rows stored are the same for any --jobs.\n"
	"\n"
	"exit status: 0 a feasible value found; 1 none (the best found is printed), or a\n"
	"runtime failure; 2 bad command line (a malformed spec); 3 bad input.\n";

/* --- jobs ---------------------------------------------------------------------------------- */

static const struct tune_job *job_at(const struct tune_cli *t, long i)
{
	return &t->jobs[i];
}

void tune_point_text(const struct tune_cli *t, const struct tune_point *p, char *buf,
		     size_t size)
{
	char v[64], word[128];

	buf[0] = '\0';
	for (int d = 0; d < t->nd; d++) {
		tune_vary_format(&t->vary[d], p->k[d], v, sizeof(v));
		snprintf(word, sizeof(word), "%s=%s", t->vary[d].key, v);
		gs_words_add(buf, size, "%s", word);
	}
}

/* The run's label: the varied values as sweep writes them, or "baseline" and its terms. */
static void job_label(const struct tune_cli *t, const struct tune_job *j, char *buf, size_t size)
{
	char line[600], word[700];

	snprintf(buf, size, "%s", t->o.sim.label ? t->o.sim.label : "");
	if (j->base >= 0) {
		gs_words_add(buf, size, "baseline");
		if (strcmp(t->bases[j->base].text, "base") != 0)
			for (const char *s = t->bases[j->base].text; *s;) {
				size_t n = strcspn(s, ",");
				snprintf(word, sizeof(word), "%.*s", (int)n, s);
				gs_words_add(buf, size, "%s", word);
				s += n + (s[n] == ',');
			}
		return;
	}
	for (int d = 0; d < t->nd; d++) {
		tune_vary_instance(&t->vary[d], j->k[d], line, sizeof(line));
		if (t->vary[d].kind == TUNE_VARY_ACTION)
			snprintf(word, sizeof(word), "action=\"%s\"", line);
		else
			snprintf(word, sizeof(word), "%s", line);
		gs_words_add(buf, size, "%s", word);
	}
}

static void job_describe(void *ctx, long i, char *buf, size_t size)
{
	struct tune_cli *t = ctx;
	const struct tune_job *j = job_at(t, i);
	char label[1024];

	job_label(t, j, label, sizeof(label));
	snprintf(buf, size, "%s, %s", t->o.traces[j->trace], label);
}

/* --set KEY=VALUE in the worker's options: replaces the key's value or adds it. */
static int set_param(struct run_opts *o, const char *key, const char *value)
{
	for (int i = 0; i < o->sim.nr_params; i++)
		if (strcmp(o->params[i].key, key) == 0) {
			o->params[i].value = value;
			return 0;
		}
	if (o->sim.nr_params == RUN_OPTS_MAX_PARAMS)
		return cli_fail(EXIT_USAGE, "too many tunables");
	o->params[o->sim.nr_params].key = key;
	o->params[o->sim.nr_params].value = value;
	o->sim.nr_params++;
	o->sim.params = o->params;
	return 0;
}

/* In the worker: the options of job j (this process exits after it: nothing is released). */
static int apply_job(struct tune_cli *t, const struct tune_job *j)
{
	static char lines[TUNE_MAX_VARY][600];
	struct run_opts *o = &t->o;
	struct gs_error err;

	gs_error_clear(&err);
	if (j->base >= 0) {
		const struct tune_baseline *b = &t->bases[j->base];
		if (t->base_gov[j->base]) {
			/* the --set tunables the baseline's governor does not take are left out */
			const struct governor *gov = NULL;
			int n = 0;
			if (governor_lookup(t->base_gov[j->base], &gov, &err))
				return cli_report(&err);
			for (int i = 0; i < o->sim.nr_params; i++)
				if (sweep_gov_takes(&o->plat, gov, o->params[i].key,
						    o->params[i].value))
					o->params[n++] = o->params[i];
			o->sim.nr_params = n;
			o->sim.governor = t->base_gov[j->base];
		}
		if (t->base_kernel[j->base])
			o->sim.kernel = t->base_kernel[j->base];
		if (b->no_policy)
			o->sim.policy = NULL;
		if (b->policy_file[0] || b->action[0])
			o->sim.policy = &t->base_policy[j->base];
		for (int i = 0; i < b->nr_params; i++)
			if (set_param(o, b->keys[i], b->values[i]))
				return EXIT_USAGE;
		return 0;
	}
	for (int d = 0; d < t->nd; d++) {
		const struct tune_vary *v = &t->vary[d];
		tune_vary_instance(v, j->k[d], lines[d], sizeof(lines[d]));
		if (v->kind == TUNE_VARY_TUNABLE) {
			char *eq = strchr(lines[d], '=');
			*eq = '\0';
			if (set_param(o, lines[d], eq + 1))
				return EXIT_USAGE;
		} else {
			if (policy_parse_line(&o->policy, lines[d], "--vary", d + 1, &err))
				return cli_report(&err);
			o->sim.policy = &o->policy;
		}
	}
	return 0;
}

/* Did the varied action match no task (not even later)? */
static bool vary_unmatched(const struct run_result *r)
{
	for (int i = 0; i < r->nr_actions; i++) {
		const struct run_action_result *a = &r->actions[i];
		if (strncmp(a->origin, "--vary", 6) == 0 && a->selects_tasks && !a->matched &&
		    !a->matched_later)
			return true;
	}
	return false;
}

/* In the worker: replay job i into db; the metrics to `out`, one per line ("%a"). */
static int job_run(void *ctx, long i, const char *db, const char *out)
{
	struct tune_cli *t = ctx;
	const struct tune_job *j = job_at(t, i);
	struct run_opts *o = &t->o;
	char label[1024];
	struct run_result r;
	int status;
	FILE *f;

	if ((status = apply_job(t, j)))
		return status;
	job_label(t, j, label, sizeof(label));
	o->sim.label = label;
	o->db = o->db ? db : NULL; /* without --db nothing is kept: no need to write it */
	run_result_init(&r);
	status = run_opts_replay(o, o->traces[j->trace], NULL, &r);
	if (!status && o->db)
		status = run_opts_store(o, &r);
	if (!status) {
		f = fopen(out, "w");
		if (!f)
			return cli_fail(EXIT_FAILURE_RT, "'%s': cannot write: %s", out,
					strerror(errno));
		for (int m = 0; m < t->nr_metrics; m++)
			fprintf(f, "%a\n", tune_metric_value(&t->metrics[m], &r));
		fprintf(f, "%s\n", vary_unmatched(&r) ? "unmatched" : "matched");
		if (ferror(f) | fclose(f))
			status = cli_fail(EXIT_FAILURE_RT, "'%s': write error", out);
	}
	run_result_release(&r);
	return status;
}

/* In the parent: job i's metrics. */
static int job_collect(void *ctx, long i, int status, const char *out)
{
	struct tune_cli *t = ctx;
	char line[128];
	FILE *f;
	int m = 0;

	if (status)
		return 0; /* the engine's status says it */
	f = fopen(out, "r");
	if (!f)
		return cli_fail(EXIT_FAILURE_RT, "'%s': cannot read: %s", out, strerror(errno));
	while (m < t->nr_metrics && fgets(line, sizeof(line), f))
		t->job_vals[i * t->nr_metrics + m++] = strtod(line, NULL);
	t->job_unmatched[i] = fgets(line, sizeof(line), f) && strncmp(line, "unmatched", 9) == 0;
	fclose(f);
	if (m < t->nr_metrics)
		return cli_fail(EXIT_FAILURE_RT, "'%s': cut short", out);
	return 0;
}

/* Run t->jobs[0 .. n-1] through the engine. */
static int run_jobs(struct tune_cli *t, long n)
{
	struct sweep_engine e = {
		.name = "tune",
		.first = 0,
		.nr_jobs = n,
		.parallel = t->parallel,
		.quiet = t->quiet || t->json,
		.db = t->o.db,
		.ctx = t,
		.run = job_run,
		.describe = job_describe,
		.collect = job_collect,
	};

	t->nr_jobs = n;
	free(t->job_vals);
	free(t->job_unmatched);
	t->job_vals = calloc((size_t)n * (size_t)t->nr_metrics + 1, sizeof(double));
	t->job_unmatched = calloc((size_t)n + 1, sizeof(bool));
	if (!t->job_vals || !t->job_unmatched)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	t->runs += n;
	return sweep_engine_run(&e);
}

static void warn_unmatched(struct tune_cli *t, long n)
{
	for (long i = 0; i < n && !t->unmatched_warned; i++)
		if (t->job_unmatched[i]) {
			fprintf(stderr, "govsim: warning: the varied action matched no task of '%s': "
					"its value changes nothing\n",
				t->o.traces[t->jobs[i].trace]);
			t->unmatched_warned = true;
		}
}

/* --- the baselines and the search's evaluator ---------------------------------------------- */

static int run_baselines(struct tune_cli *t)
{
	int nt = t->o.nr_traces, status;
	long n = (long)t->nr_bases * nt;

	if (!n)
		return 0;
	free(t->jobs);
	t->jobs = calloc((size_t)n, sizeof(*t->jobs));
	t->base_vals = calloc((size_t)n * (size_t)t->nr_metrics, sizeof(double));
	if (!t->jobs || !t->base_vals)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	for (long i = 0; i < n; i++)
		t->jobs[i] = (struct tune_job){.trace = (int)(i % nt), .base = (int)(i / nt)};
	if ((status = run_jobs(t, n)))
		return status;
	memcpy(t->base_vals, t->job_vals, (size_t)n * (size_t)t->nr_metrics * sizeof(double));
	/* a baseline without the metric (no task matches) can judge nothing */
	for (int c = 0; c < t->nr_cons; c++) {
		if (!t->cons[c].has_base)
			continue;
		for (int tr = 0; tr < nt; tr++)
			if (isnan(tune_base_val(t, t->cons[c].base_index, tr, t->moff + c)))
				return cli_fail(EXIT_USAGE,
						"--subject-to '%s': the baseline of '%s' has no %s "
						"(no task matches, or no activation)",
						t->cons[c].text, t->o.traces[tr],
						t->cons[c].metric.text);
	}
	return 0;
}

bool tune_judge(const struct tune_cli *t, size_t p, int c, int trace, double *change)
{
	const struct tune_constraint *con = &t->cons[c];
	double base = con->has_base ? tune_base_val(t, con->base_index, trace, t->moff + c) : NAN;

	return tune_constraint_holds(con, base, tune_pt_val(t, p, trace, t->moff + c), change);
}

static int grow_points(struct tune_cli *t, size_t n)
{
	size_t per = (size_t)t->o.nr_traces * (size_t)t->nr_metrics;

	if (t->nr_pt + n > t->alloc_pt) {
		size_t alloc = (t->nr_pt + n) * 2;
		double *v = realloc(t->pt_vals, alloc * per * sizeof(double));
		if (!v)
			return GS_ENOMEM;
		t->pt_vals = v;
		t->alloc_pt = alloc;
	}
	return 0;
}

static int tune_eval(void *ctx, struct tune_point *pts, size_t n, struct gs_error *err)
{
	struct tune_cli *t = ctx;
	int nt = t->o.nr_traces, status;
	size_t per = (size_t)nt * (size_t)t->nr_metrics;

	free(t->jobs);
	t->jobs = calloc(n * (size_t)nt, sizeof(*t->jobs));
	if (!t->jobs || grow_points(t, n))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	for (size_t i = 0; i < n * (size_t)nt; i++) {
		t->jobs[i] = (struct tune_job){.trace = (int)(i % (size_t)nt), .base = -1};
		memcpy(t->jobs[i].k, pts[i / (size_t)nt].k, sizeof(t->jobs[i].k));
	}
	if ((status = run_jobs(t, (long)(n * (size_t)nt)))) {
		t->fail_status = status;
		return gs_error_set(err, GS_EINTERNAL, "a replay failed");
	}
	warn_unmatched(t, (long)(n * (size_t)nt));
	memcpy(t->pt_vals + t->nr_pt * per, t->job_vals, n * per * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		size_t p = t->nr_pt + i;
		struct tune_point *pt = &pts[i];
		double sum = 0, change;

		pt->nr_fail = 0;
		pt->excess = 0;
		for (int c = 0; c < t->nr_cons; c++)
			for (int tr = 0; tr < nt; tr++)
				if (!tune_judge(t, p, c, tr, &change)) {
					pt->nr_fail++;
					pt->excess += tune_constraint_excess(&t->cons[c], change);
				}
		pt->feasible = pt->nr_fail == 0;
		for (int tr = 0; tr < nt && t->moff; tr++)
			sum += tune_pt_val(t, p, tr, 0);
		pt->objective = t->moff ? sum / nt : NAN;
	}
	t->nr_pt += n;
	return 0;
}

/* --- command line -------------------------------------------------------------------------- */

static int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int add_constraint(struct tune_cli *t, const char *arg)
{
	struct tune_constraint *c = &t->cons[t->nr_cons];
	struct gs_error err;
	int b;

	gs_error_clear(&err);
	if (t->nr_cons == TUNE_MAX_CONSTRAINTS)
		return cli_usage_error(tune_usage, "too many --subject-to");
	if (tune_constraint_parse(arg, c, &err))
		return cli_usage_error(tune_usage, "--subject-to %s", err.msg);
	t->nr_cons++;
	if (!c->has_base)
		return 0;
	for (b = 0; b < t->nr_bases; b++)
		if (strcmp(t->bases[b].text, c->base.text) == 0)
			break;
	if (b == t->nr_bases) {
		const struct tune_baseline *base = &c->base;
		t->bases[b] = *base;
		if (base->governor[0] &&
		    run_opts_governor(base->governor, false, tune_usage, &t->base_gov[b]))
			return EXIT_USAGE;
		if (base->kernel[0] && !(t->base_kernel[b] = kernel_profile_find(base->kernel)))
			return cli_usage_error(tune_usage, "--subject-to '%s': unknown kernel '%s'",
					       arg, base->kernel);
		policy_init(&t->base_policy[b]);
		t->nr_bases++;
		if (base->policy_file[0] &&
		    policy_parse_file(&t->base_policy[b], base->policy_file, &err))
			return cli_report(&err);
		if (base->action[0] &&
		    policy_parse_line(&t->base_policy[b], base->action, "vs action=", 1, &err))
			return cli_usage_error(tune_usage, "--subject-to '%s': %s", arg, err.msg);
	}
	c->base_index = b;
	return 0;
}

static int set_goal(struct tune_cli *t, enum tune_goal goal, const char *metric)
{
	struct gs_error err;

	gs_error_clear(&err);
	if (t->goal_set)
		return cli_usage_error(tune_usage, "one of --find, --minimize, --maximize");
	t->goal_set = true;
	t->goal = goal;
	if (metric && tune_metric_parse(metric, &t->objective, &err))
		return cli_usage_error(tune_usage, "--%s %s",
				       goal == TUNE_MINIMIZE ? "minimize" : "maximize", err.msg);
	return 0;
}

/* If argv[*i] is --name VALUE or --name=VALUE: 1 and *v (the value consumed). -1: no value. */
static int opt_value(const char *name, int argc, char **argv, int *i, const char **v)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return 0;
	if (argv[*i][len] == '=') {
		*v = argv[*i] + len + 1;
		return 1;
	}
	if (argv[*i][len] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*v = argv[++*i];
	return 1;
}

/* tune's own options, one of them at argv[*i]: 1 taken, 0 not ours, or -(exit status). */
static int parse_own(struct tune_cli *t, int argc, char **argv, int *i, long *nums)
{
	static const char *const names[] = {"--vary", "--subject-to", "--minimize", "--maximize",
					    "--find", "--jobs", "--batch", "--grid", "--plot"};
	struct gs_error err;
	const char *v = NULL;
	size_t k;
	int got = 0, st = 0;

	gs_error_clear(&err);
	for (k = 0; k < GS_ARRAY_SIZE(names) && !got; k++)
		got = opt_value(names[k], argc, argv, i, &v);
	if (got == 0)
		return 0;
	if (got < 0)
		return -cli_usage_error(tune_usage, "option '%s' needs a value", argv[*i]);
	switch (k - 1) {
	case 0:
		if (t->nd == TUNE_MAX_VARY)
			return -cli_usage_error(tune_usage, "--vary: at most two unknowns");
		if (tune_vary_parse(v, &t->vary[t->nd], &err))
			return -cli_usage_error(tune_usage, "--vary %s", err.msg);
		t->nd++;
		break;
	case 1:
		st = add_constraint(t, v);
		break;
	case 2:
	case 3:
		st = set_goal(t, k - 1 == 2 ? TUNE_MINIMIZE : TUNE_MAXIMIZE, v);
		break;
	case 4:
		if (strcmp(v, "smallest") && strcmp(v, "largest"))
			return -cli_usage_error(tune_usage, "--find '%s': smallest or largest", v);
		st = set_goal(t, v[0] == 's' ? TUNE_FIND_SMALLEST : TUNE_FIND_LARGEST, NULL);
		break;
	case 5:
	case 6:
	case 7:
		if (parse_int(v, k - 1 == 7 ? 2 : 1, 10000, &nums[k - 1 - 5]))
			return -cli_usage_error(tune_usage, "%s '%s': expected a number >= %d",
						names[k - 1], v, k - 1 == 7 ? 2 : 1);
		break;
	default:
		t->plot = v;
	}
	return st ? -st : 1;
}

/* A metric only runs in work timing have (metrics.h). */
static bool work_only(const struct tune_metric *m)
{
	const struct metric_def *d = metric_find(m->name);

	return d && d->work_only;
}

/* Does the governor of the runs (or of baseline b, >= 0) take tunable key? 0 or exit 2. */
static int check_tunable(struct tune_cli *t, int b, const char *what, const char *key,
			 const char *value)
{
	const char *name = b >= 0 && t->base_gov[b] ? t->base_gov[b] : t->o.sim.governor;
	const struct governor *gov = NULL;
	struct gs_error err;

	gs_error_clear(&err);
	if (governor_lookup(name, &gov, &err))
		return cli_report(&err);
	if (!sweep_gov_takes(&t->o.plat, gov, key, value))
		return cli_usage_error(tune_usage, "%s: governor '%s' has no tunable '%s'", what,
				       gov->name, key);
	return 0;
}

static int check_tunables(struct tune_cli *t)
{
	char what[600];
	int st;

	for (int i = 0; i < t->o.sim.nr_params; i++) {
		snprintf(what, sizeof(what), "--set '%s=%s'", t->o.params[i].key,
			 t->o.params[i].value);
		if ((st = check_tunable(t, -1, what, t->o.params[i].key, t->o.params[i].value)))
			return st;
	}
	for (int d = 0; d < t->nd; d++) {
		char v[64];
		if (t->vary[d].kind != TUNE_VARY_TUNABLE)
			continue;
		tune_vary_format(&t->vary[d], 0, v, sizeof(v));
		snprintf(what, sizeof(what), "--vary '%s'", t->vary[d].text);
		if ((st = check_tunable(t, -1, what, t->vary[d].key, v)))
			return st;
	}
	for (int b = 0; b < t->nr_bases; b++)
		for (int i = 0; i < t->bases[b].nr_params; i++) {
			snprintf(what, sizeof(what), "baseline '%s'", t->bases[b].text);
			if ((st = check_tunable(t, b, what, t->bases[b].keys[i],
						t->bases[b].values[i])))
				return st;
		}
	return 0;
}

/* The metrics every job reports, and the checks that need the whole command line. */
static int tune_check(struct tune_cli *t)
{
	int st;

	if (t->nd == 0)
		return cli_usage_error(tune_usage, "--vary SPEC is required (the value to find)");
	if (!t->goal_set)
		return cli_usage_error(tune_usage,
				       "give --find smallest|largest, --minimize METRIC or "
				       "--maximize METRIC");
	if ((t->goal == TUNE_FIND_SMALLEST || t->goal == TUNE_FIND_LARGEST) && t->nd > 1)
		return cli_usage_error(tune_usage,
				       "--find takes one --vary (two: --minimize or --maximize)");
	if ((t->goal == TUNE_FIND_SMALLEST || t->goal == TUNE_FIND_LARGEST) && !t->nr_cons)
		return cli_usage_error(tune_usage, "--find needs a --subject-to (what to meet)");
	if (t->nd == 2 && strcmp(t->vary[0].key, t->vary[1].key) == 0 &&
	    strcmp(t->vary[0].prefix, t->vary[1].prefix) == 0)
		return cli_usage_error(tune_usage, "--vary '%s' given twice", t->vary[1].text);
	if (t->plot && t->nd > 1)
		return cli_usage_error(tune_usage, "--plot draws one unknown");
	if (t->plot && t->moff + t->nr_cons > 8)
		return cli_usage_error(tune_usage, "--plot draws at most 8 panels (objective and "
						   "constraints)");
	if (t->o.nr_kernels > 1)
		return cli_usage_error(tune_usage, "--kernel: one profile (tune one at a time)");
	if (t->o.nr_kernels == 1)
		t->o.sim.kernel = t->o.kernels[0];
	t->moff = t->goal == TUNE_MINIMIZE || t->goal == TUNE_MAXIMIZE;
	if (t->moff)
		t->metrics[0] = t->objective;
	for (int c = 0; c < t->nr_cons; c++)
		t->metrics[t->moff + c] = t->cons[c].metric;
	t->nr_metrics = t->moff + t->nr_cons;
	for (int m = 0; m < t->nr_metrics; m++)
		if (t->o.sim.timing == SIM_TIMING_TRACED && work_only(&t->metrics[m]))
			return cli_usage_error(tune_usage,
					       "'%s' is measured in work timing only (not with "
					       "--timing traced)",
					       t->metrics[m].text);
	if ((st = check_tunables(t)))
		return st;
	/* a vary line that does not parse is a malformed spec */
	for (int d = 0; d < t->nd; d++) {
		char line[600];
		struct policy p;
		struct gs_error err;
		gs_error_clear(&err);
		if (t->vary[d].kind != TUNE_VARY_ACTION)
			continue;
		policy_init(&p);
		tune_vary_instance(&t->vary[d], 0, line, sizeof(line));
		if (policy_parse_line(&p, line, "--vary", d + 1, &err)) {
			policy_release(&p);
			return cli_usage_error(tune_usage, "--vary '%s': %s", t->vary[d].text,
					       err.msg);
		}
		policy_release(&p);
	}
	return 0;
}

static int tune_parse(struct tune_cli *t, int argc, char **argv, char **rest, long *nums)
{
	int nr_rest = 0, st;

	rest[nr_rest++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			t->json = true;
			continue;
		}
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				rest[nr_rest++] = argv[i++];
			break;
		}
		st = parse_own(t, argc, argv, &i, nums);
		if (st < 0)
			return -st;
		if (st == 0)
			rest[nr_rest++] = argv[i];
	}
	if ((st = run_opts_parse(&t->o, nr_rest, rest, tune_usage, RUN_OPTS_SWEEP)))
		return st;
	t->opts_parsed = true;
	t->quiet = t->o.quiet;
	return tune_check(t);
}

static void tune_release(struct tune_cli *t)
{
	tune_search_release(&t->search);
	free(t->jobs);
	free(t->job_vals);
	free(t->job_unmatched);
	free(t->base_vals);
	free(t->pt_vals);
	for (int b = 0; b < t->nr_bases; b++)
		policy_release(&t->base_policy[b]);
	if (t->opts_parsed)
		run_opts_release(&t->o);
}

int cmd_tune(int argc, char **argv)
{
	struct tune_cli *t;
	struct gs_error err;
	long nums[3] = {0, 3, 17}, nr[TUNE_MAX_VARY];
	char **rest;
	int status;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", tune_usage, tune_help);
		printf("\nmetrics (N: a cluster, or a policy by its first CPU; * work timing only;\n"
		       "t: also of some tasks):\n");
		cli_print_metrics(true);
		return EXIT_OK;
	}
	gs_error_clear(&err);
	t = calloc(1, sizeof(*t));
	rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!t || !rest) {
		free(t);
		free(rest);
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	status = tune_parse(t, argc, argv, rest, nums);
	if (status)
		goto out;
	t->parallel = nums[0];
	/* every trace is replayed once per point: read each once, before the workers fork */
	for (int i = 0; i < t->o.nr_traces; i++)
		run_opts_cache(&t->o, i, t->o.db != NULL);
	if ((status = run_baselines(t)))
		goto out;
	for (int d = 0; d < t->nd; d++)
		nr[d] = t->vary[d].nr;
	tune_search_init(&t->search, t->goal, t->nd, nr);
	t->search.batch = (int)nums[1];
	t->search.grid = (int)nums[2];
	if (tune_search_run(&t->search, tune_eval, t, &err)) {
		status = t->fail_status ? t->fail_status : cli_report(&err);
		goto out;
	}
	status = tune_print(t);
out:
	tune_release(t);
	free(t);
	free(rest);
	return status;
}
