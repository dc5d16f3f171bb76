/*
 * sweep_engine.c - replay jobs in forked workers, merged in job order (sweep_engine.h): the
 * machinery of `govsim sweep`, shared with `govsim tune`.
 */
#include "cli/sweep_engine.h"

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
#include "sim/sim.h"

/* What the parent knows of a job while and after it runs. */
struct sweep_slot {
	long index;
	pid_t pid;
	int status;            /* exit status; 0 ok */
	bool failed_early;     /* failed in the parent (precheck), never forked */
	const char *early_msg;
	char db[PATH_MAX];
	char log[PATH_MAX];
	char out[PATH_MAX];
};

/* --- progress ------------------------------------------------------------------------------ */

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
	const char *name;
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
	fprintf(stderr, "\r\033[Kgovsim %s: %ld/%ld runs, %ld failed, elapsed %s, eta %s", p->name,
		p->done, p->total, p->failed, el, eta);
	fflush(stderr);
}

/* Print what a job wrote on stderr, under a line naming the job. */
static void report_job(struct sweep_engine *e, const struct sweep_slot *s)
{
	char line[2048], what[2048];
	FILE *f = s->failed_early ? NULL : fopen(s->log, "r");
	bool header = false;

	e->describe(e->ctx, s->index, what, sizeof(what));
	if (s->status) {
		fprintf(stderr, "govsim: job %ld (%s) failed:\n", s->index, what);
		header = true;
	}
	if (s->failed_early)
		fprintf(stderr, "  govsim: %s\n", s->early_msg ? s->early_msg : "failed");
	while (f && fgets(line, sizeof(line), f)) {
		if (!header) {
			fprintf(stderr, "govsim: job %ld (%s):\n", s->index, what);
			header = true;
		}
		fprintf(stderr, "  %s", line);
		if (!strchr(line, '\n'))
			fputc('\n', stderr);
	}
	if (f)
		fclose(f);
}

/* --- the workers --------------------------------------------------------------------------- */

/* The signal mask a worker runs with: the parent's before it blocked the stop signals. */
static const sigset_t *worker_mask;

