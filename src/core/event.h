/*
 * event.h - the typed, time-ordered event stream every trace reader produces.
 *
 * One `struct event` is plain data, filled by a reader and consumed by the replay; it holds no
 * pointers, so a reader can reuse one buffer for every event (no per-event allocation).
 * Field meanings follow the v5.9 tracepoints (include/trace/events/sched.h, power.h).
 */
#ifndef GOVSIM_CORE_EVENT_H
#define GOVSIM_CORE_EVENT_H

#include "core/types.h"

/* X(enum suffix, canonical tracepoint name) */
#define GS_EVENT_TYPES(X)                                   \
	X(SWITCH, "sched_switch")                           \
	X(WAKEUP, "sched_wakeup")                           \
	X(WAKEUP_NEW, "sched_wakeup_new")                   \
	X(WAKING, "sched_waking")                           \
	X(MIGRATE, "sched_migrate_task")                    \
	X(CPU_FREQUENCY, "cpu_frequency")                   \
	X(CPU_IDLE, "cpu_idle")                             \
	X(FREQ_MARKER, "cpu_frequency_devlib")              \
	X(PELT_CFS, "sched_pelt_cfs")                       \
	X(PELT_RT, "sched_pelt_rt")                         \
	X(PELT_DL, "sched_pelt_dl")                         \
	X(PELT_IRQ, "sched_pelt_irq")                       \
	X(PELT_SE, "sched_pelt_se")                         \
	X(UTIL_EST_CFS, "sched_util_est_cfs")               \
	X(UTIL_EST_SE, "sched_util_est_se")                 \
	X(LOAD_CFS_RQ, "sched_load_cfs_rq")                 \
	X(LOAD_SE, "sched_load_se")                         \
	X(LOAD_AVG_CPU, "sched_load_avg_cpu")               \
	X(LOAD_AVG_TASK, "sched_load_avg_task")             \
	X(UCLAMP_UTIL_SE, "uclamp_util_se")                 \
	X(UCLAMP_UTIL_CFS, "uclamp_util_cfs")               \
	X(CSV_UTIL, "csv_util")                             \
	X(HRTIMER_EXPIRE, "hrtimer_expire_entry")           \
	X(SOFTIRQ_ENTRY, "softirq_entry")                   \
	X(BLOCKED_UPDATE, "update_blocked_averages")       \
	X(GOV_RAW_FREQ, "resolve_freq")                     \
	X(IOWAIT_BOOST, "sugov_set_iowait_boost")          \
	X(PROCESS_EXIT, "sched_process_exit")               \
	X(GOV_HOOK, "sugov_update_single_freq")          \
	X(GOV_IDLE_CALLS, "idle_calls")                     \
	X(START_SE, "lab_start_se")                         \
	X(START_CFS, "lab_start_cfs")

enum event_type {
#define GS_EVENT_ENUM(name, str) EV_##name,
	GS_EVENT_TYPES(GS_EVENT_ENUM)
#undef GS_EVENT_ENUM
	EV__COUNT
};

/* The tracepoint name of a type ("sched_switch"); "?" when out of range. */
const char *event_type_name(enum event_type type);
/* The type of a tracepoint name, or -1 when the reader does not turn it into an event. */
int event_type_from_name(const char *name, size_t len);

/*
 * prev_state of sched_switch, normalised to the v5.9 TASK_REPORT bits whatever the trace wrote
 * (letters "S", "R+", "D|W", or numbers from older kernels): bits 0..7 are the sleeping states
 * S D T t X Z P I; TASK_REPORT_MAX (0x100) means preempted ("R+"); 0 is "R".
 */
#define TASK_REPORT_MAX 0x100u
#define TASK_STATE_S    0x01u
#define TASK_STATE_D    0x02u
#define TASK_STATE_EXIT 0x30u /* X (EXIT_DEAD) or Z (EXIT_ZOMBIE): switched out to die */
#define TASK_STATE_SPECIAL 0x7cu /* T t X Z P: is_special_task_state() (stopped, traced, dead,
				  * parked) */
