/*
 * test_json.c - the JSON writer: escaping, numbers, null for NAN, nesting and commas.
 *
 * Expected texts are written by hand from RFC 8259. Checks that a double survives the round
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
	json_init(&j, f);
	fn(&j);
	assert_false(j.misuse);
	fclose(f);
	return buf;
}

static void doc(struct json_out *j)
{
	json_begin_object(j, NULL);
	json_string(j, "s", "a\"b\\c\nd\te\x01/\xc3\xa9");
	json_number(j, "x", 0.1);
	json_number(j, "nan", NAN);
	json_number(j, "inf", INFINITY);
	json_int(j, "i", -42);
	json_bool(j, "t", true);
	json_null(j, "n");
	json_string(j, "none", NULL);
	json_begin_array(j, "a");
	json_int(j, NULL, 1);
	json_begin_object(j, NULL);
	json_end_object(j);
	json_begin_array(j, NULL);
	json_end_array(j);
	json_end_array(j);
	json_end_object(j);
}

/* s through json_write_string(): a malloc'd text */
static char *literal(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_write_string(f, s);
	fclose(f);
	return buf;
}

/* Bytes that are not UTF-8 become \u0080..\u00ff; well-formed sequences (RFC 3629 §4) pass. */
static void test_not_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"caf\xc3\xa9", "\"caf\xc3\xa9\""},             /* U+00E9 */
		{"\xe2\x82\xac", "\"\xe2\x82\xac\""},             /* U+20AC */
		{"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},     /* U+1F600 */
		{"\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\""},     /* U+10FFFF, the last */
		{"x\xff\xfe", "\"x\\u00ff\\u00fe\""},            /* never in UTF-8 */
		{"\x80q", "\"\\u0080q\""},                      /* a lone continuation */
		{"\xe2\x82z", "\"\\u00e2\\u0082z\""},            /* a sequence cut short */
		{"\xe2\x82", "\"\\u00e2\\u0082\""},              /* ... by the string's end */
		{"\xc0\xaf", "\"\\u00c0\\u00af\""},              /* overlong '/' */
		{"\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\""},     /* overlong '/' */
		{"\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\""},     /* U+D800, a surrogate */
		{"\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\""}, /* U+110000 */
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
				 "  \"x\": 0.1,\n"
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
				   0.348994};
	char buf[40];
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		json_format_number(buf, sizeof(buf), v[i]);
		assert_true(strtod(buf, NULL) == v[i]);
	}
	json_format_number(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	json_format_number(buf, sizeof(buf), 1.0 / 3.0);
	assert_string_equal(buf, "0.33333333333333331");
	json_format_number(buf, sizeof(buf), -NAN);
	assert_string_equal(buf, "null");
	/* a locale with a decimal comma (when installed) does not change the text */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
		json_format_number(buf, sizeof(buf), 2.5);
		assert_string_equal(buf, "2.5");
		setlocale(LC_NUMERIC, "C");
	}
}

static void misuse(struct json_out *j)
{
	json_begin_object(j, NULL);
	json_int(j, NULL, 1); /* no key inside an object */
	json_end_object(j);
}

static void test_misuse_recorded(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;
	(void)state;

	json_init(&j, f);
	misuse(&j);
	fclose(f);
	assert_true(j.misuse);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_misuse_recorded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
