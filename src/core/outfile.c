/* outfile.c - outputs written to a temporary name and renamed into place (outfile.h). */
#define _GNU_SOURCE /* fopencookie */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files being written: what outfile_remove_pending() removes. A slot's path is
 * filled before `used` is set and `used` cleared before the slot is reused, so a handler that
 * interrupts either step reads a whole name or skips the slot. */
#define OUTFILE_MAX_PENDING 16

static struct {
	volatile sig_atomic_t used;
	pid_t owner; /* a forked child (a trial parse) has a copy of the table: not its files */
	char path[PATH_MAX];
} pending[OUTFILE_MAX_PENDING];

void outfile_remove_pending(void)
{
	pid_t self = getpid();

	for (int i = 0; i < OUTFILE_MAX_PENDING; i++)
		if (pending[i].used && pending[i].owner == self)
			unlink(pending[i].path);
}

static int pending_add(const char *tmp)
{
	for (int i = 0; i < OUTFILE_MAX_PENDING; i++)
		if (!pending[i].used) {
			pending[i].owner = getpid();
			memcpy(pending[i].path, tmp, strlen(tmp) + 1);
			pending[i].used = 1;
			return i;
		}
	return -1;
}

static void pending_drop(int slot)
{
	if (slot >= 0)
		pending[slot].used = 0;
}

/* The file a new output replaces: the target itself, or what a symbolic link to a regular file
 * names (the link is kept). NULL with *direct set when the target exists and is not a regular
 * file (a device, a FIFO: written in place), NULL with errno on failure; malloc'd otherwise. */
static char *resolve_target(const char *path, int *direct)
{
	struct stat st;

	*direct = 0;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? strdup(path) : NULL;
	if (S_ISLNK(st.st_mode)) {
		if (stat(path, &st) != 0) {
			/* a dangling link: fopen() creates the file it names */
			*direct = 1;
			return NULL;
		}
		if (S_ISREG(st.st_mode))
			return realpath(path, NULL);
	}
	if (!S_ISREG(st.st_mode)) {
		*direct = 1;
		return NULL;
	}
	return strdup(path);
}

/* "<dir>/.<name>.XXXXXX" beside dest: malloc'd, or NULL with errno. */
static char *temp_name(const char *dest)
{
	const char *slash = strrchr(dest, '/');
	size_t dir_len = slash ? (size_t)(slash - dest) + 1 : 0;
	const char *name = dest + dir_len;
	size_t size = dir_len + 1 + strlen(name) + 8;
	char *tmp;

	if (size > PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	tmp = malloc(size);
	if (!tmp)
		return NULL;
	memcpy(tmp, dest, dir_len);
	snprintf(tmp + dir_len, size - dir_len, ".%s.XXXXXX", name);
	return tmp;
}

/* The stream under an outfile: writes go to fd, and the first failure's errno is kept, so that
 * outfile_commit() names it (a FILE keeps only an error flag: by the final flush errno may
 * say nothing, or something else). */
struct outfile_sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct outfile_sink *k = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(k->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!k->err)
				k->err = w < 0 ? errno : EIO;
			errno = k->err;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

static int sink_close(void *cookie)
{
	struct outfile_sink *k = cookie;
	int ret = close(k->fd);

	free(k);
	return ret;
}

/* A write stream on fd for o (fd is closed on failure). */
static FILE *sink_open(struct outfile *o, int fd)
{
	static const cookie_io_functions_t io = {.write = sink_write, .close = sink_close};
	FILE *f;

	o->sink = calloc(1, sizeof(*o->sink));
	if (!o->sink) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	o->sink->fd = fd;
	f = fopencookie(o->sink, "w", io);
	if (!f) {
		free(o->sink);
		o->sink = NULL;
		close(fd);
	}
	return f;
}

/* mkstemp() the name, record it as pending and open it; signals that end the program are held
 * meanwhile, so a temporary file exists only once the table names it. */
static int create_temp(struct outfile *o, struct gs_error *err)
{
	sigset_t stop, old;
	mode_t mask;
	int fd, saved;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	fd = mkstemp(o->tmp);
	saved = errno;
	if (fd >= 0) {
		o->slot = pending_add(o->tmp);
		if (o->slot < 0) {
			unlink(o->tmp);
			close(fd);
			fd = -1;
			saved = EMFILE;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0)
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", o->path,
				    strerror(saved));
	/* mkstemp() creates 0600; the output gets the mode fopen() would give it */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		saved = errno;
		close(fd);
		fd = -1;
	}
	if (fd < 0 || !(o->f = sink_open(o, fd))) {
		saved = fd < 0 ? saved : errno;
		unlink(o->tmp);
		pending_drop(o->slot);
		return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", o->path,
				    strerror(saved));
	}
	return 0;
}

static void release(struct outfile *o)
{
	free(o->dest);
	o->dest = NULL;
	free(o->tmp);
	o->tmp = NULL;
	o->f = NULL;
	o->sink = NULL;
	o->slot = -1;
}

int outfile_open(struct outfile *o, const char *path, struct gs_error *err)
{
	char *dest;
	int direct, ret;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->slot = -1;
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	errno = 0;
	dest = resolve_target(path, &direct);
	if (direct) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

		o->f = fd >= 0 ? sink_open(o, fd) : NULL;
		if (!o->f)
			return gs_error_set(err, GS_EIO, "'%s': cannot create: %s", path,
					    strerror(errno));
		return 0;
	}
	o->dest = dest;
	if (!dest || !(o->tmp = temp_name(dest))) {
		ret = gs_error_set(err, GS_EIO, "'%s': cannot create: %s", path,
				   strerror(errno ? errno : ENOMEM));
		release(o);
		return ret;
	}
	ret = create_temp(o, err);
	if (ret)
		release(o);
	return ret;
}

int outfile_commit(struct outfile *o, struct gs_error *err)
{
	int bad, saved;

	if (!o->f)
		return gs_error_set(err, GS_EIO, "'%s': write error: not open", o->path);
	errno = 0;
	bad = fflush(o->f) != 0 || ferror(o->f);
	saved = o->sink && o->sink->err ? o->sink->err : errno;
	if (o->f != stdout && fclose(o->f) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	if (!bad && o->tmp && rename(o->tmp, o->dest) != 0) {
		bad = 1;
		saved = errno;
	}
	if (bad && o->tmp)
		unlink(o->tmp);
	pending_drop(o->slot);
	release(o);
	if (bad)
		return gs_error_set(err, GS_EIO, "'%s': write error: %s", o->path,
				    strerror(saved ? saved : EIO));
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	else if (o->f)
		fflush(o->f);
	if (o->tmp)
		unlink(o->tmp);
	pending_drop(o->slot);
	release(o);
}
