/*
 * policy.c - clamp policy files: parse with the kernel's validation up front, and format them
 * back as normalised text. See policy.h.
 *
 * The file format is govsim's own; each action stands for a user-space call into v5.9
 * kernel/sched/core.c: setattr for sched_setattr() (__sched_setscheduler: uclamp_validate, then
 * __setscheduler_uclamp between dequeue and enqueue), sysctl for a write to
 * /proc/sys/kernel/sched_util_clamp_* (sysctl_sched_uclamp_handler), cgroup for a write to
 * cpu.uclamp.min/max (cpu_uclamp_write), attach for a write to cgroup.procs (sched_move_task).
 * The kernel rules themselves are in uclamp.c (its list of differences applies). Differences in
 * how the actions reach them, and why:
 * - Checked up front: every action is validated when the file is read (on a scratch state, in
 *   run order, for what depends on the sequence: sysctl min > max, too many groups), so a
 *   policy the kernel would reject part-way fails before anything is replayed (exit 3).
 * Applying the actions is policy_apply.c.
 */
#include "uclamp/policy.h"

#include "core/strbuf.h"
#include "core/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void policy_init(struct policy *p)
{
	p->actions = NULL;
	p->n = 0;
	p->alloc = 0;
	p->defer_check = 0;
}

void policy_release(struct policy *p)
{
	if (!p)
		return;
	free(p->actions);
	policy_init(p);
}

/* ---- parsing ------------------------------------------------------------------------------ */

#define POLICY_MAX_WORDS 16

/* A line split into words, with its location for messages. */
struct policy_line {
	const char *origin;
	long lineno;
	char buf[1024];
	char *word[POLICY_MAX_WORDS];
	int nr_words;
};

static int policy_err(struct gs_error *err, const struct policy_line *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int policy_err(struct gs_error *err, const struct policy_line *l, const char *fmt, ...)
{
	char why[GS_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return gs_error_set(err, GS_EPOLICY, "'%s':%ld: %s", l->origin, l->lineno, why);
}

/* Split on blanks; a word starting with '#' ends the line. Returns 0 or GS_EPOLICY. */
static int policy_split(struct policy_line *l, const char *text, struct gs_error *err)
{
	char *s;

	if (strlen(text) >= sizeof(l->buf))
		return policy_err(err, l, "line too long (at most %zu characters)",
				  sizeof(l->buf) - 1);
	snprintf(l->buf, sizeof(l->buf), "%s", text);
	l->nr_words = 0;
	s = l->buf;
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			break;
		if (l->nr_words == POLICY_MAX_WORDS)
			return policy_err(err, l, "too many words (at most %d)", POLICY_MAX_WORDS);
		l->word[l->nr_words++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
	return 0;
}

/* A non-negative decimal integer, all of the word; false if junk or above max. */
static bool policy_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return false;
	}
	*out = v;
	return true;
}

/* "12", "0.5", "1.000000001": seconds to ns exactly, at most 9 decimals. */
static bool policy_parse_seconds(const char *s, u64 *ns)
{
	u64 whole = 0, frac = 0;
	int wdigits = 0, fdigits = 0;

	for (; isdigit((unsigned char)*s); s++) {
		if (++wdigits > 10) /* ~317 years */
			return false;
		whole = whole * 10 + (u64)(*s - '0');
	}
	if (!wdigits)
		return false;
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			if (++fdigits > 9)
				return false;
			frac = frac * 10 + (u64)(*s - '0');
		}
	}
	if (*s)
		return false;
	for (int i = fdigits; i < 9; i++)
		frac *= 10;
	*ns = whole * NSEC_PER_SEC + frac;
	return true;
}

