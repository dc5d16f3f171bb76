/* cmd_merge.c - `govsim merge OUT.db IN.db...`: append the runs of several databases to one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "store/store.h"

static const char merge_usage[] =
	"usage: govsim merge OUT.db IN.db... [--expect N] [--partial] [--quiet]\n";

static const char merge_help[] =
	"\n"
	"Appends every run of IN.db... to OUT.db (created if missing): inputs in the\n"
	"order given, each input's runs in run order, all in one transaction (every run\n"
	"is merged or none is). Runs get new ids in OUT.db; everything else, created_at\n"
	"included, is copied as it is. Every input must have this govsim's results\n"
	"schema version. This joins the databases of a sweep run as a cluster job array\n"
	"(docs/cluster.md).\n"
	"\n"
	"The databases 'sweep --job K' writes know which job of the sweep they hold.\n"
	"When every input is such a part, they are merged in job order (any order on\n"
	"the command line, a shell glob included), a job given twice or parts of\n"
	"sweeps of different sizes are refused, and when jobs are missing nothing is\n"
	"merged: the message names them (exit 1).\n"
	"\n"
	"  --expect N  the inputs are the N parts of one sweep (as 'sweep --slurm'\n"
	"              prints); an input that is not a part of a sweep of N jobs is\n"
	"              refused\n"
	"  --partial   merge the parts there are when some are missing (named on\n"
	"              stderr)\n"
	"  --quiet     print nothing but errors\n"
	"\n"
	"exit status: 0 merged; 1 jobs missing, or a database error (nothing merged);\n"
	"2 bad command line; 3 an input that does not exist, is not a results database\n"
	"or is no part of the sweep, or a job twice.\n";

int cmd_merge(int argc, char **argv)
{
	struct store_merge_opts opts;
	const char **paths;
	struct gs_error err;
	bool quiet = false;
	size_t n = 0, nr_runs = 0;
	int status = EXIT_OK;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", merge_usage, merge_help);
		return EXIT_OK;
	}
	memset(&opts, 0, sizeof(opts));
	paths = calloc((size_t)argc + 1, sizeof(*paths));
	if (!paths)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--quiet") == 0) {
			quiet = true;
		} else if (strcmp(arg, "--partial") == 0) {
			opts.partial = true;
		} else if (strcmp(arg, "--expect") == 0 || strncmp(arg, "--expect=", 9) == 0) {
			const char *v = arg[8] == '=' ? arg + 9 : (i + 1 < argc ? argv[++i] : NULL);
			char *end;
			if (!v) {
				status = cli_usage_error(merge_usage, "option '--expect' needs a value");
				goto out;
			}
			errno = 0;
			opts.expect = strtol(v, &end, 10);
			if (errno || end == v || *end || opts.expect < 1) {
				status = cli_usage_error(merge_usage,
							 "--expect '%s': expected a number of jobs >= 1",
							 v);
				goto out;
			}
		} else if (arg[0] == '-' && arg[1]) {
			status = cli_usage_error(merge_usage, "unknown option '%s'", arg);
			goto out;
		} else {
			paths[n++] = arg;
		}
	}
	if (n < 2) {
		status = cli_usage_error(merge_usage, "expected OUT.db and at least one IN.db");
		goto out;
	}
	gs_error_clear(&err);
	if (store_merge_ext(paths[0], paths + 1, n - 1, &opts, &nr_runs, &err)) {
		status = cli_report(&err);
		goto out;
	}
	if (opts.missing[0])
		fprintf(stderr, "govsim: merge: missing jobs %s; merged the others (--partial)\n",
			opts.missing);
	if (!quiet)
		printf("merged %zu run%s from %zu database%s into '%s'\n", nr_runs,
		       nr_runs == 1 ? "" : "s", n - 1, n == 2 ? "" : "s", paths[0]);
out:
	free(paths);
	return status;
}
