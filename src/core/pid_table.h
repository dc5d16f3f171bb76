/*
 * pid_table.h - the thing of each pid: a table of pointers keyed by pid, open addressing with
 * linear probing in a power-of-two array kept at most half full (it doubles before), and
 * removal by moving the rest of the cluster back (no tombstones). A trace names a task only by
 * pid, so this is how the scheduler model finds its tasks (sched/tasks.c), the work model its
 * live tasks (work/work_store.c), the Perfetto reader its task names
 * (trace/perfetto/perfetto_info.c) and the Perfetto writer its task tracks
 * (output/perfetto_write.c).
 *
 * Pid 0 marks an empty slot: 0 is never a key. The slots are in the open for a walk over
 * every entry (slot[0 .. cap), skipping pid 0), in an order that depends only on the keys and
 * the order they were added and removed in.
 */
#ifndef GOVSIM_CORE_PID_TABLE_H
#define GOVSIM_CORE_PID_TABLE_H

#include "core/types.h"

struct pid_slot {
	s32 pid; /* 0: empty */
	void *val;
};

struct pid_table {
	struct pid_slot *slot; /* cap slots; NULL before the first pid_table_grow() */
	u32 cap, n;            /* slots (a power of two, or 0), and pids in the table */
	u32 first_cap;         /* the slots of the first allocation (a power of two) */
};

/* An empty table whose first allocation will hold first_cap slots (a power of two >= 2). */
void pid_table_init(struct pid_table *t, u32 first_cap);

/* Double the slots (first_cap the first time); GS_ENOMEM, the table unchanged, on failure. */
int pid_table_grow(struct pid_table *t);

/* Room for one more pid while staying at most half full: grows when needed. */
static inline int pid_table_reserve(struct pid_table *t)
{
	return (t->n + 1) * 2 > t->cap ? pid_table_grow(t) : 0;
}

/* Where a pid's probe starts (Knuth's multiplicative hash). */
static inline u32 pid_table_home(s32 pid, u32 cap)
{
	return ((u32)pid * 2654435761u) & (cap - 1);
}

/* The value of pid, or NULL when it has none. */
static inline void *pid_table_find(const struct pid_table *t, s32 pid)
{
	if (!t->cap)
		return NULL;
	for (u32 i = pid_table_home(pid, t->cap); t->slot[i].pid; i = (i + 1) & (t->cap - 1))
		if (t->slot[i].pid == pid)
			return t->slot[i].val;
	return NULL;
}

/* Add pid (not 0, not in the table) with its value; pid_table_reserve() must have made room. */
void pid_table_add(struct pid_table *t, s32 pid, void *val);

/* Take pid out; its value, or NULL when it was not there. */
void *pid_table_remove(struct pid_table *t, s32 pid);

/* Free the slots (not the values); the table is empty and may be used again. */
void pid_table_free(struct pid_table *t);

#endif
