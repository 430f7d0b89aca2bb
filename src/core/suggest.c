/* suggest.c: closest-name suggestions (see suggest.h). */
#include "suggest.h"

#include <string.h>

#define NAME_MAX_LEN 64

/* Levenshtein with an adjacent swap as one edit (the optimal string
 * alignment distance): "rnu" is one typo from "run", not two. */
int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	static _Thread_local int d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return 1 << 20;	/* no name is that long: never "close" */
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* Between names as close by edits, the one whose differing characters are
 * nearest (ext5: ext4 before ext2). */
static int nearness(const char *a, const char *b)
{
	int sum = 0;

	if (strlen(a) != strlen(b))
		return 0;
	for (; *a; a++, b++)
		sum += *a > *b ? *a - *b : *b - *a;
	return sum;
}

const char *suggest(const char *word, const char *const *names, int n)
{
	int reach = (int)strlen(word) / 3, best = 1 << 20, best_near = 0;
	const char *found = NULL;

	if (reach < 1)
		reach = 1;
	for (int i = 0; i < n; i++) {
		int d = edit_distance(word, names[i]), near = nearness(word, names[i]);
		if (d <= reach && (d < best || (d == best && near < best_near))) {
			best = d;
			best_near = near;
			found = names[i];
		}
	}
	return found;
}
