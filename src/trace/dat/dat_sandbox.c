/*
 * dat_sandbox.c - a trace.dat's event formats parsed once by libtraceevent in a child process,
 * before libtracecmd parses them in ours.
 *
 * dat_format.c refuses, with a precise message, each shape of malformed format known to crash
 * libtraceevent (1.7) while it parses: a `REC->name` that is no field, a field line that is not
 * a declaration, a constant division by zero. Its print fmt parser has more: process_op() goes
 * on with a NULL right operand after `x[i]` or `c ? a : b` when an unknown operator follows
 * (`m[6];`, `m[6][7]`), and fuzzing keeps finding others. A kernel writes none of them, and a
 * user's damaged file must exit 3, not crash. So the formats the pre-check let through are
 * parsed first in a forked child with the same library: when the child dies (a signal, or a
 * sanitizer's exit status) or hangs, the file is refused naming the format it was parsing, and
 * our process never parses it. The child then opens the file with libtracecmd as dat_open()
 * does (and reads each CPU's first record): libtracecmd 3.1 crashes in its own clean-up when it
 * gives up on some damaged files (a compressed v7 chunk that is not zstd: tracecmd_close() on
 * the half-opened handle), which only decompressing would tell beforehand. The cost is one fork,
 * one extra parse of the formats and one extra open (0.03-0.1 s on the juno trace).
 */
#define _GNU_SOURCE /* pipe2 */
#include "trace/dat/dat_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#define DAT_SANDBOX_SECONDS 10 /* a child still parsing after this is a hang */

/* A sanitizer runtime's hook, present only in sanitized builds (weak: NULL otherwise). libFuzzer
 * sets a death callback that writes a crash input and exits; the child clears it. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

struct dat_sandbox_fmt {
	char system[64];
	char *text;
	size_t size;
};

struct dat_sandbox {
	struct dat_sandbox_fmt *f;
	size_t n, cap;
};

struct dat_sandbox *dat_sandbox_new(void)
{
	return calloc(1, sizeof(struct dat_sandbox));
}

void dat_sandbox_free(struct dat_sandbox *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->f[i].text);
	free(t->f);
	free(t);
}

int dat_sandbox_add(struct dat_sandbox *t, const char *system, const char *text, size_t size)
{
	struct dat_sandbox_fmt *f;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		void *p = realloc(t->f, cap * sizeof(*t->f));
		if (!p)
			return GS_ENOMEM;
		t->f = p;
		t->cap = cap;
	}
	f = &t->f[t->n];
	f->text = malloc(size ? size : 1);
	if (!f->text)
		return GS_ENOMEM;
	memcpy(f->text, text, size);
	f->size = size;
	snprintf(f->system, sizeof(f->system), "%s", system);
	t->n++;
	return 0;
}

/* The child: every format into one handle, as libtracecmd's read_event_files() does (the
 * parser keeps file-static state from one event to the next), each index written to `fd`
 * before its parse so that the parent knows which one it died in. */
static void __attribute__((noreturn)) sandbox_child(const struct dat_sandbox *t, const char *file,
						   int fd, pid_t parent)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
	static const int stop[] = {SIGINT, SIGTERM, SIGHUP};
	struct tep_handle *tep;
	sigset_t set;
	int null;

	/* The child's life is its parent's: when the parent dies (a SIGTERM sent to its pid alone,
	 * a kill -9), the kernel kills the child too, instead of leaving it to parse on as an
	 * orphan. A parent already gone before the request took effect is checked after it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(0);
	/* A stop signal sent to the whole group (Ctrl-C, a sweep stopping its worker) ends the
	 * child at once: the default action, not the parent's handlers it inherited (they clean
	 * up the parent's files), and not blocked as the parent may have them while it forks. */
	sigemptyset(&set);
	for (size_t i = 0; i < GS_ARRAY_SIZE(stop); i++) {
		signal(stop[i], SIG_DFL);
		sigaddset(&set, stop[i]);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (null >= 0) { /* the parent's own parse prints the library's warnings */
		dup2(null, STDERR_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	/* the child's crash is the answer, not a report: default actions for the fatal signals
	 * (a sanitizer's or a fuzzer's handlers would report it and write files), no death
	 * callback (an error a sanitizer finds in its interceptors still ends the child) */
	for (size_t i = 0; i < GS_ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);
	alarm(DAT_SANDBOX_SECONDS);
	tep = tep_alloc();
	if (!tep)
		_exit(0); /* no memory to try: the parent's parse will say so */
	for (size_t i = 0; i < t->n; i++) {
		u32 k = (u32)i;
		if (write(fd, &k, sizeof(k)) != (ssize_t)sizeof(k))
			_exit(0);
		tep_parse_event(tep, t->f[i].text, (unsigned long)t->f[i].size, t->f[i].system);
	}
	if (file) { /* then the whole open, as dat_open() does it: index n says "opening" */
		u32 k = (u32)t->n;
		struct tracecmd_input *tc;

		if (write(fd, &k, sizeof(k)) != (ssize_t)sizeof(k))
			_exit(0);
		tracecmd_set_loglevel(TEP_LOG_NONE);
		tep_set_loglevel(TEP_LOG_NONE);
		tc = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (tc) {
			int cpus = tep_get_cpus(tracecmd_get_tep(tc));
			for (int cpu = 0; cpu < cpus; cpu++)
				tracecmd_free_record(tracecmd_read_cpu_first(tc, cpu));
			tracecmd_close(tc);
		}
	}
	_exit(0); /* no atexit handlers (a sanitizer's leak check) in the child */
}

int dat_sandbox_run(const struct dat_sandbox *t, const char *file, char *why, size_t why_size)
{
	int fds[2], status = 0;
	u32 k, last = 0; /* the index the child wrote last */
	const char *name;
	char how[64];
	int name_len;
	pid_t pid, self = getpid();

	if (t->n == 0 && !file)
		return 0;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return 0; /* cannot try: the pre-check stands alone */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		sandbox_child(t, file, fds[1], self);
	}
	close(fds[1]);
	while (read(fds[0], &k, sizeof(k)) == (ssize_t)sizeof(k))
		last = k;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(how, sizeof(how), "no end after %d s", DAT_SANDBOX_SECONDS);
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "%s", strsignal(WTERMSIG(status)));
	else
		snprintf(how, sizeof(how), "exit status %d: a sanitizer's report",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (last >= t->n) {
		snprintf(why, why_size,
			 "libtracecmd crashes opening it (a trial open in a child: %s)", how);
		return -1;
	}
	name_len = dat_format_name(t->f[last].text, t->f[last].size, &name);
	snprintf(why, why_size,
		 "libtraceevent cannot parse event %s/%.*s's format (a trial parse: %s); a malformed "
		 "format, a kernel never writes one", t->f[last].system, name_len, name, how);
	return -1;
}
