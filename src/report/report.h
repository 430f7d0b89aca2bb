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
#include "../core/verdict.h"

#define RESULT_SCHEMA_VERSION 4
/* A test with more metrics than this gets, by default, its primary chart
 * and the raw and ratio tables in text (as seeds 002 and 003 print them);
 * in HTML one bar chart and grouped charts for the units its metrics
 * share. */
#define REPORT_MAX_CHARTS 4

struct report_opts {
	int width;		/* columns; 80 when not a terminal */
	int color;		/* ANSI colour in the ratio table */
	const char *baseline;	/* target label; NULL = stored or first */
	int verbose;		/* every chart and table; default: the primary
				 * metric's chart per test and a summary */
	int merged;		/* several runs merged (merge.c): their own title and
				 * systems are the caller's, not the merged result's */
};

/* Terminal width and colour for a stream, honouring NO_COLOR and COLUMNS. */
void report_opts_for(FILE *f, struct report_opts *o);

void report_system(FILE *f, const struct result *r, const struct report_opts *o);
void report_test(FILE *f, const struct result *r, int test,
		 const struct report_opts *o);
/* System table, every test, then the summary. */
void report_text(FILE *f, const struct result *r, const struct report_opts *o);
/* The answer at a glance: per test its primary metric, the fastest
 * target, each target's ratio to the baseline with its mark, and how many
 * figures are shaky. */
void report_summary(FILE *f, const struct result *r, const struct report_opts *o);

/* Pieces, for tests and for other renderers. */
void report_chart(FILE *f, const struct result *r, int test, int metric,
		  const struct report_opts *o);
void report_tables(FILE *f, const struct result *r, int test,
		   const struct report_opts *o, int markdown);
/* The device group (devtable.c): a table of what reached the device per
 * target, nothing when the test has no device figures. */
/* reps.c: seed 001's table of each repetition's real, user and sys time
 * and their average, for a test whose metrics come in phases (NAME_s,
 * NAME_user_s, NAME_sys_s; tree). */
bool report_has_reps(const struct r_test *t);
void report_reps(FILE *f, const struct result *r, int ti);
void report_device(FILE *f, const struct result *r, int test, const struct report_opts *o,
		   int markdown);
/* outcome.c: a power-cut test's outcome, per target over its runs. */
struct report_outcome {
	int runs, unmountable;
	double points, clean_pct, repaired_pct, lost_pct;	/* lost: no mount after repair */
	double promised_lost, promised_bytes, pending_bytes;
	double rec_median, rec_max;	/* ms: median of the runs' medians, the worst */
	int finding;		/* promised data lost, or a point that stayed lost */
	char first[600];	/* the first run's first finding, from its detail */
	char kept[256];		/* the name its image and log were kept under, or "" */
};
bool report_has_outcome(const struct r_test *t);
/* Target's row: 0, or -1 when it has no run with points. */
int report_outcome_row(const struct r_test *t, int target, struct report_outcome *o);
/* "FINDING: ext4 lost 1200 promised files/rows (18.8 MiB); first: ..." */
void report_finding_text(const struct r_target *tg, const struct report_outcome *o, char *buf,
			 size_t len);
/* The table and a finding line a target that has one; nothing for a test
 * that is not a power-cut test.  HTML: the same as a table section. */
void report_outcome(FILE *f, const struct result *r, int test, int markdown);
/* The summary's line for a power-cut test, which is judged by what it
 * lost, not by speed: "ext4 0 lost (100.0% clean); exfat 0 lost (87.5%
 * clean, 12.5% repaired)", a finding marked "!!".  0, or -1 when no target
 * has points. */
int report_outcome_summary(const struct result *r, int test, char *buf, size_t len);
void report_outcome_html(FILE *f, const struct result *r, int test);
int report_has_device(const struct result *r, int test);

/* Seed 003's groups of targets (groups.c): without compression, each
 * filesystem's algorithms, each algorithm's filesystems; a group has two
 * targets or more.  The count, 0 when no target compresses or fewer than
 * three targets ran. */
#define REPORT_GROUP_MAX 64
struct report_group {
	char title[128];
	int idx[REPORT_GROUP_MAX], n;	/* target indices, in the run's order */
};
int report_compression_groups(const struct result *r, struct report_group *g, int max);
/* A target's compression algorithm ("zstd", "lz4"), or "none". */
void report_target_compression(const struct r_target *t, char *algo, size_t len);
/* Index of a device-group metric by name, -1 if the test lacks it. */
int report_device_metric(const struct r_test *t, const char *name);
/* Decimals that suit a column whose largest magnitude is `max`. */
int report_decimals(double max);

