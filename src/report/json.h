/*
 * json.h - --json outputs, built with jansson: one value added at a time, the document written
 * by jansson when its outermost value ends (two-space indentation, "key": value, members in the
 * order they were added, then a final newline). Strings are escaped by jansson (RFC 8259); a
 * byte that is not part of well-formed UTF-8 (a comm is bytes, not text) becomes the character
 * of the same number, U+0080..U+00FF, so the output is always valid UTF-8 JSON. Numbers are
 * written the same in every locale with enough digits to read back the same double: integral
 * values up to 2^53 as integers, others with 17 significant digits (jansson's "%.17g", an
 * exponent without '+'); NAN and infinities as null (JSON has no such numbers).
 *
 *   struct json_out j;
 *   json_out_init(&j, stdout);
 *   json_out_begin_object(&j, NULL);
 *   json_out_string(&j, "trace", r->trace);
 *   json_out_begin_array(&j, "policies");
 *   ...
 *   json_out_end_array(&j);
 *   json_out_end_object(&j);     // the outermost end writes the document and a final newline
 *
 * Inside an object every call takes the member's key; inside an array (and for the outermost
 * value) key is NULL. Misuse (a key where none belongs, a key given twice in one object,
 * nesting deeper than JSON_MAX_DEPTH) is a bug in the caller: it is recorded in j->misuse. So
 * is running out of memory, and then nothing is written. Caller-owned struct; a document left
 * open is freed by json_out_release(). Writes only to the FILE it was given.
 */
#ifndef GOVSIM_REPORT_JSON_H
#define GOVSIM_REPORT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_t;

struct json_out {
	FILE *f;
	int depth;                           /* open objects and arrays */
	struct json_t *open[JSON_MAX_DEPTH]; /* them; open[0] the document (owned) */
	bool misuse;
};

void json_out_init(struct json_out *j, FILE *f);
/* Free a document whose outermost value was not ended (nothing is written). */
void json_out_release(struct json_out *j);

void json_out_begin_object(struct json_out *j, const char *key);
void json_out_end_object(struct json_out *j);
void json_out_begin_array(struct json_out *j, const char *key);
void json_out_end_array(struct json_out *j);

/* A string; v NULL writes null. */
void json_out_string(struct json_out *j, const char *key, const char *v);
/* A number (see above); NAN and infinities write null. */
void json_out_number(struct json_out *j, const char *key, double v);
void json_out_int(struct json_out *j, const char *key, long long v);
void json_out_bool(struct json_out *j, const char *key, bool v);
void json_out_null(struct json_out *j, const char *key);

#endif
