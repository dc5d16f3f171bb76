/*
 * error.h - the one list of error codes, and the handle that carries their detail.
 *
 * Library functions return 0 on success or one of the negative GS_E* codes below. A function
 * that can fail for a reason a user must read also takes a `struct gs_error *` and fills it with
 * the whole message, already in the project's style (git's): lower case, problem first, subject
 * quoted, no final period, e.g. "'x.txt':42: sched_switch without next_pid". Only src/cli/ turns
 * a code into an exit status (gs_exit_status()) and prints the message.
 */
#ifndef GOVSIM_CORE_ERROR_H
#define GOVSIM_CORE_ERROR_H

#include <stdarg.h>

/* X(name, value, exit status, description) */
#define GS_ERRORS(X)                                                         \
	X(OK, 0, 0, "success")                                               \
	X(NOMEM, -1, 1, "out of memory")                                     \
	X(IO, -2, 1, "input/output error")                                   \
	X(ARG, -3, 2, "bad argument")                                        \
	X(TRACE, -4, 3, "bad trace")                                         \
	X(MODEL, -5, 3, "bad platform model")                                \
	X(POLICY, -6, 3, "bad clamp policy")                                 \
	X(INPUT, -7, 3, "bad input")                                         \
	X(SQL, -8, 1, "database error")                                      \
	X(SCHEMA, -9, 1, "incompatible results database")                    \
	X(UNSUPPORTED, -10, 1, "unsupported")                                \
	X(NOTFOUND, -11, 1, "not found")                                     \
	X(REGRESSION, -12, 1, "regression found")                            \
	X(INTERNAL, -13, 1, "internal error")

enum gs_errno {
#define GS_ERRNO_ENUM(name, value, status, desc) GS_E##name = value,
	GS_ERRORS(GS_ERRNO_ENUM)
#undef GS_ERRNO_ENUM
};

/* A static description of a code ("bad trace"); never NULL. */
const char *gs_strerror(int code);

/* The process exit status for a code: 0 ok, 1 runtime failure, 2 command line, 3 bad input. */
int gs_exit_status(int code);

#define GS_ERROR_MSG_MAX 1024

/* Caller-owned; zero-initialise (or gs_error_clear()) before use. */
struct gs_error {
	int code;                   /* a GS_E* code, 0 while nothing failed */
	char msg[GS_ERROR_MSG_MAX]; /* the full message, without "govsim: " */
};

void gs_error_clear(struct gs_error *err);

/*
 * Record a failure: sets err->code and formats err->msg. Returns `code`, so a caller can write
 * `return gs_error_set(err, GS_ETRACE, "'%s':%ld: ...", ...)`. err may be NULL.
 */
int gs_error_set(struct gs_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int gs_error_vset(struct gs_error *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
