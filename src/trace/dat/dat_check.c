/*
 * dat_check.c - the sizes and offsets of a trace.dat, checked against the file before
 * libtracecmd reads it.
 *
 * libtracecmd (3.1) trusts the file: a CPU's data that runs past the end of a truncated file is
 * mapped and read anyway (SIGBUS/SIGSEGV), and a flipped size byte becomes a huge allocation.
 * So the file's structure is walked here first, every size and offset bounded by the file's
 * length, and anything that does not fit is reported as bad input, saying what is wrong. The
 * layouts are trace-cmd's Documentation/trace-cmd/trace-cmd.dat.v6.5.txt and .v7.5.txt; where
 * the v7 text and lib/trace-cmd/trace-input.c disagree (the section header's size is 8 bytes
 * in read_section_header(), 4 in the text; the BUFFER option holds a page size before its CPU
 * count in handle_buffer_option(), not in the text) the code of trace-cmd 3.1 is followed, and
 * tests/golden/dat_v7.sh checks it on real v7 files. Each event format's text is checked for
 * what crashes libtraceevent (dat_format.c), and the formats that pass are parsed once in a
 * child process (dat_sandbox.c) before ours parses them; page contents and compressed sections
 * are left to the libraries.
 */
#include "trace/dat/dat_priv.h"

#include "core/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DAT_MAX_CPUS      4096
#define DAT_MAX_STRING    4096
#define DAT_MAX_SECTIONS  256 /* options sections and buffers followed, at most */
#define DAT_MAX_FORMAT    (1 << 20) /* an event format's text (a kernel's are under 16 KiB) */
#define DAT_MAX_INFLATED  (1u << 30) /* a compressed block's uncompressed size, at most */

struct dat_cur {
	int fd;
	u64 size; /* the file's */
	u64 pos;
	u64 page_size;
	bool compressed; /* v7 with a compression algorithm: CPU data in chunks, not pages */
	bool big_endian;
	u64 commit_size; /* header_page's commit field: 4 or 8 bytes at offset 8; 0 = not read yet */
	u64 data_size;   /* header_page's data field: a page's room for events */
	const char *name;
	struct gs_error *err;
	struct dat_sandbox *sandbox; /* the formats that passed, parsed in a child at the end */
};

