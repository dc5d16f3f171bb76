/* parse.c - see parse.h. */
#include "core/parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

int gs_parse_u64(const char *s, u64 *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int gs_parse_s64(const char *s, s64 *out)
{
	bool neg = s && *s == '-';
	u64 v;

	if (!s || gs_parse_u64(s + neg, &v) || v > (u64)INT64_MAX + neg)
		return -1;
	*out = neg ? (s64)(0 - v) : (s64)v;
	return 0;
}

int gs_source_date_epoch(s64 *out)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	u64 v;

	if (!s || !*s)
		return 0;
	if (gs_parse_u64(s, &v) || v > (u64)GS_EPOCH_MAX)
		return -1;
	*out = (s64)v;
	return 1;
}
