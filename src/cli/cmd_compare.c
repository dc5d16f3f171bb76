/* cmd_compare.c - `govsim compare --base SEL --new SEL`: two sets of runs, metric by metric. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "report/compare.h"
#include "uclamp/policy.h"

#define COMPARE_MAX_THRESHOLDS 64

static const char compare_usage[] =
    "usage: govsim compare --base SEL --new SEL [--new SEL]... [--db FILE] [--confidence P]\n"
    "         [--fail-on 'METRIC>+X%']... [--format text|markdown|csv] [--json]\n";

static const char compare_help[] =
    "\n"
    "Compares two sets of runs from results databases, matched trace by trace (by\n"
    "content): one row per metric with the base and new values and the relative\n"
    "change. With two or more runs per side it adds harmonic means and standard\n"
    "deviations, and marks with '*' the means that differ significantly by Welch's\n"
    "t-test (two-sided); with one run per side the differences are plain, with no\n"
    "significance claim. A side's sample is its runs: repeats of one trace (a replay\n"
    "is deterministic: identical repeats have no spread, and where neither side has\n"
    "any there is nothing to test a difference against: no claim, no '*') or several\n"
    "traces (their spread is the traces' own, so only large differences are\n"
    "significant). A change from a base of 0 reads 'new' (no relative change). With several traces in common, a row per trace\n"
    "follows (base vs new on that trace alone). --fail-on looks at the means: of the\n"
    "pooled runs and of each trace's runs; it fails if any of them crosses.\n"
    "\n"
    "  --base SEL, --new SEL  run selectors: comma-separated KEY=VALUE terms, all\n"
    "                    must hold: run=N, label=TEXT, policy=FILE (or policy=none),\n"
    "                    governor=NAME, trace=PATH, platform=NAME, timing=T, ...,\n"
    "                    action='LINE' (a policy action), any tunable\n"
    "                    (rate_limit_us=1000) or word a sweep put in the label;\n"
    "                    db=FILE reads another database (alone: all its runs)\n"
    "                    --new may be repeated (up to 8): one column per new side,\n"
    "                    each against the base (text format, no --fail-on)\n"
    "  --db FILE         the database of selectors without db=\n"
    "  --confidence P    confidence level of the test (default 0.95)\n"
    "  --fail-on T       exit 1 when the change of the means crosses T (repeatable):\n"
    "                    METRIC>VALUE% or METRIC<VALUE% relative, METRIC>VALUE\n"
    "                    absolute (>= and <= too), e.g. 'energy>+2%', 'delay>+5%',\n"
    "                    'avg_freq_policy4<-10%', 'transitions>+100'\n"
    "  --format F        text (default, mmtests style), markdown, csv\n"
    "  --json            one JSON object instead: the pooled metrics, per_trace, and\n"
    "                    fail_on (crossed, and traces_crossed) (keys: README)\n"
    "\n";

static const char compare_exit_help[] =
    "\n"
    "exit status: 0 no threshold crossed; 1 a threshold crossed by the pooled means\n"
    "or by a trace's (after the table; stderr names the trace);\n"
    "2 bad command line, selector or threshold; 3 runs that cannot be compared\n"
    "(different platforms, no trace in common), or a database that does not exist\n"
    "or is not a results database.\n";

enum { OPT_BASE = 256, OPT_NEW, OPT_DB, OPT_CONFIDENCE, OPT_FAIL_ON, OPT_FORMAT, OPT_JSON };

static const struct option long_opts[] = {
    {"base", required_argument, NULL, OPT_BASE},
    {"new", required_argument, NULL, OPT_NEW},
    {"db", required_argument, NULL, OPT_DB},
    {"confidence", required_argument, NULL, OPT_CONFIDENCE},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"json", no_argument, NULL, OPT_JSON},
    {NULL, 0, NULL, 0},
};

/* policy=FILE of a selector: FILE's clamp policy as the replay stores it (runs.policy). */
static char *normalise_policy_file(const char *path)
{
	struct policy p;
	struct gs_error e;
	struct strbuf text = STRBUF_INIT;
	char *copy = NULL;

	policy_init(&p);
	gs_error_clear(&e);
	if (policy_parse_file(&p, path, &e) == 0 && policy_format(&p, &text) == 0)
		copy = strdup(strbuf_str(&text));
	policy_release(&p);
	strbuf_free(&text);
	return copy;
}

