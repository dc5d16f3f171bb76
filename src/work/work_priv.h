/*
 * work_priv.h - the work timing layer's state, shared by work.c (the two timelines and the pump)
 * and work_store.c (its pools, queues and task table, set-up and results). Not API.
 */
#ifndef GOVSIM_WORK_WORK_PRIV_H
#define GOVSIM_WORK_WORK_PRIV_H

#include <string.h>

#include "core/pid_table.h"
#include "work/dist.h"
#include "work/work.h"

#define NO_TIME UINT64_MAX
#define NO_INDEX UINT32_MAX

struct wtask;

struct slice {
	s32 pid;
	int cpu;          /* the CPU whose queue it waits in / runs on (emulated) */
	int tr_cpu;       /* the CPU it ran on in the trace (traced side) */
	struct wtask *tk; /* its task's entry (entries never move) */
	char comm[TASK_COMM_LEN];
	s32 prio;
	u64 seq;          /* the task's slice number, in traced order */
	u64 ready_ns;     /* emulated time the task is ready for it (and its previous slice must
			   * be done); NO_TIME until its task wakeup is emulated */
	u64 gap_ns;       /* after a wakeup on a CPU idle in the trace: the traced wakeup ->
			   * switch-in time (idle exit, IPI, scheduling), kept fixed */
	bool woken;       /* ready by a wakeup: it begins an activation */
	bool ext_woken;   /* ... by an external one (a timer or interrupt: the trace's time) */
	u64 traced_end;   /* valid when complete */
	double work;      /* capacity-invariant ns; grows while the traced slice is open */
	double kwork;     /* of which charged kernel overhead (work_host.kernel_work) */
	bool complete;    /* its traced switch-out was read */
	u32 end_state;    /* prev_state of that switch-out */
	u32 wp_head, wp_tail; /* wake points emitted during it, in traced order */
	u32 next_free;
};

struct wakept {
	double offset;        /* work of the waker's slice done at the traced wakeup */
	struct event ev;      /* the wakeup to replay at the emulated time */
	struct wtask *wakee;  /* NULL: it makes no slice ready (the task was ready already) */
	u32 wakee_gen;        /* wakee->gen when made: another once the entry is reused */
	u64 wakee_seq;        /* the wakee's slice it makes ready */
	u32 wakee_slice;      /* that slice once read; NO_INDEX before */
	u32 next;             /* the waker slice's next wake point, or the free list */
	u32 gen;              /* bumped when freed: handles compare it */
	bool live;
};

struct handle {
	u32 idx, gen;
};

struct slice_queue {
	u32 *v;
	size_t head, len, cap; /* ring; cap is 0 or a power of two */
};

/* What the pump does next: a CPU's running slice ends, a waiting one starts, the loop's own
 * work, an anchored trace event, a wake point of a running slice. */
enum work_item { ITEM_NONE = -1, ITEM_END, ITEM_START, ITEM_INTERNAL, ITEM_ANCHORED, ITEM_WAKE };

struct wcpu {
	int id;
	struct slice_queue q; /* waiting slices, in traced order */
	u32 cur;              /* the running slice, NO_INDEX when idle */
	int nr_qtasks;        /* distinct tasks among the waiting slices */
	double capacity;      /* arch_scale_cpu_capacity / 1024 */
	u32 max_khz;
	/* traced side */
	u32 tr_slice;         /* the slice open on the traced side, NO_INDEX */
	bool ever;            /* an event of it was read: who runs is known */
	u64 tr_idle_since;    /* idle in the trace since (valid while tr_slice is NO_INDEX) */
	u64 tr_last_ns;       /* work accounted up to here */
	u32 tr_khz;
	/* emulated side */
	double done;          /* work done of the running slice */
	u64 last_progress;
	double speed;         /* work per emulated ns */
	u64 free_at;          /* when the CPU became free */
	/* the cached next item (its time and bound are struct work's item_t[] and bound_t[]),
	 * up to date unless the CPU's bit of work.stale is set */
	enum work_item kind;  /* of the next item: ITEM_END, ITEM_START or ITEM_WAKE */
	u32 cand_pos;         /* ITEM_START: the waiting slice's position in q */
	char idle_comm[TASK_COMM_LEN]; /* "swapper/N" */
	double work_in, work_out;
	double kernel_in, kernel_out; /* charged kernel overhead, apart from the traced work */
};

