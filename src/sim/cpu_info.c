/*
 * cpu_info.c - a trace's own description of its CPUs (Perfetto cpu_info: capacity and available
 * OPPs per CPU, trace/reader.h struct trace_cpu_info) held against the platform the run uses:
 * where they disagree the run's notes say which CPU and which values, so that a replay on the
 * wrong platform does not pass unnoticed.
 */
#include "sim/sim_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
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

/* "a,b,c" of n frequencies after the text in sb. */
static void khz_list(struct strbuf *sb, const u32 *khz, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(sb, "%s%u", i ? "," : "", khz[i]);
}

/* The trace's capacities that differ from the platform's: "cpu4 512 (446), ...". */
static void capacity_diffs(struct strbuf *sb, const struct platform *plat,
			   const struct trace_stats *st)
{
	for (int c = 0; c < st->nr_cpu_info && c < plat->nr_cpus; c++) {
		const struct trace_cpu_info *ci = &st->cpu_info[c];
		if (ci->capacity && ci->capacity != plat->cpus[c].capacity)
			strbuf_addf(sb, "%scpu%d %u (%u)", sb->len ? ", " : "", c, ci->capacity,
				    plat->cpus[c].capacity);
	}
}

int sim_cpu_info_notes(const struct platform *plat, const struct trace_stats *st,
		       struct run_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!st->nr_cpu_info)
		return 0;
	if (st->nr_cpu_info != plat->nr_cpus)
		run_result_note(r, "the trace's cpu_info describes %d CPUs, %s has %d",
				st->nr_cpu_info, plat->name, plat->nr_cpus);
	capacity_diffs(&sb, plat, st);
	if (sb.len)
		run_result_note(r, "the trace's cpu_info capacities differ from %s's: %s", plat->name,
				strbuf_str(&sb));
	for (int k = 0; k < plat->nr_clusters; k++) {
		const struct plat_cluster *pc = &plat->clusters[k];
		int c = pc->cpus[0];
		const struct trace_cpu_info *ci = &st->cpu_info[c];
		u32 pk[GS_MAX_OPPS];
		size_t mid;
		if (c >= st->nr_cpu_info || !ci->nr_freqs || same_opps(ci, pc))
			continue;
		for (int i = 0; i < pc->nr_opps; i++)
			pk[i] = pc->opps[i].freq_khz;
		strbuf_reset(&sb);
		khz_list(&sb, ci->freqs_khz, (int)ci->nr_freqs);
		mid = sb.len;
		khz_list(&sb, pk, pc->nr_opps);
		if (!strbuf_error(&sb))
			run_result_note(r,
					"the trace's cpu_info OPPs of cpu%d differ from %s's: %.*s "
					"kHz (%s)",
					c, plat->name, (int)mid, strbuf_str(&sb), strbuf_str(&sb) + mid);
	}
	ret = strbuf_error(&sb);
	strbuf_free(&sb);
	return ret;
}

/* Whether the trace gives every CPU of cluster k one capacity in 1..1024; *cap that one. */
static bool cluster_cap(const struct platform *plat, int k, const struct trace_stats *st,
			u32 *cap)
{
	const struct plat_cluster *pc = &plat->clusters[k];

	*cap = 0;
	for (int i = 0; i < pc->nr_cpus; i++) {
		int c = pc->cpus[i];
		u32 v = c < st->nr_cpu_info ? st->cpu_info[c].capacity : 0;
		if (!v || v > SCHED_CAPACITY_SCALE || (*cap && v != *cap))
			return false;
		*cap = v;
	}
	return *cap != 0;
}

int sim_cpu_info_override(const struct platform *plat, const struct trace_stats *st,
			  struct platform **own, char *note, size_t size)
{
	u32 cap[GS_MAX_CLUSTERS], top = 0;
	struct strbuf sb = STRBUF_INIT;
	bool any = false;
	size_t head;
	int ret;

	*own = NULL;
	note[0] = '\0';
	for (int k = 0; k < plat->nr_clusters; k++) {
		bool assumed = plat->cpus[plat->clusters[k].cpus[0]].capacity_assumed;
		if (!cluster_cap(plat, k, st, &cap[k]))
			cap[k] = 0;
		else
			any |= assumed && cap[k] != plat->cpus[plat->clusters[k].cpus[0]].capacity;
		if (!assumed || !cap[k])
			cap[k] = plat->cpus[plat->clusters[k].cpus[0]].capacity; /* kept */
		top = cap[k] > top ? cap[k] : top;
	}
	if (!any)
		return 0;
	if (top != SCHED_CAPACITY_SCALE) {
		snprintf(note, size, "the trace's cpu_info capacities were not used for %s's assumed "
			 "ones: with them no CPU would have capacity %ld", plat->name,
			 SCHED_CAPACITY_SCALE);
		return 0;
	}
	*own = malloc(sizeof(**own));
	if (!*own)
		return GS_ENOMEM;
	**own = *plat;
	strbuf_addf(&sb, "capacities from the trace's cpu_info in place of %s's assumed ones: ",
		    plat->name);
	head = sb.len;
	for (int k = 0; k < plat->nr_clusters; k++) {
		struct plat_cluster *pc = &(*own)->clusters[k];
		u32 was = plat->cpus[pc->cpus[0]].capacity, max_khz = plat_cluster_max_khz(pc);
		if (cap[k] == was)
			continue;
		for (int i = 0; i < pc->nr_cpus; i++)
			(*own)->cpus[pc->cpus[i]].capacity = cap[k];
		for (int i = 0; i < pc->nr_opps; i++)
			pc->opps[i].capacity = plat_opp_capacity(cap[k], pc->opps[i].freq_khz, max_khz);
		strbuf_addf(&sb, "%scpu%d-%d %u (assumed %u)", sb.len > head ? ", " : "", pc->cpus[0],
			    pc->cpus[pc->nr_cpus - 1], cap[k], was);
	}
	strbuf_copy(&sb, note, size);
	ret = strbuf_error(&sb);
	strbuf_free(&sb);
	return ret;
}

int sim_trace_cpu_info(const char *file, const struct reader_opts *ropts,
		       struct trace_stats *out, struct gs_error *err)
{
	struct trace_reader *rd = NULL;
	struct event ev;
	int ret = trace_reader_open(file, ropts, &rd, err);

	if (ret)
		return ret;
	/* Perfetto writes cpu_info in the first packets: read until the first event */
	ret = trace_reader_next(rd, &ev, err);
	*out = *trace_reader_stats(rd);
	trace_reader_free(rd);
	return ret < 0 ? ret : 0;
}
