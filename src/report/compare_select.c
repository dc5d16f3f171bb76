/* compare_select.c - which runs a compare side takes: the selector (a database and key=value
 * terms) read from the results store; see compare.h compare_select() (statistics in
 * compare.c, layout in compare_print.c). */
#include "report/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "core/suggest.h"
#include "store/store.h"

static const char *const column_keys[] = {
    "label",	   "governor",	  "trace",	    "trace_sha256",    "platform", "timing",
    "util_source", "power_model", "kernel", "governor_path", "governor_sha256",
};

/* Every key with a meaning of its own, for "did you mean" (a tunable or label word is any
 * other KEY). */
static const char *const known_keys[] = {
    "run",	  "label",	 "policy", "action",	   "governor",	     "db",
    "trace",	  "trace_sha256", "platform", "timing", "util_source", "power_model",
    "kernel", "governor_path", "governor_sha256", NULL,
};

/* `word` appears in `text` delimited by the start, the end or spaces. */
static bool has_word(const char *text, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' '))
			return true;
	return false;
}

struct policy_filter {
	const char *arg;
	char word[1100];
	char *text; /* FILE's policy, normalised; NULL when FILE is not a readable policy */
};

static bool policy_matches(const struct policy_filter *f, const struct run_result *r)
{
	if (has_word(r->label, f->word))
		return true;
	if (strcmp(f->arg, "none") == 0)
		return r->policy[0] == '\0';
	return f->text && strcmp(f->text, r->policy) == 0;
}

static void policy_filter_init(struct policy_filter *f, const char *arg,
			       const struct compare_policy_norm *norm)
{
	f->arg = arg;
	f->text = NULL;
	snprintf(f->word, sizeof(f->word), "policy=%s", arg);
	if (strcmp(arg, "none") == 0 || access(arg, R_OK) != 0 || !norm || !norm->file)
		return;
	f->text = norm->file(arg);
}

static const char *selector_keys_help =
    "run, label, policy, action, governor, db, trace, trace_sha256, platform, timing, "
    "util_source, power_model, kernel, governor_path, governor_sha256, or a tunable KEY";

/* A term that is no runs column: action=LINE (a policy action) or KEY=VALUE (a tunable, or
 * any word sweep put in the label). */
struct extra_term {
	bool action;
	char word[600]; /* "KEY=VALUE", or action="LINE" as sweep labels it */
	char line[300]; /* action: LINE, normalised as policy_format() writes it */
	char key[104];	/* "KEY=" */
	bool key_seen;	/* some run read has KEY= in its tunables or label */
};

/* Whether a word of text starts with prefix ("rate_limit_us=" in "hz=250 rate_limit_us=1"). */
static bool has_word_prefix(const char *text, const char *prefix)
{
	size_t len = strlen(prefix);
	for (const char *p = strstr(text, prefix); p; p = strstr(p + 1, prefix))
		if (p == text || p[-1] == ' ')
			return true;
	(void)len;
	return false;
}

#define SELECT_MAX_EXTRA 16