struct wtask {
	s32 pid;           /* 0 = empty slot (pid 0 never has slices) */
	char comm[TASK_COMM_LEN];
	u64 born;          /* creation order, among every task of the run */
	u32 gen;           /* bumped each time the entry is reused */
	bool dead;         /* switched out to die (X/Z) in the trace: out of the pid table, its
			    * entry reused once its last slice is emulated (work_task_exit()) */
	struct wtask *next_free;
	u64 next_seq;      /* the next slice number to hand out (traced side) */
	u64 next_start;    /* the slice number that may start next (emulated side) */
	bool tr_running;   /* traced side: a slice of it is open, on CPU tr_cpu */
	int tr_cpu;
	bool running;      /* a slice of it is executing */
	bool placed;       /* --placement: its slices go to placed_cpu, not the traced CPU */
	int placed_cpu;
	u64 last_end;      /* emulated end of its last slice */
	/* traced side: the cause of its next slice's readiness */
	bool tr_ready;
	int cause;         /* CAUSE_* */
	u64 tr_ready_ns;   /* CAUSE_EXTERNAL: the traced wakeup */
	u64 tr_wake_ns;    /* the traced wakeup of the cause, whatever its kind */
	struct handle cause_wp; /* CAUSE_TASK */
	struct handle waking_wp; /* a task-caused sched_waking whose sched_wakeup is not read */
	bool waking_ext;   /* an external sched_waking whose sched_wakeup is not read */
	bool early_valid;  /* a wake point emulated before its wakee's slice was read */
	u64 early_seq, early_ns;
	/* emulated side */
	u64 qmask;         /* CPUs where it has waiting slices */
	u32 qcount[GS_MAX_CPUS];
	u64 stamp;
	bool act_open;     /* an activation runs: woken at act_wake_ns */
	bool act_measured;
	u64 act_wake_ns;
	/* measurements */
	u64 delay_ns, max_delay_ns;
	u64 activations;
	struct dist latency, response, lateness;
	/* backlog: lateness of the first and the last activation, how many times it rose, and
	 * how many activations an external wakeup began (act_external: the open one) */
	s64 late_first_ns, late_last_ns;
	u64 late_rises;
	u64 ext_activations;
	bool act_external;
};

enum { CAUSE_NONE, CAUSE_EXTERNAL, CAUSE_TASK, CAUSE_PREEMPTED };

/* What work_backlog_note() says of a task, kept when a dead task's entry is reused. */
struct work_backlog {
	u64 born;
	s32 pid;
	char comm[TASK_COMM_LEN];
	s64 late_first_ns, late_last_ns;
	u64 activations;
};

#define WTASK_CHUNK 256

struct anchored {
	struct event ev;
	u64 t;
};

