/* testutil.c - see testutil.h. */
/* nftw() */
#define _GNU_SOURCE
#include "testutil.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[4096];
static pid_t tmpdir_owner;

const char *test_path(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("GOVSIM_SOURCE_DIR");
	snprintf(buf, sizeof(buf), "%s/%s", root ? root : GOVSIM_SOURCE_DIR, rel);
	return buf;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tmpdir(void)
{
	/* a forked child that exits normally leaves the folder to its parent */
	if (tmpdir[0] && getpid() == tmpdir_owner)
		nftw(tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *test_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmpdir[0])
		return tmpdir;
	snprintf(tmpdir, sizeof(tmpdir), "%s/govsim-unit-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		tmpdir[0] = '\0';
		fail_msg("mkdtemp failed");
	}
	tmpdir_owner = getpid();
	atexit(remove_tmpdir);
	return tmpdir;
}

const char *test_tmppath(const char *name)
{
	static char paths[8][4096];
	static int slot;
	char *path = paths[slot++ % 8];

	snprintf(path, sizeof(paths[0]), "%s/%s", test_tmpdir(), name);
	return path;
}

const char *test_tmpfile(const char *text, const char *suffix)
{
	static char paths[8][4096];
	static int slot;
	char *path = paths[slot++ % 8];
	int fd;
	FILE *f;

	snprintf(path, sizeof(paths[0]), "%s/govsim-test-XXXXXX%s", test_tmpdir(),
		 suffix ? suffix : "");
	fd = mkstemps(path, suffix ? (int)strlen(suffix) : 0);
	if (fd < 0)
		fail_msg("mkstemps failed");
	f = fdopen(fd, "w");
	if (!f)
		fail_msg("fdopen failed");
	fputs(text, f);
	fclose(f);
	return path;
}

void tb_printf(struct tb *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->cap - b->len < 512) {
		b->cap = b->cap ? b->cap * 2 : 1 << 16;
		b->buf = realloc(b->buf, b->cap);
		assert_non_null(b->buf);
	}
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void assert_event_equal(const struct event *a, const struct event *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->ts_ns, b->ts_ns);
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->pid, b->pid);
	switch (a->type) {
	case EV_SWITCH:
		assert_string_equal(a->sw.prev_comm, b->sw.prev_comm);
		assert_string_equal(a->sw.next_comm, b->sw.next_comm);
		assert_int_equal(a->sw.prev_pid, b->sw.prev_pid);
		assert_int_equal(a->sw.next_pid, b->sw.next_pid);
		assert_int_equal(a->sw.prev_prio, b->sw.prev_prio);
		assert_int_equal(a->sw.next_prio, b->sw.next_prio);
		assert_int_equal(a->sw.prev_state, b->sw.prev_state);
		break;
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
	case EV_WAKING:
		assert_string_equal(a->wake.comm, b->wake.comm);
		assert_int_equal(a->wake.pid, b->wake.pid);
		assert_int_equal(a->wake.prio, b->wake.prio);
		assert_int_equal(a->wake.target_cpu, b->wake.target_cpu);
		assert_int_equal(a->wake.irq, b->wake.irq);
		break;
	case EV_MIGRATE:
		assert_string_equal(a->migrate.comm, b->migrate.comm);
		assert_int_equal(a->migrate.pid, b->migrate.pid);
		assert_int_equal(a->migrate.prio, b->migrate.prio);
		assert_int_equal(a->migrate.orig_cpu, b->migrate.orig_cpu);
		assert_int_equal(a->migrate.dest_cpu, b->migrate.dest_cpu);
		break;
	case EV_CPU_FREQUENCY:
	case EV_CPU_IDLE:
	case EV_FREQ_MARKER:
		assert_int_equal(a->power.state, b->power.state);
		assert_int_equal(a->power.cpu_id, b->power.cpu_id);
		break;
	case EV_IOWAIT_BOOST:
		assert_int_equal(a->iowait.boost, b->iowait.boost);
		break;
	case EV_HRTIMER_EXPIRE:
		assert_int_equal(a->timer.sched_tick, b->timer.sched_tick);
		break;
	case EV_SOFTIRQ_ENTRY:
		assert_int_equal(a->softirq.vec, b->softirq.vec);
		break;
	case EV_BLOCKED_UPDATE:
		assert_int_equal(a->blocked.cpu, b->blocked.cpu);
		break;
	case EV_GOV_RAW_FREQ:
		assert_int_equal(a->raw.khz, b->raw.khz);
		break;
	case EV_GOV_HOOK:
		assert_int_equal(a->hook.time, b->hook.time);
		assert_int_equal(a->hook.irq, b->hook.irq);
		break;
	case EV_GOV_IDLE_CALLS:
		assert_int_equal(a->idle_calls.calls, b->idle_calls.calls);
		break;
	case EV_PROCESS_EXIT:
		assert_string_equal(a->proc.comm, b->proc.comm);
		assert_int_equal(a->proc.pid, b->proc.pid);
		break;
	default:
		assert_int_equal(a->util.cpu, b->util.cpu);
		assert_int_equal(a->util.pid, b->util.pid);
		assert_string_equal(a->util.comm, b->util.comm);
		assert_int_equal(a->util.path, b->util.path);
		assert_int_equal(a->util.load, b->util.load);
		assert_int_equal(a->util.runnable, b->util.runnable);
		assert_int_equal(a->util.util, b->util.util);
		assert_int_equal(a->util.update_time, b->util.update_time);
		assert_int_equal(a->util.util_est_enqueued, b->util.util_est_enqueued);
		assert_int_equal(a->util.util_est_ewma, b->util.util_est_ewma);
		assert_int_equal(a->util.util_rt, b->util.util_rt);
		assert_int_equal(a->util.util_dl, b->util.util_dl);
		assert_int_equal(a->util.uclamp_min, b->util.uclamp_min);
		assert_int_equal(a->util.uclamp_max, b->util.uclamp_max);
		assert_int_equal(a->util.freq_khz, b->util.freq_khz);
		assert_int_equal(a->util.idle_state, b->util.idle_state);
		break;
	}
}
