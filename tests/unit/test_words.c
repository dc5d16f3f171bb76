/*
 * test_words.c - space-separated words in a fixed buffer (core/words.h), each answer written
 * out by hand: the first word has no space before it, later ones one; a formatted word; a
 * word cut at the buffer's end (the NUL kept); a buffer already full takes nothing, not even
 * the space; a buffer with room for the space alone gets the space.
 */
#include "testutil.h"

#include <string.h>

#include "core/words.h"

static void test_words(void **state)
{
	char buf[16] = "";

	(void)state;
	gs_words_add(buf, sizeof(buf), "placement=eas");
	assert_string_equal(buf, "placement=eas"); /* 13 characters */
	gs_words_add(buf, sizeof(buf), "x=%d", 5);
	assert_string_equal(buf, "placement=eas x"); /* 15 and the NUL: "=5" cut */
	gs_words_add(buf, sizeof(buf), "more");
	assert_string_equal(buf, "placement=eas x"); /* full: nothing, no space */
}

static void test_edges(void **state)
{
	char buf[5] = "abc";
	char big[32] = "";

	(void)state;
	gs_words_add(buf, sizeof(buf), "de");
	assert_string_equal(buf, "abc "); /* room for the space and the NUL only */
	gs_words_add(big, sizeof(big), "%s=%s", "governor", "schedutil");
	gs_words_add(big, sizeof(big), "%s", "baseline");
	assert_string_equal(big, "governor=schedutil baseline");
	assert_int_equal(strlen(big), 27);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
