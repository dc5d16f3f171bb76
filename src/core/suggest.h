/*
 * suggest.h - "did you mean": the nearest of a list of valid names to a mistyped one, by
 * Levenshtein distance (insertions, deletions, substitutions, each cost 1), as git's
 * help.c suggests commands.
 */
#ifndef GOVSIM_CORE_SUGGEST_H
#define GOVSIM_CORE_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (bytes; case-sensitive). Words longer than 255 bytes count
 * as far from everything (returns a large value). */
size_t gs_levenshtein(const char *a, const char *b);

/*
 * The candidate nearest to word, or NULL when none is close enough to be a likely typo:
 * distance at most 2, and at most a third of the longer word's length, rounded up (so "ab"
 * does not suggest "xy"). A candidate that starts with word (an abbreviation), or that word
 * turns into by swapping two adjacent characters ("rnu" for "run"), counts as distance 1.
 * Ties keep the first candidate. cands is NULL-terminated.
 */
const char *gs_suggest(const char *word, const char *const *cands);

/*
 * "; did you mean 'X'?" in buf (size bytes) for the candidate gs_suggest() finds, X being it
 * with `tail` appended (NULL: nothing), or "" when there is none. Returns buf, so that a
 * message can end with "%s".
 */
const char *gs_suggest_hint(char *buf, size_t size, const char *word, const char *const *cands,
			    const char *tail);

#endif
