/*
 * cmd_report.c - `govsim report --db FILE --out DIR`: figures (PNG and SVG) and an HTML page
 * for runs stored in a results database. Reads the store only; nothing is replayed.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/compare.h"
#include "report/report.h"
#include "store/store.h"

static const char report_usage[] =
	"usage: govsim report --db FILE [--run N]... [--select SEL] --out DIR [--html]\n";

static const char report_help[] =
	"\n"
	"Draws the runs of a results database (written by 'govsim run --db') into DIR,\n"
	"each figure as NAME.png (1200x600 px; compare grows by 22 px a run from about\n"
	"18 runs on) and NAME.svg:\n"
	"  run<N>_timeline_policy<P>  emulated (and traced) frequency, utilization and\n"
	"                             capacity over time, per run N and policy P; every\n"
	"                             change of either frequency at its time\n"
	"  run<N>_residency           time at each OPP, per policy\n"
	"  run<N>_placement           --placement eas runs: which task ran on which CPU\n"
	"                             over time (a row per CPU, a colour per task)\n"
	"  energy                     energy per cluster, stacked, one bar per run; a\n"
	"                             panel (own scale) per trace when there are several\n"
	"  compare                    with two runs or more: energy and total task\n"
	"                             delay per run, a row each (taller with more\n"
	"                             runs), the value and its change from the first\n"
	"                             run of the same trace at the bar's end (with\n"
	"                             several traces the bars are percentages of it); a\n"
	"                             log axis when the values span two decades or more\n"
	"\n"
	"  --db FILE     the results database (must exist)\n"
	"  --run N       a run id, repeatable, in the order given (the first of each\n"
	"                trace is its reference); default: every run, ascending\n"
	"  --select SEL  the runs matching a selector instead, e.g.\n"
	"                'governor=schedutil,policy=none': compare's selector (see\n"
	"                'govsim compare --help'), run=N, label=, policy=FILE|none,\n"
	"                action='LINE', any runs column, any tunable (rate_limit_us=1000)\n"
	"                or label word; not db= (the runs are those of --db)\n"
	"  --out DIR     output directory, created if missing; files are replaced\n"
	"  --html        also DIR/index.html: one self-contained page with every figure\n"
	"                (PNG, base64-embedded) and the runs, energy, residency, delay\n"
	"                and uclamp tables\n"
	"\n"
	"exit status: 0 ok; 1 a run id that does not exist, a database without runs, or a\n"
	"file that cannot be written; 2 bad command line, or a selector that is malformed\n"
	"or selects no run; 3 a database that does not exist or is not a results database\n";

enum { OPT_DB = 256, OPT_RUN, OPT_SELECT, OPT_OUT, OPT_HTML };

static const struct option long_opts[] = {
	{"db", required_argument, NULL, OPT_DB},
	{"run", required_argument, NULL, OPT_RUN},
	{"select", required_argument, NULL, OPT_SELECT},
	{"out", required_argument, NULL, OPT_OUT},
	{"html", no_argument, NULL, OPT_HTML},
	{NULL, 0, NULL, 0},
};

/* A run id (1, 2, ...) into *id; false when s is not one. */
static bool parse_run_id(const char *s, s64 *id)
{
	char *end;
	long long v;

	if (!*s)
		return false;
	v = strtoll(s, &end, 10);
	if (*end || v <= 0)
		return false;
	*id = v;
	return true;
}

struct report_args {
	const char *db, *out, *select;
	s64 *ids; /* --run ids (argc of room), then the runs to report */
	size_t nr_ids;
	unsigned flags;
};