/* action=LINE of a selector: its one action as a line of runs.policy ("" for none). */
static int normalise_action(const char *line, char *out, size_t size, struct gs_error *err)
{
	struct policy p;
	struct strbuf text = STRBUF_INIT;
	int rc = 0;

	out[0] = '\0';
	policy_init(&p);
	if (policy_parse_line(&p, line, "action=", 1, err) == 0 && p.n == 1) {
		if (policy_action_format(&p.actions[0], &text))
			rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		strbuf_copy(&text, out, size);
	} else if (err->msg[0]) {
		rc = GS_EARG;
	}
	policy_release(&p);
	strbuf_free(&text);
	return rc;
}

const struct compare_policy_norm cli_policy_norm = {normalise_policy_file, normalise_action};

void cli_print_metrics(bool tune)
{
	for (const struct metric_def *d = metric_defs; d->name; d++) {
		char name[40], unit[40] = "";
		const char *u = !d->unit ? "energy unit"
				: strcmp(d->unit, METRIC_UNIT_POWER) == 0 ? "W, or energy unit/s"
									  : d->unit;

		if (d->tasks_only && !tune)
			continue;
		snprintf(name, sizeof(name), "%s%s%s%s", d->name, d->kind == METRIC_ONE ? "" : "N",
			 d->work_only ? " *" : "", tune && d->of_tasks ? " t" : "");
		if (u[0])
			snprintf(unit, sizeof(unit), " (%s)", u);
		printf("  %-22s %s%s\n", name, d->help, unit);
	}
}

/* The metrics compare tabulates, a line each. */
static void print_metric_help(void)
{
	printf("metrics (N: a cluster, or a policy by its first CPU; * work timing only):\n");
	cli_print_metrics(false);
}

/* The names of table t's metrics, ", "-separated, appended to sb. */
static void list_metrics(struct strbuf *sb, const struct compare_table *t)
{
	for (int k = 0; k < t->nr_metrics; k++)
		strbuf_addf(sb, "%s%s", k ? ", " : "", t->m[k].name);
}

/* "; did you mean 'X'?" for the metric of table t nearest to a mistyped name, or "". */
static const char *metric_hint(char *buf, size_t size, const struct compare_table *t,
			       const char *name)
{
	const char *names[COMPARE_MAX_METRICS + 1];

	for (int k = 0; k < t->nr_metrics; k++)
		names[k] = t->m[k].name;
	names[t->nr_metrics] = NULL;
	return gs_suggest_hint(buf, size, name, names, NULL);
}

/* "govsim: energy changed by +3.10%: over the limit 'energy>+2%'", "... on trace 'x': ..." */
static void report_crossed(const struct metric_threshold *thr, const struct compare_metric *m,
			   double change, const char *trace)
{
	char where[300] = "";

	if (trace)
		snprintf(where, sizeof(where), " on trace '%.256s'", trace);
	if (thr->relative && !isfinite(change)) /* from a base of 0: no relative change */
		fprintf(stderr, "govsim: %s changed from 0 to %g%s%s%s: over the limit '%s'\n",
			m->name, m->new.amean, m->unit[0] ? " " : "", m->unit, where, thr->text);
	else if (thr->relative)
		fprintf(stderr, "govsim: %s changed by %+.2f%%%s: over the limit '%s'\n", m->name,
			change, where, thr->text);
	else
		fprintf(stderr, "govsim: %s changed by %+g%s%s%s: over the limit '%s'\n", m->name,
			change, m->unit[0] ? " " : "", m->unit, where, thr->text);
}

#define COMPARE_MAX_NEW 8