static int damaged(struct dat_cur *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int damaged(struct dat_cur *c, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return gs_error_set(c->err, GS_ETRACE, "'%s': damaged trace.dat: %s", c->name, why);
}

static int cur_read(struct dat_cur *c, void *dst, u64 n, const char *what)
{
	ssize_t got;

	if (n > c->size || c->pos > c->size - n)
		return damaged(c, "%s at byte %llu runs past the end of the file (%llu bytes; "
			   "truncated?)", what, (unsigned long long)c->pos,
			   (unsigned long long)c->size);
	got = pread(c->fd, dst, (size_t)n, (off_t)c->pos);
	if (got != (ssize_t)n)
		return gs_error_set(c->err, GS_EIO, "'%s': read error: %s", c->name,
				    got < 0 ? strerror(errno) : "short read");
	c->pos += n;
	return 0;
}

static u64 decode(const struct dat_cur *c, const unsigned char *b, int n)
{
	u64 v = 0;

	for (int i = 0; i < n; i++)
		v |= (u64)b[c->big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

static int cur_num(struct dat_cur *c, int n, u64 *v, const char *what)
{
	unsigned char b[8];
	int ret = cur_read(c, b, (u64)n, what);

	if (ret)
		return ret;
	*v = decode(c, b, n);
	return 0;
}

/* Skip n bytes of a section (size read from the file). */
static int cur_skip(struct dat_cur *c, u64 n, const char *what)
{
	if (n > c->size || c->pos > c->size - n)
		return damaged(c, "%s at byte %llu says %llu bytes, past the end of the file (%llu "
			   "bytes; truncated or corrupt)", what, (unsigned long long)c->pos,
			   (unsigned long long)n, (unsigned long long)c->size);
	c->pos += n;
	return 0;
}

/* A NUL-terminated string of at most DAT_MAX_STRING bytes. */
static int cur_string(struct dat_cur *c, char *out, size_t out_size, const char *what)
{
	size_t len = 0;

	for (;;) {
		char ch;
		int ret = cur_read(c, &ch, 1, what);
		if (ret)
			return ret;
		if (ch == '\0')
			break;
		if (++len > DAT_MAX_STRING)
			return damaged(c, "%s at byte %llu is not terminated", what,
				   (unsigned long long)(c->pos - len));
		if (out && len < out_size)
			out[len - 1] = ch;
	}
	if (out && out_size)
		out[len < out_size ? len : out_size - 1] = '\0';
	return 0;
}

static int expect(struct dat_cur *c, const char *tag, size_t len)
{
	char buf[16];
	u64 at = c->pos;
	int ret = cur_read(c, buf, len, "a section name");

	if (ret)
		return ret;
	if (memcmp(buf, tag, len) != 0)
		return damaged(c, "no '%s' section at byte %llu", tag, (unsigned long long)at);
	return 0;
}

/* The ring-buffer page header's commit word (kernel/trace/ring_buffer.c, struct buffer_data_page;
 * libtraceevent's kbuffer_load_subbuffer()): the bytes of events in the page, in its low 27 bits,
 * and two flags in bits 31 (events were lost before this page) and 30 (their count is stored as
 * a long right after the events). */
#define DAT_COMMIT_MASK    ((1ull << 27) - 1)
#define DAT_MISSING_EVENTS (1ull << 31)
#define DAT_MISSING_STORED (1ull << 30)

/*
 * Every page of one CPU's data: its commit must fit the page's data field. libtracecmd (1.3)
 * loads the first page of each CPU when the file is opened and, when a page says more than a
 * page holds, fails the open with the CPU half set up, and its clean-up then dereferences NULL
 * (found by fuzzing, tests/fuzz/corpus/dat/cpu3-page-commit-past-page.dat); later pages
 * would be read past their end. A kernel never writes such a page (rb_commit() keeps commit
 * within BUF_PAGE_SIZE, the data field's size).
 */
static int cpu_pages(struct dat_cur *c, const char *buffer, u64 cpu, u64 offset, u64 size)
{
	for (u64 page = 0; page < size / c->page_size; page++) {
		u64 at = offset + page * c->page_size, word, events, room;
		int ret;

		c->pos = at + 8;
		if ((ret = cur_num(c, (int)c->commit_size, &word, "a page's commit")))
			return ret;
		events = word & DAT_COMMIT_MASK;
		room = c->data_size;
		if ((word & DAT_MISSING_EVENTS) && (word & DAT_MISSING_STORED))
			room = room >= c->commit_size ? room - c->commit_size : 0;
		if (events > room)
			return damaged(c, "%sCPU %llu's page at byte %llu holds %llu bytes of events, more "
				   "than a page's %llu", buffer, (unsigned long long)cpu,
				   (unsigned long long)at, (unsigned long long)events,
				   (unsigned long long)room);
	}
	return 0;
}

/*
 * A compressed block's header at the cursor (trace-cmd.dat.v7.5.txt, "COMPRESSION FORMAT":
 * the compressed size and the uncompressed size, 4 bytes each), its compressed bytes within
 * `room` bytes from the header. libtracecmd 3.1 (tracecmd_uncompress_block(),
 * tracecmd_load_chunks_info()) allocates both sizes as read: a damaged one asked ASan for
 * 2^64 - 1 bytes; an empty one (0 compressed bytes) failed the open, and tracecmd_close() then
 * crashed (both found by mutating a zstd file). *csize is the compressed size.
 */
static int z_block(struct dat_cur *c, u64 room, const char *what, u64 *csize, u64 *rsize_out)
{
	u64 at = c->pos, rsize;
	int ret;

	if (room < 8)
		return damaged(c, "%s at byte %llu has no room for its compression header", what,
			   (unsigned long long)at);
	if ((ret = cur_num(c, 4, csize, "a compression header")) ||
	    (ret = cur_num(c, 4, &rsize, "a compression header")))
		return ret;
	if (*csize > room - 8 || *csize == 0)
		return damaged(c, "%s at byte %llu says %llu compressed bytes (its room: %llu)", what,
			   (unsigned long long)at, (unsigned long long)*csize,
			   (unsigned long long)(room - 8));
	if (rsize > DAT_MAX_INFLATED)
		return damaged(c, "%s at byte %llu uncompresses to %llu bytes (at most %u)", what,
			   (unsigned long long)at, (unsigned long long)rsize, DAT_MAX_INFLATED);
	if (rsize_out)
		*rsize_out = rsize;
	return 0;
}

/* A compressed CPU's data (trace-cmd.dat.v7.5.txt, "COMPRESSION FORMAT OF THE TRACE DATA"):
 * a count of chunks (4 bytes), then each chunk's compression header and bytes. trace-cmd 3.1.6
 * writes the size in the BUFFER option without the count: the chunks end at offset + 4 + size
 * (as in every file `trace-cmd convert --compression zstd` writes; tests/golden/dat_v7.sh). */
static int cpu_chunks(struct dat_cur *c, const char *buffer, u64 cpu, u64 offset, u64 size)
{
	u64 count, end = offset + 4 + size, csize;
	char what[64];
	int ret;

	snprintf(what, sizeof(what), "%sCPU %llu's compressed chunk", buffer, (unsigned long long)cpu);
	c->pos = offset;
	if (end > c->size)
		return damaged(c, "%sCPU %llu's compressed data (%llu bytes and its count at byte %llu) "
			   "runs past the end of the file (%llu bytes; truncated?)", buffer,
			   (unsigned long long)cpu, (unsigned long long)size,
			   (unsigned long long)offset, (unsigned long long)c->size);
	if ((ret = cur_num(c, 4, &count, "a count of compressed chunks")))
		return ret;
	if (count > size / 8)
		return damaged(c, "%sCPU %llu's data at byte %llu says %llu compressed chunks, more than "
			   "its %llu bytes hold", buffer, (unsigned long long)cpu,
			   (unsigned long long)offset, (unsigned long long)count,
			   (unsigned long long)size);
	for (u64 i = 0; i < count; i++) {
		u64 at = c->pos, rsize;
		if ((ret = z_block(c, end - c->pos, what, &csize, &rsize)))
			return ret;
		/* whole pages once uncompressed (the text; every file trace-cmd 3.1.6 writes): a
		 * chunk of 1 byte failed the open, and tracecmd_close() crashed (mutation) */
		if (rsize == 0 || rsize % c->page_size)
			return damaged(c, "%s at byte %llu uncompresses to %llu bytes, not whole pages of "
				   "%llu", what, (unsigned long long)at, (unsigned long long)rsize,
				   (unsigned long long)c->page_size);
		c->pos += csize;
	}
	return 0;
}

/* One CPU's data: [offset, offset + size) inside the file, whole pages at a page boundary
 * (trace-cmd copies the ring buffer page by page; libtracecmd maps it so), each page's header
 * within the page. */
static int cpu_data(struct dat_cur *c, const char *buffer, u64 cpu, u64 offset, u64 size)
{
	u64 pos = c->pos;
	int ret;

	if (offset > c->size || size > c->size - offset)
		return damaged(c, "%sCPU %llu's data (%llu bytes at byte %llu) runs past the end of "
			   "the file (%llu bytes; truncated?)", buffer, (unsigned long long)cpu,
			   (unsigned long long)size, (unsigned long long)offset,
			   (unsigned long long)c->size);
	if (!c->compressed && size && (offset % c->page_size || size % c->page_size))
		return damaged(c, "%sCPU %llu's data (%llu bytes at byte %llu) is not whole pages of "
			   "%llu bytes", buffer, (unsigned long long)cpu, (unsigned long long)size,
			   (unsigned long long)offset, (unsigned long long)c->page_size);
	if (c->compressed && size)
		ret = cpu_chunks(c, buffer, cpu, offset, size); /* their pages: to the library */
	else if (c->compressed || !c->commit_size)
		return 0; /* v7 with no header_page yet */
	else
		ret = cpu_pages(c, buffer, cpu, offset, size);
	c->pos = pos;
	return ret;
}

/*
 * The header_page format, as the kernel prints it (kernel/trace/ring_buffer.c
 * ring_buffer_print_page_header()), e.g. on a 64-bit kernel:
 *	field: u64 timestamp;	offset:0;	size:8;	signed:0;
 *	field: local_t commit;	offset:8;	size:8;	signed:1;
 *	field: int overwrite;	offset:8;	size:1;	signed:1;
 *	field: char data;	offset:16;	size:4080;	signed:0;
 * libtraceevent sizes the ring-buffer pages from it and reads out of bounds when it is damaged:
 * only this layout is accepted (commit 4 or 8 bytes, data right after it, within a page).
 */
static int header_page(struct dat_cur *c, u64 size)
{
	char text[1024], *line, *save = NULL;
	u64 commit = 0, data_off = 0, data_size = 0;
	unsigned seen = 0;
	int ret;

	if (size >= sizeof(text))
		return damaged(c, "header_page of %llu bytes (a kernel's is about 200)",
			   (unsigned long long)size);
	if ((ret = cur_read(c, text, size, "header_page")))
		return ret;
	text[size] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		static const char *const names[] = {"u64 timestamp", "local_t commit",
						    "int overwrite", "char data"};
		char field[32];
		unsigned long long off, sz, sgn;
		int n = -1, k;

		if (sscanf(line, "\tfield: %31[^;];\toffset:%llu;\tsize:%llu;\tsigned:%llu;%n", field,
			   &off, &sz, &sgn, &n) != 4 || n < 0 || line[n] != '\0')
			return damaged(c, "header_page line '%.60s' is not a kernel's", line);
		for (k = 0; k < 4 && strcmp(field, names[k]) != 0; k++)
			;
		if (k == 4 || (seen & (1u << k)))
			return damaged(c, "header_page field '%s' is not a kernel's", field);
		seen |= 1u << k;
		if ((k == 0 && (off != 0 || sz != 8)) || (k == 1 && (off != 8 || (sz != 4 && sz != 8))) ||
		    (k == 2 && (off != 8 || sz != 1)))
			return damaged(c, "header_page field '%s' at offset %llu, size %llu", field, off, sz);
		if (k == 1)
			commit = sz;
		if (k == 3) {
			data_off = off;
			data_size = sz;
		}
	}
	if ((seen & 0xb) != 0xb)
		return damaged(c, "header_page without its timestamp, commit or data field");
	if (data_off != 8 + commit || data_size == 0 || data_off + data_size > c->page_size)
		return damaged(c, "header_page data at offset %llu, size %llu, in pages of %llu bytes",
			   (unsigned long long)data_off, (unsigned long long)data_size,
			   (unsigned long long)c->page_size);
	c->commit_size = commit;
	c->data_size = data_size;
	return 0;
}

/* An event format of `size` bytes at the cursor, whose text libtraceevent will parse: checked
 * by dat_format_check() first (see dat_format.c). */
static int event_format(struct dat_cur *c, u64 size, const char *system)
{
	char why[256], *text;
	int ret;

	if (size > DAT_MAX_FORMAT)
		return damaged(c, "an event format of %llu bytes at byte %llu (at most %d)",
			   (unsigned long long)size, (unsigned long long)c->pos, DAT_MAX_FORMAT);
	if ((ret = cur_skip(c, size, "an event format")))
		return ret;
	c->pos -= size;
	text = malloc(size ? size : 1);
	if (!text)
		return gs_error_set(c->err, GS_ENOMEM, "out of memory");
	ret = cur_read(c, text, size, "an event format");
	if (!ret && dat_format_check(text, size, system, why, sizeof(why)))
		ret = damaged(c, "%s", why);
	if (!ret && c->sandbox && dat_sandbox_add(c->sandbox, system, text, size))
		ret = gs_error_set(c->err, GS_ENOMEM, "out of memory");
	free(text);
	return ret;
}

/* The ftrace formats (a count, then sized formats: v6's, v7's section 17) or the event systems
 * (a count of systems, each a name, a count and sized formats: v6's, v7's section 18). */
static int event_formats(struct dat_cur *c, bool systems)
{
	u64 n, events, v;
	char sys[64] = "ftrace";
	int ret;

	if ((ret = cur_num(c, 4, &n, systems ? "the number of event systems" :
			 "the number of ftrace events")))
		return ret;
	for (u64 s = 0; s < (systems ? n : 1); s++) {
		events = n;
		if (systems && ((ret = cur_string(c, sys, sizeof(sys), "an event system's name")) ||
				(ret = cur_num(c, 4, &events, "the number of events of a system"))))
			return ret;
		for (u64 i = 0; i < events; i++)
			if ((ret = cur_num(c, 8, &v, "an event format's size")) ||
			    (ret = event_format(c, v, sys)))
				return ret;
	}
	return 0;
}

/* ---- version 6 ----------------------------------------------------------------------------- */

/* `cpus` (offset, size) pairs at the cursor. */
static int v6_cpu_table(struct dat_cur *c, u64 cpus, const char *buffer)
{
	for (u64 cpu = 0; cpu < cpus; cpu++) {
		u64 offset, size;
		int ret = cur_num(c, 8, &offset, "a CPU data offset");
		if (!ret)
			ret = cur_num(c, 8, &size, "a CPU data size");
		if (!ret)
			ret = cpu_data(c, buffer, cpu, offset, size);
		if (ret)
			return ret;
	}
	return 0;
}

static int check_v6(struct dat_cur *c)
{
	u64 v, cpus, buffers[DAT_MAX_SECTIONS];
	int nr_buffers = 0, ret;
	char tag[10];

	if ((ret = expect(c, "header_page", 12)) || (ret = cur_num(c, 8, &v, "header_page's size")) ||
	    (ret = header_page(c, v)) || (ret = expect(c, "header_event", 13)) ||
	    (ret = cur_num(c, 8, &v, "header_event's size")) || (ret = cur_skip(c, v, "header_event")))
		return ret;
	/* ftrace event formats, then the event systems */
	if ((ret = event_formats(c, false)) || (ret = event_formats(c, true)))
		return ret;
	if ((ret = cur_num(c, 4, &v, "kallsyms' size")) || (ret = cur_skip(c, v, "kallsyms")) ||
	    (ret = cur_num(c, 4, &v, "printk formats' size")) || (ret = cur_skip(c, v, "printk formats")) ||
	    (ret = cur_num(c, 8, &v, "the saved command lines' size")) ||
	    (ret = cur_skip(c, v, "the saved command lines")) ||
	    (ret = cur_num(c, 4, &cpus, "the number of CPUs")))
		return ret;
	if (cpus == 0 || cpus > DAT_MAX_CPUS)
		return damaged(c, "%llu CPUs (expected 1..%d)", (unsigned long long)cpus, DAT_MAX_CPUS);
	if ((ret = cur_read(c, tag, 10, "the options or data section")))
		return ret;
	if (memcmp(tag, "options  ", 10) == 0) {
		for (int k = 0;; k++) {
			u64 id, size, start;
			if ((ret = cur_num(c, 2, &id, "an option's id")))
				return ret;
			if (id == 0)
				break;
			if (k > 4096)
				return damaged(c, "more than 4096 options");
			if ((ret = cur_num(c, 4, &size, "an option's size")))
				return ret;
			start = c->pos;
			if ((ret = cur_skip(c, size, "an option")))
				return ret;
			if (id == 3) { /* BUFFER: the offset of an instance's CPU table, its name */
				struct dat_cur o = *c;
				if (size < 8)
					return damaged(c, "a buffer option of %llu bytes",
						   (unsigned long long)size);
				o.pos = start;
				if ((ret = cur_num(&o, 8, &v, "a buffer's offset")))
					return ret;
				if (nr_buffers == DAT_MAX_SECTIONS)
					return damaged(c, "more than %d buffers", DAT_MAX_SECTIONS);
				buffers[nr_buffers++] = v;
			}
		}
		if ((ret = cur_read(c, tag, 10, "the data section")))
			return ret;
	}
	if (memcmp(tag, "latency  ", 10) == 0)
		/* a latency tracer's file: its data is text, there are no per-CPU records, and
		 * libtracecmd leaves its CPU data unset, so reading a CPU's first record reads
		 * through NULL (found by fuzzing; tests/fuzz/corpus/dat/latency-data.dat) */
		return gs_error_set(c->err, GS_ETRACE,
				    "'%s': a latency tracer's trace.dat (its data is text, not per-CPU "
				    "event records) is not supported: record events instead "
				    "(trace-cmd record -e sched -e power)",
				    c->name);
	if (memcmp(tag, "flyrecord", 10) != 0)
		return damaged(c, "no 'flyrecord' or 'latency' section at byte %llu",
			   (unsigned long long)(c->pos - 10));
	if ((ret = v6_cpu_table(c, cpus, "")))
		return ret;
	for (int b = 0; b < nr_buffers; b++) {
		c->pos = buffers[b];
		if ((ret = v6_cpu_table(c, cpus, "an instance buffer's ")))
			return ret;
	}
	return 0;
}

/* ---- version 7 ----------------------------------------------------------------------------- */

/* The option ids of trace-cmd 3.1 (lib/trace-cmd/include/trace-cmd-local.h, enum
 * tracecmd_option_id) that point into the file. */
#define V7_OPT_DONE        0
#define V7_OPT_BUFFER      3
#define V7_OPT_HEADER_INFO 16
#define V7_OPT_CMDLINES    21
#define V7_OPT_BUFFER_TEXT 22
#define V7_SEC_COMPRESSED  1 /* a section header's flags: TRACECMD_SEC_FL_COMPRESS */

/* A section header at `offset` (read_section_header(): id 2 bytes, flags 2, the description's
 * string id 4, the size 8): its id, flags and size, the section inside the file. */
static int v7_section(struct dat_cur *c, u64 offset, u64 *id, u64 *flags, u64 *size)
{
	u64 desc;
	int ret;

	if (offset >= c->size)
		return damaged(c, "a section at byte %llu, past the end of the file (%llu bytes; "
			   "truncated?)", (unsigned long long)offset, (unsigned long long)c->size);
	c->pos = offset;
	if ((ret = cur_num(c, 2, id, "a section header")) || (ret = cur_num(c, 2, flags, "a section header")) ||
	    (ret = cur_num(c, 4, &desc, "a section header")) || (ret = cur_num(c, 8, size, "a section's size")))
		return ret;
	if (*size > c->size - c->pos)
		return damaged(c, "section %llu at byte %llu says %llu bytes, past the end of the file "
			   "(%llu bytes; truncated or corrupt)", (unsigned long long)*id,
			   (unsigned long long)offset, (unsigned long long)*size,
			   (unsigned long long)c->size);
	/* a compressed section in a file of no compression: init_buffer_cpu_data() and
	 * handle_options() then uncompress without a compression handle, and tracecmd_close()
	 * crashes on the half-opened file (found by mutating a converted file) */
	if ((*flags & V7_SEC_COMPRESSED) && !c->compressed)
		return damaged(c, "section %llu at byte %llu is flagged compressed, in a file without "
			   "compression", (unsigned long long)*id, (unsigned long long)offset);
	return 0;
}

/* The cursor at or before `end`, the end of what is being read (an option, a section). */
static int v7_within(struct dat_cur *c, u64 end, const char *what, u64 at)
{
	if (c->pos > end)
		return damaged(c, "%s at byte %llu runs past its end (byte %llu)", what,
			   (unsigned long long)at, (unsigned long long)end);
	return 0;
}

/*
 * A BUFFER or BUFFER_TEXT option of `size` bytes at `start`, as trace-cmd 3.1's
 * handle_buffer_option() reads it: the offset of its section, the instance's name and clock
 * (strings it strdup()s from the option, so they must end inside it), then for BUFFER (not in
 * trace-cmd.dat.v7.5.txt, but written and read by trace-cmd 3.1) the buffer's page size, 4
 * bytes, and the CPUs: a count, then per CPU its id (4), data offset (8) and size (8). The
 * library sizes a table by the largest CPU id and maps each CPU's pages.
 */
static int v7_buffer(struct dat_cur *c, u64 oid, u64 start, u64 size)
{
	u64 end = start + size, sec, bpage, cpus, id, flags, ssize;
	unsigned char seen[DAT_MAX_CPUS / 8] = {0};
	int ret;

	c->pos = start;
	if ((ret = cur_num(c, 8, &sec, "a buffer's offset")) || (ret = cur_string(c, NULL, 0, "a buffer's name")) ||
	    (ret = cur_string(c, NULL, 0, "a buffer's clock")) ||
	    (ret = v7_within(c, end, "a buffer option", start - 6)))
		return ret;
	if (oid == V7_OPT_BUFFER_TEXT) /* latency text: no CPUs */
		return v7_section(c, sec, &id, &flags, &ssize);
	if ((ret = cur_num(c, 4, &bpage, "a buffer's page size")) ||
	    (ret = cur_num(c, 4, &cpus, "a buffer's number of CPUs")) ||
	    (ret = v7_within(c, end, "a buffer option", start - 6)))
		return ret;
	if (bpage != c->page_size)
		return damaged(c, "a buffer of pages of %llu bytes, the file's are %llu",
			   (unsigned long long)bpage, (unsigned long long)c->page_size);
	if (cpus > DAT_MAX_CPUS)
		return damaged(c, "a buffer of %llu CPUs (at most %d)", (unsigned long long)cpus,
			   DAT_MAX_CPUS);
	for (u64 i = 0; i < cpus; i++) {
		u64 cpu, offset, dsize, next;
		if ((ret = cur_num(c, 4, &cpu, "a CPU id")) || (ret = cur_num(c, 8, &offset, "a CPU data offset")) ||
		    (ret = cur_num(c, 8, &dsize, "a CPU data size")) ||
		    (ret = v7_within(c, end, "a buffer option", start - 6)))
			return ret;
		if (cpu >= DAT_MAX_CPUS)
			return damaged(c, "a buffer's CPU id %llu (at most %d)", (unsigned long long)cpu,
				   DAT_MAX_CPUS - 1);
		/* handle_buffer_option() fails the open on a CPU listed twice ("More than one
		 * buffer defined for CPU"), leaking what it read */
		if (seen[cpu / 8] & (1u << (cpu % 8)))
			return damaged(c, "a buffer lists CPU %llu twice", (unsigned long long)cpu);
		seen[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
		next = c->pos;
		if ((ret = cpu_data(c, "", cpu, offset, dsize)))
			return ret;
		c->pos = next;
	}
	return v7_section(c, sec, &id, &flags, &ssize);
}

/* `n`-byte size at the cursor, then that many bytes, all inside the section ending at `end`. */
static int v7_sized(struct dat_cur *c, int n, u64 end, const char *what)
{
	u64 at = c->pos, v;
	int ret;

	if ((ret = cur_num(c, n, &v, what)) || (ret = v7_within(c, end, what, at)))
		return ret;
	if (v > end - c->pos)
		return damaged(c, "%s at byte %llu says %llu bytes, past the end of its section (byte "
			   "%llu)", what, (unsigned long long)at, (unsigned long long)v,
			   (unsigned long long)end);
	c->pos += v;
	return 0;
}

/*
 * The section an option 16..21 points to, read as handle_section() and the readers it calls do
 * (read_header_files(), read_ftrace_files(), read_event_files(), read_proc_kallsyms(),
 * read_ftrace_printk(), read_and_parse_cmdlines()): the id must be the option's, and what is
 * inside must end inside the section. Compressed sections are left to the library.
 */
static int v7_metadata(struct dat_cur *c, u64 oid, u64 off)
{
	u64 sid, flags, size, end, v;
	int ret;

	if ((ret = v7_section(c, off, &sid, &flags, &size)))
		return ret;
	if (sid != oid)
		return damaged(c, "option %llu points to byte %llu, a section %llu", (unsigned long long)oid,
			   (unsigned long long)off, (unsigned long long)sid);
	if (flags & V7_SEC_COMPRESSED) /* its contents: to the library */
		return z_block(c, size, "a compressed section", &v, NULL);
	end = c->pos + size;
	switch (oid) {
	case V7_OPT_HEADER_INFO:
		ret = expect(c, "header_page", 12);
		if (!ret)
			ret = cur_num(c, 8, &v, "header_page's size");
		if (!ret && v > end - c->pos)
			ret = damaged(c, "header_page of %llu bytes, past the end of its section",
				  (unsigned long long)v);
		if (!ret)
			ret = header_page(c, v);
		if (!ret)
			ret = expect(c, "header_event", 13);
		if (!ret)
			ret = v7_sized(c, 8, end, "header_event");
		break;
	case 17:
	case 18:
		ret = event_formats(c, oid == 18);
		break;
	case 19:
		ret = v7_sized(c, 4, end, "kallsyms");
		break;
	case 20:
		ret = v7_sized(c, 4, end, "printk formats");
		break;
	default:
		ret = v7_sized(c, 8, end, "the saved command lines");
		break;
	}
	return ret ? ret : v7_within(c, end, "a metadata section", off);
}

/* What the options walk found: the buffers are checked after it, once the header_page (which
 * sizes a page's events) has been read, wherever its option was. */
struct v7_walk {
	u64 next; /* the next options section, from a DONE option */
	bool header_info, top_buffer;
	int nr_buffers;
	u64 buffer_id[DAT_MAX_SECTIONS], buffer_start[DAT_MAX_SECTIONS], buffer_size[DAT_MAX_SECTIONS];
};

/* An option handle_options() reads inside itself: its strings (DATE, CPUSTAT, TRACECLOCK,
 * UNAME, HOOK, OFFSET, VERSION) are strdup()ed, strtoll()ed or parsed in place, so they must
 * end with a NUL inside the option (trace-cmd writes them so); CPUCOUNT (4 bytes, read as an
 * int whatever the size up to 8) sets the number of CPUs the library sizes tables by. */
static int v7_plain_option(struct dat_cur *c, u64 oid, u64 start, u64 size)
{
	unsigned char last;
	u64 v;
	int ret;

	c->pos = start;
	if (oid == 8) {
		if (size < 4)
			return damaged(c, "a CPUCOUNT option of %llu bytes", (unsigned long long)size);
		if (size <= 8 && (ret = cur_num(c, 4, &v, "a CPU count")))
			return ret;
		if (size <= 8 && (v == 0 || v > DAT_MAX_CPUS))
			return damaged(c, "%llu CPUs (expected 1..%d)", (unsigned long long)v, DAT_MAX_CPUS);
		return 0;
	}
	if ((oid < 1 || oid > 9 || oid == 3 || oid == 8) || (oid == 4 && size == 0))
		return 0; /* not a string; or TRACECLOCK of 0 bytes, v6's flag for a clock after
			   * the data */
	if (size == 0)
		return damaged(c, "option %llu at byte %llu is empty (a string is expected)",
			   (unsigned long long)oid, (unsigned long long)(start - 6));
	c->pos = start + size - 1;
	if ((ret = cur_read(c, &last, 1, "an option's string")))
		return ret;
	if (last != '\0')
		return damaged(c, "option %llu at byte %llu is not a NUL-terminated string",
			   (unsigned long long)oid, (unsigned long long)(start - 6));
	return 0;
}

/* One option of id `oid` and `size` bytes at `start`, into `w`. */
static int v7_option(struct dat_cur *c, struct v7_walk *w, u64 oid, u64 start, u64 size)
{
	unsigned char name = 1;
	u64 off;
	int ret;

	c->pos = start;
	if (oid == V7_OPT_DONE) { /* handle_option_done(): the next options section, or 0 */
		if (size != 8)
			return damaged(c, "a DONE option of %llu bytes", (unsigned long long)size);
		return cur_num(c, 8, &w->next, "the next options offset");
	}
	if (oid == V7_OPT_BUFFER || oid == V7_OPT_BUFFER_TEXT) {
		if (w->nr_buffers == DAT_MAX_SECTIONS)
			return damaged(c, "more than %d buffers", DAT_MAX_SECTIONS);
		c->pos = start + 8;
		if (size > 8 && (ret = cur_read(c, &name, 1, "a buffer's name")))
			return ret;
		w->top_buffer |= name == 0; /* the top instance's name is "" */
		w->buffer_id[w->nr_buffers] = oid;
		w->buffer_start[w->nr_buffers] = start;
		w->buffer_size[w->nr_buffers++] = size;
		return 0;
	}
	if (oid < V7_OPT_HEADER_INFO || oid > V7_OPT_CMDLINES)
		return v7_plain_option(c, oid, start, size);
	if (size != 8)
		return damaged(c, "option %llu of %llu bytes", (unsigned long long)oid,
			   (unsigned long long)size);
	w->header_info |= oid == V7_OPT_HEADER_INFO;
	if ((ret = cur_num(c, 8, &off, "a section offset")))
		return ret;
	return v7_metadata(c, oid, off);
}

/* The options of the section of `size` bytes at the cursor (at `at` in the file), up to and
 * including its DONE: handle_options() reads options until a DONE, past the section's end if
 * there is none (found by mutating a converted file: it then fails and leaks). */
static int v7_options(struct dat_cur *c, struct v7_walk *w, u64 at, u64 size)
{
	u64 end = c->pos + size;
	int ret;

	while (c->pos < end) {
		u64 oid, osize, start;
		if ((ret = cur_num(c, 2, &oid, "an option's id")) ||
		    (ret = cur_num(c, 4, &osize, "an option's size")))
			return ret;
		start = c->pos;
		if (osize > end - start)
			return damaged(c, "an option at byte %llu longer than its section",
				   (unsigned long long)(start - 6));
		if ((ret = v7_option(c, w, oid, start, osize)))
			return ret;
		if (oid == V7_OPT_DONE)
			return 0;
		c->pos = start + osize;
	}
	return damaged(c, "the options section at byte %llu ends without a DONE option",
		   (unsigned long long)at);
}

/*
 * The sections back to back from the end of the file header, as read_metadata_strings() walks
 * them to find the strings sections: each must fit in the file (trace-cmd writes the strings
 * section last, so a file cut short loses it first). A header cut short is damage too.
 */
static int v7_chain(struct dat_cur *c, u64 pos)
{
	u64 id, flags, size;
	int ret;

	while (pos < c->size) {
		if (c->size - pos < 16)
			return damaged(c, "a section header at byte %llu cut short by the end of the file "
				   "(%llu bytes; truncated?)", (unsigned long long)pos,
				   (unsigned long long)c->size);
		if ((ret = v7_section(c, pos, &id, &flags, &size)))
			return ret;
		if ((flags & V7_SEC_COMPRESSED) && id != V7_OPT_BUFFER && id != V7_OPT_BUFFER_TEXT &&
		    (ret = z_block(c, size, "a compressed section", &flags, NULL)))
			return ret;
		pos += 16 + size;
	}
	return 0;
}

/*
 * The options sections, followed from the file header as handle_options() and
 * handle_option_done() do, then the buffers they list, then the chain of sections. Without a
 * HEADER_INFO option the library never reads a header_page and, without a top-instance
 * BUFFER, has no CPU data: either fails the open, and tracecmd_close() then crashes on the
 * half-opened file (found by mutating a converted file).
 */
static int check_v7(struct dat_cur *c)
{
	struct v7_walk *w;
	u64 id, flags, size, chain;
	char zname[32];
	int ret = 0;

	if ((ret = cur_string(c, zname, sizeof(zname), "the compression name")) ||
	    (ret = cur_string(c, NULL, 0, "the compression version")))
		return ret;
	c->compressed = strcmp(zname, "none") != 0;
	w = calloc(1, sizeof(*w));
	if (!w)
		return gs_error_set(c->err, GS_ENOMEM, "out of memory");
	ret = cur_num(c, 8, &w->next, "the first options section's offset");
	chain = c->pos;
	for (int k = 0; !ret && w->next; k++) {
		u64 at = w->next;
		if (k == DAT_MAX_SECTIONS) {
			ret = damaged(c, "more than %d options sections (a loop?)", DAT_MAX_SECTIONS);
			break;
		}
		w->next = 0;
		if ((ret = v7_section(c, at, &id, &flags, &size)))
			break;
		if (id != 0)
			ret = damaged(c, "no options section at byte %llu", (unsigned long long)at);
		else if (flags & V7_SEC_COMPRESSED) { /* compressed options: left to the library */
			ret = z_block(c, size, "a compressed options section", &size, NULL);
			goto out;
		}
		else
			ret = v7_options(c, w, at, size);
	}
	if (!ret && !w->header_info)
		ret = damaged(c, "no HEADER_INFO option (the header_page's section)");
	if (!ret && !w->top_buffer)
		ret = damaged(c, "no BUFFER option of the top instance (its CPUs' data)");
	for (int b = 0; !ret && b < w->nr_buffers; b++)
		ret = v7_buffer(c, w->buffer_id[b], w->buffer_start[b], w->buffer_size[b]);
	if (!ret)
		ret = v7_chain(c, chain);
out:
	free(w);
	return ret;
}

int dat_check(const char *file, const char *name, struct gs_error *err)
{
	struct dat_cur c = {.fd = -1, .name = name, .err = err};
	unsigned char head[12];
	char version[16];
	struct stat sb;
	u64 ver, page_size;
	int ret;

	c.fd = open(file, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0)
		return gs_error_set(err, GS_EINPUT, "'%s': cannot open: %s", name, strerror(errno));
	if (fstat(c.fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		ret = gs_error_set(err, GS_EINPUT, "'%s': not a regular file", name);
		goto out_close;
	}
	c.size = (u64)sb.st_size;
	if ((ret = cur_read(&c, head, 10, "the magic")) || (ret = cur_string(&c, version, sizeof(version),
								  "the version")))
		goto out_close;
	if (gs_parse_u64(version, &ver) != 0 || (ver != 6 && ver != 7)) {
		ret = damaged(&c, "file version '%s' (govsim reads 6 and 7)", version);
		goto out_close;
	}
	if ((ret = cur_read(&c, head, 2, "the endianness and long size")))
		goto out_close;
	if (head[0] > 1 || (head[1] != 4 && head[1] != 8)) {
		ret = damaged(&c, "endianness %u and long size %u (expected 0 or 1, and 4 or 8)",
			  head[0], head[1]);
		goto out_close;
	}
	c.big_endian = head[0] == 1;
	if ((ret = cur_num(&c, 4, &page_size, "the page size")))
		goto out_close;
	if (page_size < 1024 || page_size > (1u << 24) || (page_size & (page_size - 1))) {
		ret = damaged(&c, "page size %llu (expected a power of two, 1 KiB .. 16 MiB)",
			  (unsigned long long)page_size);
		goto out_close;
	}
	c.page_size = page_size;
	c.sandbox = dat_sandbox_new();
	if (!c.sandbox) {
		ret = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_close;
	}
	ret = ver == 6 ? check_v6(&c) : check_v7(&c);
	if (!ret) {
		char why[512];
		if (dat_sandbox_run(c.sandbox, file, why, sizeof(why)))
			ret = damaged(&c, "%s", why);
	}
out_close:
	dat_sandbox_free(c.sandbox);
	close(c.fd);
	return ret;
}
