/* error.c: the thread-local "last error" line (see error.h). */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last[1024];

int error_set(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last, sizeof(last), fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int saved = errno;
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(last, sizeof(last), "%s: %s", msg, strerror(saved));
	errno = saved;
	return -1;
}

int error_prefix(const char *fmt, ...)
{
	char prefix[512], old[sizeof(last)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	size_t n = strlen(prefix), m;

	if (last[0])
		memcpy(old, last, sizeof(old));
	else
		memcpy(old, "unknown error", sizeof("unknown error"));
	if (n > sizeof(last) - 3)
		n = sizeof(last) - 3;	/* the line is cut at its end, never mid-prefix */
	memcpy(last, prefix, n);
	memcpy(last + n, ": ", 2);
	m = strlen(old);
	if (m > sizeof(last) - n - 3)
		m = sizeof(last) - n - 3;
	memcpy(last + n + 2, old, m);
	last[n + 2 + m] = '\0';
	return -1;
}

const char *error_get(void)
{
	return last[0] ? last : "unknown error";
}

void error_clear(void)
{
	last[0] = '\0';
}

void error_keep(struct error_keep *k, int rc)
{
	k->failed = rc != 0;
	snprintf(k->msg, sizeof(k->msg), "%s", k->failed ? last : "");
}

int error_kept(const struct error_keep *k, int rc)
{
	if (!k->failed)
		return rc;
	snprintf(last, sizeof(last), "%s", k->msg);
	return -1;
}
