/*
 * cli.h - what the subcommands share: the commands table, messages and exit statuses.
 *
 * Each subcommand lives in cmd_<name>.c as `int cmd_<name>(int argc, char **argv)`, where
 * argv[0] is the command name; it returns the process exit status:
 * 0 ok, 1 runtime failure or regression found, 2 bad command line, 3 bad input.
 */
#ifndef GOVSIM_CLI_CLI_H
#define GOVSIM_CLI_CLI_H

#include "core/error.h"

#include <stdbool.h>

#define EXIT_OK         0
#define EXIT_FAILURE_RT 1
#define EXIT_USAGE      2
#define EXIT_BAD_INPUT  3

/* X(name, one-line summary). Order is the order of `govsim --help`. */
#define GOVSIM_COMMANDS(X)                                                              \
	X(run, "replay a trace through a governor: frequency, energy, delay")        \
	X(validate, "compare the emulation with the kernel's own signals in a trace") \
	X(report, "draw stored runs: timelines, residency, energy (PNG, SVG, HTML)")  \
	X(sweep, "run traces x policies x governors x tunables into one database")   \
	X(tune, "find the clamp value or tunable that meets a target")             \
	X(merge, "append the runs of several results databases to one")              \
	X(compare, "compare two sets of runs: change, significance, --fail-on")      \
	X(platforms, "list, show, validate, plot and import platform models")        \
	X(kernels, "list and show the kernel profiles the emulation can follow")     \
	X(gen, "write a synthetic workload trace (periodic, pipe, mix)")              \
	X(trace, "describe a trace: format, events, span, what it supports")         \
	X(version, "print the version")

#define GOVSIM_CMD_DECL(name, summary) int cmd_##name(int argc, char **argv);
GOVSIM_COMMANDS(GOVSIM_CMD_DECL)
#undef GOVSIM_CMD_DECL

/* "govsim: <message>" on stderr; returns the exit status for the error's code. */
int cli_report(const struct gs_error *err);

/* "govsim: <printf message>" on stderr; returns `status`. */
int cli_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A command-line mistake: "govsim <cmd>: <message>" then the short usage; returns EXIT_USAGE. */
int cli_usage_error(const char *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The metrics of metrics/metrics.h for --help on stdout, a line each: name (N for a cluster or
 * a policy's number, " *" when work timing only), what it is and its unit. compare's (`tune`
 * false) leave out those of tasks only; tune's mark with " t" those it takes of some tasks.
 * Written in cmd_compare.c.
 */
void cli_print_metrics(bool tune);

/* How compare and report selectors normalise policy=FILE and action=LINE (uclamp/'s parser;
 * report/compare.h struct compare_policy_norm). Defined in cmd_compare.c. */
extern const struct compare_policy_norm cli_policy_norm;

/* True when argv[i] is "-h" or "--help". */
int cli_is_help(const char *arg);

#endif
