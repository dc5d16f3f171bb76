/*
 * dat_format.c - an event format of a trace.dat, checked before libtraceevent parses it.
 *
 * libtraceevent (1.7, src/event-parse.c) trusts the format text. Its process_flags() and
 * process_symbolic() set the file-static flags is_flag_field / is_symbolic_field before they
 * parse their first argument, and the next process_entry() (the next `REC->name` parsed, in this
 * event or, when the first argument was no `REC->`, in a later one) does
 *
 *	arg->field.field = tep_find_any_field(event, arg->field.name);
 *	arg->field.field->flags |= TEP_FIELD_IS_FLAG;      (or TEP_FIELD_IS_SYMBOLIC)
 *
 * without checking for NULL: a `REC->name` that names no field of its event is a NULL write
 * (fuzzing: `__print_flags(REC->prev_statlong(4096-1), ...)` in sched_switch,
 * `__print_symbolic(REC->pm_qos_clkmem_free_QOS_..., ...)` in pm_qos_add_request;
 * tests/fuzz/corpus/dat/). A kernel never writes such a format: the format's fields and
 * its print fmt come from the same TP_STRUCT__entry, and the compiler checks every __entry->name
 * that becomes REC->name. So every `REC->name` outside a string or character literal must name
 * one of the event's fields (common or its own), as tep_find_any_field() looks them up.
 */
#include "trace/dat/dat_priv.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_ident(int ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int why_set(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int why_set(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* Where `word` (NUL-free, at a word start) occurs in [p, end) at the start of a line, or NULL. */
static const char *line_starting(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	for (; p && p + n <= end; p = memchr(p, '\n', (size_t)(end - p)), p = p ? p + 1 : NULL) {
		const char *s = p;

		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if ((size_t)(end - s) >= n && memcmp(s, word, n) == 0)
			return s;
	}
	return NULL;
}

/*
 * Whether [name, name + len) is a field of the format [text, fmt): a line
 * `field:TYPE NAME[N];` (libtraceevent's event_read_fields(): the name is the last word before
 * the ';', after any [..] array suffix).
 */
