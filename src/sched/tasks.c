/*
 * tasks.c - the scheduler model's task table: the tasks of a trace by pid (core/pid_table.h)
 * over chunked, recycled nodes. The kernel has
 * task_structs and pids; a trace names a task only by pid (and comm), so the model finds its
 * tasks here. A pid reused after its task exited is a new task (node_free at exit).
 */
#include "sched/sched_priv.h"

#include <stdlib.h>
#include <string.h>

int table_grow(struct sched *s)
{
	if (!s->tasks_by_pid.first_cap)
		pid_table_init(&s->tasks_by_pid, 1024);
	return pid_table_grow(&s->tasks_by_pid);
}

struct task_node *node_find(const struct sched *s, s32 pid)
{
	return pid_table_find(&s->tasks_by_pid, pid);
}

/* p->comm becomes comm's first 15 characters, NUL-padded (strncpy). Most events name the task
 * as before, so compare first: p->comm is always NUL-padded after its end. True when the name
 * changed; then old, when not NULL, receives the name it had. comm is an event's
 * TASK_COMM_LEN array (node_get's callers). */
static bool set_comm(struct task *p, const char *comm, char old[TASK_COMM_LEN])
{
	if (!comm || !comm[0] || comm_same(comm, p->comm))
		return false;
	if (old)
		memcpy(old, p->comm, TASK_COMM_LEN);
	strncpy(p->comm, comm, TASK_COMM_LEN - 1);
	p->comm[TASK_COMM_LEN - 1] = '\0';
	return true;
}

void node_rename(struct sched *s, struct task_node *n, const char *comm, u64 now)
{
	char old[TASK_COMM_LEN];

	if (set_comm(&n->t, comm, old) && n->started && s->hooks.task_rename && !s->mute)
		s->hooks.task_rename(s->hooks.ctx, &n->t, old, now);
}

struct task_node *node_new(struct sched *s, s32 pid, const char *comm)
{
	struct task_node *n = NULL;

	if (pid_table_reserve(&s->tasks_by_pid) < 0)
		return NULL;
	if (s->free_nodes) {
		n = s->free_nodes;
		s->free_nodes = n->next_free;
	} else if (s->nr_nodes == s->nr_chunks * TASK_CHUNK) {
		if (s->nr_chunks == s->chunks_cap) {
			size_t cap = s->chunks_cap ? s->chunks_cap * 2 : 16;
			struct task_node **c = realloc(s->chunks, cap * sizeof(*c));

			if (!c)
				return NULL;
			s->chunks = c;
			s->chunks_cap = cap;
		}
		s->chunks[s->nr_chunks] = calloc(TASK_CHUNK, sizeof(struct task_node));
		if (!s->chunks[s->nr_chunks])
			return NULL;
		s->nr_chunks++;
	}
	if (!n) {
		n = &s->chunks[s->nr_nodes / TASK_CHUNK][s->nr_nodes % TASK_CHUNK];
		s->nr_nodes++;
	}
	if (++s->stats.live_tasks > s->stats.peak_live_tasks)
		s->stats.peak_live_tasks = s->stats.live_tasks;
	memset(n, 0, sizeof(*n));
	n->t.pid = pid;
	n->t.cpu = -1;
	n->t.prio = 120;
	n->t.weight = TASK_SE_WEIGHT;
	n->t.class = SCHED_CLASS_CFS;
	set_comm(&n->t, comm, NULL);
	pid_table_add(&s->tasks_by_pid, pid, n);
	return n;
}

/* Take n out of the table and put its node on the free list. */
void node_free(struct sched *s, struct task_node *n)
{
	pid_table_remove(&s->tasks_by_pid, n->t.pid);
	memset(n, 0, sizeof(*n));
	n->next_free = s->free_nodes;
	s->free_nodes = n;
	s->stats.live_tasks--;
	s->stats.exited++;
}

