/*
 * plugin_elf.h - a governor plugin's file checked as an ELF shared object before dlopen() maps
 * it (plugin.c).
 *
 * dlopen() trusts what the file's headers say: a file cut short is mapped past its end and the
 * loader dies of SIGBUS touching those pages; a device is read for ever; and the object's
 * constructors run before its symbols can be looked at. So, from the file alone: it must be a
 * regular file, an ELF shared object of this machine's class and byte order, at least as long as
 * every program header, section header and section says, and export `symbol` as a defined data
 * object of at least `min_size` bytes.
 */
#ifndef GOVSIM_GOV_PLUGIN_ELF_H
#define GOVSIM_GOV_PLUGIN_ELF_H

#include <stddef.h>

#include "core/error.h"

/*
 * Check `file` (named `name` in messages). 0, or GS_EINPUT with what is wrong ("'x.so':
 * truncated ELF file: a segment ends at byte 181600, the file has 3000 bytes"), GS_EIO when it
 * cannot be read, GS_ENOMEM.
 */
int plugin_elf_check(const char *file, const char *name, const char *symbol, size_t min_size,
		     struct gs_error *err);

#endif
