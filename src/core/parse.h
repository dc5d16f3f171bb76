/* parse.h - strict number parsing for command-line and tunable values. */
#ifndef GOVSIM_CORE_PARSE_H
#define GOVSIM_CORE_PARSE_H

#include "core/types.h"

/* A plain decimal unsigned integer: digits only (no sign, space or suffix), no overflow.
 * Returns 0 and sets *out, or -1. */
int gs_parse_u64(const char *s, u64 *out);

#endif