/* "comm=GLOB" or "pid=N" into a. Returns 1 if the word is a selector, 0 if not, <0 on error. */
static int policy_parse_selector(struct policy_action *a, const char *word, bool *have,
				 const struct policy_line *l, struct gs_error *err)
{
	unsigned long pid;

	if (strncmp(word, "comm=", 5) == 0) {
		if (*have)
			return policy_err(err, l, "more than one task selector ('%s')", word);
		if (!word[5])
			return policy_err(err, l, "empty comm= pattern");
		if (strlen(word + 5) >= sizeof(a->comm_glob))
			return policy_err(err, l, "comm= pattern '%s' too long (at most %zu)",
					  word + 5, sizeof(a->comm_glob) - 1);
		snprintf(a->comm_glob, sizeof(a->comm_glob), "%s", word + 5);
		a->by_pid = false;
		*have = true;
		return 1;
	}
	if (strncmp(word, "pid=", 4) == 0) {
		if (*have)
			return policy_err(err, l, "more than one task selector ('%s')", word);
		if (!policy_parse_uint(word + 4, INT32_MAX, &pid))
			return policy_err(err, l, "bad pid '%s'", word + 4);
		a->by_pid = true;
		a->pid = (s32)pid;
		*have = true;
		return 1;
	}
	return 0;
}

static int policy_parse_setattr(struct policy_action *a, const struct policy_line *l, int w,
				struct gs_error *err)
{
	bool have_sel = false;
	int rc;

	a->uclamp_min = -1;
	a->uclamp_max = -1;
	for (; w < l->nr_words; w++) {
		const char *word = l->word[w];
		unsigned long v;
		int *dst;
		const char *name;

		rc = policy_parse_selector(a, word, &have_sel, l, err);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (strncmp(word, "uclamp_min=", 11) == 0) {
			dst = &a->uclamp_min;
			name = "uclamp_min";
		} else if (strncmp(word, "uclamp_max=", 11) == 0) {
			dst = &a->uclamp_max;
			name = "uclamp_max";
		} else {
			static const char *const keys[] = {"uclamp_min", "uclamp_max", "comm", "pid",
							   NULL};
			char key[64], hint[80];

			snprintf(key, sizeof(key), "%.*s", (int)strcspn(word, "="), word);
			return policy_err(err, l, "unknown setattr argument '%s'%s", word,
					  gs_suggest_hint(hint, sizeof(hint), key, keys, "="));
		}
		if (*dst >= 0)
			return policy_err(err, l, "%s given twice", name);
		if (!policy_parse_uint(word + 11, 1000000, &v))
			return policy_err(err, l, "bad %s '%s' (want 0..1024)", name, word + 11);
		if (v > SCHED_CAPACITY_SCALE)
			return policy_err(err, l, "%s %lu out of range 0..1024", name, v);
		*dst = (int)v;
	}
	if (!have_sel)
		return policy_err(err, l, "setattr without comm=GLOB or pid=N");
	/* No clamp at all is a sched_setattr() without SCHED_FLAG_UTIL_CLAMP: valid, and
	 * uclamp_validate() never runs (the key stays as it is). */
	if (a->uclamp_min < 0 && a->uclamp_max < 0)
		return 0;

	struct gs_error why;
	gs_error_clear(&why);
	if (uclamp_validate(a->uclamp_min, a->uclamp_max, &why))
		return policy_err(err, l, "%s", why.msg);
	return 0;
}

static int policy_parse_sysctl(struct policy_action *a, const struct policy_line *l, int w,
			       struct gs_error *err)
{
	unsigned long v;
	enum uclamp_sysctl which;

	if (l->nr_words - w < 2)
		return policy_err(err, l, "sysctl needs a name and a value");
	if (l->nr_words - w > 2)
		return policy_err(err, l, "unexpected '%s'", l->word[w + 2]);
	if (!uclamp_sysctl_from_name(l->word[w], &which)) {
		static const char *const names[] = {"sched_util_clamp_min", "sched_util_clamp_max",
						    "sched_util_clamp_min_rt_default", NULL};
		char hint[80];

		return policy_err(err, l,
				  "unknown sysctl '%s' (want sched_util_clamp_min, "
				  "sched_util_clamp_max or sched_util_clamp_min_rt_default)%s",
				  l->word[w],
				  gs_suggest_hint(hint, sizeof(hint), l->word[w], names, NULL));
	}
	if (!policy_parse_uint(l->word[w + 1], 1000000, &v))
		return policy_err(err, l, "bad %s value '%s' (want 0..1024)", l->word[w],
				  l->word[w + 1]);
	if (v > SCHED_CAPACITY_SCALE)
		return policy_err(err, l, "%s %lu out of range 0..1024", l->word[w], v);
	a->sysctl = which;
	a->value = (unsigned int)v;
	return 0;
}