struct work {
	struct work_host host;
	struct event sw_ev; /* the last switch the emulation made (work.c: make_switch()) */
	const struct platform *plat;
	struct wcpu cpu[GS_MAX_CPUS];
	/* pools */
	struct slice *sp;
	u32 sp_cap, sp_free;
	struct wakept *wp;
	u32 wp_cap, wp_free;
	/* tasks */
	struct pid_table tasks; /* the live tasks by pid (a dead one's entry is out of it) */
	struct wtask **chunks; /* the entries, WTASK_CHUNK per chunk */
	size_t nr_chunks;
	size_t entries;         /* entries handed out of the chunks */
	struct wtask *free_tasks; /* entries of dead tasks, to reuse */
	u64 born, live_tasks, peak_tasks;
	struct wtask *dying;    /* emu_end(): the dead task whose last switch-out is replayed */
	struct work_backlog *gone; /* dead tasks whose backlog grew (work_backlog_note()) */
	size_t nr_gone, cap_gone;
	struct anchored *aq;
	size_t aq_head, aq_len, aq_cap; /* ring; aq_cap is 0 or a power of two */
	u64 disagreed;     /* sched_switch events that disagreed with the traced side */
	u64 t_read;        /* the last trace time read */
	u64 t_first;
	u64 t_emu;         /* the last emulated time processed */
	u64 t_end;         /* the last emulated end of work */
	u64 warmup_ns, measure_from;
	u64 stamp;
	/* The CPUs' cached next items: per CPU the item's time (NO_TIME none determinable) and
	 * the earliest end of a running slice whose traced end is unread (NO_TIME none), the
	 * leaves of a tournament tree (tree_n leaves, a power of two >= the CPU count: CPU c's is
	 * node tree_n + c; node i's children are 2i and 2i + 1, the root is node 1) whose every
	 * node holds the earliest item below it, its CPU (item_cpu, the lowest at a tie) and the
	 * earliest bound below it. update_next_item() writes a leaf and marks it (tree_dirty);
	 * scan_cpus() carries the marked leaves up to the root. The CPUs whose cache is out of
	 * date (a bit per CPU). scan_cpus(): the earliest item (scan_t, of CPU scan_cpu, -1 none)
	 * and the earliest bound, redone only after a CPU's cache was invalidated. */
	u64 item_t[2 * GS_MAX_CPUS];
	u64 bound_t[2 * GS_MAX_CPUS];
	uint8_t item_cpu[2 * GS_MAX_CPUS];
	u32 tree_n;
	u64 tree_dirty;
	u64 stale;
	bool scan_stale;
	int scan_cpu;
	u64 scan_t, scan_bound;
	bool started;
	bool finishing;
	u64 activations;
	/* the run's: every task's samples. Their count, sum and extremes are kept per sample
	 * (dist_note()); their histograms hold only the tasks freed (work_task_exit()), a live
	 * task's histogram being added when the totals are read (work_total_activity()): a sample
	 * writes one histogram counter, its task's. Allocated in work_new(). */
	struct dist latency, response, lateness;
};

static inline struct slice *slice_at(struct work *w, u32 i)
{
	return &w->sp[i];
}

static inline void invalidate(struct work *w, struct wcpu *wc)
{
	w->stale |= 1ull << wc->id;
	w->scan_stale = true;
}

/* work_store.c: the slice and wake point pools (stable indices; NO_INDEX when out of memory),
 * handles (NULL when stale), the per-CPU queues of waiting slices, the task table (entries never
 * move; task_get creates, and records the comm when given), the anchored event ring. */
u32 work_slice_alloc(struct work *w);
void work_slice_release(struct work *w, u32 i);
u32 work_wp_alloc(struct work *w);
void work_wp_release(struct work *w, u32 i);
struct wakept *work_wp_get(struct work *w, struct handle h);
u32 *work_q_at(struct slice_queue *q, size_t i);
int work_q_push(struct slice_queue *q, u32 idx);
void work_q_remove(struct slice_queue *q, size_t pos);
struct wtask *work_task_find(const struct work *w, s32 pid);
/* A new task's entry (pid not in the table), named comm when given; NULL when out of memory. */
struct wtask *work_task_new(struct work *w, s32 pid, const char *comm);
/* The task's entry, created if new (inline: nearly every event names a known task). */
static inline struct wtask *work_task_get(struct work *w, s32 pid, const char *comm)
{
	struct wtask *tk = pid_table_find(&w->tasks, pid);

	if (!tk)
		return work_task_new(w, pid, comm);
	if (comm)
		memcpy(tk->comm, comm, TASK_COMM_LEN); /* an event's comm: NUL-terminated in 16 */
	return tk;
}
/* A task switched out to die in the trace: out of the pid table (the pid's next task is a new
 * one), its entry kept until its last slice is emulated. */
void work_task_detach(struct work *w, struct wtask *tk);
int work_aq_push(struct work *w, const struct event *ev, u64 t);

#endif