static void start_job(struct sweep_engine *e, struct sweep_slot *s)
{
	pid_t pid;

	if (e->precheck) {
		int st = e->precheck(e->ctx, s->index, &s->early_msg);
		if (st) {
			s->failed_early = true;
			s->status = st;
			s->pid = 0;
			return;
		}
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

		/* a process group of its own, so that stopping the worker stops what it started
		 * (the trace reader's trial parse of a trace.dat) too: see stop_all() */
		setpgid(0, 0);
		/* a worker dies of SIGINT/SIGTERM like any program; the parent cleans up */
		if (worker_mask)
			sigprocmask(SIG_SETMASK, worker_mask, NULL);
		fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		status = e->run(e->ctx, s->index, s->db, s->out);
		fflush(NULL);
		_exit(status);
	}
	setpgid(pid, pid); /* as the child does: whichever runs first */
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

/* Make and lock the folder; 0 or an exit status after printing the problem. */
static int make_dir(char *dir, size_t size, int *lock_fd)
{
	const char *tmpdir = getenv("TMPDIR");
	char lock[PATH_MAX];
	int status;

	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	clean_stale_dirs(tmpdir);
	snprintf(dir, size, "%s/" SWEEP_DIR_PREFIX "XXXXXX", tmpdir);
	if (!mkdtemp(dir))
		return cli_fail(EXIT_FAILURE_RT, "'%s': cannot create: %s", dir, strerror(errno));
	snprintf(lock, sizeof(lock), "%s/lock", dir);
	*lock_fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (*lock_fd < 0 || flock(*lock_fd, LOCK_EX) != 0) {
		status = cli_fail(EXIT_FAILURE_RT, "'%s': cannot lock: %s", lock, strerror(errno));
		if (*lock_fd >= 0)
			close(*lock_fd);
		remove_sweep_dir(dir);
		return status;
	}
	return 0;
}

/* --- the run -------------------------------------------------------------------------------- */

/* Stopped by sig: stop the workers and every process each started (its process group), remove
 * every file, then die of the same signal. */
static int stop_all(struct sweep_engine *e, struct sweep_slot *slots, long n, const char *dir,
		    int lock_fd, int sig, const sigset_t *old_mask)
{
	for (long i = 0; i < n; i++)
		if (slots[i].pid > 0 && kill(-slots[i].pid, SIGTERM) != 0)
			kill(slots[i].pid, SIGTERM);
	for (long i = 0; i < n; i++)
		while (slots[i].pid > 0 && waitpid(slots[i].pid, NULL, 0) < 0 && errno == EINTR)
			;
	close(lock_fd);
	remove_sweep_dir(dir);
	fprintf(stderr, "govsim %s: stopped by %s; no run stored\n", e->name, strsignal(sig));
	free(slots);
	signal(sig, SIG_DFL);
	raise(sig);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	return EXIT_FAILURE_RT;
}

/* Start and reap every job; returns 0, an exit status, or -signal when stopped by one. */
static int run_jobs(struct sweep_engine *e, struct sweep_slot *slots, long n,
		    const sigset_t *wait_set, bool *all_bad_input)
{
	struct progress prog = {0};
	long next = 0, running = 0, parallel;
	int sig = 0;

	parallel = e->parallel ? e->parallel : sysconf(_SC_NPROCESSORS_ONLN);
	if (parallel < 1)
		parallel = 1;
	prog.on = !e->quiet && isatty(STDERR_FILENO);
	prog.name = e->name;
	prog.start = now_s();
	prog.total = n;
	progress_show(&prog);
	for (long done = 0; done < n;) {
		struct sweep_slot *s = NULL;
		while (running < parallel && next < n) {
			start_job(e, &slots[next]);
			if (slots[next].pid == 0) {
				s = &slots[next++];
				break;
			}
			next++;
			running++;
		}
		if (!s) {
			s = reap(slots, n, wait_set, &sig);
			if (!s && sig)
				return -sig;
			if (!s) {
				progress_clear(&prog);
				return cli_fail(EXIT_FAILURE_RT, "lost track of the %s's workers",
						e->name);
			}
			running--;
		}
		done++;
		prog.done = done;
		if (s->status) {
			prog.failed++;
			if (s->status != EXIT_BAD_INPUT)
				*all_bad_input = false;
		}
		progress_clear(&prog);
		report_job(e, s);
		progress_show(&prog);
	}
	progress_clear(&prog);
	e->failed = prog.failed;
	return 0;
}

/* Whether job slot s has a run to store: it ran and succeeded. */
static bool job_stored(const struct sweep_slot *s)
{
	return s->status == 0 && !s->failed_early && s->pid == 0;
}

/*
 * The merge into e->db failed, so nothing of the sweep is stored: keep the databases of the jobs
 * that succeeded instead of removing them. They are renamed job-<index>.db with the index
 * zero-padded (the shell's job-*.db lists them in job order, as a merge wants them) and their
 * folder to DIR.kept (which clean_stale_dirs() does not match); the rest of the folder goes.
 */
static void keep_job_dbs(struct sweep_engine *e, struct sweep_slot *slots, long n,
			 const char *dir)
{
	char kept[PATH_MAX], path[PATH_MAX + 16];
	const char *where = kept;
	int width = snprintf(NULL, 0, "%ld", e->first + n - 1);
	long nr_kept = 0;

	for (long i = 0; i < n; i++) {
		unlink(slots[i].log);
		unlink(slots[i].out);
		snprintf(path, sizeof(path), "%s-journal", slots[i].db);
		unlink(path);
		if (!job_stored(&slots[i])) {
			unlink(slots[i].db);
			continue;
		}
		snprintf(path, sizeof(path), "%s/job-%0*ld.db", dir, width, slots[i].index);
		if (strcmp(path, slots[i].db) != 0 && rename(slots[i].db, path) != 0)
			fprintf(stderr, "govsim %s: '%s': cannot rename to '%s': %s\n", e->name,
				slots[i].db, path, strerror(errno));
		nr_kept++;
	}
	snprintf(path, sizeof(path), "%s/lock", dir);
	unlink(path);
	snprintf(kept, sizeof(kept), "%s.kept", dir);
	if (rename(dir, kept) != 0) {
		fprintf(stderr, "govsim %s: '%s': cannot rename to '%s': %s (a later sweep may "
				"remove what is kept there: move it)\n",
			e->name, dir, kept, strerror(errno));
		where = dir;
	}
	fprintf(stderr,
		"govsim %s: nothing was stored in '%s'; the runs of %ld job%s are kept in '%s'; "
		"store them with: govsim merge '%s' '%s'/job-*.db\n",
		e->name, e->db, nr_kept, nr_kept == 1 ? "" : "s", where, e->db, where);
}

/* Append the successful jobs' databases to e->db in job order, then collect(). *merge_failed:
 * the databases were not appended (keep_job_dbs()). */
static int finish(struct sweep_engine *e, struct sweep_slot *slots, long n, int status,
		  bool all_bad_input, bool *merge_failed)
{
	const char **inputs = calloc((size_t)n + 1, sizeof(*inputs));
	size_t nr_inputs = 0;
	struct gs_error err;

	gs_error_clear(&err);
	if (!inputs)
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	for (long i = 0; i < n; i++)
		if (job_stored(&slots[i]))
			inputs[nr_inputs++] = slots[i].db;
	/* no run to store: leave db alone, so a failed --job K leaves no file behind */
	if (status == EXIT_OK && nr_inputs && e->db) {
		struct store_merge_opts mo = {.expect = 0, .mark = e->mark};
		if (store_merge_ext(e->db, inputs, nr_inputs, &mo, &e->merged, &err)) {
			status = cli_report(&err);
			*merge_failed = true;
		}
	}
	free(inputs);
	if (status == EXIT_OK && e->failed)
		status = all_bad_input ? EXIT_BAD_INPUT : EXIT_FAILURE_RT;
	for (long i = 0; e->collect && i < n; i++) {
		int st = e->collect(e->ctx, slots[i].index, slots[i].status, slots[i].out);
		if (st && status == EXIT_OK)
			status = st;
	}
	return status;
}

int sweep_engine_run(struct sweep_engine *e)
{
	char dir[PATH_MAX - 64]; /* room for "/job-<index>.db" in a slot's paths */
	int lock_fd = -1, status;
	sigset_t wait_set, old_mask;
	struct sweep_slot *slots;
	long n = e->nr_jobs;
	bool all_bad_input = true, merge_failed = false;

	e->failed = 0;
	e->merged = 0;
	if ((status = make_dir(dir, sizeof(dir), &lock_fd)))
		return status;
	slots = calloc((size_t)n + 1, sizeof(*slots));
	if (!slots) {
		close(lock_fd);
		remove_sweep_dir(dir);
		return cli_fail(EXIT_FAILURE_RT, "out of memory");
	}
	for (long i = 0; i < n; i++) {
		slots[i].index = e->first + i;
		snprintf(slots[i].db, sizeof(slots[i].db), "%s/job-%ld.db", dir, slots[i].index);
		snprintf(slots[i].log, sizeof(slots[i].log), "%s/job-%ld.log", dir, slots[i].index);
		snprintf(slots[i].out, sizeof(slots[i].out), "%s/job-%ld.out", dir, slots[i].index);
	}

	/* SIGCHLD and the signals that stop a run are taken by reap(); workers unblock them */
	sigemptyset(&wait_set);
	sigaddset(&wait_set, SIGCHLD);
	sigaddset(&wait_set, SIGINT);
	sigaddset(&wait_set, SIGTERM);
	sigaddset(&wait_set, SIGHUP);
	sigprocmask(SIG_BLOCK, &wait_set, &old_mask);
	worker_mask = &old_mask;

	status = run_jobs(e, slots, n, &wait_set, &all_bad_input);
	if (status < 0)
		return stop_all(e, slots, n, dir, lock_fd, -status, &old_mask);
	status = finish(e, slots, n, status, all_bad_input, &merge_failed);

	if (merge_failed)
		keep_job_dbs(e, slots, n, dir);
	else
		remove_sweep_dir(dir);
	close(lock_fd);
	free(slots);
	/* a stop signal during the merge: the files are gone; let it act now */
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	return status;
}

/*
 * The replay's own keys (hz, ...) every governor takes; the others, the governor takes when its
 * init marks them used, which a simulation of the platform set up without a trace shows (a bad
 * value still counts as taken: its runs fail with the governor's message).
 */
bool sweep_gov_takes(const struct platform *plat, const struct governor *gov,
		     const char *key, const char *value)
{
	struct gov_param param = {.key = key, .value = value, .used = false};
	struct sim_config cfg;
	struct gs_error err;
	struct sim *s = NULL;

	sim_config_init(&cfg);
	cfg.opts.plat = plat;
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
