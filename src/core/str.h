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

/* 1 if s holds a C0 control character or DEL (a label must not). */
static inline int str_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* src with control characters written as \n, \t, \xNN, so that text a
 * user (or a file) supplied cannot drive the terminal it is echoed to:
 * C0 controls, DEL, and C1 controls both as raw bytes 0x80-0x9f outside a
 * UTF-8 sequence and as their UTF-8 forms (C2 80..C2 9F).  Other UTF-8 is
 * kept.  Always NUL-terminates; cuts at a whole escape. */
static inline void str_escape(char *out, size_t len, const char *src)
{
	size_t used = 0;
	const unsigned char *s = (const unsigned char *)src;

	if (!len)
		return;
	while (*s) {
		char esc[8];
		size_t n;
		unsigned char c = *s;
		int cont = 0;	/* UTF-8 continuation bytes that follow */
		if (c >= 0xc2 && c <= 0xf4)
			cont = c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
		for (int k = 1; k <= cont; k++)
			if ((s[k] & 0xc0) != 0x80)
				cont = 0;
		if (c == 0xc2 && cont == 1 && s[1] <= 0x9f)
			cont = 0, n = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", s[1]), s++;
		else if (cont)
			n = 0;
		else if (c == '\n')
			n = (size_t)snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			n = (size_t)snprintf(esc, sizeof(esc), "\\t");
		else if (c < 0x20 || c == 0x7f || c >= 0x80)
			n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			esc[0] = (char)c, n = 1;
		if (cont) {	/* a whole printable UTF-8 character */
			if (used + (size_t)cont + 1 >= len)
				break;
			memcpy(out + used, s, (size_t)cont + 1);
			used += (size_t)cont + 1;
			s += cont + 1;
			continue;
		}
		if (used + n >= len)
			break;
		memcpy(out + used, esc, n);
		used += n;
		s++;
	}
	out[used] = '\0';
}

#endif
