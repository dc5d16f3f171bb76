/* main.c - `govsim <command> [options]`: dispatch through the commands table (git's commands[]). */
#include "cli/cli.h"
#include "core/suggest.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/outfile.h"
#include "core/parse.h"
#include "version.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
#define GOVSIM_CMD_ENTRY(name, summary) {#name, cmd_##name, summary},
	GOVSIM_COMMANDS(GOVSIM_CMD_ENTRY)
#undef GOVSIM_CMD_ENTRY
};

static void print_usage(FILE *out)
{
	fprintf(out, "usage: govsim <command> [options]\n"
		     "       govsim <command> --help\n"
		     "       govsim --version\n\n"
		     "Replays Linux scheduler traces through an emulation of the kernel's PELT, uclamp\n"
		     "and schedutil (profiles v4.19 to v7.2, the trace's kernel release picks one;\n"
		     "'govsim kernels list'), and scores frequency, energy and delay.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nexit status: 0 ok, 1 runtime failure or regression found, 2 bad command "
		     "line,\n3 bad input (trace, platform, policy)\n");
}

int cli_report(const struct gs_error *err)
{
	fprintf(stderr, "govsim: %s\n", err->msg[0] ? err->msg : gs_strerror(err->code));
	return gs_exit_status(err->code);
}

int cli_fail(int status, const char *fmt, ...)
{
	va_list ap;
	fputs("govsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;
	fputs("govsim: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", usage);
	return EXIT_USAGE;
}

int cli_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

/* -h or --help among a command's arguments (argv[0] the command), before a "--" that ends its
 * options, asks for the command's help wherever it stands (`govsim run T --help`), as git's and
 * most tools' does: it is moved to argv[1], where each command looks for it, the others kept in
 * their order behind it (`run --help --governor FILE` lists that governor's tunables). */
static void help_first(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		char *help = argv[i];

		if (!cli_is_help(help))
			continue;
		for (int j = i; j > 1; j--)
			argv[j] = argv[j - 1];
		argv[1] = help;
		return;
	}
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("govsim %s (kernel profile v5.9; build: %s)\n", GOVSIM_VERSION, GOVSIM_BUILD);
	return EXIT_OK;
}

/* What a command printed must have reached stdout (`govsim run T > /dev/full` exits 1, as git
 * does): a lost write is a runtime failure, whatever the command returned. */
static int finish_stdout(int status)
{
	if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
		fprintf(stderr, "govsim: write error on standard output: %s\n",
			strerror(errno ? errno : EIO));
		return EXIT_FAILURE_RT;
	}
	return status; /* a failed command has said why already */
}

/* SIGINT, SIGTERM, SIGHUP: remove the outputs being written (core/outfile.h), then die of the
 * signal as if it had not been caught. */
static void on_stop_signal(int sig)
{
	outfile_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_stop_signals(void)
{
	static const int stop[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop) / sizeof(stop[0]); i++) {
		struct sigaction old;
		/* a signal the caller ignores (nohup, a background job) stays ignored */
		if (sigaction(stop[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(stop[i], &sa, NULL);
	}
}

int main(int argc, char **argv)
{
	/* GSL's default handler aborts the process; every GSL status is checked instead. */
	gsl_set_error_handler_off();
	catch_stop_signals();

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
		print_usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0)
		return cmd_version(argc - 1, argv + 1);

	/* a date the results would carry: refused before any command runs */
	{
		s64 sde;
		if (gs_source_date_epoch(&sde) < 0) {
			fprintf(stderr,
				"govsim: bad SOURCE_DATE_EPOCH '%s' (want seconds since 1970-01-01 UTC, "
				"0..%lld)\n",
				getenv("SOURCE_DATE_EPOCH"), GS_EPOCH_MAX);
			return EXIT_USAGE;
		}
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name) != 0)
			continue;
		help_first(argc - 1, argv + 1);
		return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	}

	{
		const char *names[sizeof(commands) / sizeof(commands[0]) + 1];
		char hint[80];

		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			names[i] = commands[i].name;
		names[sizeof(commands) / sizeof(commands[0])] = NULL;
		fprintf(stderr, "govsim: '%s' is not a govsim command; see 'govsim --help'%s\n",
			argv[1], gs_suggest_hint(hint, sizeof(hint), argv[1], names, NULL));
	}
	return EXIT_USAGE;
}