/* Several --new sides against one base, one column each (text only). */
static int compare_columns(const char *base_sel, const char *const *new_sels, size_t n,
			   const char *db, double confidence)
{
	struct run_result *base = NULL, *nr[COMPARE_MAX_NEW] = {NULL};
	size_t nb = 0, nn[COMPARE_MAX_NEW] = {0};
	struct compare_table *t = calloc(n, sizeof(*t));
	struct gs_error err;
	int status = EXIT_OK;

	gs_error_clear(&err);
	if (!t)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	if (compare_select(base_sel, db, &cli_policy_norm, &base, &nb, &err))
		status = cli_report(&err);
	for (size_t i = 0; i < n && status == EXIT_OK; i++)
		if (compare_select(new_sels[i], db, &cli_policy_norm, &nr[i], &nn[i], &err) ||
		    compare_runs(base, nb, nr[i], nn[i], confidence, &t[i], &err))
			status = cli_report(&err);
	if (status == EXIT_OK)
		compare_print_columns(stdout, t, n, base_sel, new_sels);
	for (size_t i = 0; i < n; i++)
		compare_free_runs(nr[i], nn[i]);
	compare_free_runs(base, nb);
	free(t);
	return status;
}

/* compare's command line. */
struct compare_cli {
	const char *new_sels[COMPARE_MAX_NEW];
	size_t nr_new;
	struct metric_threshold thr[COMPARE_MAX_THRESHOLDS];
	int nr_thr;
	const char *base_sel, *new_sel, *db;
	enum compare_format fmt;
	double confidence;
	bool json;
};

/* One option into o: EXIT_OK, or the exit status of a usage error (printed). */
static int compare_opt(struct compare_cli *o, int c, char **argv, struct gs_error *err)
{
	int ret;

	switch (c) {
	case OPT_BASE:
		o->base_sel = optarg;
		break;
	case OPT_NEW:
		if (o->nr_new == COMPARE_MAX_NEW)
			return cli_usage_error(compare_usage, "more than %d --new options",
					       COMPARE_MAX_NEW);
		o->new_sels[o->nr_new++] = o->new_sel = optarg;
		break;
	case OPT_DB:
		o->db = optarg;
		break;
	case OPT_CONFIDENCE: {
		char *end;
		errno = 0;
		o->confidence = strtod(optarg, &end);
		if (errno || end == optarg || *end || !(o->confidence > 0 && o->confidence < 1))
			return cli_usage_error(compare_usage,
					       "--confidence '%s': expected a number in (0, 1)",
					       optarg);
		break;
	}
	case OPT_FAIL_ON:
		if (o->nr_thr == COMPARE_MAX_THRESHOLDS)
			return cli_usage_error(compare_usage, "too many --fail-on options");
		if (metric_threshold_parse(optarg, &o->thr[o->nr_thr], err))
			return cli_usage_error(compare_usage, "--fail-on %s", err->msg);
		o->nr_thr++;
		break;
	case OPT_FORMAT:
		ret = compare_format_from_name(optarg);
		if (ret < 0)
			return cli_usage_error(
			    compare_usage, "--format '%s': expected text, markdown or csv", optarg);
		o->fmt = (enum compare_format)ret;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case ':':
		return cli_usage_error(compare_usage, "option '%s' needs a value", argv[optind - 1]);
	default:
		return cli_usage_error(compare_usage, "unknown option '%s'", argv[optind - 1]);
	}
	return EXIT_OK;
}

static int compare_parse(struct compare_cli *o, int argc, char **argv, struct gs_error *err)
{
	int c, status;

	memset(o, 0, sizeof(*o));
	o->fmt = COMPARE_TEXT;
	o->confidence = 0.95;
	optind = 1;
	opterr = 0;
	/* ":": a missing value comes back as ':', an unknown option (short ones too) as '?' */
	while ((c = getopt_long(argc, argv, ":", long_opts, NULL)) != -1)
		if ((status = compare_opt(o, c, argv, err)) != EXIT_OK)
			return status;
	if (optind < argc)
		return cli_usage_error(compare_usage, "unexpected argument '%s'", argv[optind]);
	if (!o->base_sel || !o->new_sel)
		return cli_usage_error(compare_usage, "both --base and --new are needed");
	if (o->nr_new > 1 && (o->json || o->fmt != COMPARE_TEXT || o->nr_thr))
		return cli_usage_error(compare_usage, "several --new: one column each, in the text "
						      "format (no --json, --format or --fail-on)");
	return EXIT_OK;
}

