/*
 * json.h - a small streaming JSON writer for --json outputs: one value written at a time,
 * commas and indentation handled here, strings escaped (RFC 8259: '"', '\\', control
 * characters as \uXXXX; well-formed UTF-8 passes through; a byte that is not part of it (a
 * comm is bytes, not text) is written as the character of the same number, \u0080..\u00ff, so
 * the output is always valid UTF-8 JSON), numbers written the same
 * in every locale ('.' as the decimal point) with enough digits to read back the same double,
 * and NAN or infinities written as null (JSON has no such numbers).
 *
 *   struct json_out j;
 *   json_init(&j, stdout);
 *   json_begin_object(&j, NULL);
 *   json_string(&j, "trace", r->trace);
 *   json_begin_array(&j, "policies");
 *   ...
 *   json_end_array(&j);
 *   json_end_object(&j);     // the outermost end writes a final newline
 *
 * Inside an object every call takes the member's key; inside an array (and for the outermost
 * value) key is NULL. Misuse (a key where none belongs, nesting deeper than JSON_MAX_DEPTH) is
 * a bug in the caller: it is recorded in j->misuse and the output is then not valid JSON.
 * Caller-owned struct; nothing to release. Writes only to the FILE it was given.
 */
#ifndef GOVSIM_REPORT_JSON_H
#define GOVSIM_REPORT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_out {
	FILE *f;
	int depth;                       /* open objects and arrays */
	bool in_object[JSON_MAX_DEPTH];  /* what each level is */
	bool has_items[JSON_MAX_DEPTH];  /* a comma is needed before the next value */
	bool misuse;
};

void json_init(struct json_out *j, FILE *f);

void json_begin_object(struct json_out *j, const char *key);
void json_end_object(struct json_out *j);
void json_begin_array(struct json_out *j, const char *key);
void json_end_array(struct json_out *j);

/* A string; v NULL writes null. */
void json_string(struct json_out *j, const char *key, const char *v);
/* A number, shortest "%.17g"-exact form ("%.15g" when that reads back the same); NAN and
 * infinities write null. */
void json_number(struct json_out *j, const char *key, double v);
void json_int(struct json_out *j, const char *key, long long v);
void json_bool(struct json_out *j, const char *key, bool v);
void json_null(struct json_out *j, const char *key);

/* Write s as a JSON string literal (with its quotes) to f. */
void json_write_string(FILE *f, const char *s);

/* Format v as a JSON number into buf (at least 32 bytes); "null" for NAN and infinities. */
void json_format_number(char *buf, size_t size, double v);

#endif
