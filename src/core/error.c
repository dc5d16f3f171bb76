/* error.c - error codes and messages; see error.h. */
#include "core/error.h"

#include <stdio.h>
#include <string.h>

struct gs_error_desc {
	int code;
	int status;
	const char *desc;
};

static const struct gs_error_desc gs_error_table[] = {
#define GS_ERRNO_DESC(name, value, status, desc) {value, status, desc},
	GS_ERRORS(GS_ERRNO_DESC)
#undef GS_ERRNO_DESC
};

static const struct gs_error_desc *gs_error_find(int code)
{
	for (size_t i = 0; i < sizeof(gs_error_table) / sizeof(gs_error_table[0]); i++)
		if (gs_error_table[i].code == code)
			return &gs_error_table[i];
	return NULL;
}

const char *gs_strerror(int code)
{
	const struct gs_error_desc *d = gs_error_find(code);
	return d ? d->desc : "unknown error";
}

int gs_exit_status(int code)
{
	const struct gs_error_desc *d = gs_error_find(code);
	return d ? d->status : 1;
}

void gs_error_clear(struct gs_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int gs_error_vset(struct gs_error *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return code;
}

int gs_error_set(struct gs_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	gs_error_vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}
