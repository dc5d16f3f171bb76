/*
 * systrace.c - Android systrace: the HTML page `systrace.py` / `atrace` writes, and the Chrome
 * JSON trace with a "systemTraceEvents" string. Both carry the kernel's ftrace text, which goes
 * line by line through the text reader (text_parse_line()).
 *
 * HTML (catapult's systrace output): the trace sits in
 *     <script class="trace-data" type="application/text"> ... </script>
 * blocks; a block whose first line starts with '{' or '[' is JSON (process dumps, Chrome
 * events) and is skipped; the others are ftrace text. Lines are numbered in the file, so a
 * malformed line's 'file':line points into its block; the header says which blocks were read.
 * A block starts at a line that is the tag alone (spaces around it allowed): the viewer's own
 * script quotes the tag inside its regular expressions, and such a line is code, not a block.
 * The viewer's scripts can also hold lines longer than the input buffer: they are skipped whole.
 *
 * Older systrace pages (before the trace-data blocks) carry the text in a JavaScript string:
 *       var linuxPerfData = "\
 *     # tracer: nop\n\
 *     ...\n\
 *     <last line>\n";
 * The string starts at a line that is `var linuxPerfData = "\` alone; each line's `\n\` (or a
 * bare `\` continuation) is cut off, and the string ends at `\n";`, `";` or `</script>`.
 *
 * JSON: {"traceEvents": [...], "systemTraceEvents": "# tracer: nop\n..."}: the value of
 * "systemTraceEvents" is found by a streaming scan and decoded (\n, \t, \", \\, \/, \uXXXX)
 * into lines; line numbers count the lines of that string.
 */
#define _GNU_SOURCE /* memmem */
#include "trace/text/text_priv.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SYS_LINE_MAX (1u << 20) /* a decoded JSON line longer than this is malformed */

enum sys_mode { SYS_HTML, SYS_JSON };

struct sys_state {
	enum sys_mode mode;
	/* HTML */
	bool in_block;
	bool in_string;  /* in the block: the older JavaScript string, not a trace-data tag */
	int block_kind; /* in a block: 0 not decided yet, 1 ftrace text, -1 JSON (skipped) */
	int blocks, text_blocks;
	/* JSON */
	int key_pos;  /* characters of "systemTraceEvents" matched so far */
	int json_st;  /* 0 looking for the key, 1 after it (':' then '"'), 2 in the string, 3 done */
	int esc;      /* 0 none, 1 after '\\', 2..5 \u digits */
	u32 uval;
	char *line;
	size_t line_len, line_cap;
	bool line_too_long;
};

static bool starts_ci(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) >= n && strncasecmp(p, word, n) == 0;
}

static struct sys_state *sys_of(const struct trace_reader *r)
{
	return r->state;
}