static int policy_parse_path(struct policy_action *a, const char *word,
			     const struct policy_line *l, struct gs_error *err)
{
	if (!uclamp_group_path_valid(word))
		return policy_err(err, l, "bad cgroup path '%s' (want / or /name/..., at most %zu "
				  "characters)",
				  word, sizeof(a->path) - 1);
	snprintf(a->path, sizeof(a->path), "%s", word);
	return 0;
}

static int policy_parse_cgroup(struct policy_action *a, const struct policy_line *l, int w,
			       struct gs_error *err)
{
	const char *file, *value;
	int rc;

	if (l->nr_words - w < 1)
		return policy_err(err, l, "cgroup needs a path");
	if (l->nr_words - w == 2)
		return policy_err(err, l, "cgroup %s %s without a value", l->word[w],
				  l->word[w + 1]);
	if (l->nr_words - w > 3)
		return policy_err(err, l, "unexpected '%s'", l->word[w + 3]);
	rc = policy_parse_path(a, l->word[w], l, err);
	if (rc)
		return rc;
	if (l->nr_words - w == 1) {
		/* `cgroup PATH`: mkdir only (parents too, an existing group is kept) */
		a->create_only = true;
		return 0;
	}
	file = l->word[w + 1];
	value = l->word[w + 2];
	if (strcmp(file, "cpu.uclamp.min") == 0)
		a->clamp_id = UCLAMP_MIN;
	else if (strcmp(file, "cpu.uclamp.max") == 0)
		a->clamp_id = UCLAMP_MAX;
	else {
		static const char *const files[] = {"cpu.uclamp.min", "cpu.uclamp.max", NULL};
		char hint[80];
		return policy_err(err, l,
				  "unknown cgroup file '%s' (want cpu.uclamp.min or cpu.uclamp.max)%s",
				  file, gs_suggest_hint(hint, sizeof(hint), file, files, NULL));
	}
	if (strcmp(a->path, "/") == 0)
		return policy_err(err, l, "'/': %s does not exist on the root cgroup", file);
	if (strlen(value) >= sizeof(a->percent))
		return policy_err(err, l, "'%s': not a percent (want 0..100 with up to 2 decimals, "
				  "or max)",
				  value);

	/* The kernel's parse and range check, on a scratch state. */
	struct uclamp_sys *scratch = malloc(sizeof(*scratch));
	struct gs_error why;
	if (!scratch)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	uclamp_sys_init(scratch, UCLAMP_BUCKETS_DEFAULT);
	gs_error_clear(&why);
	rc = uclamp_group_write(scratch, uclamp_group_get(scratch, "/x"), a->clamp_id, value, 0,
				&why);
	free(scratch);
	if (rc)
		return policy_err(err, l, "%s", why.msg);
	snprintf(a->percent, sizeof(a->percent), "%s", value);
	uclamp_capacity_from_percent(value, &a->util);
	return 0;
}

static int policy_parse_attach(struct policy_action *a, const struct policy_line *l, int w,
			       struct gs_error *err)
{
	bool have_sel = false;
	int rc;

	if (l->nr_words - w < 2)
		return policy_err(err, l, "attach needs comm=GLOB or pid=N, and a cgroup path");
	if (l->nr_words - w > 2)
		return policy_err(err, l, "unexpected '%s'", l->word[w + 2]);
	rc = policy_parse_selector(a, l->word[w], &have_sel, l, err);
	if (rc < 0)
		return rc;
	if (!rc)
		return policy_err(err, l, "attach without comm=GLOB or pid=N (got '%s')",
				  l->word[w]);
	return policy_parse_path(a, l->word[w + 1], l, err);
}

/* "0-3,6": bit c for every CPU c listed; false for anything else or a CPU past 63. */
static bool policy_parse_cpulist(const char *s, u64 *out)
{
	u64 m = 0;

	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b;

		if (end == s || a > 63)
			return false;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtoul(s + 1, &end, 10);
			if (end == s + 1 || b > 63 || b < a)
				return false;
			s = end;
		}
		for (unsigned long c = a; c <= b; c++)
			m |= 1ull << c;
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	*out = m;
	return m != 0;
}

static int policy_parse_affinity(struct policy_action *a, const struct policy_line *l, int w,
				 struct gs_error *err)
{
	bool have_sel = false;
	int rc;

