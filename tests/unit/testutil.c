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
