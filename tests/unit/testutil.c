/* testutil.c - see testutil.h. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *test_path(const char *rel)
{
	static char buf[4096];
	const char *root = getenv("GOVSIM_SOURCE_DIR");
	snprintf(buf, sizeof(buf), "%s/%s", root ? root : GOVSIM_SOURCE_DIR, rel);
	return buf;
}

const char *test_tmpfile(const char *text, const char *suffix)
{
	static char paths[8][256];
	static int slot;
	char *path = paths[slot++ % 8];
	int fd;
	FILE *f;

	snprintf(path, 256, "/tmp/govsim-test-XXXXXX%s", suffix ? suffix : "");
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
