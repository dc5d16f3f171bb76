/* embedded.h - files compiled into the library at build time (cmake/embed.cmake). */
#ifndef GOVSIM_CORE_EMBEDDED_H
#define GOVSIM_CORE_EMBEDDED_H

#include <stddef.h>

struct embedded_file {
	const char *name; /* base name, e.g. "hikey960.sql" */
	const char *text; /* NUL-terminated contents */
	size_t len;       /* bytes, without the NUL */
};

/* Terminated by an entry whose name is NULL. Holds the models/ SQL files. */
extern const struct embedded_file govsim_embedded_files[];

#endif
