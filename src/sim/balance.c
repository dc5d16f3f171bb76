/*
 * balance.c - the load balancer's blocked-load updates in traced timing, where the trace has
 * no update_blocked_averages probe (with SCHED_SOFTIRQ entries, the model decides what each
 * one refreshed: sim_balance_softirq): each is an
 * update_blocked_averages() of a CPU, which kicks schedutil when a signal decayed. They run at
 * the ticks (the kernel's, where the trace has them, else the replay's grid, which ticks only
 * busy CPUs as NO_HZ idle does) and where a CPU goes idle. Work timing keeps the replay's
 * simpler refresh of every CPU every 32 ms while one is busy (src/sim/sim.c). With the probe,
 * the newidle balance's own refresh still runs here on a kernel whose newidle balance calls
 * __sched_balance_update_blocked_averages() (the profile's newidle_blocked_inner: 7.2), which
 * the probe of the outer function does not see.
 *
 * Mirrored from kernel/sched/fair.c (v5.10, v6.1, v6.12 and 7.2 read; the rules are the same):
 *  - trigger_load_balance() at a CPU's tick raises SCHED_SOFTIRQ once rq->next_balance has
 *    passed; run_rebalance_domains() updates the CPU's blocked load, then rebalance_domains()
 *    balances each domain whose last_balance + interval has passed and sets next_balance to the
 *    earliest last_balance + interval (sim_balance_tick).
 *  - get_sd_balance_interval(): the domain's balance_interval in ms (busy_factor times that on a
 *    busy CPU, then a jiffy less), in jiffies, at least one and at most HZ * nr_cpus / 10.
 *  - newidle_balance() (sched_balance_newidle() from v6.10), before the CPU's idle loop,
 *    updates its own blocked load where the root domain is overloaded (rd->overload: a CPU got a
 *    second runnable task since the last balance of the top domain; add_nr_running() sets it,
 *    update_sd_lb_stats() at the top domain, the newidle balance's own included, sets it to
 *    whether one has two now): sim_balance_newidle. It pulls next_balance in to the idle
 *    interval, stamps rq->idle_stamp, and nohz_newidle_balance() runs the idle CPUs' stats
 *    update on the CPU itself when rq->avg_idle >= sysctl_sched_migration_cost and
 *    nohz.next_blocked has come; the wakeup that ends the idle period folds its length into
 *    avg_idle (ttwu_do_activate): both in sim_balance_switch.
 *  - nohz_balancer_kick() at a busy CPU's tick kicks the idle-load balancer, the first idle
 *    CPU, with NOHZ_STATS_KICK once nohz.next_blocked has passed; _nohz_idle_balance() then
 *    updates every idle CPU with blocked load not updated this jiffy (update_nohz_stats) and
 *    sets nohz.next_blocked LOAD_AVG_PERIOD (32 ms) on. The kicked CPU then goes round its
 *    idle loop again (an idle call for schedutil's busy hold).
 *
 * Differences:
 *  - one domain per CPU, its cluster of the platform (MC, where the cluster shares a cache);
 *    its balance_interval stays at max_interval (twice the domain's weight), where
 *    load_balance() leaves it once the domain is balanced;
 *  - a CPU is in nohz.idle_cpus_mask from the traced idle entry that stopped its tick to its
 *    next busy tick, as in the kernel; where the trace shows no idle entries, while it is
 *    idle; the ilb runs at the kicking tick's time (the IPI takes some microseconds), or at
 *    the softirq the trace shows (sim_balance_softirq);
 *  - the kicks for balancing proper (NOHZ_BALANCE_KICK: an overloaded CPU, asymmetric capacity,
 *    misfit tasks) are not modelled: only their blocked-load side would reach schedutil;
 *  - jiffies are the trace's tick times: a tick up to half a jiffy early (a virtual machine's
 *    timers) counts as on time;
 *  - busy_factor is 16 (v5.10+; 32 before, which the profiles v4.19 to v5.4 would need);
 *  - the newidle update's avg_idle condition (avg_idle >= sysctl_sched_migration_cost up to
 *    v5.15, >= the domain's max_newidle_lb_cost after) is not checked, and it runs at the
 *    switch's time, after the prev's dequeue (the kernel's reads the clock again, a few us
 *    later; on 7.2, at the switch's rq clock: sched_balance_newidle() calls the inner
 *    __sched_balance_update_blocked_averages() with no clock update): it evaluates where the
 *    rt or dl averages, or a period the dequeue did not see, decay. A prev switched out to die
 *    gets none here: the kernel's runs before finish_task_switch() takes the task's util off
 *    (task_dead_fair()), and at the model's one instant it would only apply that removal
 *    early.
 */