/* The options; 0 or the exit status after printing the problem. */
static int report_parse(int argc, char **argv, struct report_args *a)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_DB:
			a->db = optarg;
			break;
		case OPT_RUN:
			if (!parse_run_id(optarg, &a->ids[a->nr_ids]))
				return cli_usage_error(report_usage,
						       "--run '%s': expected a run id (1, 2, ...)",
						       optarg);
			a->nr_ids++;
			break;
		case OPT_SELECT:
			a->select = optarg;
			break;
		case OPT_OUT:
			a->out = optarg;
			break;
		case OPT_HTML:
			a->flags |= REPORT_HTML;
			break;
		case ':':
			return cli_usage_error(report_usage, "'%s' needs a value", argv[optind - 1]);
		default:
			return cli_usage_error(report_usage, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(report_usage, "unexpected argument '%s'", argv[optind]);
	if (!a->db || !a->out)
		return cli_usage_error(report_usage, "%s is required", !a->db ? "--db" : "--out");
	if (a->nr_ids && a->select)
		return cli_usage_error(report_usage, "--run and --select cannot be combined");
	return 0;
}

/* Without --run, the runs --select picks (all without it); 0 or the exit status. */
static int report_select(struct store *store, struct report_args *a, struct gs_error *err)
{
	if (a->nr_ids)
		return 0;
	free(a->ids);
	a->ids = NULL;
	if (a->select && *a->select) {
		/* the selector compare takes (compare_select), on this database's runs */
		if (compare_select_ids(a->select, a->db, &cli_policy_norm, &a->ids, &a->nr_ids, err))
			return err->code == GS_EARG ? cli_usage_error(report_usage, "%s", err->msg)
						    : cli_report(err);
		return 0;
	}
	if (store_list_runs(store, &a->ids, &a->nr_ids, err))
		return cli_report(err);
	if (!a->nr_ids)
		return cli_fail(EXIT_FAILURE_RT, "'%s': no runs", a->db);
	return 0;
}

/* runs[0 .. a->nr_ids) from the store; *nr_runs counts those to release. */
static int report_read(struct store *store, const struct report_args *a,
		       struct run_result *runs, size_t *nr_runs, struct gs_error *err)
{
	for (size_t i = 0; i < a->nr_ids; i++) {
		int ret = store_read_run(store, a->ids[i], &runs[i], err);
		(*nr_runs)++;
		if (ret == GS_ENOTFOUND)
			return cli_fail(EXIT_FAILURE_RT, "'%s': no run %" PRId64, a->db, a->ids[i]);
		if (ret)
			return cli_report(err);
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {0};
	size_t nr_runs = 0, nr_files = 0;
	struct run_result *runs = NULL;
	struct store *store = NULL;
	struct gs_error err;
	int status;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", report_usage, report_help);
		return EXIT_OK;
	}
	gs_error_clear(&err);
	a.ids = calloc((size_t)argc, sizeof(*a.ids));
	if (!a.ids)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	status = report_parse(argc, argv, &a);
	if (status)
		goto out;
	/* store_open() would create a missing database: check first */
	if (access(a.db, R_OK)) {
		status = cli_fail(EXIT_BAD_INPUT, "'%s': no such results database", a.db);
		goto out;
	}
	if (store_open(a.db, &store, &err)) {
		status = cli_report(&err);
		goto out;
	}
	status = report_select(store, &a, &err);
	if (status)
		goto out;
	runs = calloc(a.nr_ids, sizeof(*runs));
	if (!runs) {
		status = cli_fail(EXIT_FAILURE_RT, "out of memory");
		goto out;
	}
	status = report_read(store, &a, runs, &nr_runs, &err);
	if (status)
		goto out;
	if (report_write(runs, a.ids, a.nr_ids, a.out, a.flags, a.db, &nr_files, &err)) {
		status = cli_report(&err);
		goto out;
	}
	printf("%zu run%s, %zu files in %s\n", a.nr_ids, a.nr_ids == 1 ? "" : "s", nr_files,
	       a.out);
out:
	for (size_t i = 0; i < nr_runs; i++)
		run_result_release(&runs[i]);
	free(runs);
	free(a.ids);
	store_close(store);
	plot_release_static();
	return status;
}
