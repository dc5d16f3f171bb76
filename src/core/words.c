/*
 * words.c - space-separated words in a fixed buffer; see words.h.
 */
#include "core/words.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gs_words_add(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len && len + 1 < size)
		buf[len++] = ' ';
	va_start(ap, fmt);
	if (len < size)
		vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}
