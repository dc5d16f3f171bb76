/*
 * pid_table.c - the table of pointers by pid; see pid_table.h.
 */
#include "core/pid_table.h"

#include "core/error.h"

#include <stdlib.h>

void pid_table_init(struct pid_table *t, u32 first_cap)
{
	*t = (struct pid_table){.first_cap = first_cap};
}

/* The free slot where pid's probe ends in slot[0 .. cap). */
static u32 free_slot(const struct pid_slot *slot, u32 cap, s32 pid)
{
	u32 i = pid_table_home(pid, cap);

	while (slot[i].pid)
		i = (i + 1) & (cap - 1);
	return i;
}

int pid_table_grow(struct pid_table *t)
{
	u32 cap = t->cap ? t->cap * 2 : t->first_cap;
	struct pid_slot *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return GS_ENOMEM;
	for (u32 i = 0; i < t->cap; i++)
		if (t->slot[i].pid)
			slot[free_slot(slot, cap, t->slot[i].pid)] = t->slot[i];
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

void pid_table_add(struct pid_table *t, s32 pid, void *val)
{
	t->slot[free_slot(t->slot, t->cap, pid)] = (struct pid_slot){pid, val};
	t->n++;
}

void *pid_table_remove(struct pid_table *t, s32 pid)
{
	u32 mask = t->cap - 1, i, j, h;
	void *val;

	if (!t->cap)
		return NULL;
	for (i = pid_table_home(pid, t->cap); t->slot[i].pid != pid; i = (i + 1) & mask)
		if (!t->slot[i].pid)
			return NULL;
	val = t->slot[i].val;
	for (j = (i + 1) & mask; t->slot[j].pid; j = (j + 1) & mask) {
		h = pid_table_home(t->slot[j].pid, t->cap);
		/* the entry at j may fill the hole at i unless its home h lies in (i, j] */
		if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
			t->slot[i] = t->slot[j];
			i = j;
		}
	}
	t->slot[i] = (struct pid_slot){0, NULL};
	t->n--;
	return val;
}

void pid_table_free(struct pid_table *t)
{
	free(t->slot);
	pid_table_init(t, t->first_cap);
}
