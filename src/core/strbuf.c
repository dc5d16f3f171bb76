/*
 * strbuf.c - the growable text buffer; see strbuf.h.
 */
#include "core/strbuf.h"

#include "core/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(struct strbuf *sb)
{
	*sb = (struct strbuf)STRBUF_INIT;
}

/* Room for n more characters and the NUL: the allocation doubles (64 bytes at first) until
 * it holds them. Sizes past PTRDIFF_MAX, which no allocator gives, fail as realloc would. */
static int reserve(struct strbuf *sb, size_t n)
{
	size_t need, cap;
	char *text;

	if (sb->err)
		return sb->err;
	if (n >= (size_t)PTRDIFF_MAX - sb->len)
		return sb->err = GS_ENOMEM;
	need = sb->len + n + 1;
	if (need <= sb->cap)
		return 0;
	for (cap = sb->cap ? sb->cap : 64; cap < need; cap *= 2)
		if (cap > (size_t)PTRDIFF_MAX / 2) {
			cap = need;
			break;
		}
	text = realloc(sb->text, cap);
	if (!text)
		return sb->err = GS_ENOMEM;
	if (!sb->text)
		text[0] = '\0';
	sb->text = text;
	sb->cap = cap;
	return 0;
}

int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t room = sb->text ? sb->cap - sb->len : 0;
	va_list again;
	int n;

	if (sb->err)
		return sb->err;
	va_copy(again, ap);
	n = vsnprintf(room ? sb->text + sb->len : NULL, room, fmt, ap);
	if (n < 0) {
		va_end(again);
		if (sb->text)
			sb->text[sb->len] = '\0';
		return sb->err = GS_ENOMEM; /* EOVERFLOW: the text would pass INT_MAX */
	}
	if ((size_t)n >= room) {
		if (reserve(sb, (size_t)n)) {
			va_end(again);
			if (sb->text)
				sb->text[sb->len] = '\0';
			return sb->err;
		}
		vsnprintf(sb->text + sb->len, sb->cap - sb->len, fmt, again);
	}
	va_end(again);
	sb->len += (size_t)n;
	return 0;
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

int strbuf_addn(struct strbuf *sb, const char *s, size_t n)
{
	int ret = reserve(sb, n);

	if (ret)
		return ret;
	memcpy(sb->text + sb->len, s, n);
	sb->len += n;
	sb->text[sb->len] = '\0';
	return 0;
}

size_t strbuf_copy(const struct strbuf *sb, char *dst, size_t size)
{
	size_t n = sb->len < size - 1 ? sb->len : size - 1;

	memcpy(dst, strbuf_str(sb), n);
	dst[n] = '\0';
	return sb->len;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->err = 0;
	if (sb->text)
		sb->text[0] = '\0';
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->text);
	strbuf_init(sb);
}
