/* suggest.c: closest-name suggestions (see suggest.h). */
#include "suggest.h"

#include <string.h>

#define NAME_MAX_LEN 64

int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[NAME_MAX_LEN + 1];

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return 1 << 20;	/* no name is that long: never "close" */
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
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
