/*
 * report.h: renderers of a stored run.
 *
 * Every renderer reads a struct result (store/result.h) and nothing else.
 * Text: seed 000's bar charts, one per metric, and seed 002's raw and ratio
 * tables.  Machine output: one JSON document, CSV with a header, Markdown.
 */
#ifndef FSB_REPORT_H
#define FSB_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include "../store/result.h"

#define RESULT_SCHEMA_VERSION 1
/* A test with more metrics than this gets one chart (its primary metric)
 * plus tables in text, and a grouped chart in HTML. */
#define REPORT_MAX_CHARTS 4

struct report_opts {
	int width;		/* columns; 80 when not a terminal */
	int color;		/* ANSI colour in the ratio table */
	const char *baseline;	/* target label; NULL = stored or first */
};

/* Terminal width and colour for a stream, honouring NO_COLOR and COLUMNS. */
void report_opts_for(FILE *f, struct report_opts *o);

void report_system(FILE *f, const struct result *r, const struct report_opts *o);
void report_test(FILE *f, const struct result *r, int test,
		 const struct report_opts *o);
/* System table then every test. */
void report_text(FILE *f, const struct result *r, const struct report_opts *o);

/* Pieces, for tests and for other renderers. */
void report_chart(FILE *f, const struct result *r, int test, int metric,
		  const struct report_opts *o);
void report_tables(FILE *f, const struct result *r, int test,
		   const struct report_opts *o, int markdown);
/* Decimals that suit a column whose largest magnitude is `max`. */
int report_decimals(double max);

int report_json(FILE *f, const struct result *r, const char *baseline);
int report_csv(FILE *f, const struct result *r);
int report_markdown(FILE *f, const struct result *r, const struct report_opts *o);
/* One I/O job (engines/iojob.h) in fio's text shape, and as JSON. */
struct io_options;
struct io_result;
void report_io_text(const struct io_options *opt, const struct io_result *r, int group,
		    char *buf, size_t len);
json_t *report_io_json(const struct io_options *opt, const struct io_result *r, int group);

/* Cross-run comparison (compare.c): one row per test x metric x target
 * present in both runs, matched by name, metric name and target label. */
struct cmp_row {
	int test_a, test_b, metric_a, metric_b, target_a, target_b, direction;
	struct summary a, b;
	struct ratio q;		/* new / old */
	int verdict;		/* +1 better, -1 worse (significant), 0 */
	double change_pct;	/* in the better direction: -10 = 10% worse */
};
int compare_match(const struct result *a, const struct result *b, struct cmp_row **rows, int *n);
/* Print the comparison of b (new) against a (old).  Regressions are
 * significant slowdowns; `failing` counts those worse than fail_pct %. */
int report_compare(FILE *f, const struct result *a, const struct result *b, double fail_pct,
		   int *regressions, int *failing);

/* One self-contained HTML page (inline CSS and SVG) for one or more runs. */
int report_html(FILE *f, struct result *const *runs, int nruns, const char *baseline);

#endif
