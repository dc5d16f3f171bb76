/*
 * outfile.h - an output file that appears whole or not at all.
 *
 * A report, a timeline or a generated trace is written to a temporary file beside its target
 * (".NAME.XXXXXX" in the target's folder, so the final rename stays on one filesystem) and
 * renamed over the target only once everything was written: a full disk, a write error, a
 * failed run or a signal leaves the previous file as it was and no partial one. A reader never
 * sees a half-written output.
 *
 *   struct outfile o;
 *   if (outfile_open(&o, path, err)) return ...;      // "-" writes to stdout
 *   ... fprintf(o.f, ...) ...                  // or a writer that takes a path: outfile_name()
 *   if (outfile_commit(&o, err)) return ...;           // or outfile_abort(&o) on failure
 *
 * A target that exists and is not a regular file (a device such as /dev/null or /dev/full, a
 * FIFO) is written directly: there is nothing to rename over. A symbolic link is followed: the
 * file it names is replaced and the link kept.
 *
 * The temporary names of the outputs being written are kept in a table that
 * outfile_remove_pending() walks: the program's SIGINT/SIGTERM handler calls it so an
 * interrupted command leaves no temporary file behind. SIGKILL cannot be caught: it leaves the
 * temporary file (never the target) in place.
 */
#ifndef GOVSIM_CORE_OUTFILE_H
#define GOVSIM_CORE_OUTFILE_H

#include <stdio.h>

#include "core/error.h"

struct outfile {
	FILE *f;	  /* where to write; stdout for "-" */
	const char *path; /* the target, as the caller named it (not copied) */
	char *tmp;	  /* the temporary file (malloc'd), NULL when written directly */
	char *dest; /* the file tmp is renamed to (malloc'd): path, or where its link points */
	int slot;   /* its entry in the pending table, -1 when none */
	struct outfile_sink *sink; /* f's file descriptor and the first write error on it */
};

/*
 * Create the temporary file for `path` ("-": stdout, written directly) and open it for writing
 * (mode 0666 less the umask, as fopen() would create it). 0, or GS_EIO (message naming the
 * path and the system's reason) when it cannot be created; then nothing is left to release.
 */
int outfile_open(struct outfile *o, const char *path, struct gs_error *err);

/* The file to write for a writer that opens a path itself (and writes nothing through o->f):
 * the temporary file, or the target when it is written directly. */
static inline const char *outfile_name(const struct outfile *o)
{
	return o->tmp ? o->tmp : o->path;
}

/*
 * Finish: flush, close and rename the temporary file over the target. 0, or GS_EIO when
 * anything written was lost or the rename failed ("'PATH': write error: REASON"); then the
 * temporary file is removed and the target left as it was. stdout is flushed, not closed.
 * Releases o either way.
 */
int outfile_commit(struct outfile *o, struct gs_error *err);

/* Give up: close and remove the temporary file; the target keeps its previous content.
 * Releases o; accepts an o that was never opened successfully if zero-initialised. */
void outfile_abort(struct outfile *o);

/*
 * Remove every temporary file this process has pending (a forked child removes none of its
 * parent's). Async-signal-safe (getpid(2), unlink(2)): for a signal handler that then lets
 * the signal end the process. Leaves the table as it is.
 */
void outfile_remove_pending(void);

#endif
