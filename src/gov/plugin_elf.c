/*
 * plugin_elf.c - a governor plugin's file checked as an ELF shared object before dlopen(); see
 * plugin_elf.h. Only what the file says is read, each read bounded by the file's size, so a
 * damaged file is refused with what is wrong instead of crashing the loader.
 */
#include "gov/plugin_elf.h"

#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define ELF_NATIVE_DATA ELFDATA2LSB
#else
#define ELF_NATIVE_DATA ELFDATA2MSB
#endif
#define ELF_NATIVE_CLASS (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)

/* The dynamic symbol and string tables are read whole: a bound for a damaged size. */
#define ELF_TABLE_MAX (64u << 20)

struct elf_file {
	int fd;
	unsigned long long size;
	const char *name;
	struct gs_error *err;
};

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)    ? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)  ? "a character device"
	       : S_ISBLK(mode)  ? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a file";
}

/* Whether [off, off + len) lies within the file (without wrapping). */
static bool in_file(const struct elf_file *f, unsigned long long off, unsigned long long len)
{
	return off <= f->size && len <= f->size - off;
}

/* Bytes [off, off + len) of the file into buf; the range is within the file. */
static int read_at(const struct elf_file *f, unsigned long long off, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(f->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return gs_error_set(f->err, GS_EIO, "'%s': read error: %s", f->name,
					    n < 0 ? strerror(errno) : "the file shrank");
		done += (size_t)n;
	}
	return 0;
}

static int truncated(const struct elf_file *f, const char *what, unsigned long long end)
{
	return gs_error_set(f->err, GS_EINPUT,
			    "'%s': truncated ELF file: %s ends at byte %llu, the file has %llu bytes",
			    f->name, what, end, f->size);
}

static int check_ident(const struct elf_file *f, const ElfW(Ehdr) *eh)
{
	const unsigned char *id = eh->e_ident;

	if (f->size < SELFMAG || memcmp(id, ELFMAG, SELFMAG) != 0)
		return gs_error_set(f->err, GS_EINPUT, "'%s': not an ELF shared object", f->name);
	if (!in_file(f, 0, sizeof(*eh)))
		return truncated(f, "the ELF header", sizeof(*eh));
	if (id[EI_CLASS] != ELF_NATIVE_CLASS || id[EI_DATA] != ELF_NATIVE_DATA)
		return gs_error_set(f->err, GS_EINPUT,
				    "'%s': an ELF file for another machine (%d-bit, %s-endian)",
				    f->name, id[EI_CLASS] == ELFCLASS64 ? 64 : 32,
				    id[EI_DATA] == ELFDATA2MSB ? "big" : "little");
	if (eh->e_type != ET_DYN)
		return gs_error_set(f->err, GS_EINPUT,
				    "'%s': not an ELF shared object (ELF type %u)", f->name,
				    (unsigned int)eh->e_type);
	return 0;
}

/* Every program header and the file bytes of every segment within the file. */
static int check_segments(const struct elf_file *f, const ElfW(Ehdr) *eh)
{
	unsigned long long table = (unsigned long long)eh->e_phnum * sizeof(ElfW(Phdr));
	ElfW(Phdr) ph;
	int ret;

	if (eh->e_phnum == 0 || eh->e_phentsize != sizeof(ElfW(Phdr)))
		return gs_error_set(f->err, GS_EINPUT, "'%s': ELF file without program headers",
				    f->name);
	if (!in_file(f, eh->e_phoff, table))
		return truncated(f, "the program header table", eh->e_phoff + table);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if ((ret = read_at(f, eh->e_phoff + (unsigned long long)i * sizeof(ph), &ph,
				   sizeof(ph))))
			return ret;
		if (!in_file(f, ph.p_offset, ph.p_filesz))
			return truncated(f, "a segment", (unsigned long long)ph.p_offset + ph.p_filesz);
	}
	return 0;
}

/* A section's bytes, read whole (the symbol and string tables). */
static int read_section(const struct elf_file *f, const ElfW(Shdr) *sh, void **out)
{
	void *buf;
	int ret;

	*out = NULL;
	if (sh->sh_size > ELF_TABLE_MAX)
		return gs_error_set(f->err, GS_EINPUT, "'%s': a symbol table of %llu bytes",
				    f->name, (unsigned long long)sh->sh_size);
	buf = malloc(sh->sh_size ? sh->sh_size : 1);
	if (!buf)
		return gs_error_set(f->err, GS_ENOMEM, "out of memory");
	if ((ret = read_at(f, sh->sh_offset, buf, sh->sh_size))) {
		free(buf);
		return ret;
	}
	*out = buf;
	return 0;
}

