/* json.c - --json outputs through jansson; see json.h. */
#include "report/json.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void json_out_init(struct json_out *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

void json_out_release(struct json_out *j)
{
	if (j->depth > 0)
		json_decref(j->open[0]);
	j->depth = 0;
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

/* s as a jansson string: well-formed UTF-8 as it is, any other byte b >= 0x80 as the
 * character U+00b (two bytes of UTF-8). NULL when out of memory. */
static json_t *utf8_string(const char *s)
{
	size_t len = strlen(s), n = 0;
	const unsigned char *p;
	unsigned char *buf;
	json_t *v;

	for (p = (const unsigned char *)s; *p; p++) {
		int k = *p >= 0x80 ? utf8_len(p) : 1;
		if (!k)
			break;
		p += k - 1;
	}
	if (!*p)
		return json_stringn(s, len);
	if (!(buf = malloc(2 * len + 1)))
		return NULL;
	for (p = (const unsigned char *)s; *p; p++) {
		int k = *p >= 0x80 ? utf8_len(p) : 1;
		if (k) {
			memcpy(buf + n, p, (size_t)k);
			n += (size_t)k;
			p += k - 1;
		} else {
			buf[n++] = (unsigned char)(0xc0 | (*p >> 6)); /* U+0080..U+00FF */
			buf[n++] = (unsigned char)(0x80 | (*p & 0x3f));
		}
	}
	v = json_stringn((const char *)buf, n);
	free(buf);
	return v;
}

/* The document written: jansson's layout, then a newline. */
static void write_document(struct json_out *j, json_t *doc)
{
	if (!j->misuse &&
	    json_dumpf(doc, j->f, JSON_INDENT(2) | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17)) == 0)
		fputc('\n', j->f);
}

/* Value v (a reference the writer takes) as the next member (key) or element, or as the
 * document; a container stays open for the values that follow. */
static void add_value(struct json_out *j, const char *key, json_t *v, bool container)
{
	json_t *parent;

	if (!v) {
		j->misuse = true; /* out of memory */
		return;
	}
	if (j->depth == 0) {
		if (key)
			j->misuse = true;
		if (container) {
			j->open[j->depth++] = v;
			return;
		}
		write_document(j, v);
		json_decref(v);
		return;
	}
	parent = j->open[j->depth - 1];
	if (json_is_object(parent) != (key != NULL) ||
	    (key && json_object_get(parent, key)) || (container && j->depth == JSON_MAX_DEPTH)) {
		j->misuse = true;
		json_decref(v);
		return;
	}
	if ((key ? json_object_set(parent, key, v) : json_array_append(parent, v)) != 0)
		j->misuse = true;
	if (container && !j->misuse)
		j->open[j->depth++] = v; /* borrowed: the parent holds it */
	json_decref(v);
}

static void close_container(struct json_out *j, bool object)
{
	if (j->depth == 0 || json_is_object(j->open[j->depth - 1]) != object) {
		j->misuse = true;
		return;
	}
	if (--j->depth == 0) {
		write_document(j, j->open[0]);
		json_decref(j->open[0]);
	}
}

void json_out_begin_object(struct json_out *j, const char *key)
{
	add_value(j, key, json_object(), true);
}

void json_out_end_object(struct json_out *j)
{
	close_container(j, true);
}

void json_out_begin_array(struct json_out *j, const char *key)
{
	add_value(j, key, json_array(), true);
}

void json_out_end_array(struct json_out *j)
{
	close_container(j, false);
}

void json_out_string(struct json_out *j, const char *key, const char *v)
{
	add_value(j, key, v ? utf8_string(v) : json_null(), false);
}

/* Integral values as integers (jansson would add ".0") while every integer up to them is a
 * double (2^53); the others are reals. */
void json_out_number(struct json_out *j, const char *key, double v)
{
	if (!isfinite(v))
		add_value(j, key, json_null(), false);
	else if (v == floor(v) && fabs(v) <= 9007199254740992.0 && !(v == 0 && signbit(v)))
		add_value(j, key, json_integer((json_int_t)v), false);
	else
		add_value(j, key, json_real(v), false);
}

void json_out_int(struct json_out *j, const char *key, long long v)
{
	add_value(j, key, json_integer((json_int_t)v), false);
}

void json_out_bool(struct json_out *j, const char *key, bool v)
{
	add_value(j, key, json_boolean(v), false);
}

void json_out_null(struct json_out *j, const char *key)
{
	add_value(j, key, json_null(), false);
}
