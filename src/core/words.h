/*
 * words.h - a line of space-separated words built in a caller's fixed buffer: a run's
 * recorded options (runs.params), a sweep job's label, a tune point's text. Each word goes
 * after one space (none before the first); what does not fit is cut at the buffer's end,
 * which always keeps its NUL.
 */
#ifndef GOVSIM_CORE_WORDS_H
#define GOVSIM_CORE_WORDS_H

#include <stddef.h>

/* Append the word printf-formatted from fmt to the NUL-terminated text in buf (size bytes):
 * a space first when buf is not empty and has room for more than the NUL, then as much of the
 * word as fits. */
void gs_words_add(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
