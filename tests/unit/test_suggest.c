/*
 * test_suggest.c - "did you mean": Levenshtein distances worked by hand, and which names are
 * suggested for the usual typos (a swapped pair, a missing or extra letter, an abbreviation)
 * and which are too far to suggest anything. Does not check the CLI messages (golden).
 */
#include "testutil.h"

#include <stddef.h>

#include "core/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(gs_levenshtein("", ""), 0);
	assert_int_equal(gs_levenshtein("abc", ""), 3);
	assert_int_equal(gs_levenshtein("kitten", "sitting"), 3); /* k->s, e->i, +g */
	assert_int_equal(gs_levenshtein("platfrom", "platform"), 2); /* a swap is 2 edits */
	assert_int_equal(gs_levenshtein("hikey96", "hikey960"), 1);
	assert_int_equal(gs_levenshtein("flaw", "lawn"), 2);
}

static void test_suggest(void **state)
{
	static const char *const govs[] = {"schedutil", "performance", "powersave", "userspace",
					   "ondemand", "conservative", NULL};
	static const char *const opts[] = {"platform", "governor", "policy", "set", NULL};
	(void)state;
	assert_string_equal(gs_suggest("schedutl", govs), "schedutil");
	assert_string_equal(gs_suggest("powersafe", govs), "powersave");
	assert_string_equal(gs_suggest("perf", govs), "performance"); /* an abbreviation */
	assert_string_equal(gs_suggest("platfrom", opts), "platform");
	assert_null(gs_suggest("xyz", govs));
	assert_null(gs_suggest("sched", opts));
	assert_null(gs_suggest("set", opts)); /* the word itself: nothing to suggest */
	assert_null(gs_suggest("", opts));
}

/* Two adjacent characters swapped count as one edit, so a 3-letter command is still found;
 * two swaps, or a swap of equal characters (no change), are not one. The hint names it. */
static void test_suggest_swap(void **state)
{
	static const char *const cmds[] = {"run", "validate", "trace", "gen", "tune", NULL};
	char hint[64];
	(void)state;
	assert_string_equal(gs_suggest("rnu", cmds), "run");
	assert_string_equal(gs_suggest("urn", cmds), "run");
	assert_string_equal(gs_suggest("egn", cmds), "gen");
	assert_null(gs_suggest("nru", cmds)); /* two swaps away */
	assert_null(gs_suggest("xyz", cmds));
	assert_string_equal(gs_suggest_hint(hint, sizeof(hint), "rnu", cmds, NULL),
			    "; did you mean 'run'?");
	assert_string_equal(gs_suggest_hint(hint, sizeof(hint), "uclamp_mni",
					    (const char *const[]){"uclamp_min", "comm", NULL}, "="),
			    "; did you mean 'uclamp_min='?");
	assert_string_equal(gs_suggest_hint(hint, sizeof(hint), "xyz", cmds, NULL), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_suggest_swap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
