/* event.c - event type names; see event.h. */
#include "core/event.h"

#include <string.h>

static const char *const event_names[EV__COUNT] = {
#define GS_EVENT_NAME(name, str) [EV_##name] = str,
	GS_EVENT_TYPES(GS_EVENT_NAME)
#undef GS_EVENT_NAME
};

const char *event_type_name(enum event_type type)
{
	if ((unsigned)type >= EV__COUNT)
		return "?";
	return event_names[type];
}

int event_type_from_name(const char *name, size_t len)
{
	for (int i = 0; i < EV__COUNT; i++) {
		if (i == EV_FREQ_MARKER || i == EV_CSV_UTIL)
			continue; /* not tracepoints of their own */
		if (strlen(event_names[i]) == len && memcmp(event_names[i], name, len) == 0)
			return i;
	}
	return -1;
}
