/*
 * cpu_info.c - a trace's own description of its CPUs (Perfetto cpu_info: capacity and available
 * OPPs per CPU, trace/reader.h struct trace_cpu_info) held against the platform the run uses
 * (issue 15 item 1, issue 19 item 1): where they disagree the run's notes say which CPU and
 * which values, so that a replay on the wrong platform does not pass unnoticed.
 */
#include "sim/sim_priv.h"

#include <stdio.h>
#include <string.h>

#include "trace/reader.h"

/* Whether the trace's OPP list of a CPU is the cluster's (the same frequencies, any order). */
static bool same_opps(const struct trace_cpu_info *ci, const struct plat_cluster *pc)
{
	if ((int)ci->nr_freqs != pc->nr_opps)
		return false;
	for (u32 i = 0; i < ci->nr_freqs; i++) {
		bool found = false;
		for (int k = 0; k < pc->nr_opps && !found; k++)
			found = pc->opps[k].freq_khz == ci->freqs_khz[i];
		if (!found)
			return false;
	}
	return true;
}

/* "a,b,c" of up to n frequencies into buf. */
static void khz_list(char *buf, size_t size, const u32 *khz, int n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%u", i ? "," : "", khz[i]);
}

void sim_cpu_info_notes(const struct platform *plat, const struct trace_stats *st,
			struct run_result *r)
{
	char caps[384] = "";
	size_t len = 0;

	if (!st->nr_cpu_info)
		return;
	if (st->nr_cpu_info != plat->nr_cpus)
		run_result_note(r, "the trace's cpu_info describes %d CPUs, %s has %d",
				st->nr_cpu_info, plat->name, plat->nr_cpus);
	for (int c = 0; c < st->nr_cpu_info && c < plat->nr_cpus && len < sizeof(caps); c++) {
		const struct trace_cpu_info *ci = &st->cpu_info[c];
		if (ci->capacity && ci->capacity != plat->cpus[c].capacity)
			len += (size_t)snprintf(caps + len, sizeof(caps) - len, "%scpu%d %u (%u)",
						len ? ", " : "", c, ci->capacity,
						plat->cpus[c].capacity);
	}
	if (caps[0])
		run_result_note(r, "the trace's cpu_info capacities differ from %s's: %s", plat->name,
				caps);
	for (int k = 0; k < plat->nr_clusters; k++) {
		const struct plat_cluster *pc = &plat->clusters[k];
		int c = pc->cpus[0];
		const struct trace_cpu_info *ci = &st->cpu_info[c];
		u32 pk[GS_MAX_OPPS];
		char t[160], p[160];
		if (c >= st->nr_cpu_info || !ci->nr_freqs || same_opps(ci, pc))
			continue;
		for (int i = 0; i < pc->nr_opps; i++)
			pk[i] = pc->opps[i].freq_khz;
		khz_list(t, sizeof(t), ci->freqs_khz, (int)ci->nr_freqs);
		khz_list(p, sizeof(p), pk, pc->nr_opps);
		run_result_note(r, "the trace's cpu_info OPPs of cpu%d differ from %s's: %s kHz (%s)",
				c, plat->name, t, p);
	}
}