	if (l->nr_words - w != 2)
		return policy_err(err, l, "affinity needs comm=GLOB or pid=N, and a CPU list");
	rc = policy_parse_selector(a, l->word[w], &have_sel, l, err);
	if (rc < 0)
		return rc;
	if (!rc)
		return policy_err(err, l, "affinity without comm=GLOB or pid=N (got '%s')",
				  l->word[w]);
	if (!policy_parse_cpulist(l->word[w + 1], &a->cpus))
		return policy_err(err, l, "bad CPU list '%s' (want e.g. 0-3,6)", l->word[w + 1]);
	return 0;
}

/* Run-order key: actions without `at` first, then by time; ties keep insertion order. */
static bool policy_runs_before(const struct policy_action *x, const struct policy_action *y)
{
	if (x->has_at != y->has_at)
		return !x->has_at;
	return x->at_ns < y->at_ns;
}

/*
 * What the kernel decides from the whole sequence: sysctl writes that would be rejected
 * (min > max across writes) and running out of groups. Simulated on a scratch state in run
 * order; the first offending action is reported.
 */
static int policy_check_sequence(const struct policy *p, struct gs_error *err)
{
	struct uclamp_sys *sys = malloc(sizeof(*sys));
	int rc = 0;

	if (!sys)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	uclamp_sys_init(sys, UCLAMP_BUCKETS_DEFAULT);
	for (size_t i = 0; i < p->n && !rc; i++) {
		const struct policy_action *a = &p->actions[i];
		struct gs_error why;

		gs_error_clear(&why);
		if (a->op == POLICY_SYSCTL &&
		    uclamp_sysctl_write(sys, a->sysctl, a->value, 0, &why) != 0)
			rc = gs_error_set(err, GS_EPOLICY, "'%s':%ld: %s", a->origin, a->line,
					  why.msg);
		else if (a->op == POLICY_CGROUP && uclamp_group_get(sys, a->path) < 0)
			rc = gs_error_set(err, GS_EPOLICY,
					  "'%s':%ld: too many cgroups (at most %d, with the root)",
					  a->origin, a->line, UCLAMP_MAX_GROUPS);
		else if (a->op == POLICY_ATTACH && uclamp_group_find(sys, a->path) < 0)
			/* writing a pid to cgroup.procs of a directory that does not exist: ENOENT */
			rc = gs_error_set(err, GS_EPOLICY,
					  "'%s':%ld: attach to cgroup '%s', which does not exist "
					  "then (ENOENT): create it first with 'cgroup %s' or a "
					  "cgroup write",
					  a->origin, a->line, a->path, a->path);
	}
	free(sys);
	return rc;
}

/* Insert in run order (after every action that does not run after it). */
static int policy_insert(struct policy *p, const struct policy_action *a, struct gs_error *err)
{
	size_t pos;
	int rc;

	if (p->n == p->alloc) {
		size_t alloc = p->alloc ? p->alloc * 2 : 16;
		struct policy_action *na = realloc(p->actions, alloc * sizeof(*na));

		if (!na)
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		p->actions = na;
		p->alloc = alloc;
	}
	pos = p->n;
	while (pos > 0 && policy_runs_before(a, &p->actions[pos - 1]))
		pos--;
	memmove(&p->actions[pos + 1], &p->actions[pos], (p->n - pos) * sizeof(*a));
	p->actions[pos] = *a;
	p->n++;

	/* within a file, a later line may run earlier (no `at`): the file is checked whole at
	 * its end (policy_parse_file) */
	rc = p->defer_check ? 0 : policy_check_sequence(p, err);
	if (rc) {
		memmove(&p->actions[pos], &p->actions[pos + 1], (p->n - pos - 1) * sizeof(*a));
		p->n--;
	}
	return rc;
}

int policy_parse_line(struct policy *p, const char *line, const char *origin, long lineno,
		      struct gs_error *err)
{
	struct policy_line *l = malloc(sizeof(*l));
	struct policy_action a;
	struct strbuf text = STRBUF_INIT;
	const char *op;
	int w = 0, rc;

	if (!l)
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	l->origin = origin;
	l->lineno = lineno;
	rc = policy_split(l, line, err);
	if (rc || l->nr_words == 0)
		goto out_free_line;