/* verdict.c: what every renderer says of a figure, decided once. */
#define REPORT_MIN_RUNS 3	/* fewer runs than this: a warning */
#define REPORT_CV_LIMIT 0.03	/* CV at or above this: a warning */
#define REPORT_TREND_P 0.01	/* runs drifting more surely than this: a warning */
/* 1 and a text when target i's figure for metric m is shaky ("only 2
 * runs", "+-5.1% over 10 runs, missed the +-3% target"; brief: "2 runs",
 * "+-5.1%"; a run stored without a target: "CV 7.2% over 3 runs (target <
 * 3%)"). */
int report_warning(const struct r_test *t, int i, int m, char *buf, size_t len, int brief);
/* 1 and "+-2.1%", the half-width of the figure's 95% interval relative to
 * it (stats_precision), or the range "-83%..+505%" where that interval is
 * asymmetric (the log scale, 10% or wider), when it has 2 runs or more; 0
 * otherwise. */
int report_precision(const struct r_test *t, int i, int m, char *buf, size_t len);
/* Why target i has runs but no figure of metric m, in a few words: a
 * device figure on a target without a block device says why there is
 * none (tmpfs: memory); bonnie's +++++ (too fast to time) only on bonnie. */
const char *report_no_figure(const struct result *r, const struct r_test *t, int i, int m);
/* "! 2 tests missed the +-3% target: fio (+-4.1%), ..." after the summary,
 * nothing when every test met its target. */
void report_missed(FILE *f, const struct result *r, const struct report_opts *o);
/* verdicts.c: the answer each report opens with.  One pair that matters
 * of a test (core/verdict.h's rule, recomputed from the samples). */
#define REPORT_MARGIN 0.03	/* a test stored without a rule: +-3% */
/* room for every pair a run may judge: three per target (VERDICT_MAX_PAIRS)
 * at the runner's 64 targets, aged twins included; cmd-run.c checks it */
#define REPORT_MAX_VERDICTS 192
struct report_verdict {
	int a, b;		/* targets */
	int direction;		/* the primary metric's: +1 higher is better */
	double margin;
	struct verdict v;	/* of a over b */
};
/* A test's verdicts, at most max (each target and the baseline, then
 * neighbours in the ranking, then each aged target and its fresh twin);
 * 0 with fewer than 2 targets. */
int report_verdicts(const struct result *r, const struct r_test *t, int base,
		    struct report_verdict *out, int max);
/* --compare-fresh: ref[i] (room for ntargets) is the fresh target of
 * the same --fs spec that aged target i is judged against, -1 none; 0
 * when no target has one. */
int report_age_refs(const struct result *r, int *ref);
/* Aged target i against its fresh twin on test t, in "better" terms
 * (above 1: the aged one does better): "0.74 (0.70-0.79) worse", "1.00
 * (0.98-1.02) same", "-" without a verdict; -1 when i has no twin. */
int report_aged_cell(const struct result *r, const struct r_test *t, int i, int base, char *buf,
		     size_t len);
/* Any two targets on any metric, by the same rule (the test's margin and
 * looks): every mark, colour, "fastest" and geometric mean is read from
 * here, so none contradicts a verdict.  In "faster" terms whatever the
 * metric's direction: speed above 1, a does better than b; lo..hi its 95%
 * interval, in the same terms. */
enum report_call {
	REPORT_NOCALL,		/* too few runs, or a figure not above 0 */
	REPORT_FASTER,
	REPORT_SLOWER,
	REPORT_SAME,		/* within the margin */
	REPORT_OPEN,		/* not separated yet */
};
struct report_speed {
	enum report_call call;
	double speed, lo, hi;	/* NAN with REPORT_NOCALL */
	double margin;
	int n;			/* rounds (runs of the smaller side) */
	bool paired;
};
/* 0, or -1 when a side has no figure (no ratio, an empty cell). */
int report_speed(const struct r_test *t, int a, int b, int m, struct report_speed *q);
/* '+', '-', '=' or '?'; "faster", "slower", "equivalent", "undecided",
 * "too few runs". */
