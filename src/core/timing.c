/* timing.c: wall-clock text for result timestamps (see timing.h). */
#include "timing.h"

#include <stdio.h>

void wallclock_text(char *buf, unsigned len)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}
