/*
 * freq.c - the frequency side of the replay: the governor's update at a cpufreq_update_util()
 * point, a policy's change of cur (counted, shown to the observers, then to the scheduler as
 * PELT's frequency scale), the time of the next pending change, and the governor kthread of a
 * traced slow path, whose wakeups, switches and driver-call ends time the emulated kthread's
 * (cpufreq/kthread.h).
 */
#include "sim/sim_priv.h"

#include <stdlib.h>
#include <string.h>

#include "cpufreq/cpufreq.h"
#include "sched/sched.h"
#include "work/work.h"

void sim_governor_update(struct sim *s, int cpu, u64 now, unsigned int flags)
{
	struct sim_cluster *cl = sim_cluster_of(s, cpu);
	u32 before = cl->pol.cur_khz;

	/* the governor is not running yet: the policy stays as it was (a lab recording: at its
	 * maximum, under performance, until the traced switch to schedutil) */
	if (now < s->cfg.governor_start_cpu_ns[cpu])
		return;
	sim_ovh_update_util(s, cpu);
	sim_observers_update_util(&s->obs, s, cpu);
	cl->pol.this_cpu = s->this_cpu;
	governor_update(cl->gov_data, cpu, now, flags);
	sim_next_pending_refresh(s);
	sim_cluster_sync_khz(s, s->cpu[cpu].cluster);
	if (cl->pol.cur_khz != before)
		sim_freq_changed(s, cl);
}

void sim_freq_changed(struct sim *s, struct sim_cluster *cl)
{
	int opp = plat_cluster_opp_index(cl->pc, cl->pol.cur_khz);

	sim_cluster_sync_khz(s, (int)(cl - s->cl));
	if (opp < 0 || opp == cl->cur_opp)
		return;
	cl->cur_opp = opp;
	cl->transitions++;
	sim_ovh_opp_change(s, (int)(cl - s->cl));
	sim_observers_opp_change(&s->obs, s, (int)(cl - s->cl), s->now, cl->pol.cur_khz);
	cl->freq_dirty = true;
	s->any_freq_dirty = true;
	sim_timeline_step(&cl->tl_emu, s->now, cl->pol.cur_khz);
}

/*
 * arch_scale_freq_capacity() for PELT: (cur << 10) / max where the kernel is frequency
 * invariant; SCHED_CAPACITY_SCALE where it is not (x86 without APERF/MPERF: arch_scale_freq_key
 * stays off and arch_scale_freq_capacity() returns 1024 -- arch/x86/include/asm/topology.h),
 * so a running task's util climbs as if the CPU ran at its maximum.
 */
unsigned long sim_freq_scale(const struct cpufreq_policy *pol, const struct plat_cluster *pc)
{
	if (!pol->freq_invariant)
		return SCHED_CAPACITY_SCALE;
	return ((unsigned long)pol->cur_khz << SCHED_CAPACITY_SHIFT) / plat_cluster_max_khz(pc);
}

/* Tell the scheduler about frequency changes made inside a hook, once it has returned. */
void sim_flush_freq(struct sim *s)
{
	if (!s->any_freq_dirty)
		return;
	s->any_freq_dirty = false;
	for (int c = 0; c < s->plat->nr_clusters; c++) {
		struct sim_cluster *cl = &s->cl[c];
		const struct plat_cluster *pc = cl->pc;
		unsigned long scale;

		if (!cl->freq_dirty)
			continue;
		cl->freq_dirty = false;
		scale = sim_freq_scale(&cl->pol, pc);
		for (int i = 0; i < pc->nr_cpus; i++)
			sched_set_freq_scale(s->sched, pc->cpus[i], s->now, scale);
		if (s->work)
			work_freq_changed(s->work, c, s->now);
	}
}

void sim_next_pending_refresh(struct sim *s)
{
	u64 t = NO_TIME;

	for (int c = 0; c < s->plat->nr_clusters; c++)
		if (s->cl[c].pol.pending && s->cl[c].pol.pending_at_ns < t)
			t = s->cl[c].pol.pending_at_ns;
	s->next_pending_ns = t;
}

/* ---- the traced governor kthread ------------------------------------------------------------ */

/* The cluster whose policy a kthread called comm serves: sugov_kthread_create() names it
 * "sugov:%d" after policy->cpu, the policy's first CPU (kernel/sched/cpufreq_schedutil.c,
 * Debian 5.10 to 7.2); -1 for any other task. */
static int kthread_cluster(const struct sim *s, const char *comm)
{
	char *end;
	long cpu;

	if (strncmp(comm, "sugov:", 6) != 0)
		return -1;
	cpu = strtol(comm + 6, &end, 10);
	if (end == comm + 6 || *end)
		return -1;
	for (int c = 0; c < s->plat->nr_clusters; c++)
		if (s->cl[c].pol.tbl.cpus[0] == cpu)
			return c;
	return -1;
}

