/* parse.h - strict number parsing for command-line and tunable values. */
#ifndef GOVSIM_CORE_PARSE_H
#define GOVSIM_CORE_PARSE_H

#include "core/types.h"

/* A plain decimal unsigned integer: digits only (no sign, space or suffix), no overflow.
 * Returns 0 and sets *out, or -1. */
int gs_parse_u64(const char *s, u64 *out);
/* The same with an optional leading '-' (no '+'), within s64. */
int gs_parse_s64(const char *s, s64 *out);

/* The last second whose date has a four-digit year: 9999-12-31T23:59:59Z. */
#define GS_EPOCH_MAX 253402300799LL

/*
 * $SOURCE_DATE_EPOCH (reproducible-builds.org): the time to record instead of now, in decimal
 * seconds since 1970-01-01 UTC, 0..GS_EPOCH_MAX. Returns 1 and sets *out when it is set, 0 when
 * it is unset or empty, -1 when it is anything else (the caller refuses to run).
 */
int gs_source_date_epoch(s64 *out);

#endif