/* The start of a text file: systrace HTML, or a Chrome JSON trace with systemTraceEvents. */
static bool sys_sniff(const char *p, size_t n, bool eof)
{
	const char *end = p + n;

	(void)eof;
	if (n >= 3 && (unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb &&
	    (unsigned char)p[2] == 0xbf)
		p += 3; /* UTF-8 byte order mark */
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (starts_ci(p, end, "<!DOCTYPE html") || starts_ci(p, end, "<html"))
		return true;
	if (p < end && *p == '{') {
		static const char key[] = "\"systemTraceEvents\"";
		return memmem(p, (size_t)(end - p), key, sizeof(key) - 1) != NULL;
	}
	return false;
}

static int sys_open(struct trace_reader *r, struct gs_error *err)
{
	struct sys_state *s = calloc(1, sizeof(*s));
	const char *p = r->buf, *end = r->buf + r->buf_len;

	if (!s)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	r->state = s;
	r->st.format = TRACE_FMT_SYSTRACE;
	while (p < end && *p != '{' && *p != '<')
		p++;
	s->mode = p < end && *p == '{' ? SYS_JSON : SYS_HTML;
	if (s->mode == SYS_JSON) {
		s->line_cap = 65536;
		s->line = malloc(s->line_cap + 1);
		if (!s->line)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		reader_add_header(r, "Chrome JSON: ftrace text of systemTraceEvents");
	}
	return 0;
}

static void sys_close(struct trace_reader *r)
{
	struct sys_state *s = sys_of(r);

	if (!s)
		return;
	free(s->line);
	free(s);
	r->state = NULL;
}

static bool has(const char *s, size_t len, const char *word)
{
	return memmem(s, len, word, strlen(word)) != NULL;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* [*p, *end) without the spaces at either end. */
static void trim(const char **p, const char **end)
{
	while (*p < *end && is_space(**p))
		(*p)++;
	while (*end > *p && is_space((*end)[-1]))
		(*end)--;
}

static bool ends_with(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) >= n && memcmp(end - n, word, n) == 0;
}

/* A line that is a trace-data tag alone: `<script ... trace-data ...>`, nothing after it. */
static bool is_block_tag(const char *line, size_t len)
{
	const char *p = line, *end = line + len, *gt;

	trim(&p, &end);
	if (!starts_ci(p, end, "<script") || p == end || end[-1] != '>')
		return false;
	gt = memchr(p, '>', (size_t)(end - p));
	return gt == end - 1 && has(p, (size_t)(gt - p), "trace-data");
}

/* A line that opens the older systrace's string: `var linuxPerfData = "\` alone. */
static bool is_string_start(const char *line, size_t len)
{
	static const char start[] = "var linuxPerfData = \"\\";
	const char *p = line, *end = line + len;

	trim(&p, &end);
	return (size_t)(end - p) == sizeof(start) - 1 && memcmp(p, start, sizeof(start) - 1) == 0;
}

/* One line of the older systrace's string: its JavaScript line end cut off, then the text
 * reader. The string's last line (`...\n";`) or `";` or `</script>` ends the block. */
static int string_line(struct trace_reader *r, char *line, size_t len, struct gs_error *err)
{
	struct sys_state *s = sys_of(r);
	const char *p = line, *end = line + len;

	trim(&p, &end);
	if (starts_ci(p, end, "</script>") || (end - p == 2 && memcmp(p, "\";", 2) == 0)) {
		s->in_block = false;
		return 0;
	}
	while (len && is_space(line[len - 1]))
		len--;
	if (ends_with(line, line + len, "\\n\";")) {
		len -= 4;
		s->in_block = false;
	} else if (ends_with(line, line + len, "\\n\\")) {
		len -= 3;
	} else if (ends_with(line, line + len, "\\")) {
		len -= 1;
	}
	line[len] = '\0';
	return text_parse_line(r, line, len, err);
}

/* One HTML line (NUL-terminated at line[len]). */
static int html_line(struct trace_reader *r, char *line, size_t len, struct gs_error *err)
{
	struct sys_state *s = sys_of(r);
	const char *p = line, *end = line + len;

	if (!s->in_block) {
		if (is_block_tag(line, len)) {
			s->in_block = true;
			s->in_string = false;
			s->block_kind = 0;
			s->blocks++;
		} else if (is_string_start(line, len)) {
			s->in_block = true;
			s->in_string = true;
			s->blocks++;
			s->text_blocks++;
			reader_add_header(r, "systrace HTML: ftrace text of the linuxPerfData "
					  "string (older systrace)");
		}
		return 0;
	}
	if (s->in_string)
		return string_line(r, line, len, err);
	if (has(line, len, "</script>")) {
		s->in_block = false;
		return 0;
	}
	if (s->block_kind == 0) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			return 0;
		if (*p == '{' || *p == '[') {
			s->block_kind = -1;
		} else {
			s->block_kind = 1;
			s->text_blocks++;
			reader_add_header(r, "systrace HTML: ftrace text of trace-data block %d",
					  s->blocks);
		}
	}
	if (s->block_kind < 0)
		return 0;
	return text_parse_line(r, line, len, err);
}

static int html_fill(struct trace_reader *r, struct gs_error *err)
{
	struct sys_state *s = sys_of(r);
	char *line;
	size_t len;
	int ret = reader_next_line(r, &line, &len, err);

	if (ret == READER_LINE_TOO_LONG) {
		/* a script of the viewer, or a broken line of a text block */
		if (s->in_block && s->block_kind > 0)
			return reader_malformed(r, r->lineno, err, "line longer than %u bytes",
						READER_BUF_SIZE);
		return 0;
	}
	if (ret <= 0)
		return ret;
	return html_line(r, line, len, err);
}

