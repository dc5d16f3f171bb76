/*
 * dat_priv.h - what the files of the trace.dat back end share (src/trace/dat/):
 *   dat.c          the back end: libtracecmd's records, merged by time, as events
 *   dat_check.c    the file's sizes and offsets checked before libtracecmd trusts them
 *   dat_format.c   one event format's text checked before libtraceevent parses it
 *   dat_sandbox.c  the formats parsed, and the file opened, in a forked child first
 * Only src/trace/dat/ and the tests of these checks include it.
 */
#ifndef GOVSIM_TRACE_DAT_PRIV_H
#define GOVSIM_TRACE_DAT_PRIV_H

#include <stddef.h>

#include "core/error.h"
#include "core/types.h"

/* dat_check.c: the file's sizes and offsets against its length, before libtracecmd trusts
 * them (`file` is opened, `name` named in messages). 0, or GS_ETRACE saying what is wrong. */
int dat_check(const char *file, const char *name, struct gs_error *err);

/* dat_format.c: one event format's text (`size` bytes, not NUL-terminated, of event system
 * `system`) before libtraceevent parses it: 0, or -1 with what is wrong in why. */
int dat_format_check(const char *text, size_t size, const char *system, char *why,
		     size_t why_size);
/* dat_format.c: the event name of a format (the identifier on its "name:" line, at most
 * DAT_FORMAT_NAME_MAX bytes, not NUL-terminated): its length, 0 and "" when there is none. */
#define DAT_FORMAT_NAME_MAX 64
int dat_format_name(const char *text, size_t size, const char **name);

/* dat_sandbox.c: event formats parsed by libtraceevent, then `file` (unless NULL) opened by
 * libtracecmd, in a forked child first (what the pre-checks do not know still cannot crash us).
 * dat_sandbox_add() copies a format (GS_ENOMEM); dat_sandbox_run() is 0 when the child got
 * through, -1 with why naming the format, or the open, the child died or hung in. */
struct dat_sandbox;
struct dat_sandbox *dat_sandbox_new(void);
void dat_sandbox_free(struct dat_sandbox *t);
int dat_sandbox_add(struct dat_sandbox *t, const char *system, const char *text, size_t size);
int dat_sandbox_run(const struct dat_sandbox *t, const char *file, char *why, size_t why_size);

#endif