	memset(&a, 0, sizeof(a));
	a.uclamp_min = a.uclamp_max = -1;
	snprintf(a.origin, sizeof(a.origin), "%s", origin);
	a.line = lineno;
	/* The text without its comment, words joined by one space. */
	for (int i = 0; i < l->nr_words; i++)
		strbuf_addf(&text, "%s%s", i ? " " : "", l->word[i]);
	if (strbuf_error(&text)) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_free_line;
	}
	strbuf_copy(&text, a.text, sizeof(a.text));

	if (strcmp(l->word[0], "at") == 0) {
		if (l->nr_words < 2) {
			rc = policy_err(err, l, "'at' without a time");
			goto out_free_line;
		}
		if (!policy_parse_seconds(l->word[1], &a.at_ns)) {
			rc = policy_err(err, l,
					"bad time '%s' (want seconds from the trace start, e.g. "
					"at 0.5)",
					l->word[1]);
			goto out_free_line;
		}
		a.has_at = true;
		a.at_s = (double)a.at_ns / (double)NSEC_PER_SEC;
		w = 2;
		if (l->nr_words < 3) {
			rc = policy_err(err, l, "'at %s' without an action", l->word[1]);
			goto out_free_line;
		}
	}

	op = l->word[w++];
	if (strcmp(op, "setattr") == 0) {
		a.op = POLICY_SETATTR;
		rc = policy_parse_setattr(&a, l, w, err);
	} else if (strcmp(op, "sysctl") == 0) {
		a.op = POLICY_SYSCTL;
		rc = policy_parse_sysctl(&a, l, w, err);
	} else if (strcmp(op, "cgroup") == 0) {
		a.op = POLICY_CGROUP;
		rc = policy_parse_cgroup(&a, l, w, err);
	} else if (strcmp(op, "attach") == 0) {
		a.op = POLICY_ATTACH;
		rc = policy_parse_attach(&a, l, w, err);
	} else if (strcmp(op, "affinity") == 0) {
		a.op = POLICY_AFFINITY;
		rc = policy_parse_affinity(&a, l, w, err);
	} else {
		static const char *const ops[] = {"setattr", "sysctl", "cgroup", "attach",
						  "affinity", NULL};
		char hint[80];

		rc = policy_err(err, l,
				"unknown action '%s' (want setattr, sysctl, cgroup, attach or affinity)%s",
				op, gs_suggest_hint(hint, sizeof(hint), op, ops, NULL));
	}
	if (!rc)
		rc = policy_insert(p, &a, err);

out_free_line:
	strbuf_free(&text);
	free(l);
	return rc;
}

/* A policy line is at most this long (a setattr with a long glob is under 200 bytes), and a
 * file at most this many lines (policies are tens of lines; an endless input, `yes | ...`,
 * must end). */
#define POLICY_LINE_MAX  4096
#define POLICY_MAX_LINES 1000000

/*
 * The next line of f into line[POLICY_LINE_MAX + 1], without its newline: 1, 0 at the end, or
 * GS_EPOLICY for what a text file does not hold (a NUL byte, another control character: binary
 * data, refused rather than ending the line or passing as an empty policy; a line longer than
 * POLICY_LINE_MAX, e.g. from /dev/zero, refused rather than read without bound).
 */
static int policy_read_line(FILE *f, char *line, const char *path, long lineno,
			    struct gs_error *err)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' || (c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v'))
			return gs_error_set(err, GS_EPOLICY,
					    "'%s':%ld: control character 0x%02x (binary data, not a "
					    "policy)", path, lineno, c);
		if (n == POLICY_LINE_MAX)
			return gs_error_set(err, GS_EPOLICY, "'%s':%ld: line longer than %d bytes",
					    path, lineno, POLICY_LINE_MAX);
		line[n++] = (char)c;
	}
	line[n] = '\0';
	return c == EOF && n == 0 ? 0 : 1;
}

