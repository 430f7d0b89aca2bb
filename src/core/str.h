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

#endif
