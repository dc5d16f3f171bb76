/*
 * strbuf.h - text built by appending: a growable, NUL-terminated buffer with printf-style
 * appends, for messages, notes, lists and SQL put together piece by piece. It replaces chains
 * of snprintf into a fixed buffer, where every caller checked truncation its own way: a
 * strbuf holds the whole text, and a caller that must fill a fixed field cuts it once at the
 * end (strbuf_copy(), the same cut snprintf makes).
 *
 * An append that cannot get memory leaves the text as it was, returns GS_ENOMEM and sets
 * err; every later append then does nothing and returns GS_ENOMEM too, so a chain of appends
 * may check once, at its end (strbuf_error()).
 */
#ifndef GOVSIM_CORE_STRBUF_H
#define GOVSIM_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *text; /* len characters and a NUL; NULL until the first append needing memory */
	size_t len, cap; /* characters held, and bytes allocated */
	int err;         /* 0, or GS_ENOMEM once an append failed */
};

#define STRBUF_INIT {0}

/* An empty buffer (no memory until the first append). */
void strbuf_init(struct strbuf *sb);

/* Append the printf-formatted text; 0, or GS_ENOMEM (the text unchanged). */
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Append the n bytes at s (no NUL among them); 0, or GS_ENOMEM. */
int strbuf_addn(struct strbuf *sb, const char *s, size_t n);

/* The text so far: "" when nothing was added; valid until the next append, reset or free. */
static inline const char *strbuf_str(const struct strbuf *sb)
{
	return sb->text ? sb->text : "";
}

/* 0, or GS_ENOMEM when an append failed since the buffer was made or last reset. */
static inline int strbuf_error(const struct strbuf *sb)
{
	return sb->err;
}

/* Copy the text into dst (size bytes, size >= 1), cut to size - 1 characters and a NUL as
 * snprintf would; the length of the whole text. */
size_t strbuf_copy(const struct strbuf *sb, char *dst, size_t size);

/* Empty the text and forget an error, keeping the memory for the next appends. */
void strbuf_reset(struct strbuf *sb);

/* Free the memory; the buffer is empty and may be used again. */
void strbuf_free(struct strbuf *sb);

#endif
