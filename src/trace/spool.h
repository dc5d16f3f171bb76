/*
 * spool.h - a trace that can be read more than once, whatever it comes from.
 *
 * A replay reads its trace several times (the pre-scan, the replay, the hash, the baselines,
 * validate's two passes, a sweep's jobs). A pipe, a FIFO, `<(cmd)` or `-` (stdin) can be read
 * only once: each open after the first would see what the previous ones left. trace_spool()
 * reads such an input once, into an unlinked temporary file, and hands back a path that opens
 * that copy from its start every time ("/proc/self/fd/N"; the descriptor is inherited by forked
 * children, so sweep jobs see it too). A regular file (or a path that does not exist, or a
 * directory: the reader reports those) is left as it is. A character or block device is refused
 * (GS_EINPUT): /dev/zero would fill the temporary folder. The copy is capped: an input longer
 * than GOVSIM_SPOOL_MAX_MB MiB (default SPOOL_MAX_MB_DEFAULT, 16 GiB) is refused (GS_EINPUT),
 * so an endless pipe (`yes | govsim run -`) ends instead of filling the disk.
 */
#ifndef GOVSIM_TRACE_SPOOL_H
#define GOVSIM_TRACE_SPOOL_H

#include <stddef.h>

#include "core/error.h"

#define SPOOL_MAX_MB_DEFAULT 16384u

struct trace_spool {
	char path[64]; /* the file to open: the spooled copy; "" when the input was not spooled */
	int fd;        /* the copy's descriptor, -1 when none */
};

/*
 * Spool `name` ("-" for stdin) when it cannot be re-read. 0 (sp->path "" when nothing was
 * needed), GS_EINPUT when it cannot be opened, is a device or is longer than the cap, GS_EIO when it cannot be read or the copy cannot
 * be written (e.g. the temporary folder, $TMPDIR or /tmp, is full). Release with
 * trace_spool_release().
 */
int trace_spool(const char *name, struct trace_spool *sp, struct gs_error *err);

/* The path to open for `name`: sp->path when spooled, else name. */
static inline const char *trace_spool_file(const struct trace_spool *sp, const char *name)
{
	return sp->path[0] ? sp->path : name;
}

void trace_spool_release(struct trace_spool *sp);

#endif
