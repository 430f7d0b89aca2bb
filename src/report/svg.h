/*
 * svg.h: the pieces of fsbench's inline SVG charts that deserve tests of
 * their own: axis scale and ticks, number formatting, XML escaping, and
 * the colour of each filesystem.
 */
#ifndef FSB_SVG_H
#define FSB_SVG_H

#include <stdio.h>

struct axis {
	double max;	/* axis end, >= the data maximum, a multiple of step */
	double step;	/* tick spacing: 1, 2 or 5 x 10^k */
	int ticks;	/* number of intervals (axis.max / step) */
};

/* A "nice" axis from 0 covering `max` in about `want` intervals; a
 * non-positive or non-finite max gives the axis 0..1. */
void svg_axis(double max, int want, struct axis *a);
/* A tick or value label: 0, 2.5, 1500, 1.2M, 3.5e-06 */
/* Decades from lo up to hi on a log axis (lo * 10^d, d = 0..that), at
 * most 40; 0 when either is not a positive finite number.  A loop of
 * "v *= 10 while v <= hi" never ends when hi is infinite, or 1e308 (an
 * imported run wrote an 84 GB page, issue 69). */
int svg_decades(double lo, double hi);
void svg_number(double v, char *buf, size_t len);
/* Write s with & < > " ' escaped (HTML text, attributes and SVG alike). */
void xml_escape(FILE *f, const char *s);
/* Okabe-Ito colours (safe for colour-blind readers) for target n, and a
 * hatch pattern id so greyscale prints still tell bars apart. */
const char *svg_colour(int n);
int svg_hatch(int n);

#endif
