/*
 * test_text_scan.c - the text reader's scanning helpers (src/trace/text/text_priv.h) against
 * plain byte loops written here: each helper has an SSE2 step (x86-64), a word step and a byte
 * loop, and which one runs depends on how many bytes are left, so every helper is asked at every
 * start and end of random buffers drawn from the bytes the helpers look for.
 *
 * Checks: find2() (token and event-name ends), skip_spaces(), any_bracket_or_newline24(),
 * pid_before() (the word read against a loop over the digits before q), nondigit_bytes() and
 * nondigit_16() and match_16() against isdigit() and == per byte, top_digits_value() against
 * the digits' sum, top_digits_value2() against it for the word before and this one.
 * Does not check: the parsers built on them (test_reader.c: the fast path against the generic
 * path, the kernel's layout against the line path).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "trace/text/text_priv.h"

#define BUF 80

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rng_state >> 33);
}

/* Bytes the helpers stop at or step over, and a few they must not mistake for them. */
static void fill(char *b, size_t n)
{
	/* sizeof counts the closing NUL: a byte the helpers must step over too */
	static const char pick[] = "   \n[:-059/.a\x80\xff\xba\t";
	unsigned mode = rnd() % 3;

	for (size_t i = 0; i < n; i++) {
		/* mode 1: long runs of spaces; mode 2: mostly digits */
		unsigned k = rnd();
		if (mode == 1 && k % 4)
			b[i] = ' ';
		else if (mode == 2 && k % 5)
			b[i] = (char)('0' + k / 5 % 10);
		else
			b[i] = pick[k / 7 % sizeof(pick)];
	}
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

static void test_find2_and_skip_spaces(void **state)
{
	char b[BUF];
	(void)state;

	for (int round = 0; round < 3000; round++) {
		fill(b, BUF);
		for (int s = 0; s < BUF; s++) {
			for (int e = s; e <= BUF; e++) {
				const char *p = b + s, *end = b + e, *want;

				for (want = p; want < end && *want != ' ' && *want != '\n'; want++)
					;
				assert_ptr_equal(find2(p, end, ' ', '\n'), want);
				for (want = p; want < end && *want != ':' && *want != ' '; want++)
					;
				assert_ptr_equal(name_end(p, end), want);
				for (want = p; want < end && *want == ' '; want++)
					;
				assert_ptr_equal(skip_spaces(p, end), want);
			}
		}
	}
}

static void test_bracket_or_newline24(void **state)
{
	char b[32];
	(void)state;

	for (int round = 0; round < 200000; round++) {
		bool want = false;

		fill(b, sizeof(b));
		if (round % 3 == 0) /* mostly no hit: spaces and letters, maybe one '[' or '\n' */
			for (int i = 0; i < 24; i++)
				if (b[i] == '[' || b[i] == '\n')
					b[i] = round % 2 ? 'x' : ' ';
		if (round % 7 == 0)
			b[rnd() % 24] = rnd() % 2 ? '[' : '\n';
		for (int i = 0; i < 24; i++)
			want |= b[i] == '[' || b[i] == '\n';
		assert_int_equal(any_bracket_or_newline24(b), want);
	}
}

/* pid_before() as it was first written: the digits walked back from q, at most 10. */
static bool pid_before_loop(const char *line, const char *q, s32 *pid)
{
	const char *d = q;
	u64 v = 0, mul = 1;

	while (d > line && digit(d[-1]) && q - d < 10) {
		d--;
		v += (u64)(*d - '0') * mul;
		mul *= 10;
	}
	if (d == q || d == line || d[-1] != '-')
		return false;
	*pid = (s32)v;
	return true;
}

static void test_pid_before(void **state)
{
	char b[40];
	(void)state;

	for (int round = 0; round < 20000; round++) {
		int dash = (int)(rnd() % 30);

		fill(b, sizeof(b));
		if (round % 2) /* "comm-<digits>" with 1 to 12 digits */
			for (int i = dash + 1, n = 1 + (int)(rnd() % 12); i < (int)sizeof(b) && n;
			     i++, n--)
				b[i] = (char)('0' + rnd() % 10);
		b[dash] = '-';
		for (int s = 0; s < (int)sizeof(b); s++) {
			for (int e = s; e <= (int)sizeof(b); e++) {
				s32 got = -7, want = -7;
				bool ok = pid_before(b + s, b + e, &got);
				assert_int_equal(ok, pid_before_loop(b + s, b + e, &want));
				if (ok)
					assert_int_equal(got, want);
			}
		}
	}
}

static void test_digit_masks(void **state)
{
	char b[16];
	/* the previous round's word and value, for top_digits_value2() */
	u64 last_x = 0, last_sum = 0;
	(void)state;

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	skip(); /* the word helpers are little-endian only */
#endif
	for (int round = 0; round < 100000; round++) {
		u64 m, want = 0, x = 0, sum = 0;
		int n = 0;

		fill(b, sizeof(b));
		if (round % 4 == 0) /* every byte value, a digit's neighbours included */
			for (int i = 0; i < 16; i++)
				b[i] = (char)(rnd() & 0xff);
		for (int i = 0; i < 8; i++)
			if (!digit(b[i]))
				want |= 0x80ull << (8 * i);
		m = nondigit_bytes(load8(b));
		assert_int_equal(m, want);
#if defined(__SSE2__)
		{
			unsigned want16 = 0;
			for (int i = 0; i < 16; i++)
				if (!digit(b[i]))
					want16 |= 1u << i;
			assert_int_equal(nondigit_16(b), want16);
			want16 = 0;
			for (int i = 0; i < 16; i++)
				if (b[i] == b[5])
					want16 |= 1u << i;
			assert_int_equal(match_16(b, b[5]), want16);
		}
#endif
		/* the leading digits (up to 8) at the top of a word, as swar_digits() puts them */
		while (n < 8 && digit(b[n])) {
			sum = sum * 10 + (u64)(b[n] - '0');
			n++;
		}
		if (n == 0)
			continue;
		x = n == 8 ? load8(b) : load8(b) << (8 * (8 - n));
		assert_int_equal(top_digits_value(x), sum);
		{
			u64 va = 0, vb = 0;
			top_digits_value2(x, last_x, &va, &vb);
			assert_int_equal(va, sum);
			assert_int_equal(vb, last_sum);
			top_digits_value2(last_x, x, &va, &vb);
			assert_int_equal(va, last_sum);
			assert_int_equal(vb, sum);
		}
		last_x = x;
		last_sum = sum;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_find2_and_skip_spaces),
	    cmocka_unit_test(test_bracket_or_newline24),
	    cmocka_unit_test(test_pid_before),
	    cmocka_unit_test(test_digit_masks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