/* Not a trace's: the replay's copy of a sched_switch, applied before its CPU's newidle balance,
 * that only takes prev off its runqueue (src/sim/kernel_points.c); the switch itself follows
 * where the trace has it. */
#define TASK_STATE_BLOCK_EARLY 0x10000u

/* True when the switched-out task left the runqueue (went to sleep, blocked or died). */
static inline bool switch_prev_sleeps(u32 prev_state)
{
	return (prev_state & 0xffu) != 0;
}

/* Path kinds of the util tracepoints' `path=` field. */
enum event_path {
	EV_PATH_NONE = 0, /* "(null)" or absent: a task se, or no group */
	EV_PATH_ROOT,     /* "/": the root cfs_rq */
	EV_PATH_GROUP,    /* "/autogroup-3", "/foo": a task group */
};

/* The emitting context of an event, from the hardirq/softirq column of the ftrace flags
 * (v5.9 trace_print_lat_fmt(): Z, z, H, h, s) or the record's common_flags (TRACE_FLAG_HARDIRQ
 * 0x08, TRACE_FLAG_SOFTIRQ 0x10, TRACE_FLAG_NMI 0x40). 0: task context, or not recorded. */
#define EV_IRQ_HARD 0x1u
#define EV_IRQ_SOFT 0x2u
#define EV_IRQ_NMI  0x4u

/* TRACE_FLAG_NEED_RESCHED and TRACE_FLAG_NEED_RESCHED_LAZY in a ring-buffer record's
 * common_flags: TIF_NEED_RESCHED and TIF_NEED_RESCHED_LAZY of the current task (v5.9
 * kernel/trace/trace.h, 7.2 include/linux/trace_events.h; 0x02 was TRACE_FLAG_IRQS_NOSUPPORT
 * before the lazy bit, which x86 and arm64 never set). */
#define EV_COMMON_FLAG_NEED_RESCHED_LAZY 0x02u
#define EV_COMMON_FLAG_NEED_RESCHED      0x04u

/* event.wake.resched from common_flags: TIF_NEED_RESCHED without the lazy bit, as the text
 * readers take 'N' and 'n' but not 'B' and 'b' (src/trace/text/text.c flags_resched()). */
static inline u32 event_resched_from_common_flags(u32 fl)
{
	return (fl & EV_COMMON_FLAG_NEED_RESCHED) && !(fl & EV_COMMON_FLAG_NEED_RESCHED_LAZY);
}

/* The EV_IRQ_* bits of a ring-buffer record's common_flags (trace.dat, Perfetto's
 * FtraceEvent.common_flags): TRACE_FLAG_HARDIRQ 0x08, _SOFTIRQ 0x10, _NMI 0x40 (v5.9 trace.h). */
static inline u32 event_irq_from_common_flags(u32 fl)
{
	return ((fl & 0x08) ? EV_IRQ_HARD : 0) | ((fl & 0x10) ? EV_IRQ_SOFT : 0) |
	       ((fl & 0x40) ? EV_IRQ_NMI : 0);
}

static inline bool event_is_wake(enum event_type t)
{
	return t == EV_WAKEUP || t == EV_WAKEUP_NEW || t == EV_WAKING;
}

#define EV_NO_VALUE UINT64_MAX /* a util field the event did not carry */
#define EV_IDLE_ABSENT (-2)    /* CSV idle_state column absent or empty */

