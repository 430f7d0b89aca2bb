/*
 * str.h: bounded string copying.  snprintf("%s") would do, but gcc's
 * truncation warnings (fatal under -Werror) fire on every deliberate
 * truncation; this says "truncate" explicitly.
 */
#ifndef FSB_STR_H
#define FSB_STR_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
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

/* s without leading and trailing blanks (trailing ones cut in place). */
static inline char *str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* A byte count for people: "512 KiB", "8.0 MiB", "1.50 GiB". */
static inline void bytes_text(uint64_t b, char *buf, size_t len)
{
	if (b >= (1ULL << 30))
		snprintf(buf, len, "%.2f GiB", (double)b / (1ULL << 30));
	else if (b >= (1ULL << 20))
		snprintf(buf, len, "%.1f MiB", (double)b / (1ULL << 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
}

#endif
