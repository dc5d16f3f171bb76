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

void json_write_string(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
			if (*p < 0x20 || *p == 0x7f) {
				fputs("\\u00", f);
				fputc(hex[*p >> 4], f);
				fputc(hex[*p & 15], f);
			} else {
				fputc(*p, f);
			}
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
