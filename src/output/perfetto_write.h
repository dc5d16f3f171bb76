/*
 * perfetto_write.h - `govsim run … --perfetto OUT.pftrace`: the emulated run as a Perfetto trace
 * (TrackEvent tracks) that the Perfetto UI opens beside the original trace.
 *
 * The writer is a sink of the replay's rows (core/timeline.h), the same rows the --timeline and
 * --task-timeline CSVs are written from. It writes, on the trace's own clock:
 *   per policy   counter tracks "policyP freq emulated (kHz)" (when the OPP in force changes)
 *                and "policyP freq traced (kHz)" (the trace's cpu_frequency of its first CPU);
 *   per CPU      counter tracks "cpuN util (cfs+rt)", "cpuN util clamped" (the governor's
 *                value), "cpuN uclamp_min", "cpuN uclamp_max": one sample per evaluation;
 *   per task     a track "COMM PID" with a slice "cpuN" for each time it ran on CPU N in the
 *                emulation (switch in to preempt or sleep);
 *   the settings an instant event "govsim run" on the track "govsim: run settings" at the
 *                first time written, with the run's settings as debug annotations.
 * Group tracks ("govsim: policies", "govsim: CPUs", "govsim: tasks") hold them.
 */
#ifndef GOVSIM_TRACE_PERFETTO_WRITE_H
#define GOVSIM_TRACE_PERFETTO_WRITE_H

#include <stdio.h>

#include "core/error.h"
#include "core/result.h"
#include "core/timeline.h"

/* Track uuids (stable: a reader of the file, or a test, can find the tracks by them). */
#define PFW_UUID_POLICIES   1u
#define PFW_UUID_CPUS       2u
#define PFW_UUID_TASKS      3u
#define PFW_UUID_SETTINGS   4u
#define PFW_UUID_FREQ(policy, traced) (0x1000u + 2u * (unsigned)(policy) + ((traced) ? 1u : 0u))
/* what: 0 util (cfs+rt), 1 util clamped, 2 uclamp_min, 3 uclamp_max */
#define PFW_UUID_CPU(cpu, what) (0x2000u + 4u * (unsigned)(cpu) + (unsigned)(what))
#define PFW_UUID_TASK(pid) ((1ull << 32) | (u64)(u32)(pid))

struct pf_writer;

/* A writer to f (opened and closed by the caller); NULL when out of memory. */
struct pf_writer *pf_writer_new(FILE *f);
/* Its sink, to put in struct sim_opts.sink. */
const struct tl_sink *pf_writer_sink(struct pf_writer *w);
/* Ends the slices still open, writes the run's settings (from r) and frees the writer. 0, or
 * GS_EIO when a write failed (errno kept), GS_ENOMEM. */
int pf_writer_finish(struct pf_writer *w, const struct run_result *r, struct gs_error *err);
/* Frees the writer without writing more (a failed run). */
void pf_writer_free(struct pf_writer *w);

#endif