/* A decoded character of the JSON string: lines go to the text reader. 1 when a line was
 * parsed (the caller returns to let events out), 0, or a negative code. */
static int json_char(struct trace_reader *r, char c, struct gs_error *err)
{
	struct sys_state *s = sys_of(r);

	if (c != '\n') {
		if (s->line_len < SYS_LINE_MAX) {
			if (s->line_len == s->line_cap) {
				char *l = realloc(s->line, s->line_cap * 2 + 1);
				if (!l)
					return gs_error_set(err, GS_ENOMEM, "out of memory");
				s->line = l;
				s->line_cap *= 2;
			}
			s->line[s->line_len++] = c;
		} else {
			s->line_too_long = true;
		}
		return 0;
	}
	r->lineno++;
	r->st.lines++;
	if (s->line_too_long) {
		s->line_too_long = false;
		s->line_len = 0;
		return reader_malformed(r, r->lineno, err, "line longer than %u bytes",
					SYS_LINE_MAX);
	}
	s->line[s->line_len] = '\0';
	{
		int ret = text_parse_line(r, s->line, s->line_len, err);
		s->line_len = 0;
		return ret < 0 ? ret : 1;
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int json_fill(struct trace_reader *r, struct gs_error *err)
{
	static const char key[] = "\"systemTraceEvents\"";
	struct sys_state *s = sys_of(r);

	for (;;) {
		while (r->buf_pos < r->buf_len) {
			char c = r->buf[r->buf_pos++];
			int ret = 0;

			switch (s->json_st) {
			case 0:
				if (c == key[s->key_pos])
					s->key_pos++;
				else
					s->key_pos = c == key[0];
				if (s->key_pos == (int)sizeof(key) - 1)
					s->json_st = 1;
				continue;
			case 1:
				if (c == '"')
					s->json_st = 2;
				else if (c != ':' && c != ' ' && c != '\t' && c != '\r' && c != '\n')
					s->json_st = 0, s->key_pos = 0; /* the key was a value */
				continue;
			case 3:
				r->buf_pos = r->buf_len;
				continue;
			default:
				break;
			}
			/* in the string */
			if (s->esc == 1) {
				s->esc = 0;
				switch (c) {
				case 'n': ret = json_char(r, '\n', err); break;
				case 't': ret = json_char(r, '\t', err); break;
				case 'r': break;
				case 'b': case 'f': break;
				case 'u': s->esc = 2; s->uval = 0; break;
				default: ret = json_char(r, c, err); break; /* \" \\ \/ */
				}
			} else if (s->esc >= 2) {
				int h = hexval(c);
				s->uval = s->uval * 16 + (u32)(h < 0 ? 0 : h);
				if (++s->esc == 6) {
					s->esc = 0;
					ret = json_char(r, s->uval < 0x80 ? (char)s->uval : '?', err);
				}
			} else if (c == '\\') {
				s->esc = 1;
			} else if (c == '"') {
				s->json_st = 3;
				if (s->line_len)
					ret = json_char(r, '\n', err);
			} else {
				ret = json_char(r, c, err);
			}
			if (ret < 0)
				return ret;
			if (ret == 1)
				return 0;
		}
		if (r->in_eof) {
			if (s->json_st == 2) {
				r->done = true;
				return gs_error_set(err, GS_ETRACE,
						    "'%s': systemTraceEvents string not terminated",
						    r->path);
			}
			r->done = true;
			return 0;
		}
		r->buf_pos = r->buf_len = 0;
		{
			int ret = reader_refill(r, err);
			if (ret < 0)
				return ret;
		}
	}
}

static int sys_fill(struct trace_reader *r, struct gs_error *err)
{
	return sys_of(r)->mode == SYS_HTML ? html_fill(r, err) : json_fill(r, err);
}

const struct trace_backend trace_backend_systrace = {
	.name = "systrace",
	.formats = 1u << TRACE_FMT_SYSTRACE,
	.unit = "lines",
	.sniff = sys_sniff,
	.open = sys_open,
	.fill = sys_fill,
	.close = sys_close,
};
