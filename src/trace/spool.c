/* spool.c - copy a once-only input (pipe, FIFO, stdin) to an unlinked temporary file; see spool.h. */
#include "trace/spool.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most bytes spooled from one input: GOVSIM_SPOOL_MAX_MB (MiB, 1 to 2^30), or
 * SPOOL_MAX_MB_DEFAULT when it is unset or not such a number. */
static unsigned long long spool_max_bytes(void)
{
	const char *v = getenv("GOVSIM_SPOOL_MAX_MB");
	unsigned long long mb = 0;

	if (!v || !*v)
		return (unsigned long long)SPOOL_MAX_MB_DEFAULT << 20;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9' || mb > (1ull << 30))
			return (unsigned long long)SPOOL_MAX_MB_DEFAULT << 20;
		mb = mb * 10 + (unsigned long long)(*p - '0');
	}
	if (mb == 0 || mb > (1ull << 30))
		return (unsigned long long)SPOOL_MAX_MB_DEFAULT << 20;
	return mb << 20;
}

/* A device is no trace: /dev/zero or /dev/urandom would fill $TMPDIR, a disk would be read
 * whole. */
static int refuse_device(const char *name, const struct stat *sb, struct gs_error *err)
{
	if (S_ISCHR(sb->st_mode) || S_ISBLK(sb->st_mode))
		return gs_error_set(err, GS_EINPUT,
				    "'%s': is a %s device, not a trace (a file, a pipe or a FIFO is "
				    "read)",
				    name, S_ISCHR(sb->st_mode) ? "character" : "block");
	return 0;
}

/* An unlinked read-write file in $TMPDIR (or /tmp): gone when the process ends. */
static int tmp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	if ((size_t)snprintf(tmpl, sizeof(tmpl), "%s/govsim-spool-XXXXXX", dir) >= sizeof(tmpl))
		return -1;
	fd = mkstemp(tmpl);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int trace_spool(const char *name, struct trace_spool *sp, struct gs_error *err)
{
	bool is_stdin = strcmp(name, "-") == 0;
	unsigned long long max = spool_max_bytes(), total = 0;
	char *buf = NULL;
	struct stat sb;
	int in = -1, ret = 0;

	sp->path[0] = '\0';
	sp->fd = -1;
	if (!is_stdin) {
		/* regular files, directories and missing paths go to the reader as they are */
		if (stat(name, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode))
			return 0;
		if ((ret = refuse_device(name, &sb, err)) < 0)
			return ret;
		in = open(name, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			return gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", name,
					    strerror(errno));
	} else {
		in = STDIN_FILENO;
		if (fstat(in, &sb) == 0 && S_ISREG(sb.st_mode) && lseek(in, 0, SEEK_CUR) == 0) {
			/* `< file`: re-readable through /proc/self/fd/0 */
			snprintf(sp->path, sizeof(sp->path), "/proc/self/fd/%d", in);
			return 0;
		}
		if (fstat(in, &sb) == 0 && (ret = refuse_device(name, &sb, err)) < 0)
			return ret;
	}
	sp->fd = tmp_file();
	buf = malloc(1u << 16);
	if (sp->fd < 0 || !buf) {
		ret = gs_error_set(err, GS_EIO, "'%s': cannot create a temporary copy: %s", name,
				   strerror(errno));
		goto out;
	}
	for (;;) {
		ssize_t got = read(in, buf, 1u << 16);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = gs_error_set(err, GS_EIO, "'%s': read error: %s", name, strerror(errno));
			goto out;
		}
		if (got == 0)
			break;
		total += (unsigned long long)got;
		if (total > max) {
			ret = gs_error_set(err, GS_EINPUT,
					   "'%s': longer than %llu MiB, the most read from a pipe "
					   "(GOVSIM_SPOOL_MAX_MB sets it)",
					   name, max >> 20);
			goto out;
		}
		if (write_all(sp->fd, buf, (size_t)got) < 0) {
			ret = gs_error_set(err, GS_EIO, "'%s': cannot write its temporary copy: %s",
					   name, strerror(errno));
			goto out;
		}
	}
	snprintf(sp->path, sizeof(sp->path), "/proc/self/fd/%d", sp->fd);
out:
	free(buf);
	if (in >= 0 && !is_stdin)
		close(in);
	if (ret)
		trace_spool_release(sp);
	return ret;
}

void trace_spool_release(struct trace_spool *sp)
{
	if (sp->fd >= 0)
		close(sp->fd);
	sp->fd = -1;
	sp->path[0] = '\0';
}
