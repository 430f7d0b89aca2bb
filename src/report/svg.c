/* svg.c: axis, numbers, escaping and colours for the HTML report (svg.h). */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void svg_axis(double max, int want, struct axis *a)
{
	static const double nice[] = { 1, 2, 5, 10 };
	double raw, mag;

	if (want < 1)
		want = 5;
	if (!(max > 0) || !isfinite(max))
		max = 1;
	raw = max / want;
	mag = pow(10, floor(log10(raw)));
	a->step = 10 * mag;
	for (int i = 0; i < 4; i++)
		if (nice[i] * mag >= raw * (1 - 1e-9)) {
			a->step = nice[i] * mag;
			break;
		}
	a->ticks = (int)ceil(max / a->step - 1e-9);
	if (a->ticks < 1)
		a->ticks = 1;
	a->max = a->ticks * a->step;
}

int svg_decades(double lo, double hi)
{
	if (!(lo > 0) || !(hi > 0) || !isfinite(lo) || !isfinite(hi) || hi < lo)
		return 0;
	double d = floor(log10(hi / lo) + 1e-9);
	return d > 40 ? 40 : (int)d;
}

void svg_number(double v, char *buf, size_t len)
{
	double m = fabs(v);

	if (v == 0)
		snprintf(buf, len, "0");
	else if (m >= 1e9)
		snprintf(buf, len, "%.3gG", v / 1e9);
	else if (m >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (m >= 1e4)
		snprintf(buf, len, "%.0f", v);
	else if (m >= 1e-3)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.2e", v);
}

void xml_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

const char *svg_colour(int n)
{
	static const char *okabe_ito[] = { "#0072B2", "#E69F00", "#009E73", "#CC79A7",
					   "#56B4E9", "#D55E00", "#F0E442", "#000000" };
	return okabe_ito[(n < 0 ? 0 : n) % 8];
}

int svg_hatch(int n)
{
	return (n < 0 ? 0 : n) % 6;
}
