/*
 * gen.c - synthetic ftrace text; see gen.h.
 *
 * Each CPU is a small state machine over the tasks pinned to it (release, run, preempt, sleep,
 * idle) that queues the lines it produces; the writer merges the CPUs' queues by timestamp
 * (lower CPU first on ties), so the output is in time order and nothing grows with its length.
 * The pipe workload is one sequential ping-pong and is written directly.
 */
#include "gen/gen.h"

#include "core/event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define T0_US 1000000ull /* traces start at 1.000000 s */
#define NO_TIME UINT64_MAX
#define PID_BASE 1000

static const char *const workload_names[] = {
	[GEN_PERIODIC] = "periodic",
	[GEN_PIPE] = "pipe",
	[GEN_MIX] = "mix",
};

int gen_workload_from_name(const char *name)
{
	for (size_t i = 0; i < GS_ARRAY_SIZE(workload_names); i++)
		if (strcmp(name, workload_names[i]) == 0)
			return (int)i;
	return -1;
}

void gen_opts_init(struct gen_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->workload = GEN_PERIODIC;
	o->prng_seed = 1;
	o->nr_cpus = 8;
	for (int i = 0; i < GS_MAX_CPUS; i++)
		o->max_khz[i] = 2000000;
}

/* splitmix64 (Steele, Lea, Flood 2014): a seeded, portable, full-period generator. */
static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double rand01(u64 *state)
{
	return (double)(splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* "0.5x50/0.25x50": duty x activations per phase. */
static int parse_phases(struct gen_task *t, const char *text)
{
	const char *p = text;

	t->nr_phases = 0;
	while (*p) {
		char *end;
		double duty = strtod(p, &end);
		unsigned long long n;

		if (end == p || *end != 'x' || !(duty > 0 && duty <= 1) ||
		    t->nr_phases == GEN_MAX_PHASES)
			return -1;
		p = end + 1;
		if (*p < '0' || *p > '9')
			return -1;
		n = strtoull(p, &end, 10);
		if (n == 0 || n > 1000000000ULL || (*end && *end != '/'))
			return -1;
		t->phase_duty[t->nr_phases] = duty;
		t->phase_count[t->nr_phases] = (u32)n;
		t->nr_phases++;
		p = *end ? end + 1 : end;
	}
	if (!t->nr_phases)
		return -1;
	t->duty = t->phase_duty[0];
	t->count = 0;
	for (int k = 0; k < t->nr_phases; k++)
		t->count += t->phase_count[k];
	return 0;
}

int gen_parse_task(struct gen_opts *o, const char *spec, struct gs_error *err)
{
	struct gen_task t = {.period_us = 16000, .duty = 0.5, .cpu = 0, .prio = 120};
	char buf[256];
	char *save = NULL, *kv;

	if (o->nr_tasks >= GEN_MAX_TASKS)
		return gs_error_set(err, GS_EARG, "more than %d tasks", GEN_MAX_TASKS);
	snprintf(t.name, sizeof(t.name), "t%d", o->nr_tasks);
	if (strlen(spec) >= sizeof(buf))
		return gs_error_set(err, GS_EARG, "task spec too long: '%.40s...'", spec);
	strcpy(buf, spec);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		double v;
		if (!eq)
			return gs_error_set(err, GS_EARG, "task spec '%s': '%s' is not key=value", spec,
					    kv);
		*eq++ = '\0';
		if (strcmp(kv, "name") == 0) {
			if (!*eq || strlen(eq) >= TASK_COMM_LEN || strpbrk(eq, " =-"))
				return gs_error_set(err, GS_EARG,
						    "task spec '%s': bad name '%s' (1-15 chars, no "
						    "space, '=' or '-')",
						    spec, eq);
			strcpy(t.name, eq);
			continue;
		}
		if (strcmp(kv, "phases") == 0) {
			if (parse_phases(&t, eq) != 0)
				return gs_error_set(err, GS_EARG,
						    "task spec '%s': bad phases '%s' (want "
						    "DUTYxCOUNT/... with 0 < DUTY <= 1, at most %d)",
						    spec, eq, GEN_MAX_PHASES);
			continue;
		}
		v = strtod(eq, &end);
		if (end == eq || *end)
			return gs_error_set(err, GS_EARG, "task spec '%s': bad number '%s'", spec, eq);
		if (strcmp(kv, "period_ms") == 0 && v > 0 && v <= 10000)
			t.period_us = (u32)(v * 1000.0 + 0.5);
		else if (strcmp(kv, "period_us") == 0 && v >= 10 && v <= 1e7)
			t.period_us = (u32)v;
		else if (strcmp(kv, "duty") == 0 && v > 0 && v <= 1)
			t.duty = v;
		else if (strcmp(kv, "cpu") == 0 && v >= 0 && v < GS_MAX_CPUS && v == (int)v)
			t.cpu = (int)v;
		else if (strcmp(kv, "prio") == 0 && v >= -1 && v < 140 && v == (int)v)
			t.prio = (int)v;
		else if (strcmp(kv, "count") == 0 && v >= 1 && v <= 1e9 && v == (u32)v)
			t.count = (u32)v;
		else
			return gs_error_set(err, GS_EARG, "task spec '%s': bad or unknown '%s=%s'",
					    spec, kv, eq);
	}
	if (t.period_us < 10)
		return gs_error_set(err, GS_EARG, "task spec '%s': period below 10 us", spec);
	o->tasks[o->nr_tasks++] = t;
	return 0;
}

/* ---- output -------------------------------------------------------------------------------- */

struct writer {
	FILE *out;
	u64 lines;
};

static void head(struct writer *w, const char *comm, int pid, int cpu, const char *flags,
		 u64 ts_us)
{
	fprintf(w->out, "%16s-%-7d [%03d] %s %5llu.%06llu: ", comm, pid, cpu, flags,
		(unsigned long long)(ts_us / 1000000), (unsigned long long)(ts_us % 1000000));
	w->lines++;
}

/* ---- tasks and CPUs ------------------------------------------------------------------------ */

enum gtask_state { GT_SLEEPING, GT_RUNNABLE, GT_RUNNING, GT_DONE };

struct gtask {
	char comm[TASK_COMM_LEN];
	int pid, prio, cpu;
	u32 period_us;
	double duty;
	u64 left; /* activations left; UINT64_MAX = unlimited */
	const struct gen_task *spec; /* for its phases */
	int phase;
	u32 phase_done; /* activations completed in the current phase */
	u64 next_release_us;
	u64 remaining_us;
	u64 rq_seq;
	enum gtask_state state;
};

enum gline_kind { GL_WAKEUP, GL_SWITCH, GL_IDLE };

struct gline {
	u64 ts_us;
	enum gline_kind kind;
	int cur;   /* task index on the CPU when recorded, -1 idle */
	int other; /* wakee, or next task of a switch (-1 idle) */
	const char *prev_state;
	u32 idle_state;
};

/* Lines a CPU has made and not yet written (the writer merges the CPUs' lines in time order). */
#define GCPU_QUEUE_LEN 8
struct gcpu {
	int id;
	int cur;
	u64 run_start_us;
	u64 seq;
	int nr;
	int *tasks; /* indices of the tasks pinned here */
	struct gline q[GCPU_QUEUE_LEN]; /* a ring: q_len lines from q_head */
	int q_head, q_len;
	bool finished;
};

struct gen {
	struct writer w;
	u64 rng;
	struct gtask *t;
	int nr_t;
	struct gcpu cpu[GS_MAX_CPUS];
	int nr_cpus;
};

static void q_push(struct gcpu *c, struct gline l)
{
	c->q[(c->q_head + c->q_len++) % GCPU_QUEUE_LEN] = l;
}

static void task_release(struct gen *g, struct gtask *t)
{
	double run = t->duty * t->period_us * (0.9 + 0.2 * rand01(&g->rng));
	t->remaining_us = run < 1 ? 1 : (u64)run;
	t->state = GT_RUNNABLE;
}

/* The runnable task to run next on c: lowest prio value, FIFO among equals; -1 if none. */
static int pick_next(struct gen *g, struct gcpu *c)
{
	int best = -1;
	for (int i = 0; i < c->nr; i++) {
		struct gtask *t = &g->t[c->tasks[i]];
		if (t->state != GT_RUNNABLE)
			continue;
		if (best < 0 || t->prio < g->t[best].prio ||
		    (t->prio == g->t[best].prio && t->rq_seq < g->t[best].rq_seq))
			best = c->tasks[i];
	}
	return best;
}

static int next_release(struct gen *g, struct gcpu *c, u64 *when)
{
	int best = -1;
	for (int i = 0; i < c->nr; i++) {
		struct gtask *t = &g->t[c->tasks[i]];
		if (t->state != GT_SLEEPING || t->left == 0)
			continue;
		if (best < 0 || t->next_release_us < g->t[best].next_release_us)
			best = c->tasks[i];
	}
	*when = best >= 0 ? g->t[best].next_release_us : NO_TIME;
	return best;
}

/* Advance one CPU by one scheduling step, queueing 1 to 3 lines. */
static void cpu_step(struct gen *g, struct gcpu *c)
{
	u64 rel_us;
	int r = next_release(g, c, &rel_us);

	if (c->cur >= 0) {
		struct gtask *cur = &g->t[c->cur];
		u64 end_us = c->run_start_us + cur->remaining_us;
		int next;

		if (r >= 0 && rel_us < end_us) {
			struct gtask *w = &g->t[r];
			task_release(g, w);
			w->rq_seq = c->seq++;
			q_push(c, (struct gline){rel_us, GL_WAKEUP, c->cur, r, NULL, 0});
			if (w->prio < cur->prio) {
				/* preempted: back on the runqueue ahead of its peers */
				cur->remaining_us -= rel_us - c->run_start_us;
				cur->state = GT_RUNNABLE;
				cur->rq_seq = 0;
				q_push(c, (struct gline){rel_us, GL_SWITCH, c->cur, r, "R+", 0});
				w->state = GT_RUNNING;
				c->cur = r;
				c->run_start_us = rel_us;
			}
			return;
		}
		/* the activation completes */
		if (cur->left != UINT64_MAX)
			cur->left--;
		if (cur->spec && cur->phase + 1 < cur->spec->nr_phases &&
		    ++cur->phase_done == cur->spec->phase_count[cur->phase]) {
			cur->phase++;
			cur->phase_done = 0;
			cur->duty = cur->spec->phase_duty[cur->phase];
		}
		cur->next_release_us += cur->period_us;
		if (cur->next_release_us < end_us)
			cur->next_release_us = end_us; /* overrun: released again at once */
		cur->state = cur->left ? GT_SLEEPING : GT_DONE;
		next = pick_next(g, c);
		q_push(c, (struct gline){end_us, GL_SWITCH, c->cur, next, "S", 0});
		if (next >= 0) {
			g->t[next].state = GT_RUNNING;
		} else {
			u64 when;
			next_release(g, c, &when);
			q_push(c, (struct gline){end_us, GL_IDLE, -1, -1, NULL,
						 when != NO_TIME && when - end_us > 2000 ? 1 : 0});
		}
		c->cur = next;
		c->run_start_us = end_us;
		return;
	}
	if (r < 0) {
		c->finished = true;
		return;
	}
	task_release(g, &g->t[r]);
	q_push(c, (struct gline){rel_us, GL_IDLE, -1, -1, NULL, PWR_EVENT_EXIT});
	q_push(c, (struct gline){rel_us, GL_WAKEUP, -1, r, NULL, 0});
	q_push(c, (struct gline){rel_us, GL_SWITCH, -1, r, "R", 0});
	g->t[r].state = GT_RUNNING;
	c->cur = r;
	c->run_start_us = rel_us;
}

static void write_line(struct gen *g, const struct gcpu *c, const struct gline *l)
{
	struct writer *w = &g->w;
	char swapper[TASK_COMM_LEN];
	const struct gtask *cur = l->cur >= 0 ? &g->t[l->cur] : NULL;
	const struct gtask *o = l->other >= 0 ? &g->t[l->other] : NULL;

	snprintf(swapper, sizeof(swapper), "swapper/%d", c->id);
	switch (l->kind) {
	case GL_WAKEUP:
		/* a release is a timer: hardirq context, whoever runs on the CPU */
		head(w, cur ? cur->comm : "<idle>", cur ? cur->pid : 0, c->id, "dnh4", l->ts_us);
		fprintf(w->out, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03d\n", o->comm,
			o->pid, o->prio, o->cpu);
		head(w, cur ? cur->comm : "<idle>", cur ? cur->pid : 0, c->id, "dnh4", l->ts_us);
		fprintf(w->out, "sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d\n", o->comm,
			o->pid, o->prio, o->cpu);
		break;
	case GL_SWITCH:
		head(w, cur ? cur->comm : "<idle>", cur ? cur->pid : 0, c->id, "d..3", l->ts_us);
		fprintf(w->out,
			"sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
			"next_comm=%s next_pid=%d next_prio=%d\n",
			cur ? cur->comm : swapper, cur ? cur->pid : 0, cur ? cur->prio : 120,
			l->prev_state, o ? o->comm : swapper, o ? o->pid : 0, o ? o->prio : 120);
		break;
	case GL_IDLE:
		head(w, "<idle>", 0, c->id, "d..2", l->ts_us);
		fprintf(w->out, "cpu_idle: state=%u cpu_id=%d\n", l->idle_state, c->id);
		break;
	}
}

static void write_header(struct gen *g, const struct gen_opts *o)
{
	fprintf(g->w.out,
		"# tracer: nop\n"
		"#\n"
		"# govsim gen %s seed=%llu   #P:%d\n"
		"#\n"
		"#                                _-----=> irqs-off\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| /     delay\n"
		"#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
		"#              | |         |   ||||      |         |\n",
		workload_names[o->workload], (unsigned long long)o->prng_seed, o->nr_cpus);
	for (int c = 0; c < o->nr_cpus; c++) {
		head(&g->w, "shutils", 999, 0, "....", T0_US);
		fprintf(g->w.out, "tracing_mark_write: cpu_frequency_devlib: state=%u cpu_id=%d\n",
			o->max_khz[c], c);
	}
}

/* Tasks of the mix / size workloads: per CPU, `rt` RT tasks and `cfs` CFS tasks. */
static int add_generated_tasks(struct gen_opts *o, u64 *rng, int rt, int cfs, u32 count)
{
	for (int c = 0; c < o->nr_cpus; c++) {
		for (int i = 0; i < rt + cfs; i++) {
			struct gen_task *t;
			if (o->nr_tasks >= GEN_MAX_TASKS)
				return -1;
			t = &o->tasks[o->nr_tasks++];
			snprintf(t->name, sizeof(t->name), "%s%d-%d", i < rt ? "rt" : "cfs", c % 1000,
				 i % 1000);
			t->cpu = c;
			t->count = count;
			if (i < rt) {
				t->prio = 89;
				t->period_us = 2000 + (u32)(splitmix64(rng) % 4000);
				t->duty = 0.05 + 0.1 * rand01(rng);
			} else {
				t->prio = i % 2 ? 120 : 125;
				t->period_us = 4000 + (u32)(splitmix64(rng) % 28000);
				t->duty = 0.05 + 0.35 * rand01(rng);
			}
		}
	}
	return 0;
}

static int write_sched(struct gen *g, const struct gen_opts *o)
{
	for (int i = 0; i < g->nr_t; i++) {
		const struct gen_task *s = &o->tasks[i];
		struct gtask *t = &g->t[i];
		memcpy(t->comm, s->name, sizeof(t->comm));
		t->pid = PID_BASE + i;
		t->prio = s->prio;
		t->cpu = s->cpu;
		t->period_us = s->period_us;
		t->duty = s->duty;
		t->spec = s->nr_phases ? s : NULL;
		t->phase = 0;
		t->phase_done = 0;
		t->left = o->size_lines ? UINT64_MAX : (s->count ? s->count : (o->count ? o->count : 100));
		/* a seeded phase spreads generated tasks; given tasks start together */
		t->next_release_us = T0_US + 100 +
				     (o->workload == GEN_MIX || o->size_lines ?
					      splitmix64(&g->rng) % s->period_us : 0);
		t->state = GT_SLEEPING;
		t->rq_seq = 0;
		g->cpu[s->cpu].tasks[g->cpu[s->cpu].nr++] = i;
	}
	for (;;) {
		int best = -1;
		for (int c = 0; c < g->nr_cpus; c++) {
			struct gcpu *cp = &g->cpu[c];
			while (cp->q_len == 0 && !cp->finished)
				cpu_step(g, cp);
			if (!cp->q_len)
				continue;
			if (best < 0 ||
			    cp->q[cp->q_head].ts_us < g->cpu[best].q[g->cpu[best].q_head].ts_us)
				best = c;
		}
		if (best < 0)
			break;
		write_line(g, &g->cpu[best], &g->cpu[best].q[g->cpu[best].q_head]);
		g->cpu[best].q_head = (g->cpu[best].q_head + 1) % GCPU_QUEUE_LEN;
		g->cpu[best].q_len--;
		if ((o->size_lines && g->w.lines >= o->size_lines) || ferror(g->w.out))
			break;
	}
	return 0;
}

/* Pipe ping-pong: A and B on two CPUs (or one) wake each other through the pipe, the writer
 * waking the reader in its own context (sched_waking then sched_wakeup); sleeps alternate S
 * and D. On one CPU the sleeper switches straight to the woken side. */
static void write_pipe(struct gen *g, const struct gen_opts *o)
{
	struct writer *w = &g->w;
	const char *comm[2] = {"pipe-a", "pipe-b"};
	const int pid[2] = {PID_BASE, PID_BASE + 1};
	int cpu[2] = {0, 1};
	u64 rounds = o->count ? o->count : 1000;
	u64 t = T0_US + 100;
	int side = 0;

	if (o->nr_pipe_cpus) {
		cpu[0] = o->pipe_cpus[0];
		cpu[1] = o->nr_pipe_cpus > 1 ? o->pipe_cpus[1] : o->pipe_cpus[0];
	}
	if (cpu[1] != cpu[0]) {
		head(w, "<idle>", 0, cpu[1], "d..2", t);
		fprintf(w->out, "cpu_idle: state=0 cpu_id=%d\n", cpu[1]);
	}
	head(w, "<idle>", 0, cpu[0], "d..2", t);
	fprintf(w->out, "cpu_idle: state=4294967295 cpu_id=%d\n", cpu[0]);
	head(w, "<idle>", 0, cpu[0], "d..3", t);
	fprintf(w->out,
		"sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> "
		"next_comm=%s next_pid=%d next_prio=120\n",
		cpu[0], comm[0], pid[0]);
	for (u64 i = 0; (o->size_lines ? w->lines < o->size_lines : i < 2 * rounds) && !ferror(w->out);
	     i++) {
		int me = side, peer = 1 - side;
		const char *sleep = (i / 2) % 2 ? "D" : "S";
		t += 2 + splitmix64(&g->rng) % 5; /* runs 2..6 us */
		head(w, comm[me], pid[me], cpu[me], "dn.4", t);
		fprintf(w->out, "sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d\n",
			comm[peer], pid[peer], cpu[peer]);
		head(w, comm[me], pid[me], cpu[me], "dn.4", t);
		fprintf(w->out, "sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d\n",
			comm[peer], pid[peer], cpu[peer]);
		if (cpu[0] == cpu[1]) {
			head(w, comm[me], pid[me], cpu[me], "d..3", t + 1);
			fprintf(w->out,
				"sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s "
				"==> next_comm=%s next_pid=%d next_prio=120\n",
				comm[me], pid[me], sleep, comm[peer], pid[peer]);
			t += 1;
			side = peer;
			continue;
		}
		head(w, comm[me], pid[me], cpu[me], "d..3", t + 1);
		fprintf(w->out,
			"sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
			"next_comm=swapper/%d next_pid=0 next_prio=120\n",
			comm[me], pid[me], sleep, cpu[me]);
		head(w, "<idle>", 0, cpu[me], "d..2", t + 1);
		fprintf(w->out, "cpu_idle: state=0 cpu_id=%d\n", cpu[me]);
		head(w, "<idle>", 0, cpu[peer], "d..2", t + 2);
		fprintf(w->out, "cpu_idle: state=4294967295 cpu_id=%d\n", cpu[peer]);
		head(w, "<idle>", 0, cpu[peer], "d..3", t + 2);
		fprintf(w->out,
			"sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> "
			"next_comm=%s next_pid=%d next_prio=120\n",
			cpu[peer], comm[peer], pid[peer]);
		t += 2;
		side = peer;
	}
}

int gen_write(FILE *out, const struct gen_opts *opts, u64 *lines_written, struct gs_error *err)
{
	struct gen_opts o = *opts;
	struct gen g;
	int ret = 0;

	memset(&g, 0, sizeof(g));
	g.w.out = out;
	g.rng = o.prng_seed;
	if (o.nr_cpus < 1 || o.nr_cpus > GS_MAX_CPUS)
		return gs_error_set(err, GS_EARG, "cpus must be 1..%d", GS_MAX_CPUS);
	if (o.workload == GEN_PIPE && !o.nr_pipe_cpus && o.nr_cpus < 2)
		return gs_error_set(err, GS_EARG, "the pipe workload needs 2 cpus");
	for (int i = 0; i < o.nr_pipe_cpus; i++)
		if (o.pipe_cpus[i] < 0 || o.pipe_cpus[i] >= o.nr_cpus)
			return gs_error_set(err, GS_EARG, "pipe cpu %d, but the trace has cpus 0-%d",
					    o.pipe_cpus[i], o.nr_cpus - 1);
	if (o.workload != GEN_PERIODIC && o.nr_tasks)
		return gs_error_set(err, GS_EARG, "--task is for the periodic workload");
	if (o.workload == GEN_MIX) {
		add_generated_tasks(&o, &g.rng, 1, 2, o.count ? o.count : 200);
	} else if (o.workload == GEN_PERIODIC && o.nr_tasks == 0) {
		if (o.size_lines) {
			add_generated_tasks(&o, &g.rng, 1, 3, 0);
		} else {
			struct gs_error e2;
			gen_parse_task(&o, "name=t0,period_ms=16,duty=0.5,cpu=0", &e2);
		}
	}

	for (int i = 0; i < o.nr_tasks; i++)
		if (o.tasks[i].cpu >= o.nr_cpus)
			return gs_error_set(err, GS_EARG, "task '%s' on cpu %d, but only %d cpus",
					    o.tasks[i].name, o.tasks[i].cpu, o.nr_cpus);
	write_header(&g, &o);
	if (o.workload == GEN_PIPE) {
		write_pipe(&g, &o);
	} else {
		g.nr_t = o.nr_tasks;
		g.nr_cpus = o.nr_cpus;
		g.t = calloc((size_t)(o.nr_tasks ? o.nr_tasks : 1), sizeof(*g.t));
		for (int c = 0; c < o.nr_cpus; c++) {
			g.cpu[c].id = c;
			g.cpu[c].cur = -1;
			g.cpu[c].seq = 1;
			g.cpu[c].tasks = calloc((size_t)(o.nr_tasks ? o.nr_tasks : 1), sizeof(int));
			if (!g.cpu[c].tasks)
				ret = GS_ENOMEM;
		}
		if (!g.t || ret)
			ret = gs_error_set(err, GS_ENOMEM, "out of memory");
		else
			ret = write_sched(&g, &o);
		for (int c = 0; c < o.nr_cpus; c++)
			free(g.cpu[c].tasks);
		free(g.t);
	}
	if (lines_written)
		*lines_written = g.w.lines;
	/* the loops stop at the first failed write, so errno is still its reason */
	if (ret == 0 && (ferror(out) || fflush(out) != 0))
		return gs_error_set(err, GS_EIO, "write error: %s", strerror(errno ? errno : EIO));
	return ret;
}