struct event {
	u64 ts_ns;    /* trace time */
	u64 line;     /* source line (text) or record number (binary); 0 if unknown */
	s32 cpu;      /* the CPU that recorded the event ([cpu] column) */
	s32 pid;      /* the pid of the current task on that CPU (comm-pid column); -1 if unknown */
	enum event_type type;
	union {
		struct {
			char prev_comm[TASK_COMM_LEN];
			s32 prev_pid;
			s32 prev_prio;
			u32 prev_state; /* normalised, see switch_prev_sleeps() */
			char next_comm[TASK_COMM_LEN];
			s32 next_pid;
			s32 next_prio;
		} sw;
		struct { /* WAKEUP, WAKEUP_NEW, WAKING; the waker is the event's pid (common_pid:
			  * the task current on `cpu` when it was emitted) */
			char comm[TASK_COMM_LEN];
			s32 pid;
			s32 prio;
			s32 target_cpu;
			u32 irq; /* EV_IRQ_* bits of the emitting context (ftrace flags column) */
			/* 1: TIF_NEED_RESCHED was set on the task current on `cpu` when this was
			 * emitted (flags column 'N' or 'n'; event_resched_from_common_flags());
			 * sched_wakeup traces it after the wakeup's preemption test, so where `cpu`
			 * is target_cpu it says whether the woken task preempts the running one */
			u32 resched;
		} wake;
		struct {
			char comm[TASK_COMM_LEN];
			s32 pid;
			s32 prio;
			s32 orig_cpu;
			s32 dest_cpu;
			u32 irq; /* EV_IRQ_*: the context that traced it (the waker's, or the load
				  * balancer's: a softirq, or a __schedule()'s newidle balance) */
		} migrate;
		struct { /* IOWAIT_BOOST: Android kernels' trace of schedutil's
			  * sugov_set_iowait_boost(), emitted on `cpu` as the kernel handles a
			  * cpufreq update: "doing iow boost" when the update carries
			  * SCHED_CPUFREQ_IOWAIT (the enqueue of a task waking from IO, whose
			  * sched_wakeup follows on that CPU), "skipping iow boost" otherwise */
			bool boost;
		} iowait;
		struct { /* PROCESS_EXIT: task pid starts to exit (do_exit(), on the CPU it
			  * runs on: the event's cpu); text and trace.dat (Perfetto's is counted
			  * by name only) */
			char comm[TASK_COMM_LEN];
			s32 pid;
		} proc;
		struct { /* HRTIMER_EXPIRE: an hrtimer fired on `cpu`; the scheduler tick when its
			  * function is tick_sched_timer (the kernel's own tick time), the
			  * scheduler's high-resolution tick when it is hrtick */
			bool sched_tick;
			bool hrtick;
		} timer;
		struct { /* SOFTIRQ_ENTRY: a softirq handler starts on `cpu` (vec 7: SCHED_SOFTIRQ,
			  * the load balancer's run_rebalance_domains()) */
			u32 vec;
		} softirq;
		struct { /* BLOCKED_UPDATE: the kernel ran update_blocked_averages(cpu) on the
			  * event's CPU (a kprobe event the lab records, `cpu=N`) */
			s32 cpu;
			u32 irq; /* EV_IRQ_* bits of the calling context: 0 for the newidle
				  * balance of __schedule(), EV_IRQ_SOFT for SCHED_SOFTIRQ's */
		} blocked;
		struct { /* GOV_RAW_FREQ: the raw frequency schedutil's get_next_freq() asked
			  * cpufreq_driver_resolve_freq() for, on `cpu` (the lab's kprobe event,
			  * `target_freq=N` kHz): the kernel's own util times the reference */
			u32 khz;
		} raw;
		struct { /* GOV_HOOK: a call of schedutil's update hook (the lab's kprobe event on
			  * sugov_update_single_freq, sugov_update_single before v5.15, or
			  * sugov_update_shared, `time=N`): the rq clock (ns) of the update */
			u64 time;
			u32 irq; /* EV_IRQ_* bits of the calling context */
			u32 resched; /* TIF_NEED_RESCHED of the current task at the call, as
				      * wake.resched (0: not set, or not recorded) */
		} hook;
		struct { /* GOV_IDLE_CALLS: the return of tick_nohz_get_idle_calls_cpu() inside a
			  * single-CPU policy's schedutil evaluation, past its rate limit (the lab's
			  * kretprobe event, `calls=N`): the idle-entry count its busy hold
			  * compares. It marks every such evaluation, those whose raw frequency
			  * equals the cached one (no resolve_freq) too. */
			u64 calls;
		} idle_calls;
		struct { /* CPU_FREQUENCY (kHz), CPU_IDLE (index, 4294967295 = exit), FREQ_MARKER */
			u32 state;
			u32 cpu_id;
			u32 resched; /* CPU_IDLE: TIF_NEED_RESCHED of the idle task as the flags
				      * showed it, as wake.resched (0 for the others) */
		} power;
		struct { /* PELT_*, UTIL_EST_*, LOAD_*, UCLAMP_UTIL_*, CSV_UTIL, START_* (the lab's
			  * snapshot markers: update_time the task's last_update_time) */
			s32 cpu;    /* -1 when the event has none (task se without group sched) */
			s32 pid;    /* task events; -1 otherwise */
			char comm[TASK_COMM_LEN];
			enum event_path path;
			/* PELT_*, UTIL_EST_*: EV_IRQ_* bits of the context that traced it (an
			 * update of __schedule() or of a local wakeup in task context, a tick's or
			 * a wakeup IPI's in an interrupt); 0 for the others */
			u32 irq;
			u64 load;     /* EV_NO_VALUE when absent */
			u64 runnable; /* EV_NO_VALUE when absent */
			u64 util;     /* util_avg */
			u64 update_time;
			u64 util_est_enqueued; /* raw, flag bit included */
			u64 util_est_ewma;
			u64 util_rt; /* CSV: per-class columns */
			u64 util_dl;
			u64 uclamp_min;
			u64 uclamp_max;
			u64 freq_khz;   /* CSV */
			s64 idle_state; /* CSV: state index, -1 not idle, EV_IDLE_ABSENT */
		} util;
	};
};

