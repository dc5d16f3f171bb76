/* json.c - the streaming JSON writer; see json.h. */
#include "report/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json_out *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

/*
 * The length of the well-formed UTF-8 sequence at p (RFC 3629 §4: no overlong form, no
 * surrogate, nothing above U+10FFFF), 2..4; 0 when the bytes there are not one. p[0] >= 0x80.
 */
static int utf8_len(const unsigned char *p)
{
	unsigned lo = 0x80, hi = 0xbf;
	int n;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte's range rules out overlong forms, surrogates and > U+10FFFF */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static void put_u00(FILE *f, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	fputs("\\u00", f);
	fputc(hex[c >> 4], f);
	fputc(hex[c & 15], f);
}

void json_write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			int n = utf8_len(p);
			if (n) {
				fwrite(p, 1, (size_t)n, f);
				p += n - 1;
			} else {
				put_u00(f, *p); /* not UTF-8: the character of the same number */
			}
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				put_u00(f, *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_format_number(char *buf, size_t size, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, size, "null");
		return;
	}
	/* the shortest of %.15g / %.17g that reads back the same double */
	snprintf(buf, size, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, size, "%.17g", v);
	/* whatever LC_NUMERIC says, JSON's decimal point is '.' */
	for (char *p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
}

static void indent(struct json_out *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator, indentation and key before a value. */
static void json_value_start(struct json_out *j, const char *key)
{
	if (j->depth == 0) {
		if (key)
			j->misuse = true;
		return;
	}
	if (j->in_object[j->depth - 1] != (key != NULL))
		j->misuse = true;
	if (j->has_items[j->depth - 1])
		fputc(',', j->f);
	j->has_items[j->depth - 1] = true;
	indent(j);
	if (key) {
		json_write_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_value_end(struct json_out *j)
{
	if (j->depth == 0)
		fputc('\n', j->f);
}

static void json_begin(struct json_out *j, const char *key, bool object)
{
	json_value_start(j, key);
	fputc(object ? '{' : '[', j->f);
	if (j->depth == JSON_MAX_DEPTH) {
		j->misuse = true;
		return;
	}
	j->in_object[j->depth] = object;
	j->has_items[j->depth] = false;
	j->depth++;
}

static void json_end(struct json_out *j, bool object)
{
	bool had;

	if (j->depth == 0 || j->in_object[j->depth - 1] != object) {
		j->misuse = true;
		return;
	}
	had = j->has_items[j->depth - 1];
	j->depth--;
	if (had)
		indent(j);
	fputc(object ? '}' : ']', j->f);
	json_value_end(j);
}

void json_begin_object(struct json_out *j, const char *key)
{
	json_begin(j, key, true);
}

void json_end_object(struct json_out *j)
{
	json_end(j, true);
}

void json_begin_array(struct json_out *j, const char *key)
{
	json_begin(j, key, false);
}

void json_end_array(struct json_out *j)
{
	json_end(j, false);
}

void json_string(struct json_out *j, const char *key, const char *v)
{
	json_value_start(j, key);
	if (v)
		json_write_string(j->f, v);
	else
		fputs("null", j->f);
	json_value_end(j);
}

void json_number(struct json_out *j, const char *key, double v)
{
	char buf[40];

	json_format_number(buf, sizeof(buf), v);
	json_value_start(j, key);
	fputs(buf, j->f);
	json_value_end(j);
}

void json_int(struct json_out *j, const char *key, long long v)
{
	json_value_start(j, key);
	fprintf(j->f, "%lld", v);
	json_value_end(j);
}

void json_bool(struct json_out *j, const char *key, bool v)
{
	json_value_start(j, key);
	fputs(v ? "true" : "false", j->f);
	json_value_end(j);
}

void json_null(struct json_out *j, const char *key)
{
	json_value_start(j, key);
	fputs("null", j->f);
	json_value_end(j);
}
