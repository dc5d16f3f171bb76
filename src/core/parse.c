/* parse.c - see parse.h. */
#include "core/parse.h"

#include <errno.h>
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