#define PWR_EVENT_EXIT 4294967295u

/* True when a and b record the same thing: every field but the source line (a trace that
 * carries one event twice). Compares only the fields of their type. */
bool event_same(const struct event *a, const struct event *b);

/* The kernel's own PELT and util_est events (the lab's sched_pelt_* and sched_util_est_*). */
static inline bool event_is_pelt(enum event_type t)
{
	return t == EV_PELT_CFS || t == EV_PELT_RT || t == EV_PELT_DL || t == EV_PELT_IRQ ||
	       t == EV_PELT_SE || t == EV_UTIL_EST_CFS || t == EV_UTIL_EST_SE;
}

/* Where an event keeps the EV_IRQ_* bits of the context that traced it (the wakeups', the
 * migrations', the schedutil hook calls', the blocked-load updates' and the PELT and util_est
 * events'); NULL for the other types, which do not keep them. event_irq_slot(): the same, to
 * write. */
static inline const u32 *event_irq_bits(const struct event *ev)
{
	if (event_is_wake(ev->type))
		return &ev->wake.irq;
	if (event_is_pelt(ev->type))
		return &ev->util.irq;
	if (ev->type == EV_MIGRATE)
		return &ev->migrate.irq;
	if (ev->type == EV_BLOCKED_UPDATE)
		return &ev->blocked.irq;
	return ev->type == EV_GOV_HOOK ? &ev->hook.irq : NULL;
}

static inline u32 *event_irq_slot(struct event *ev)
{
	return (u32 *)event_irq_bits(ev);
}

/* Where an event keeps TIF_NEED_RESCHED as its flags showed it (the wakeups', the schedutil
 * hook calls' and cpu_idle's); NULL for the other types. */
static inline u32 *event_resched_slot(struct event *ev)
{
	if (event_is_wake(ev->type))
		return &ev->wake.resched;
	if (ev->type == EV_CPU_IDLE)
		return &ev->power.resched;
	return ev->type == EV_GOV_HOOK ? &ev->hook.resched : NULL;
}

#endif
