/*
 * test_pid_table.c - the table of pointers by pid (core/pid_table.h) against a second
 * implementation: a direct-address array (the value of pid at [pid + RANGE]), driven by the same random adds, removes
 * and look-ups (pids from a small range so that they collide, tables from 2 slots so that
 * probes wrap around the end and removals move clusters back). After every step both agree on
 * every pid of the range, the count, and the set a walk over the slots finds; the table stays
 * at most half full; at the end every pid left is removed, checking after each. Then the cases by hand: an empty table, removing what is not there, a
 * pid's value replaced by removing and adding it again.
 */
#include "testutil.h"

#include <stdlib.h>

#include "core/pid_table.h"

#define RANGE 300 /* pids -RANGE..RANGE but 0 */

/* The reference: a direct-address array, the value of pid at [pid + RANGE] (NULL: absent). */
struct ref {
	void *val[2 * RANGE + 1];
	u32 n;
};

/* A small deterministic generator (xorshift32), so a failure replays. */
static u32 next(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void check_same(const struct pid_table *t, const struct ref *r)
{
	u32 walked = 0;

	assert_int_equal(t->n, r->n);
	assert_true(t->cap == 0 || 2 * t->n <= t->cap);
	for (s32 pid = -RANGE; pid <= RANGE; pid++)
		if (pid)
			assert_ptr_equal(pid_table_find(t, pid), r->val[pid + RANGE]);
	for (u32 k = 0; k < t->cap; k++) {
		s32 pid = t->slot[k].pid;
		if (!pid)
			continue;
		assert_true(pid >= -RANGE && pid <= RANGE);
		assert_non_null(r->val[pid + RANGE]);
		assert_ptr_equal(t->slot[k].val, r->val[pid + RANGE]);
		walked++;
	}
	assert_int_equal(walked, r->n);
}

static void random_run(u32 first_cap, u32 start, int steps)
{
	static char values[2 * RANGE + 1];
	struct pid_table t;
	struct ref r = {.n = 0};
	u32 x = start;

	pid_table_init(&t, first_cap);
	for (int step = 0; step < steps; step++) {
		s32 pid = (s32)(next(&x) % (2 * RANGE + 1)) - RANGE;
		void **ref_val = &r.val[pid + RANGE];

		if (!pid)
			continue;
		if (!*ref_val && next(&x) % 3) { /* add: two in three when absent */
			assert_int_equal(pid_table_reserve(&t), 0);
			pid_table_add(&t, pid, &values[pid + RANGE]);
			*ref_val = &values[pid + RANGE];
			r.n++;
		} else if (*ref_val && next(&x) % 2) { /* remove: one in two when present */
			assert_ptr_equal(pid_table_remove(&t, pid), *ref_val);
			*ref_val = NULL;
			r.n--;
		}
		check_same(&t, &r);
	}
	for (s32 pid = -RANGE; pid <= RANGE; pid++) { /* then empty it, pid by pid */
		void **ref_val = &r.val[pid + RANGE];
		if (!*ref_val)
			continue;
		assert_ptr_equal(pid_table_remove(&t, pid), *ref_val);
		*ref_val = NULL;
		r.n--;
		check_same(&t, &r);
	}
	assert_int_equal(t.n, 0);
	pid_table_free(&t);
	assert_int_equal(t.n, 0);
	assert_null(pid_table_find(&t, 1));
}

static void test_random(void **state)
{
	(void)state;
	random_run(2, 1, 4000);
	random_run(4, 12345, 4000);
	random_run(1024, 99, 2000);
	random_run(2, 777, 12000); /* a long run: about 340 live pids, a table of 1024 */
}

static void test_by_hand(void **state)
{
	struct pid_table t;
	int a, b;

	(void)state;
	pid_table_init(&t, 8);
	assert_int_equal(t.cap, 0);
	assert_null(pid_table_find(&t, 5));
	assert_null(pid_table_remove(&t, 5));
	assert_int_equal(pid_table_reserve(&t), 0);
	assert_int_equal(t.cap, 8); /* the first allocation: first_cap slots */
	pid_table_add(&t, 5, &a);
	assert_ptr_equal(pid_table_find(&t, 5), &a);
	assert_null(pid_table_remove(&t, 6));
	assert_ptr_equal(pid_table_remove(&t, 5), &a);
	assert_null(pid_table_find(&t, 5));
	assert_int_equal(pid_table_reserve(&t), 0);
	pid_table_add(&t, 5, &b); /* a pid reused: its new value */
	assert_ptr_equal(pid_table_find(&t, 5), &b);
	for (s32 pid = 10; pid < 14; pid++) { /* 5 pids in 8 slots: over half, it doubled */
		assert_int_equal(pid_table_reserve(&t), 0);
		pid_table_add(&t, pid, &a);
	}
	assert_int_equal(t.n, 5);
	assert_int_equal(t.cap, 16);
	pid_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_by_hand),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
