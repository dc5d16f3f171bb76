/* prescan.c - sim_prescan(): the first traced frequencies and whether idle is traced. */
#include "sim/sim.h"

#include <string.h>

/* ---- pre-scan ------------------------------------------------------------------------------- */

int sim_prescan(const char *path, const struct reader_opts *opts, u64 max_events, int nr_cpus,
		bool need_idle, u32 initial_khz[GS_MAX_CPUS], bool *has_idle, struct gs_error *err)
{
	struct trace_reader *r;
	struct event ev;
	u64 n = 0;
	int known = 0, ret;

	memset(initial_khz, 0, GS_MAX_CPUS * sizeof(u32));
	*has_idle = false;
	if (strcmp(path, "-") == 0)
		return 0;
	ret = trace_reader_open(path, opts, &r, err);
	if (ret)
		return ret;
	/* stop as soon as every CPU has a frequency and, if asked, idle events were seen */
	while (n++ < max_events && (known < nr_cpus || (need_idle && !*has_idle)) &&
	       (ret = trace_reader_next(r, &ev, err)) == 1) {
		int cpu = -1;
		u32 khz = 0;
		if (ev.type == EV_CPU_FREQUENCY || ev.type == EV_FREQ_MARKER) {
			cpu = (int)ev.power.cpu_id;
			khz = ev.power.state;
		} else if (ev.type == EV_CSV_UTIL && ev.util.freq_khz != EV_NO_VALUE) {
			cpu = ev.util.cpu;
			khz = (u32)ev.util.freq_khz;
		}
		if (cpu >= 0 && cpu < GS_MAX_CPUS && !initial_khz[cpu] && khz) {
			initial_khz[cpu] = khz;
			if (cpu < nr_cpus)
				known++;
		}
		if (ev.type == EV_CPU_IDLE ||
		    (ev.type == EV_CSV_UTIL && ev.util.idle_state != EV_IDLE_ABSENT))
			*has_idle = true;
	}
	trace_reader_free(r);
	gs_error_clear(err);
	return 0; /* errors are reported by the real pass */
}