#include "sim/sim_priv.h"

#include "sched/sched.h"

#define LB_BUSY_FACTOR 16                     /* sd_init(), kernel/sched/topology.c */
#define MIGRATION_COST_NS (500 * NSEC_PER_USEC) /* sysctl_sched_migration_cost */

/* time_after_eq(a, b) and time_after(a, b) of jiffies, on tick times */
static bool jiffies_reached(const struct sim *s, u64 a, u64 b)
{
	return a + s->tick_ns / 2 >= b;
}

static bool jiffies_after(const struct sim *s, u64 a, u64 b)
{
	return a + s->tick_ns / 2 >= b + s->tick_ns;
}

static u64 msecs_to_jiffies_ns(const struct sim *s, u64 ms)
{
	return (ms * NSEC_PER_MSEC + s->tick_ns - 1) / s->tick_ns * s->tick_ns;
}

static u64 balance_interval_ns(const struct sim *s, int cpu, bool busy)
{
	u64 ms = 2 * (u64)s->plat->clusters[s->cpu[cpu].cluster].nr_cpus;
	u64 j, max_j = NSEC_PER_SEC / s->tick_ns * (u64)s->plat->nr_cpus / 10;

	if (busy)
		ms *= LB_BUSY_FACTOR;
	j = msecs_to_jiffies_ns(s, ms) / s->tick_ns;
	if (busy)
		j -= 1;
	if (max_j && j > max_j)
		j = max_j;
	return (j ? j : 1) * s->tick_ns;
}

/* the whole model: the trace shows none of the kernel's blocked-load updates */
static bool balance_active(const struct sim *s)
{
	return s->traced_blocked == TRACED_BLOCKED_NONE && !s->work;
}

/* the trace shows the SCHED_SOFTIRQs (sim_balance_softirq) but not what each did: the model
 * decides that, and keeps the updates no softirq shows (a CPU going idle) */
static bool softirq_model(const struct sim *s)
{
	return s->traced_blocked == TRACED_BLOCKED_SOFTIRQ && !s->work;
}

/* cpu is in nohz.idle_cpus_mask: from the idle entry that stopped its tick
 * (nohz_balance_enter_idle()) to its next busy tick (nohz_balancer_kick() ->
 * nohz_balance_exit_idle()); where the trace shows no idle entries, while it is idle. */
static bool in_nohz_mask(const struct sim *s, int cpu)
{
	return s->cfg.has_traced_idle ? s->bal.nohz_tick_stopped[cpu] : !s->cpu[cpu].busy;
}

/* update_blocked_averages(cpu), run on this_cpu */
static void update_blocked(struct sim *s, int cpu, int this_cpu, u64 now)
{
	s->this_cpu = this_cpu;
	s->bal.has_blocked_load[cpu] = sched_update_blocked(s->sched, cpu, now);
	s->this_cpu = -1;
	s->bal.last_update[cpu] = now;
}

/*
 * _nohz_idle_balance(ilb, flags) for a pass that refreshes blocked load (the profile's
 * ilb_stats_per_jiffy: one with NOHZ_STATS_KICK; before v5.13, every pass): the idle CPUs of
 * nohz.idle_cpus_mask with blocked load, from the one after ilb round to ilb itself, each at
 * most once a jiffy (update_nohz_stats()); before v5.13 whatever the jiffy, and ilb itself
 * unconditionally unless the pass is the one a CPU going idle runs (newly_idle).
 */
