/*
 * testutil.h - helpers shared by the unit tests (cmocka).
 *
 * cmocka needs <stdarg.h>, <stddef.h>, <stdint.h> and <setjmp.h> before <cmocka.h>; include
 * this header instead of <cmocka.h> directly.
 */
#ifndef GOVSIM_TESTUTIL_H
#define GOVSIM_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/event.h"

/* Path of a file in the source tree, e.g. test_path("traces/sample.txt"); static buffer. */
const char *test_path(const char *rel);

/* This test program's scratch folder: made on first use under $TMPDIR (else /tmp) with a
 * unique name, and removed with everything in it when the program exits. */
const char *test_tmpdir(void);

/* A path in test_tmpdir(): test_tmppath("gen.txt") is "<tmpdir>/gen.txt" (static buffer per
 * call slot 0..7); the file is not created. */
const char *test_tmppath(const char *name);

/* Write `text` to a new file in test_tmpdir() and return its path (static buffer per call slot
 * 0..7). The suffix (".txt", ".sql") is appended so format detection by name can be exercised. */
const char *test_tmpfile(const char *text, const char *suffix);

/* A growing text buffer for traces built in a test: tb_printf() appends (buf stays
 * NUL-terminated while each call fits in 512 bytes); the caller frees buf. */
struct tb {
	char *buf;
	size_t len, cap;
};
void tb_printf(struct tb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Two events carry the same common fields and the same values in every field of the union
 * member their type uses (event.h; a member's unused bytes are unspecified). */
void assert_event_equal(const struct event *a, const struct event *b);

#endif