static bool has_field(const char *text, const char *fmt, const char *name, size_t len)
{
	for (const char *f = line_starting(text, fmt, "field:"); f && f < fmt;
	     f = line_starting(f + 6, fmt, "field:")) {
		const char *semi = memchr(f, ';', (size_t)(fmt - f)), *e, *b;

		if (!semi)
			continue;
		e = semi;
		while (e > f && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		while (e > f && e[-1] == ']') { /* array suffixes */
			while (e > f && e[-1] != '[')
				e--;
			if (e > f)
				e--;
			while (e > f && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
		}
		for (b = e; b > f + 6 && is_ident(b[-1]); b--)
			;
		if ((size_t)(e - b) == len && memcmp(b, name, len) == 0)
			return true;
	}
	return false;
}

/* Past a "..." or '...' literal starting at p (backslash escapes), at most end. */
static const char *skip_literal(const char *p, const char *end)
{
	char q = *p++;

	while (p < end && *p != q) {
		if (*p == '\\' && p + 1 < end)
			p++;
		p++;
	}
	return p < end ? p + 1 : end;
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* How much of [p, end) to quote in a message: to the line's end, at most 24 printable bytes. */
static size_t snippet_len(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && n < 24 && p[n] >= 0x20 && p[n] <= 0x7e)
		n++;
	return n;
}

/*
 * Whether every `field:` line before fmt declares its field in printable ASCII with each '['
 * closed by a ']' before the ';': libtraceevent's event_read_fields() reads an array suffix
 * token by token and passes a failed token to strcmp() (a byte 0xa3 in `char[` crashed it,
 * found by fuzzing; tests/fuzz/corpus/dat/field-array-not-closed.dat). The first bad line, or
 * NULL.
 */
static const char *bad_field_line(const char *text, const char *fmt)
{
	for (const char *f = line_starting(text, fmt, "field:"); f && f < fmt;
	     f = line_starting(f + 6, fmt, "field:")) {
		const char *semi = memchr(f, ';', (size_t)(fmt - f));
		int depth = 0;

		if (!semi)
			return f;
		for (const char *c = f + 6; c < semi; c++) {
			if ((*c < 0x20 || *c > 0x7e) && *c != '\t')
				return f;
			if (*c == '[')
				depth++;
			else if (*c == ']' && --depth < 0)
				return f;
		}
		if (depth)
			return f;
	}
	return NULL;
}

/*
 * Whether the '/' or '%' operator at op divides by an atom that libtraceevent folds to zero.
 * libtraceevent (1.7) folds `atom OP atom` while it parses a print fmt, each atom read with
 * strtoull(): an identifier that is not a field, a string or character literal and "0", "00",
 * "0x0", "0.5" all read 0, and `5 / 0`, `R % E`, `(5) / (0)` or `"a" / 0` divide by zero inside
 * tep_parse_event() (SIGFPE; found by fuzz_dat_format). A left operand that is a field
 * (`REC->x / 0`) or a function's result is not folded. The check is on tokens: the right operand
 * (past any '(') is an identifier not called as a function and not REC->, a literal, or a number
 * strtoull reads as 0; the left ends in an identifier that is not `->name`, a number, a literal,
 * sizeof(..) or a parenthesis that is not a function call's. A kernel's formats divide fields by non-zero constants (`REC->delta / 1000`); one
 * that divides an atom by a bare enum name would be refused too, and would crash the library.
 */
static bool zero_divisor(const char *fmt, const char *op, const char *end)
{
	const char *l = op, *r = op + 1;

	while (l > fmt && (l[-1] == ' ' || l[-1] == '\t'))
		l--;
	if (l == fmt)
		return false;
	if (is_ident(l[-1])) {
		const char *b = l;

		while (b > fmt && is_ident(b[-1]))
			b--;
		while (b > fmt && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (b - fmt >= 2 && b[-2] == '-' && b[-1] == '>')
			return false; /* a field */
	} else if (l[-1] == ')') {
		const char *b = l - 1, *f;
		int depth = 0;

		for (; b >= fmt; b--) { /* the matching '(' */
			depth += *b == ')' ? 1 : *b == '(' ? -1 : 0;
			if (depth == 0)
				break;
		}
		if (b < fmt)
			return false;
		for (f = b; f > fmt && is_ident(f[-1]); f--)
			;
		/* a function's result is not folded; sizeof() is an atom */
		if (f < b && !((size_t)(b - f) == 6 && memcmp(f, "sizeof", 6) == 0))
			return false;
	} else if (l[-1] != '"' && l[-1] != '\'') {
		return false;
	}
	while (r < end && (*r == ' ' || *r == '\t' || *r == '('))
		r++;
	if (r == end)
		return false;
	if (*r == '"' || *r == '\'')
		return true;
	if (isdigit((unsigned char)*r)) {
		char num[32];
		size_t n = 0;

		while (r + n < end && (is_ident(r[n]) || r[n] == '.') && n < sizeof(num) - 1) {
			num[n] = r[n];
			n++;
		}
		num[n] = '\0';
		return strtoull(num, NULL, 0) == 0;
	}
	if (is_ident(*r)) {
		const char *e = r;

		while (e < end && is_ident(*e))
			e++;
		if (e - r == 3 && memcmp(r, "REC", 3) == 0) {
			const char *a = skip_space(e, end);
			if (end - a >= 2 && a[0] == '-' && a[1] == '>')
				return false;
		}
		e = skip_space(e, end);
		return !(e < end && *e == '('); /* a function's result is not folded */
	}
	return false;
}

int dat_format_name(const char *text, size_t size, const char **name)
{
	const char *end = text + size, *n = line_starting(text, end, "name:");
	int len = 0;

	*name = "";
	if (!n)
		return 0;
	n = skip_space(n + 5, end);
	while (n + len < end && is_ident(n[len]) && len < DAT_FORMAT_NAME_MAX)
		len++;
	*name = n;
	return len;
}

int dat_format_check(const char *text, size_t size, const char *system, char *why,
		     size_t why_size)
{
	const char *end = text + size, *fmt = line_starting(text, end, "print fmt:"), *p;
	const char *name;
	int name_len = dat_format_name(text, size, &name);

	/* the field lines are read before the print fmt, and also when there is none */
	if ((p = bad_field_line(text, fmt ? fmt : end))) {
		const char *stop = fmt ? fmt : end, *eol = memchr(p, '\n', (size_t)(stop - p));
		size_t n = (size_t)((eol ? eol : stop) - p);
		char line[61];

		if (n > 60)
			n = 60;
		for (size_t i = 0; i < n; i++) /* shown printable */
			line[i] = p[i] == '\t' ? ' ' : p[i] >= 0x20 && p[i] <= 0x7e ? p[i] : '?';
		line[n] = '\0';
		return why_set(why, why_size,
			       "event %s/%.*s: a field line that is not a C declaration with its "
			       "brackets closed: '%s'",
			       system, name_len, name, line);
	}
	if (!fmt)
		return 0; /* libtraceevent reports a format without one */
	for (p = fmt + 10; p < end;) {
		const char *n;
		size_t len = 0;

		if (*p == '"' || *p == '\'') {
			p = skip_literal(p, end);
			continue;
		}
		if ((*p == '/' || *p == '%') && zero_divisor(fmt + 10, p, end))
			return why_set(why, why_size,
				       "event %s/%.*s: its print fmt divides by a constant zero ('%.*s')",
				       system, name_len, name, (int)snippet_len(p, end), p);
		if (!is_ident(*p)) {
			p++;
			continue;
		}
		n = p;
		while (p < end && is_ident(*p))
			p++;
		if (p - n != 3 || memcmp(n, "REC", 3) != 0)
			continue;
		n = skip_space(p, end);
		if (end - n < 2 || n[0] != '-' || n[1] != '>')
			continue;
		n = skip_space(n + 2, end);
		while (n + len < end && is_ident(n[len]))
			len++;
		if (len && !has_field(text, fmt, n, len))
			return why_set(why, why_size,
				       "event %s/%.*s: its print fmt names REC->%.*s, which is not "
				       "one of its fields", system, name_len, name,
				       (int)(len > 64 ? 64 : len), n);
		p = n + len;
	}
	return 0;
}
