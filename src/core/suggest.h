/*
 * suggest.h: "did you mean" for a mistyped name (fsmrk -> fsmark, ext5 ->
 * ext4): the closest of the known names by edit distance, when it is close
 * enough to be a typo rather than another word.
 */
#ifndef FSB_SUGGEST_H
#define FSB_SUGGEST_H

/* Edit distance (insert, delete, substitute, swap two adjacent), bounded
 * names. */
int edit_distance(const char *a, const char *b);
/* The known name closest to word, or NULL when none is within a typo's
 * reach: at most 1 edit for short words, a third of the word's length for
 * longer ones. */
const char *suggest(const char *word, const char *const *names, int n);

#endif
