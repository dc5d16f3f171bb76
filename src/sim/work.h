/*
 * work.h - the work-conserving timing model (DESIGN.md §4, §13 "Work timing, in detail").
 *
 * Each traced running slice becomes work in capacity-invariant units (ns at capacity 1024 and
 * max frequency): work = duration x capacity/1024 x f_traced/f_max, integrated piecewise over the
 * trace's frequency changes. Wakeups stay anchored to their trace time. Each CPU runs its slices
 * in traced order at the emulated speed capacity/1024 x f/f_max, so a slower OPP stretches a
 * slice and delays the later ones, a faster one leaves idle time. A slice starts when its CPU is
 * free and its task is ready (its traced ready time, and its previous slice done, wherever that
 * ran). The replay runs until all work is done, even past the trace's end.
 *
 * Because an emulated slice can end before its traced end is read (a faster CPU), the layer
 * buffers: it advances emulated time only as far as the trace read so far determines it.
 * Memory is bounded by the lag between the emulated and the traced timeline.
 */
#ifndef GOVSIM_SIM_WORK_H
#define GOVSIM_SIM_WORK_H

#include "core/error.h"
#include "core/event.h"
#include "power/platform.h"

struct sim;
struct work;

int work_new(struct sim *s, const struct platform *plat, struct work **out, struct gs_error *err);
void work_free(struct work *w);

/* A scheduling event from the trace (switch, wakeup, wakeup_new, migrate), in trace order. */
int work_feed(struct work *w, const struct event *ev, struct gs_error *err);
/* The trace's frequency of a CPU changed at trace time t (cpu_frequency or devlib marker). */
void work_traced_freq(struct work *w, int cpu, u32 khz, u64 t);
/* The emulated frequency of a cluster changed at emulated time now (called by sim.c). */
void work_freq_changed(struct work *w, int cluster, u64 now);
/* The trace ended: finish every slice. */
int work_finish(struct work *w, struct gs_error *err);
/* Work in and out per CPU so far (capacity-invariant ns). */
void work_totals(const struct work *w, int cpu, double *in, double *out);

#endif
