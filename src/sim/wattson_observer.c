/*
 * wattson_observer.c - --power-model wattson as an observer of the replay (observer.h): the
 * whole state's power over time (power/wattson.h) is integrated by an accumulator that is told
 * every CPU's state and every cluster's frequency as they change, and gives the run's energy
 * at its end. The replay's own energy accounting (power/energy.c) does not run through here.
 */
#include "sim/sim_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "power/wattson.h"

/* The state a CPU was last given when it is idle and its state is chosen with hindsight at the
 * end of the interval (wattson_acc_idle_begin). */
#define WATTSON_IDLE_PENDING (-3)

struct sim_wattson {
	struct wattson_acc *acc; /* NULL before the first event and after the end */
	int state[GS_MAX_CPUS];  /* the state each CPU was last given */
};

/*
 * Tell the accumulator a CPU's state at s->now. With traced idle states (cpu_idle events,
 * traced timing) the state is Wattson's own reading of them: the state in force, active once
 * the CPU left it (cpu_idle exit) or runs a task, and the deepest before its first cpu_idle
 * event (Wattson's NULL). Otherwise a busy CPU is active and an idle one's state is chosen with
 * hindsight when the interval ends (power_pick_idle_state, as the other models).
 */
static void wattson_cpu_state(struct sim *s, void *state, int cpu)
{
	struct sim_wattson *w = state;
	const struct sim_cpu *sc = &s->cpu[cpu];
	int want;

	if (!w->acc)
		return;
	if (s->cfg.has_traced_idle)
		want = sc->traced_idle >= 0 ? sc->traced_idle
		       : sc->busy || (s->w_idle_seen & (1ull << cpu)) ? WATTSON_ACTIVE
								      : 1;
	else
		want = sc->busy ? WATTSON_ACTIVE : WATTSON_IDLE_PENDING;
	if (want == w->state[cpu])
		return;
	w->state[cpu] = want;
	if (want == WATTSON_IDLE_PENDING)
		wattson_acc_idle_begin(w->acc, s->now, cpu);
	else
		wattson_acc_state(w->acc, s->now, cpu, want);
}

static void wattson_freq_change(struct sim *s, void *state, int cluster, u64 t, u32 khz)
{
	struct sim_wattson *w = state;

	(void)s;
	if (w->acc)
		wattson_acc_freq(w->acc, t, cluster, khz);
}

/* The first event at t: the accumulator starts with every policy's frequency then and every
 * CPU idle, chosen with hindsight, or with traced idle states the deepest until its first
 * cpu_idle event (wattson_cpu_state). */
static int wattson_start(struct sim *s, void *state, u64 t, struct gs_error *err)
{
	struct sim_wattson *w = state;
	u32 khz[GS_MAX_CLUSTERS];

	for (int c = 0; c < s->plat->nr_clusters; c++)
		khz[c] = s->cl[c].pol.cur_khz;
	w->acc = wattson_acc_new(s->plat, t, khz, err);
	if (!w->acc)
		return err->code;
	for (int c = 0; c < s->plat->nr_cpus; c++) {
		w->state[c] = WATTSON_IDLE_PENDING;
		wattson_cpu_state(s, w, c);
	}
	return 0;
}

/* The note on the time the power curves had no value for: how long, how much of it for want of
 * the DSU frequency, and at which frequencies (a few, then how many more). */
static int missing_note(const struct platform *p, const struct wattson_energy *e,
			struct run_result *r, struct gs_error *err)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "wattson: no curve value for %.6f s (counted 0 mW, as Wattson)",
		    ns_to_s(e->missing_ns));
	if (e->dsu_unknown_ns)
		strbuf_addf(&sb, ", %.6f s of it for want of the DSU frequency (not in the trace)",
			    ns_to_s(e->dsu_unknown_ns));
	for (int i = 0; i < e->nr_miss; i++) {
		const struct wattson_miss *m = &e->miss[i];
		const struct plat_cluster *pc = &p->clusters[m->cluster];
		if (m->dep_cluster == PLAT_W_DSU && !m->dep_khz)
			continue;
		if (m->dep_cluster < 0 && m->dep_cluster != PLAT_W_DSU)
			strbuf_addf(&sb, "%s policy%d at %u kHz %.6f s", i ? "," : ":", pc->cpus[0],
				    m->khz, ns_to_s(m->ns));
		else
			strbuf_addf(&sb, "%s policy%d at %u kHz with %s%d at %u kHz %.6f s",
				    i ? "," : ":", pc->cpus[0], m->khz,
				    m->dep_cluster == PLAT_W_DSU ? "the DSU" : "policy",
				    m->dep_cluster == PLAT_W_DSU ? 255
								 : p->clusters[m->dep_cluster].cpus[0],
				    m->dep_khz, ns_to_s(m->ns));
	}
	if (e->miss_dropped)
		strbuf_addf(&sb, " and %" PRIu64 " more", e->miss_dropped);
	if (strbuf_error(&sb)) {
		strbuf_free(&sb);
		return gs_error_set(err, GS_ENOMEM, "out of memory for the run's notes");
	}
	run_result_note(r, "%s", strbuf_str(&sb));
	strbuf_free(&sb);
	return 0;
}

/*
 * --power-model wattson: the energy is the accumulator's (power/wattson.h), per CPU, per cluster
 * (its CPUs, its static power, and for CPU 0's cluster the interconnect) and in total, in J; the
 * notes say what it could not estimate.
 */
static int wattson_finish(struct sim *s, void *state, u64 end, struct run_result *r,
			  struct gs_error *err)
{
	struct sim_wattson *w = state;
	const struct platform *p = s->plat;
	struct wattson_energy e;
	int ret;

	if (!w->acc)
		return 0;
	ret = wattson_acc_finish(w->acc, end, &e, err);
	wattson_acc_free(w->acc);
	w->acc = NULL;
	if (ret)
		return ret;
	r->energy_total = 0;
	for (int c = 0; c < p->nr_clusters; c++) {
		const struct plat_cluster *pc = &p->clusters[c];
		double cl = e.static_mj[c];
		for (int i = 0; i < pc->nr_cpus; i++) {
			r->energy_cpu[pc->cpus[i]] = e.cpu_mj[pc->cpus[i]] / 1000.0;
			cl += e.cpu_mj[pc->cpus[i]];
		}
		if (c == p->cpus[0].cluster)
			cl += e.interconnect_mj;
		r->energy_cluster[c] = cl / 1000.0;
		r->energy_total += cl / 1000.0;
	}
	run_result_note(r, "wattson: L3 power not estimated (needs DSU PMU counts, which the "
			   "trace does not carry)");
	if (e.missing_ns)
		return missing_note(p, &e, r, err);
	return 0;
}

static void wattson_release(void *state)
{
	struct sim_wattson *w = state;

	if (!w)
		return;
	wattson_acc_free(w->acc);
	free(w);
}

int sim_wattson_observe(struct sim *s, struct gs_error *err)
{
	struct sim_observer o = {
		.kind = SIM_OBSERVER_WATTSON,
		.start = wattson_start,
		.cpu_state = wattson_cpu_state,
		.freq_change = wattson_freq_change,
		.finish = wattson_finish,
		.release = wattson_release,
	};
	int ret;

	o.state = calloc(1, sizeof(struct sim_wattson));
	if (!o.state)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	ret = sim_observers_add(&s->obs, &o, err);
	if (ret)
		wattson_release(o.state);
	return ret;
}
