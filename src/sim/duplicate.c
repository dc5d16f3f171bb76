/*
 * duplicate.c - events a trace carries twice.
 *
 * A CPU records one thing once: the same event again at the same time on the same CPU (every
 * field equal, the source line aside) is a copy: a trace written twice, a merge of overlapping
 * buffers. Replayed, a copied sched_switch would end a slice that just began and a copied wakeup
 * would enqueue twice. Only the CPU's previous event is compared: a real repeat needs another
 * event in between (a task switched in twice must have been switched out).
 */
#include "sim/sim_priv.h"

bool sim_take_event(struct sim *s, const struct event *ev)
{
	s->events++;
	if (ev->ts_ns > s->t_last)
		s->t_last = ev->ts_ns;
	if (ev->cpu < 0 || ev->cpu >= GS_MAX_CPUS)
		return false; /* the loop refuses it, naming the CPU */
	if (s->have_last_ev[ev->cpu] && event_same(&s->last_ev[ev->cpu], ev)) {
		s->duplicates++;
		return true;
	}
	s->last_ev[ev->cpu] = *ev;
	s->have_last_ev[ev->cpu] = true;
	return false;
}
