/* cmd_merge.c - `govsim merge OUT.db IN.db...`: append the runs of several databases to one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "store/store.h"

static const char merge_usage[] = "usage: govsim merge OUT.db IN.db... [--quiet]\n";

static const char merge_help[] =
	"\n"
	"Appends every run of IN.db... to OUT.db (created if missing): inputs in the\n"
	"order given, each input's runs in run order, all in one transaction (every run\n"
	"is merged or none is). Runs get new ids in OUT.db; everything else, created_at\n"
	"included, is copied as it is. Every input must have this govsim's results\n"
	"schema version. This joins the databases of a sweep run as a cluster job array\n"
	"(docs/cluster.md).\n"
	"\n"
	"  --quiet   print nothing but errors\n";

int cmd_merge(int argc, char **argv)
{
	const char **paths;
	struct gs_error err;
	bool quiet = false;
	size_t n = 0, nr_runs = 0;

	if (argc >= 2 && cli_is_help(argv[1])) {
		printf("%s%s", merge_usage, merge_help);
		return EXIT_OK;
	}
	paths = calloc((size_t)argc + 1, sizeof(*paths));
	if (!paths)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quiet") == 0)
			quiet = true;
		else if (argv[i][0] == '-' && argv[i][1]) {
			free(paths);
			return cli_usage_error(merge_usage, "unknown option '%s'", argv[i]);
		}
		else
			paths[n++] = argv[i];
	}
	if (n < 2) {
		free(paths);
		return cli_usage_error(merge_usage, "expected OUT.db and at least one IN.db");
	}
	gs_error_clear(&err);
	if (store_merge(paths[0], paths + 1, n - 1, &nr_runs, &err)) {
		free(paths);
		return cli_report(&err);
	}
	if (!quiet)
		printf("merged %zu run%s from %zu database%s into '%s'\n", nr_runs,
		       nr_runs == 1 ? "" : "s", n - 1, n == 2 ? "" : "s", paths[0]);
	free(paths);
	return EXIT_OK;
}