/* --fail-on: every threshold crossed, pooled and per trace, said on stderr. */
static int compare_fail_on(const struct compare_cli *o, const struct compare_table *table,
			   const struct compare_trace *per_trace, size_t ntr)
{
	int status = EXIT_OK;

	for (int i = 0; i < o->nr_thr; i++) {
		const struct metric_threshold *t = &o->thr[i];
		const struct compare_metric *m = compare_find_metric(table, t->metric);
		double change = metric_threshold_change(t, m->base.amean, m->new.amean);

		if (metric_threshold_crossed(t, m->base.amean, m->new.amean)) {
			report_crossed(t, m, change, NULL);
			status = EXIT_FAILURE_RT;
		}
		for (size_t k = 0; ntr > 1 && k < ntr; k++) {
			const struct compare_metric *tm =
			    compare_find_metric(&per_trace[k].t, t->metric);
			if (!tm || !metric_threshold_crossed(t, tm->base.amean, tm->new.amean))
				continue;
			report_crossed(t, tm,
				       metric_threshold_change(t, tm->base.amean, tm->new.amean),
				       per_trace[k].trace);
			status = EXIT_FAILURE_RT;
		}
	}
	return status;
}

static void compare_output(const struct compare_cli *o, const struct compare_table *table,
			   const struct compare_trace *per_trace, size_t ntr)
{
	if (o->json) {
		compare_print_json(stdout, table, per_trace, ntr, o->base_sel, o->new_sel, o->thr,
				   o->nr_thr);
	} else {
		compare_print(stdout, table, o->base_sel, o->new_sel, o->fmt);
		if (o->fmt == COMPARE_TEXT && ntr > 1) {
			const char *names[COMPARE_MAX_THRESHOLDS];
			for (int i = 0; i < o->nr_thr; i++)
				names[i] = o->thr[i].metric;
			compare_print_traces(stdout, per_trace, ntr, names, o->nr_thr);
		}
	}
	fflush(stdout);
	if ((o->json || o->fmt != COMPARE_TEXT) && (table->base_dropped || table->new_dropped))
		fprintf(stderr,
			"govsim: warning: left out, trace not on the other side: %zu base, %zu new "
			"run%s\n",
			table->base_dropped, table->new_dropped,
			table->new_dropped == 1 ? "" : "s");
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cli o;
	struct run_result *base = NULL, *new_runs = NULL;
	size_t nb = 0, nn = 0, ntr = 0;
	struct compare_table *table = NULL;
	struct compare_trace *per_trace = NULL;
	struct gs_error err;
	int status;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", compare_usage, compare_help);
		print_metric_help();
		printf("%s", compare_exit_help);
		return EXIT_OK;
	}
	gs_error_clear(&err);
	if ((status = compare_parse(&o, argc, argv, &err)) != EXIT_OK)
		return status;
	if (o.nr_new > 1)
		return compare_columns(o.base_sel, o.new_sels, o.nr_new, o.db, o.confidence);

	if (compare_select(o.base_sel, o.db, &cli_policy_norm, &base, &nb, &err) ||
	    compare_select(o.new_sel, o.db, &cli_policy_norm, &new_runs, &nn, &err)) {
		status = cli_report(&err);
		goto out;
	}
	table = malloc(sizeof(*table));
	if (!table) {
		status = cli_fail(EXIT_FAILURE_RT, "out of memory");
		goto out;
	}
	if (compare_runs(base, nb, new_runs, nn, o.confidence, table, &err)) {
		status = cli_report(&err);
		goto out;
	}
	for (int i = 0; i < o.nr_thr; i++) {
		if (!compare_find_metric(table, o.thr[i].metric)) {
			struct strbuf names = STRBUF_INIT;
			char hint[80];
			list_metrics(&names, table);
			status = cli_usage_error(compare_usage,
						 "--fail-on '%s': unknown metric '%s' (one of: %s)%s",
						 o.thr[i].text, o.thr[i].metric, strbuf_str(&names),
						 metric_hint(hint, sizeof(hint), table, o.thr[i].metric));
			strbuf_free(&names);
			goto out;
		}
	}
	if (compare_per_trace(base, nb, new_runs, nn, o.confidence, &per_trace, &ntr, &err)) {
		status = cli_report(&err);
		goto out;
	}
	compare_output(&o, table, per_trace, ntr);
	status = compare_fail_on(&o, table, per_trace, ntr);
out:
	free(per_trace);
	free(table);
	compare_free_runs(base, nb);
	compare_free_runs(new_runs, nn);
	return status;
}