char report_call_mark(enum report_call c);
const char *report_call_word(enum report_call c);
/* "x1.25" / "/17.9" (utf8: the multiplication and division signs), and
 * "1.25x faster" / "17.9x slower"; a factor alone: "1.25", "17.9", "104". */
void report_speed_text(const struct report_speed *q, char *buf, size_t len, int utf8);
void report_speed_words(const struct report_speed *q, char *buf, size_t len);
void report_factor(double x, char *buf, size_t len);
/* A cell: the speed and its mark, "x1.25+" (utf8: "\u00d71.25 +"), "n/a"
 * for a speed to or of a zero. */
void report_speed_cell(const struct report_speed *q, char *buf, size_t len, int utf8);
/* Target i against the baseline on metric m, as every chart row and
 * table ends: "baseline", a speed cell, or "" (no figure, no baseline). */
void report_against(const struct r_test *t, int i, int base, int m, char *buf, size_t len,
		    int utf8);
/* The index of a test's primary metric (0 when none is marked). */
int report_primary(const struct r_test *t);
/* Each target's ranking score on a test's primary metric (higher is
 * better; NAN: no figure), as the verdicts' pairs are chosen. */
void report_scores(const struct r_test *t, int k, double *score);
/* "xfs 1.26x faster than ext4 (95% 1.18-1.35, 5 rounds)", "btrfs = ext4
 * within +-3% (...)", "! exfat vs ext4 undecided after 6 rounds (...)". */
void report_verdict_text(const struct result *r, const struct report_verdict *p, char *buf,
			 size_t len);
/* The verdict block: a heading and one line a test (text). */
void report_verdict_block(FILE *f, const struct result *r, const struct report_opts *o);
/* One test's verdict line: run's live output gives it above the test's
 * chart, as soon as the test is done. */
void report_test_verdicts(FILE *f, const struct result *r, int test,
			  const struct report_opts *o);

/* The warning every chart of a run carries when its numbers come from an
 * emulated CPU, or when merged runs mix host and guest; NULL otherwise. */
const char *report_vm_warning(const struct result *r);
/* "tcg", "kvm" or "" (the host) for a run, from its system table. */
const char *report_vm_accel(const struct result *r);
/* A column header with its unit, once: "Latency mean (usec)", "TPS". */
void report_header(const struct r_metric *m, char *buf, size_t len);
/* One legend for the marks, the same everywhere (%g: the margin in %). */
#define REPORT_LEGEND "+ faster, - slower, = the same within +-%g%%, ? not separated yet (the " \
	"verdicts' rule, 95%%; docs/results.md); xF: F times as fast as the baseline, /F: F " \
	"times slower"

/* answer.c: the answer block (one per run, first in `show`, last in
 * `run`): per target the geometric mean of its speed ratios to the
 * baseline over the tests judged by speed, with the rule's calls; per
 * test its targets ranked, linked by the rule's neighbour verdicts; how
 * many pairs were decided; and the warnings that change the answer. */
#define REPORT_SHORT_RUN 0.25	/* s: a median run shorter is hard to time */
struct answer_target {
	int target;
	double gmean;		/* speed ratio to the baseline; NAN none */
	int ntests;		/* tests in the geometric mean */
	int faster, same, slower, open;
};
struct answer_test {
	int test;
	int nranked, *order;	/* targets with a figure, best first */
	struct report_speed *link;	/* order[q] against order[q + 1] */
};
struct report_answer {
	int base, ntests, speed_tests;
	struct answer_target *overall;	/* every target, best first */
	struct answer_test *tests;	/* [ntests] */
	/* the pairs that matter, by the rule's call */
	int pairs, decided, same, open, close, nocall, min_rounds, max_rounds;
	double open_reach_hi;	/* how far from 1 the widest open interval reaches */
	int nwarnings;
	char **warnings;
};
int report_answer_make(const struct result *r, int base, struct report_answer *a);
void report_answer_free(struct report_answer *a);
/* ">1.25", "=", "?1.06": a link of a ranking. */
void report_link_text(const struct report_speed *q, char *buf, size_t len);
/* "xfs >1.25 ext4 = btrfs; exfat failed" (a power-cut test: its losses). */
void report_test_ranking(const struct result *r, const struct answer_test *at, char *buf,
			 size_t len);
