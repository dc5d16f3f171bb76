/*
 * test_strbuf.c - the growable text buffer (core/strbuf.h) against a second implementation:
 * snprintf into one large array at the end of what is there. Random appends (integers,
 * strings of random length, precisions and widths, floats, literal text, %%) are made to both;
 * after each the two texts and lengths agree. Then by hand: an empty buffer reads "";
 * appends ending exactly at, one short of and one past an allocation's size (64, then 128
 * bytes with the NUL) and one longer than a doubling; strbuf_copy() cuts as snprintf does;
 * an append that cannot get memory returns GS_ENOMEM, leaves the text as it was and makes
 * later appends fail until a reset.
 */
#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/strbuf.h"

#define BIG 200000

static char ref[BIG];

/* A small deterministic generator (xorshift32), so a failure replays. */
static u32 next(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* One random append to both: the reference by snprintf at ref + *len. */
static void append_one(struct strbuf *sb, size_t *len, u32 *x, const char *letters)
{
	int v = (int)next(x), w = (int)(next(x) % 40), p = (int)(next(x) % 300);
	size_t room = BIG - *len;
	int n = 0;

	switch (next(x) % 7) {
	case 0:
		n = snprintf(ref + *len, room, "%d", v);
		assert_int_equal(strbuf_addf(sb, "%d", v), 0);
		break;
	case 1: /* a string of 0 .. 299 letters */
		n = snprintf(ref + *len, room, "<%.*s>", p, letters);
		assert_int_equal(strbuf_addf(sb, "<%.*s>", p, letters), 0);
		break;
	case 2:
		n = snprintf(ref + *len, room, "%*x|%-*u", w, (unsigned)v, w, (unsigned)v);
		assert_int_equal(strbuf_addf(sb, "%*x|%-*u", w, (unsigned)v, w, (unsigned)v), 0);
		break;
	case 3:
		n = snprintf(ref + *len, room, "%.6f %g", v / 7.0, v / 3.0);
		assert_int_equal(strbuf_addf(sb, "%.6f %g", v / 7.0, v / 3.0), 0);
		break;
	case 4:
		n = snprintf(ref + *len, room, "100%% of %s", "it");
		assert_int_equal(strbuf_addf(sb, "100%% of %s", "it"), 0);
		break;
	case 5: /* nothing at all */
		n = snprintf(ref + *len, room, "%s", "");
		assert_int_equal(strbuf_addf(sb, "%s", ""), 0);
		break;
	default:
		n = snprintf(ref + *len, room, "%.*s", p % 5, letters + 3);
		assert_int_equal(strbuf_addn(sb, letters + 3, (size_t)(p % 5)), 0);
		break;
	}
	assert_true(n >= 0 && (size_t)n < room);
	*len += (size_t)n;
}

static void test_random(void **state)
{
	char letters[301];
	u32 x = 2463534242u;

	(void)state;
	for (int i = 0; i < 300; i++)
		letters[i] = (char)('a' + i % 26);
	letters[300] = '\0';
	for (int round = 0; round < 200; round++) {
		struct strbuf sb = STRBUF_INIT;
		size_t len = 0;
		int steps = (int)(next(&x) % 120);

		ref[0] = '\0';
		for (int i = 0; i < steps; i++) {
			append_one(&sb, &len, &x, letters);
			assert_int_equal(sb.len, len);
			assert_string_equal(strbuf_str(&sb), ref);
			assert_true(sb.cap > sb.len);
		}
		assert_int_equal(strbuf_error(&sb), 0);
		strbuf_free(&sb);
	}
}

/* n letters 'a' + k as one %s append. */
static void add_run(struct strbuf *sb, size_t n, char c)
{
	char s[300];

	memset(s, c, n);
	s[n] = '\0';
	assert_int_equal(strbuf_addf(sb, "%s", s), 0);
}

static void test_boundaries(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char want[127];

	(void)state;
	assert_string_equal(strbuf_str(&sb), "");
	assert_int_equal(sb.len, 0);
	add_run(&sb, 63, 'a'); /* 63 and the NUL: exactly the first 64 bytes */
	assert_int_equal(sb.cap, 64);
	add_run(&sb, 1, 'b'); /* 65 bytes: one past, grows to 128 */
	assert_int_equal(sb.cap, 128);
	assert_int_equal(sb.len, 64);
	add_run(&sb, 62, 'c'); /* 126 and the NUL: one short of 128 */
	assert_int_equal(sb.cap, 128);
	add_run(&sb, 1, 'd'); /* 128 with the NUL: exactly full */
	assert_int_equal(sb.cap, 128);
	add_run(&sb, 260, 'e'); /* 387 and the NUL: past two doublings, 512 */
	assert_int_equal(sb.cap, 512);
	memset(want, 'a', 63);
	want[63] = 'b';
	memset(want + 64, 'c', 62);
	want[126] = 'd';
	assert_memory_equal(strbuf_str(&sb), want, 127);
	for (size_t i = 127; i < 387; i++)
		assert_int_equal(strbuf_str(&sb)[i], 'e');
	assert_int_equal(strbuf_str(&sb)[387], '\0');
	assert_int_equal(sb.len, 387);
	strbuf_reset(&sb);
	assert_string_equal(strbuf_str(&sb), "");
	assert_int_equal(sb.cap, 512); /* the memory kept */
	strbuf_free(&sb);
	assert_null(sb.text);
}

static void test_copy(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char small[6], ref6[6], one[1] = {'x'};
	volatile int v = 12345; /* not a constant: the compiler would warn of the cut */

	(void)state;
	assert_int_equal(strbuf_copy(&sb, small, sizeof(small)), 0);
	assert_string_equal(small, "");
	strbuf_addf(&sb, "%s=%d", "cpu", v);
	assert_int_equal(strbuf_copy(&sb, small, sizeof(small)), 9);
	snprintf(ref6, sizeof(ref6), "%s=%d", "cpu", v);
	assert_string_equal(small, ref6); /* "cpu=1" */
	strbuf_copy(&sb, one, sizeof(one));
	assert_int_equal(one[0], '\0');
	strbuf_free(&sb);
}

static void test_nomem(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_addf(&sb, "kept");
	/* more than any allocator gives: refused before realloc, as realloc would refuse it */
	assert_int_equal(strbuf_addn(&sb, "x", (size_t)PTRDIFF_MAX), GS_ENOMEM);
	assert_int_equal(strbuf_error(&sb), GS_ENOMEM);
	assert_string_equal(strbuf_str(&sb), "kept");
	assert_int_equal(strbuf_addf(&sb, "%d", 1), GS_ENOMEM); /* sticky */
	assert_int_equal(strbuf_addn(&sb, "y", 1), GS_ENOMEM);
	assert_string_equal(strbuf_str(&sb), "kept");
	strbuf_reset(&sb);
	assert_int_equal(strbuf_error(&sb), 0);
	assert_int_equal(strbuf_addf(&sb, "again"), 0);
	assert_string_equal(strbuf_str(&sb), "again");
	strbuf_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_nomem),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
