/*
 * test_json.c - the JSON output (jansson behind report/json.h): escaping, bytes that are not
 * UTF-8, numbers, null for NAN, nesting and commas, misuse.
 *
 * Expected texts are written by hand from RFC 8259 and RFC 3629 (a byte b that is not UTF-8
 * becomes U+00b: 0xc0 | b >> 6, 0x80 | b & 0x3f). Checks that a double survives the round
 * trip through its text and that a comma decimal locale cannot leak in. Does not check the
 * keys of any command's output (golden/json.sh does).
 */
#include "testutil.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"

static char *capture(void (*fn)(struct json_out *j))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;

	assert_non_null(f);
	json_out_init(&j, f);
	fn(&j);
	assert_false(j.misuse);
	fclose(f);
	return buf;
}

static void doc(struct json_out *j)
{
	json_out_begin_object(j, NULL);
	json_out_string(j, "s", "a\"b\\c\nd\te\x01/\xc3\xa9");
	json_out_number(j, "x", 0.1);
	json_out_number(j, "nan", NAN);
	json_out_number(j, "inf", INFINITY);
	json_out_int(j, "i", -42);
	json_out_bool(j, "t", true);
	json_out_null(j, "n");
	json_out_string(j, "none", NULL);
	json_out_begin_array(j, "a");
	json_out_int(j, NULL, 1);
	json_out_begin_object(j, NULL);
	json_out_end_object(j);
	json_out_begin_array(j, NULL);
	json_out_end_array(j);
	json_out_end_array(j);
	json_out_end_object(j);
}

/* A document of one value written by fn with argument arg: a malloc'd text, without the final
 * newline. */
static char *one(void (*fn)(struct json_out *j, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;

	assert_non_null(f);
	json_out_init(&j, f);
	fn(&j, arg);
	assert_false(j.misuse);
	fclose(f);
	assert_true(len > 0 && buf[len - 1] == '\n');
	buf[len - 1] = '\0';
	return buf;
}

static void put_string(struct json_out *j, const void *arg)
{
	json_out_string(j, NULL, arg);
}

static void put_number(struct json_out *j, const void *arg)
{
	json_out_number(j, NULL, *(const double *)arg);
}

/* s as a JSON string literal: a malloc'd text */
static char *literal(const char *s)
{
	return one(put_string, s);
}

static char *number(double v)
{
	return one(put_number, &v);
}

/* Bytes that are not UTF-8 become U+0080..U+00FF; well-formed sequences (RFC 3629 §4) pass. */
static void test_not_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"caf\xc3\xa9", "\"caf\xc3\xa9\""},             /* U+00E9 */
		{"\xe2\x82\xac", "\"\xe2\x82\xac\""},             /* U+20AC */
		{"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},     /* U+1F600 */
		{"\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""},     /* U+10FFFF, the last */
		{"x\xff\xfe", "\"x\xc3\xbf\xc3\xbe\""},             /* never in UTF-8 */
		{"\x80q", "\"\xc2\x80q\""},                         /* a lone continuation */
		{"\xe2\x82z", "\"\xc3\xa2\xc2\x82z\""},             /* a sequence cut short */
		{"\xe2\x82", "\"\xc3\xa2\xc2\x82\""},               /* ... by the string's end */
		{"\xc0\xaf", "\"\xc3\x80\xc2\xaf\""},               /* overlong '/' */
		{"\xe0\x80\xaf", "\"\xc3\xa0\xc2\x80\xc2\xaf\""},   /* overlong '/' */
		{"\xed\xa0\x80", "\"\xc3\xad\xc2\xa0\xc2\x80\""},   /* U+D800, a surrogate */
		{"\xf4\x90\x80\x80", "\"\xc3\xb4\xc2\x90\xc2\x80\xc2\x80\""}, /* U+110000 */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = literal(cases[i].in);
		assert_string_equal(out, cases[i].out);
		free(out);
	}
}

static void test_document(void **state)
{
	char *out;
	(void)state;

	out = capture(doc);
	assert_string_equal(out, "{\n"
				 "  \"s\": \"a\\\"b\\\\c\\nd\\te\\u0001/\xc3\xa9\",\n"
				 "  \"x\": 0.10000000000000001,\n"
				 "  \"nan\": null,\n"
				 "  \"inf\": null,\n"
				 "  \"i\": -42,\n"
				 "  \"t\": true,\n"
				 "  \"n\": null,\n"
				 "  \"none\": null,\n"
				 "  \"a\": [\n"
				 "    1,\n"
				 "    {},\n"
				 "    []\n"
				 "  ]\n"
				 "}\n");
	free(out);
}

static void test_numbers(void **state)
{
	static const double v[] = {0.0, 1.0, -2.5, 0.1, 1.0 / 3.0, 2362000.0, 1e-9, 6.02214076e23,
				   0.348994, -0.0, 1e15, 123456789012345.0, 1e20};
	static const struct {
		double v;
		const char *text;
	} texts[] = {
		{0.1, "0.10000000000000001"},    /* %.17g */
		{1.0 / 3.0, "0.33333333333333331"},
		{-2.5, "-2.5"},
		{2362000.0, "2362000"},          /* integral up to 2^53: an integer */
		{123456789012345.0, "123456789012345"},
		{1e15, "1000000000000000"},
		{9007199254740992.0, "9007199254740992"}, /* 2^53, the last */
		{1e20, "1e20"},                  /* above: a real, its exponent without '+' */
		{6.02214076e23, "6.0221407599999999e23"},
		{0.0, "0"},
	};
	char *t;
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		t = number(v[i]);
		if (strtod(t, NULL) != v[i])
			fail_msg("%.17g written as %s", v[i], t);
		free(t);
	}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		t = number(texts[i].v);
		assert_string_equal(t, texts[i].text);
		free(t);
	}
	t = number(-NAN);
	assert_string_equal(t, "null");
	free(t);
	/* a locale with a decimal comma (when installed) does not change the text */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
		t = number(2.5);
		assert_string_equal(t, "2.5");
		free(t);
		setlocale(LC_NUMERIC, "C");
	}
}

static void misuse(struct json_out *j)
{
	json_out_begin_object(j, NULL);
	json_out_int(j, NULL, 1); /* no key inside an object */
	json_out_end_object(j);
}

static void twice(struct json_out *j)
{
	json_out_begin_object(j, NULL);
	json_out_int(j, "k", 1);
	json_out_int(j, "k", 2); /* a key given twice */
	json_out_end_object(j);
}

static void test_misuse_recorded(void **state)
{
	void (*const cases[])(struct json_out *) = {misuse, twice};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct json_out j;

		json_out_init(&j, f);
		cases[i](&j);
		fclose(f);
		assert_true(j.misuse);
		assert_int_equal(len, 0); /* nothing written */
		free(buf);
	}
}

/* A document never ended writes nothing; json_out_release() frees it (the sanitizer build
 * would report a leak). */
static void test_unfinished(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;
	(void)state;

	json_out_init(&j, f);
	json_out_begin_object(&j, NULL);
	json_out_begin_array(&j, "a");
	json_out_int(&j, NULL, 1);
	json_out_release(&j);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_misuse_recorded),
		cmocka_unit_test(test_unfinished),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
