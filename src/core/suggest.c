/* suggest.c - nearest valid name to a mistyped one; see suggest.h. */
#include "core/suggest.h"

#include <stdio.h>
#include <string.h>

#define SUGGEST_MAX_LEN 255

size_t gs_levenshtein(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[SUGGEST_MAX_LEN + 1];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return (size_t)-1 / 2;
	/* one row of the DP table: row[j] = distance(a[0..i), b[0..j)) */
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Whether b is a with two adjacent characters swapped. */
static int swapped_pair(const char *a, const char *b)
{
	size_t i = 0, len = strlen(a);

	if (len != strlen(b))
		return 0;
	while (i < len && a[i] == b[i])
		i++;
	return i + 1 < len && a[i] == b[i + 1] && a[i + 1] == b[i] && a[i] != a[i + 1] &&
	       strcmp(a + i + 2, b + i + 2) == 0;
}

const char *gs_suggest(const char *word, const char *const *cands)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	if (!word || !*word || !cands)
		return NULL;
	for (size_t i = 0; cands[i]; i++) {
		size_t lw = strlen(word), lc = strlen(cands[i]);
		size_t longer = lw > lc ? lw : lc;
		size_t d = gs_levenshtein(word, cands[i]);

		if ((lw >= 3 && lw < lc && strncmp(cands[i], word, lw) == 0) ||
		    swapped_pair(word, cands[i]))
			d = 1;
		if (d == 0 || d > 2 || d > (longer + 2) / 3)
			continue;
		if (d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}

const char *gs_suggest_hint(char *buf, size_t size, const char *word, const char *const *cands,
			    const char *tail)
{
	const char *near = gs_suggest(word, cands);

	if (!size)
		return buf;
	buf[0] = '\0';
	if (near)
		snprintf(buf, size, "; did you mean '%s%s'?", near, tail ? tail : "");
	return buf;
}