static void nohz_stats(struct sim *s, int ilb, u64 now, bool newly_idle)
{
	bool per_jiffy = s->kp->ilb_stats_per_jiffy;
	bool has_blocked = false;
	int n = s->plat->nr_cpus;

	for (int i = 1; i <= n; i++) {
		int cpu = (ilb + i) % n;

		if (cpu == ilb && !per_jiffy) {
			if (!newly_idle) {
				update_blocked(s, cpu, ilb, now);
				has_blocked |= s->bal.has_blocked_load[cpu];
			}
			continue;
		}
		if (s->cpu[cpu].busy || !s->bal.has_blocked_load[cpu] || !in_nohz_mask(s, cpu))
			continue;
		if (!per_jiffy || jiffies_after(s, now, s->bal.last_update[cpu]))
			update_blocked(s, cpu, ilb, now);
		has_blocked |= s->bal.has_blocked_load[cpu];
	}
	s->bal.next_blocked = now + msecs_to_jiffies_ns(s, BLOCKED_PERIOD_NS / NSEC_PER_MSEC);
	s->bal.has_blocked = has_blocked;
}

/* update_sd_lb_stats() at the root domain: rd->overload is whether some CPU has more than one
 * runnable task now */
static void lb_overloaded(struct sim *s)
{
	bool over = false;

	for (int c = 0; c < s->plat->nr_cpus && !over; c++)
		over = sched_cpu_nr_running(s->sched, c) > 1;
	s->bal.overloaded = over;
}

/* the newidle balance's own blocked-load update, where the trace does not show it: without
 * the kernel's points, or with a probe of the outer function on a kernel whose newidle balance
 * calls the inner one */
static bool newidle_model(const struct sim *s)
{
	return balance_active(s) || softirq_model(s) ||
	       (s->traced_blocked == TRACED_BLOCKED_PROBE && !s->work &&
		s->kp->newidle_blocked_inner);
}

/* add_nr_running(): a CPU with a second runnable task sets rd->overload */
void sim_balance_enqueued(struct sim *s, int cpu)
{
	if (newidle_model(s) && cpu >= 0 && cpu < s->plat->nr_cpus &&
	    sched_cpu_nr_running(s->sched, cpu) > 1)
		s->bal.overloaded = true;
}

void sim_balance_newidle(struct sim *s, int cpu, bool prev_died, u64 now, u64 rq_clock)
{
	if (!newidle_model(s) || !s->bal.overloaded || prev_died)
		return;
	/* 7.2's sched_balance_newidle() calls __sched_balance_update_blocked_averages(this_rq)
	 * under the rq lock __schedule() took, with no update_rq_clock(): its clock is the
	 * switch's. The outer sched_balance_update_blocked_averages() of the other kernels locks
	 * the rq again and reads a new clock: the switch's stamp stands for it. */
	update_blocked(s, cpu, cpu, s->kp->newidle_blocked_inner ? rq_clock : now);
	lb_overloaded(s);
}

/* The phase of each CPU's balancing is not in the trace: every CPU starts idle (as the replay
 * does), just balanced at t. */
void sim_balance_start(struct sim *s, u64 t)
{
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		s->bal.avg_idle[c] = 2 * MIGRATION_COST_NS; /* sched_init() */
		s->bal.last_balance[c] = t;
		s->bal.next_balance[c] = t + balance_interval_ns(s, c, false);
	}
}