/* `symbol` in the dynamic symbol table (section dynsym, its strings in section strtab). */
static int check_symbol(const struct elf_file *f, const ElfW(Shdr) *dynsym,
			const ElfW(Shdr) *strtab, const char *symbol, size_t min_size)
{
	size_t len = strlen(symbol), n = dynsym->sh_size / sizeof(ElfW(Sym));
	ElfW(Sym) *syms;
	char *strs;
	int ret;

	if ((ret = read_section(f, dynsym, (void **)&syms)))
		return ret;
	if ((ret = read_section(f, strtab, (void **)&strs))) {
		free(syms);
		return ret;
	}
	ret = 1; /* not found */
	for (size_t i = 1; i < n && ret == 1; i++) {
		const ElfW(Sym) *s = &syms[i];
		if (s->st_name >= strtab->sh_size || strtab->sh_size - s->st_name <= len ||
		    memcmp(strs + s->st_name, symbol, len + 1) != 0 || s->st_shndx == SHN_UNDEF)
			continue;
		if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT)
			ret = gs_error_set(f->err, GS_EINPUT,
					   "'%s': not a govsim governor plugin: '%s' is %s, not a "
					   "const struct govsim_governor",
					   f->name, symbol,
					   ELF64_ST_TYPE(s->st_info) == STT_FUNC ? "a function"
										 : "no data object");
		else if (s->st_size < min_size)
			ret = gs_error_set(f->err, GS_EINPUT,
					   "'%s': not a govsim governor plugin: '%s' is %llu bytes, a "
					   "struct govsim_governor is %zu",
					   f->name, symbol, (unsigned long long)s->st_size, min_size);
		else
			ret = 0;
	}
	free(syms);
	free(strs);
	if (ret == 1)
		ret = gs_error_set(f->err, GS_EINPUT,
				   "'%s': not a govsim governor plugin: no symbol '%s' (define const "
				   "struct govsim_governor %s)",
				   f->name, symbol, symbol);
	return ret;
}

/* Every section header and section within the file; then the symbol in .dynsym. */
static int check_sections(const struct elf_file *f, const ElfW(Ehdr) *eh, const char *symbol,
			  size_t min_size)
{
	unsigned long long table = (unsigned long long)eh->e_shnum * sizeof(ElfW(Shdr));
	ElfW(Shdr) *sh;
	int ret, dynsym = -1;

	if (eh->e_shoff == 0 || eh->e_shnum == 0 || eh->e_shentsize != sizeof(ElfW(Shdr)))
		return gs_error_set(f->err, GS_EINPUT,
				    "'%s': ELF file without section headers: its symbols cannot be "
				    "checked before it is loaded",
				    f->name);
	if (!in_file(f, eh->e_shoff, table))
		return truncated(f, "the section header table", eh->e_shoff + table);
	sh = malloc(table);
	if (!sh)
		return gs_error_set(f->err, GS_ENOMEM, "out of memory");
	if ((ret = read_at(f, eh->e_shoff, sh, table)))
		goto out_free;
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_NOBITS && !in_file(f, sh[i].sh_offset, sh[i].sh_size)) {
			ret = truncated(f, "a section",
					(unsigned long long)sh[i].sh_offset + sh[i].sh_size);
			goto out_free;
		}
		if (sh[i].sh_type == SHT_DYNSYM && dynsym < 0)
			dynsym = i;
	}
	if (dynsym < 0 || sh[dynsym].sh_entsize != sizeof(ElfW(Sym)) ||
	    sh[dynsym].sh_link >= eh->e_shnum || sh[sh[dynsym].sh_link].sh_type != SHT_STRTAB) {
		ret = gs_error_set(f->err, GS_EINPUT,
				   "'%s': not a govsim governor plugin: no dynamic symbol table",
				   f->name);
		goto out_free;
	}
	ret = check_symbol(f, &sh[dynsym], &sh[sh[dynsym].sh_link], symbol, min_size);
out_free:
	free(sh);
	return ret;
}

int plugin_elf_check(const char *file, const char *name, const char *symbol, size_t min_size,
		     struct gs_error *err)
{
	struct elf_file f = {.fd = -1, .name = name, .err = err};
	ElfW(Ehdr) eh;
	struct stat st;
	int ret;

	/* O_NONBLOCK: a FIFO is refused below, not waited on */
	f.fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f.fd < 0)
		return gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", name, strerror(errno));
	if (fstat(f.fd, &st) != 0) {
		ret = gs_error_set(err, GS_EIO, "'%s': %s", name, strerror(errno));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = gs_error_set(err, GS_EINPUT, "'%s': not a regular file (%s)", name,
				   file_kind(st.st_mode));
		goto out_close;
	}
	f.size = (unsigned long long)st.st_size;
	memset(&eh, 0, sizeof(eh));
	if ((ret = read_at(&f, 0, &eh, f.size < sizeof(eh) ? (size_t)f.size : sizeof(eh))) ||
	    (ret = check_ident(&f, &eh)) || (ret = check_segments(&f, &eh)))
		goto out_close;
	ret = check_sections(&f, &eh, symbol, min_size);
out_close:
	close(f.fd);
	return ret;
}
