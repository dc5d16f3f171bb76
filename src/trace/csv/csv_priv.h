/*
 * csv_priv.h - what the CSV back end (csv.c) shows its tests: not an API.
 */
#ifndef GOVSIM_TRACE_CSV_PRIV_H
#define GOVSIM_TRACE_CSV_PRIV_H

/* libcsv's cell-buffer reallocs so far, in every reader of the process. */
extern unsigned long csv_realloc_calls;

#endif