int policy_parse_file(struct policy *p, const char *path, struct gs_error *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	char *line = malloc(POLICY_LINE_MAX + 1);
	struct stat sb;
	long lineno = 0;
	int rc = 0;

	if (!f) {
		free(line);
		return gs_error_set(err, GS_EPOLICY, "'%s': cannot open: %s", path, strerror(errno));
	}
	if (!line) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_close;
	}
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		rc = gs_error_set(err, GS_EPOLICY, "'%s': is a directory", path);
		goto out_close;
	}
	p->defer_check++;
	while ((rc = policy_read_line(f, line, path, lineno + 1, err)) == 1) {
		if (++lineno > POLICY_MAX_LINES) {
			rc = gs_error_set(err, GS_EPOLICY, "'%s':%ld: more than %d lines", path,
					  lineno, POLICY_MAX_LINES);
			break;
		}
		rc = policy_parse_line(p, line, path, lineno, err);
		if (rc)
			break;
	}
	p->defer_check--;
	if (!rc && ferror(f))
		rc = gs_error_set(err, GS_EPOLICY, "'%s': read error: %s", path, strerror(errno));
	if (!rc && !p->defer_check)
		rc = policy_check_sequence(p, err);
out_close:
	free(line);
	if (!is_stdin)
		fclose(f);
	return rc;
}

/* ---- formatting --------------------------------------------------------------------------- */

static void write_action(struct strbuf *o, const struct policy_action *a)
{
	if (a->has_at) {
		char frac[16];
		u64 ns = a->at_ns % NSEC_PER_SEC;
		int end;

		snprintf(frac, sizeof(frac), "%09" PRIu64, (u64)ns);
		for (end = 9; end > 0 && frac[end - 1] == '0'; end--)
			frac[end - 1] = '\0';
		strbuf_addf(o, "at %" PRIu64 "%s%s ", (u64)(a->at_ns / NSEC_PER_SEC), end ? "." : "",
			    frac);
	}
	switch (a->op) {
	case POLICY_SETATTR:
	case POLICY_ATTACH:
		strbuf_addf(o, "%s ", a->op == POLICY_SETATTR ? "setattr" : "attach");
		if (a->by_pid)
			strbuf_addf(o, "pid=%d", (int)a->pid);
		else
			strbuf_addf(o, "comm=%s", a->comm_glob);
		if (a->op == POLICY_ATTACH) {
			strbuf_addf(o, " %s", a->path);
			break;
		}
		if (a->uclamp_min >= 0)
			strbuf_addf(o, " uclamp_min=%d", a->uclamp_min);
		if (a->uclamp_max >= 0)
			strbuf_addf(o, " uclamp_max=%d", a->uclamp_max);
		break;
	case POLICY_SYSCTL:
		strbuf_addf(o, "sysctl %s %u", uclamp_sysctl_name(a->sysctl), a->value);
		break;
	case POLICY_CGROUP:
		if (a->create_only)
			strbuf_addf(o, "cgroup %s", a->path);
		else
			strbuf_addf(o, "cgroup %s %s %s", a->path,
				    uclamp_group_file_name(a->clamp_id), a->percent);
		break;
	case POLICY_AFFINITY:
		strbuf_addf(o, "affinity ");
		if (a->by_pid)
			strbuf_addf(o, "pid=%d ", (int)a->pid);
		else
			strbuf_addf(o, "comm=%s ", a->comm_glob);
		for (int c = 0, first = 1; c < 64; c++) {
			int e = c;

			if (!((a->cpus >> c) & 1))
				continue;
			while (e < 63 && ((a->cpus >> (e + 1)) & 1))
				e++;
			if (e > c)
				strbuf_addf(o, "%s%d-%d", first ? "" : ",", c, e);
			else
				strbuf_addf(o, "%s%d", first ? "" : ",", c);
			first = 0;
			c = e;
		}
		break;
	}
}

u64 policy_affinity(const struct policy *p, u64 upto_ns, s32 pid, const char *comm)
{
	u64 cpus = 0;

	for (size_t i = 0; p && i < p->n; i++) {
		const struct policy_action *a = &p->actions[i];

		if (policy_action_time_ns(a) > upto_ns)
			break; /* run order: the later ones have not run yet */
		if (a->op == POLICY_AFFINITY && policy_match(a, pid, comm))
			cpus = a->cpus;
	}
	return cpus;
}

int policy_action_format(const struct policy_action *a, struct strbuf *sb)
{
	write_action(sb, a);
	return strbuf_error(sb);
}

int policy_format(const struct policy *p, struct strbuf *sb)
{
	for (size_t i = 0; i < p->n; i++) {
		write_action(sb, &p->actions[i]);
		strbuf_addn(sb, "\n", 1);
	}
	return strbuf_error(sb);
}