/* The cluster whose kthread emitted a cpu_frequency for the policy's first CPU: the end of
 * its driver call (cpufreq_notify_post_transition(), one event per CPU of the policy). */
static int kthread_call_cluster(const struct sim *s, const struct event *ev)
{
	for (int c = 0; c < s->plat->nr_clusters; c++)
		if (s->cl[c].kthread_pid && s->cl[c].kthread_pid == ev->pid &&
		    (u32)s->cl[c].pol.tbl.cpus[0] == ev->power.cpu_id)
			return c;
	return -1;
}

/* The policy of cluster c follows its traced kthread from now on, if it has a slow path that
 * schedutil drives. */
static struct cpufreq_policy *kthread_follow(struct sim *s, int c, s32 pid)
{
	struct sim_cluster *cl;

	if (c < 0)
		return NULL;
	cl = &s->cl[c];
	if (!cl->pol.switch_latency_ns || strcmp(cl->gov->name, "schedutil") != 0)
		return NULL;
	if (pid > 0)
		cl->kthread_pid = pid;
	cl->pol.kth.traced = true;
	return &cl->pol;
}

/*
 * The traced kthread switched in: its run (sugov_work() reading next_freq) starts once the
 * switch is applied. __schedule() dequeued and put prev first, and the hook calls those
 * updates made, at the switch's rq clock, come before the context switch: a next_freq they
 * set is the one the kthread reads (kernel/sched/core.c, cpufreq_schedutil.c, Debian 5.10 to
 * 7.2). So for the kthread switching out to sleep (kthread_worker_fn(): an interruptible
 * sleep ends the run; D is the driver call waiting, R a preemption): a request its own
 * switch's update made came before its run ended.
 */
void sim_kthread_switched_in(struct sim *s, const struct event *ev)
{
	struct cpufreq_policy *in, *out = NULL;

	if (!s->kthread_timing || ev->type != EV_SWITCH)
		return;
	if (ev->sw.prev_state & (TASK_STATE_S | TASK_STATE_EXIT))
		out = kthread_follow(s, kthread_cluster(s, ev->sw.prev_comm), ev->sw.prev_pid);
	in = kthread_follow(s, kthread_cluster(s, ev->sw.next_comm), ev->sw.next_pid);
	if (!in && !out)
		return;
	if (out)
		cpufreq_kthread_sleep(out, ev->ts_ns);
	if (in)
		cpufreq_kthread_run(in, ev->ts_ns);
	sim_next_pending_refresh(s);
	sim_flush_freq(s);
}

int sim_kthread_calls(const struct sim *s, int c, u64 *traced, u64 *model)
{
	const struct cpufreq_kthread *k;

	*traced = *model = 0;
	if (c < 0 || c >= s->plat->nr_clusters)
		return -1;
	k = &s->cl[c].pol.kth;
	if (k->traced) {
		*traced = k->calls_traced;
		*model = k->calls_model;
	}
	return s->cl[c].pol.tbl.cpus[0];
}

int sim_kthread_event(struct sim *s, const struct event *ev, struct gs_error *err)
{
	struct cpufreq_policy *woken = NULL, *end = NULL;
	int ret;

	if (!s->kthread_timing)
		return 0;
	switch (ev->type) {
	case EV_WAKING:
	case EV_WAKEUP:
		woken = kthread_follow(s, kthread_cluster(s, ev->wake.comm), ev->wake.pid);
		break;
	case EV_SWITCH:
		/* a run ends, and one starts, after the switch's own updates:
		 * sim_kthread_switched_in(); the kthread is known before them */
		if (ev->sw.prev_state & (TASK_STATE_S | TASK_STATE_EXIT))
			(void)kthread_follow(s, kthread_cluster(s, ev->sw.prev_comm),
					     ev->sw.prev_pid);
		(void)kthread_follow(s, kthread_cluster(s, ev->sw.next_comm), ev->sw.next_pid);
		break;
	case EV_CPU_FREQUENCY:
		end = kthread_follow(s, kthread_call_cluster(s, ev), 0);
		break;
	default:
		break;
	}
	if (!woken && !end)
		return 0;
	if ((ret = sim_advance(s, ev->ts_ns, err)))
		return ret;
	if (woken)
		cpufreq_kthread_woken(woken, ev->ts_ns);
	if (end && cpufreq_kthread_call_end(end, ev->ts_ns))
		sim_freq_changed(s, &s->cl[end->id]);
	sim_next_pending_refresh(s);
	sim_flush_freq(s);
	return 0;
}
