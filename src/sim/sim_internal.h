/*
 * sim_internal.h - what the timing layer (work.c) uses of the replay loop (sim.c). Not API.
 */
#ifndef GOVSIM_SIM_INTERNAL_H
#define GOVSIM_SIM_INTERNAL_H

#include "sched/sched.h"
#include "sim/sim.h"

/* Apply a scheduling event at emulated time `now`: runs the loop's own work up to now first. */
int sim_sched_event(struct sim *s, const struct event *ev, u64 now, struct gs_error *err);
/* Run the loop's own work (ticks, blocked updates, frequency changes, actions) up to t. */
int sim_advance_to(struct sim *s, u64 t, struct gs_error *err);
/* The time of the loop's next own work item (NO_TIME = UINT64_MAX when none). */
u64 sim_next_internal_ns(const struct sim *s);
u32 sim_cluster_khz(const struct sim *s, int cluster);
struct sched *sim_sched(struct sim *s);
/* Record a slice's delay against its task (work timing). */
void sim_task_delay(struct sim *s, struct task *p, u64 delay_ns);

#endif
