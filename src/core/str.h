/*
 * str.h: bounded string copying.  snprintf("%s") would do, but gcc's
 * truncation warnings (fatal under -Werror) fire on every deliberate
 * truncation; this says "truncate" explicitly.
 */
#ifndef FSB_STR_H
#define FSB_STR_H

#include <stddef.h>
#include <string.h>

static inline void str_copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* out = a followed by b; -1 (and a truncated out) if it does not fit. */
static inline int str_join(char *out, size_t len, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	str_copy(out, len, a);
	if (na + nb >= len)
		return -1;
	memcpy(out + na, b, nb + 1);
	return 0;
}

#endif