/* Whether r->policy has LINE as one of its lines. */
static bool policy_has_line(const char *policy, const char *line)
{
	size_t len = strlen(line);
	for (const char *p = policy; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (l == len && strncmp(p, line, len) == 0)
			return true;
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

static bool extra_matches(const struct extra_term *t, const struct run_result *r)
{
	if (has_word(r->label, t->word))
		return true;
	if (t->action)
		return t->line[0] && policy_has_line(r->policy, t->line);
	return has_word(r->params, t->word);
}

static int extra_init(struct extra_term *t, const char *key, const char *value,
		      const struct compare_policy_norm *norm, struct gs_error *err)
{
	struct gs_error e;

	memset(t, 0, sizeof(*t));
	t->action = strcmp(key, "action") == 0;
	snprintf(t->key, sizeof(t->key), "%.100s=", key);
	if (!t->action) {
		snprintf(t->word, sizeof(t->word), "%.100s=%.400s", key, value);
		return 0;
	}
	snprintf(t->word, sizeof(t->word), "action=\"%.500s\"", value);
	gs_error_clear(&e);
	if (norm && norm->line && norm->line(value, t->line, sizeof(t->line), &e))
		return gs_error_set(err, GS_EARG, "action='%s': %s", value, e.msg);
	return 0;
}

/* The terms of a run selector: store columns, run=, db=, policy= and the other KEY=VALUE terms
 * (action=LINE, tunables, label words). */
struct sel_terms {
	struct strbuf store_sel; /* the store's selector: "key=value,..." of its columns */
	const char *db, *policy;
	struct extra_term *extra;
	int nr_extra;
	s64 run_id;
	const struct compare_policy_norm *norm;
};

static int sel_term(struct sel_terms *t, const char *selector, char *key, char *value,
		    struct gs_error *err)
{
	bool column = false;

	for (size_t k = 0; k < GS_ARRAY_SIZE(column_keys); k++)
		column = column || strcmp(key, column_keys[k]) == 0;
	if (strcmp(key, "run") == 0) {
		char *end;
		errno = 0;
		t->run_id = strtoll(value, &end, 10);
		if (errno || *end || t->run_id < 1)
			return gs_error_set(err, GS_EARG, "'%s': run=N takes a run id", selector);
	} else if (strcmp(key, "db") == 0) {
		t->db = value;
	} else if (strcmp(key, "policy") == 0) {
		t->policy = value;
	} else if (column) {
		if (strbuf_addf(&t->store_sel, "%s%s=%s", t->store_sel.len ? "," : "", key, value))
			return gs_error_set(err, GS_ENOMEM, "out of memory");
	} else {
		/* action=LINE, or a tunable / any label word KEY=VALUE (what a sweep varies) */
		if (t->nr_extra == SELECT_MAX_EXTRA)
			return gs_error_set(err, GS_EARG, "'%s': too many terms", selector);
		if (!t->extra && !(t->extra = calloc(SELECT_MAX_EXTRA, sizeof(*t->extra))))
			return gs_error_set(err, GS_ENOMEM, "out of memory");
		return extra_init(&t->extra[t->nr_extra++], key, value, t->norm, err);
	}
	return 0;
}

/* Split sel (a writable copy of selector) into t's terms. */
static int sel_parse(struct sel_terms *t, const char *selector, char *sel, struct gs_error *err)
{
	char *tok, *next;

	for (tok = sel; tok; tok = next) {
		char *eq;
		int rc;

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			return gs_error_set(err, GS_EARG,
					    "'%s': a run selector is KEY=VALUE[,KEY=VALUE...]",
					    selector);
		*eq = '\0';
		if ((rc = sel_term(t, selector, tok, eq + 1, err)))
			return rc;
	}
	return 0;
}

/* Whether run r passes the selector's policy= and extra terms (noting which extra keys some
 * run has, for the error when none is selected). */
static bool sel_keeps(struct sel_terms *t, struct policy_filter *pf, const struct run_result *r)
{
	for (int k = 0; k < t->nr_extra; k++)
		t->extra[k].key_seen = t->extra[k].key_seen || t->extra[k].action ||
				       has_word_prefix(r->params, t->extra[k].key) ||
				       has_word_prefix(r->label, t->extra[k].key);
	if (t->policy && !policy_matches(pf, r))
		return false;
	for (int k = 0; k < t->nr_extra; k++)
		if (!extra_matches(&t->extra[k], r))
			return false;
	return true;
}

/* The error when the selector selects no run: an extra key no run has, or none at all. */
static int sel_none(struct sel_terms *t, const char *selector, size_t nr_ids, struct gs_error *err)
{
	for (int k = 0; k < t->nr_extra; k++) {
		char hint[80];

		if (t->extra[k].key_seen || !nr_ids)
			continue;
		t->extra[k].key[strlen(t->extra[k].key) - 1] = '\0';
		return gs_error_set(err, GS_EARG,
				    "'%s': unknown selector key (one of: %s; no run in '%s' has it "
				    "as a tunable or label word)%s",
				    t->extra[k].key, selector_keys_help, t->db,
				    gs_suggest_hint(hint, sizeof(hint), t->extra[k].key, known_keys,
						    NULL));
	}
	return gs_error_set(err, GS_EARG, "'%s': selects no run in '%s'", selector, t->db);
}

/* The runs of store st that t selects, into out (room for nr_ids) and their ids into kept (room
 * for nr_ids); *count of them. */
static int sel_read(struct sel_terms *t, struct store *st, const s64 *ids, size_t nr_ids,
		    struct run_result *out, s64 *kept, size_t *count, struct gs_error *err)
{
	struct policy_filter pf = {0};
	int rc = 0;

	if (t->policy)
		policy_filter_init(&pf, t->policy, t->norm);
	for (size_t i = 0; i < nr_ids; i++) {
		if (t->run_id >= 0 && ids[i] != t->run_id)
			continue;
		rc = store_read_run(st, ids[i], &out[*count], err);
		if (rc) {
			run_result_release(&out[*count]);
			break;
		}
		if (sel_keeps(t, &pf, &out[*count]))
			kept[(*count)++] = ids[i];
		else
			run_result_release(&out[*count]);
	}
	free(pf.text);
	return rc;
}

/*
 * compare_select() and compare_select_ids(): the runs (runs non-NULL) or only their ids (ids
 * non-NULL; then db= is refused: the runs are those of default_db).
 */
static int select_runs(const char *selector, const char *default_db,
		       const struct compare_policy_norm *norm, struct run_result **runs,
		       s64 **kept_ids, size_t *n, struct gs_error *err)
{
	char *sel = NULL;
	struct sel_terms t = {.db = default_db, .run_id = -1, .norm = norm};
	struct run_result *out = NULL;
	struct store *st = NULL;
	s64 *ids = NULL, *kept = NULL;
	size_t nr_ids = 0, count = 0;
	int rc = 0;

	if (runs)
		*runs = NULL;
	if (kept_ids)
		*kept_ids = NULL;
	*n = 0;
	if (!selector || !*selector)
		return gs_error_set(err, GS_EARG, "empty run selector");
	if (!(sel = strdup(selector)))
		return gs_error_set(err, GS_ENOMEM, "out of memory");
	if ((rc = sel_parse(&t, selector, sel, err)))
		goto out_free;
	if (kept_ids && t.db != default_db) {
		rc = gs_error_set(err, GS_EARG, "'%s': db= is not taken here (the runs are those of "
				  "'%s')", selector, default_db ? default_db : "--db");
		goto out_free;
	}
	if (!t.db) {
		rc = gs_error_set(err, GS_EARG, "'%s': no database: give --db FILE or db=FILE",
				  selector);
		goto out_free;
	}
	if (access(t.db, R_OK) != 0) {
		rc = gs_error_set(err, GS_EINPUT, "'%s': %s", t.db, strerror(errno));
		goto out_free;
	}
	if ((rc = store_open(t.db, &st, err)) ||
	    (rc = store_select_runs(st, strbuf_str(&t.store_sel), &ids, &nr_ids, err)))
		goto out_free;
	if (nr_ids && (!(out = calloc(nr_ids, sizeof(*out))) ||
		       !(kept = calloc(nr_ids, sizeof(*kept))))) {
		rc = gs_error_set(err, GS_ENOMEM, "out of memory");
		goto out_free;
	}
	if ((rc = sel_read(&t, st, ids, nr_ids, out, kept, &count, err)))
		goto out_free;
	if (count == 0) {
		rc = sel_none(&t, selector, nr_ids, err);
		goto out_free;
	}
	*n = count;
	if (runs) {
		*runs = out;
		out = NULL;
		count = 0;
	}
	if (kept_ids) {
		*kept_ids = kept;
		kept = NULL;
	}
out_free:
	compare_free_runs(out, count);
	free(kept);
	free(t.extra);
	strbuf_free(&t.store_sel);
	free(ids);
	store_close(st);
	free(sel);
	return rc;
}

int compare_select(const char *selector, const char *default_db,
		   const struct compare_policy_norm *norm, struct run_result **runs,
		   size_t *n, struct gs_error *err)
{
	return select_runs(selector, default_db, norm, runs, NULL, n, err);
}

int compare_select_ids(const char *selector, const char *db,
		       const struct compare_policy_norm *norm, s64 **ids, size_t *n,
		       struct gs_error *err)
{
	return select_runs(selector, db, norm, NULL, ids, n, err);
}