/* "3 faster, 1 same, 2 open"; the trust sentence. */
void report_answer_counts(const struct answer_target *o, char *buf, size_t len);
void report_answer_trust(const struct report_answer *a, char *buf, size_t len);
/* The block in text, or in Markdown (md). */
void report_answer_text(FILE *f, const struct result *r, const struct report_opts *o, int md);

int report_json(FILE *f, const struct result *r, const char *baseline);
/* exact: every double with 17 significant digits, so `fsbench export` and
 * `import` lose nothing. */
int report_json_exact(FILE *f, const struct result *r, const char *baseline, int exact);
/* The exact export document in memory (*text, the caller frees it): what
 * a guest hands the host.  0, or -1 with the error set. */
int report_json_text(const struct result *r, char **text);
int report_csv(FILE *f, const struct result *r);
int report_markdown(FILE *f, const struct result *r, const struct report_opts *o);

/* Cross-run comparison (compare.c): one row per test x metric x target
 * present in both runs, matched by name, metric name and target label. */
struct cmp_row {
	int test_a, test_b, metric_a, metric_b, target_a, target_b, direction;
	int device;		/* a device-group metric (write_amp, space_used) */
	struct summary a, b;
	struct report_speed s;	/* new against old, by the verdicts' rule */
	double change_pct;	/* in the better direction: -10 = 10% worse */
};
int compare_match(const struct result *a, const struct result *b, struct cmp_row **rows, int *n);
/* The verdict of one row, the same in every format ("faster", "REGRESSION
 * (slower, decided)", "the same within +-3%", "not separated yet", ...),
 * counting regressions and those beyond fail_pct; *sign: +1 better, -1 a
 * regression, 0 neither. */
const char *report_compare_verdict(const struct cmp_row *r, double fail_pct, int *regressions,
				   int *failing, int *sign);
/* Target g's answer over the rows: the geometric mean of its speeds
 * new/old on the tests' primary metrics, and the rule's calls counted. */
void report_compare_answer(const struct result *a, const struct cmp_row *rows, int n, int g,
			   struct answer_target *o);
/* Print the comparison of b (new) against a (old): the answer (each
 * target's geometric mean of its speeds new/old, with the rule's calls),
 * then a row per test x metric x target.  Regressions are slowdowns the
 * rule decided; `failing` counts those worse than fail_pct %. */
/* Runs measured on different media (the user's devices, or a device and
 * images): 1 and the sentence saying so in buf; 0 when on the same. */
int report_compare_media(const struct result *a, const struct result *b, char *buf, size_t len);
int report_compare(FILE *f, const struct result *a, const struct result *b, double fail_pct,
		   int *regressions, int *failing);

/* The same comparisons (each later run against the first) as one JSON
 * document (schema "fsbench.compare"), Markdown or an HTML page. */
int report_compare_json(FILE *f, struct result *const *runs, int n, double fail_pct);
int report_compare_markdown(FILE *f, struct result *const *runs, int n, double fail_pct);
int report_compare_html(FILE *f, struct result *const *runs, int n, double fail_pct);

/* The output formats (formats.c): each writes one or more runs to a stream;
 * multi_run formats make one document of them all (one HTML page), the
 * others one after another.  compare writes `fsbench compare`'s document
 * of the runs, each against the first (NULL: the format has none). */
struct report_format {
	const char *name;
	int (*write)(FILE *f, struct result *const *runs, int n, const struct report_opts *o);
	int multi_run;
	int (*compare)(FILE *f, struct result *const *runs, int n, double fail_pct);
};
const struct report_format *report_format_find(const char *name);
/* "text, json, csv, markdown, html": for help and errors. */
const char *report_format_names(void);

/* Several runs as one result (merge.c): every run's targets side by side,
 * tests matched by name and parameters.  Free with report_merge_free. */
struct result *report_merge(struct result *const *runs, int n);
void report_merge_free(struct result *m);
/* The runs' system tables side by side, a column (Markdown) or a line
 * (text) per run. */
void report_runs_table(FILE *f, struct result *const *runs, int n, int markdown);
/* Every system-table field any of the runs has, in first-seen order. */
int report_sys_names(struct result *const *runs, int n, const char **names, int max);

/* One self-contained HTML page (inline CSS and SVG) for one or more runs. */
int report_html(FILE *f, struct result *const *runs, int nruns, const char *baseline);

#endif