void sim_balance_tick(struct sim *s, int cpu, u64 now)
{
	bool busy = s->cpu[cpu].busy;

	s->bal.idle_balance[cpu] = !busy;
	s->bal.tick_irq[cpu] = true;
	if (busy)
		s->bal.nohz_tick_stopped[cpu] = false;
	if (!balance_active(s))
		return;
	if (jiffies_reached(s, now, s->bal.next_balance[cpu])) {
		u64 interval = balance_interval_ns(s, cpu, busy);

		update_blocked(s, cpu, cpu, now);
		if (jiffies_reached(s, now, s->bal.last_balance[cpu] + interval)) {
			s->bal.last_balance[cpu] = now;
			lb_overloaded(s);
		}
		s->bal.next_balance[cpu] = s->bal.last_balance[cpu] + interval;
	}
	if (busy && s->bal.has_blocked && jiffies_after(s, now, s->bal.next_blocked))
		for (int ilb = 0; ilb < s->plat->nr_cpus; ilb++)
			if (ilb != cpu && !s->cpu[ilb].busy) { /* find_new_ilb(), kick_ilb() */
				nohz_stats(s, ilb, now, false);
				sched_cpu_idle_reenter(s->sched, ilb);
				break;
			}
}

void sim_balance_switch(struct sim *s, int cpu, bool was_busy, u64 now)
{
	struct sim_balance *b = &s->bal;
	u64 idle_next;

	if (!(balance_active(s) || softirq_model(s)) || s->cpu[cpu].busy == was_busy)
		return;
	if (s->cpu[cpu].busy) {
		if (b->idle_stamp[cpu]) {
			u64 max = 2 * MIGRATION_COST_NS;
			s64 diff = (s64)(now - b->idle_stamp[cpu]) - (s64)b->avg_idle[cpu];

			b->avg_idle[cpu] = (u64)((s64)b->avg_idle[cpu] + diff / 8);
			if (b->avg_idle[cpu] > max)
				b->avg_idle[cpu] = max;
			b->idle_stamp[cpu] = 0;
		}
		return;
	}
	b->idle_stamp[cpu] = now;
	idle_next = b->last_balance[cpu] + balance_interval_ns(s, cpu, false);
	if (idle_next < b->next_balance[cpu])
		b->next_balance[cpu] = idle_next;
	if (b->avg_idle[cpu] >= MIGRATION_COST_NS && b->has_blocked &&
	    jiffies_reached(s, now, b->next_blocked))
		nohz_stats(s, cpu, now, true);
	if (!s->cfg.has_traced_idle) /* else when an idle entry stops the tick */
		sim_balance_tick_stopped(s, cpu);
}

/* A switch or an idle-loop transition of cpu: whatever interrupt it took has returned. */
void sim_balance_cpu_event(struct sim *s, int cpu)
{
	s->bal.tick_irq[cpu] = false;
}

/*
 * A SCHED_SOFTIRQ the trace shows on cpu (sched_balance_softirq(), run_rebalance_domains()
 * before v6.10): nohz_idle_balance() takes it when an idle-load balancer's kick set the CPU's
 * nohz flags and the CPU was idle at its last tick (rq->idle_balance); else the CPU's own
 * blocked load is updated, whatever the jiffy. The kick is told from the CPU's own tick by the
 * order of events: a softirq that follows the CPU's tick in the same interrupt is the tick's.
 * The kick's flags are the kicker's nohz_balancer_kick(): NOHZ_STATS_KICK once
 * nohz.next_blocked has passed; from v5.13 a kick without it (NOHZ_NEXT_KICK, balancing
 * proper) refreshes no blocked load (nohz_stats()).
 */
void sim_balance_softirq(struct sim *s, int cpu, u64 now)
{
	bool own_tick = s->bal.tick_irq[cpu];

	s->bal.tick_irq[cpu] = false;
	if (s->cpu[cpu].busy || own_tick || !s->bal.idle_balance[cpu]) {
		update_blocked(s, cpu, cpu, now);
		return;
	}
	if (!s->kp->ilb_stats_per_jiffy ||
	    (s->bal.has_blocked && jiffies_after(s, now, s->bal.next_blocked)))
		nohz_stats(s, cpu, now, false);
}

/* nohz_balance_enter_idle(): an idle entry of cpu stopped its tick */
void sim_balance_tick_stopped(struct sim *s, int cpu)
{
	s->bal.has_blocked_load[cpu] = true;
	s->bal.nohz_tick_stopped[cpu] = true;
	s->bal.has_blocked = true;
}
