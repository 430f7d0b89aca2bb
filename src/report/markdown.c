/*
 * markdown.c: a run as Markdown (seed 003 was a Markdown article): the
 * system table, then per test its text charts in a code block and its raw
 * and ratio tables as Markdown tables, for pasting into an issue or wiki.
 */
#include "report.h"
#include "../aging/record.h"

#include <stdlib.h>

/* --compare-fresh: a test per row, a filesystem per column, each cell its
 * aged twin against it in "better" terms (report_aged_cell). */
static void aged_table(FILE *f, const struct result *r, int base)
{
	int *ref = calloc((size_t)r->ntargets + 1, sizeof(int));

	if (base < 0 || !ref || !report_age_refs(r, ref)) {
		free(ref);
		return;
	}
	fputs("## Aged / fresh\n\nEach aged filesystem against its fresh twin (95%; above 1 the "
	      "aged one does better).\n\n| test |", f);
	for (int i = 0; i < r->ntargets; i++)
		if (ref[i] >= 0)
			fprintf(f, " %s |", r->targets[ref[i]].label);
	fputs("\n|---|", f);
	for (int i = 0; i < r->ntargets; i++)
		if (ref[i] >= 0)
			fputs("---|", f);
	fputc('\n', f);
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		if (!t->nmetrics || report_has_outcome(t))
			continue;
		fprintf(f, "| %s |", t->name);
		for (int i = 0; i < r->ntargets; i++) {
			char cell[160];
			if (ref[i] >= 0 && !report_aged_cell(r, t, i, base, cell, sizeof(cell)))
				fprintf(f, " %s |", cell);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	free(ref);
}

int report_markdown(FILE *f, const struct result *r, const struct report_opts *o)
{
	struct report_opts plain = *o;

	plain.color = 0;
	if (!o->merged) {	/* merged: the runs table said it, under one heading */
		fprintf(f, "# fsbench run %lld%s%s\n\n", (long long)r->id,
			r->label[0] ? ": " : "", r->label);
		fprintf(f, "fsbench %s, %s, status %s.\n\n", r->version, r->started, r->status);
		if (r->note && r->note[0])
			fprintf(f, "> %s\n\n", r->note);
	}
	/* the answer first; every verdict with its interval after the tests */
	int base = result_baseline(r, o->baseline);
	if (base >= 0 && r->ntargets > 1) {
		report_answer_text(f, r, o, 1);
		fputc('\n', f);
	}
	aged_table(f, r, base);
	if (!o->merged) {
		fprintf(f, "| | |\n|---|---|\n");
		for (int i = 0; i < r->nsys; i++)
			fprintf(f, "| %s | %s |\n", r->sys[i].name, r->sys[i].value);
		fputc('\n', f);
	}
	int aged = 0;
	for (int i = 0; i < r->ntargets; i++)
		aged |= r->targets[i].aging != NULL;
	fprintf(f, "| target | file system | mount options | disk | I/O scheduler | "
		   "mkfs or directory |%s\n|---|---|---|---|---|---|%s\n", aged ? " aging |" : "",
		aged ? "---|" : "");
	for (int i = 0; i < r->ntargets; i++) {
		const struct r_target *t = &r->targets[i];
		char line[512] = "fresh";
		if (t->aging)
			age_record_summary(t->aging, line, sizeof(line));
		fprintf(f, "| %s | %s | %s | %s | %s | `%s` |", t->label, t->fstype,
			t->mount_opts, t->disk, t->scheduler, t->mkfs[0] ? t->mkfs : t->path);
		fprintf(f, aged ? " %s |\n" : "\n", line);
	}
	for (int ti = 0; ti < r->ntests; ti++) {
		const struct r_test *t = &r->tests[ti];
		fprintf(f, "\n## %s: %s\n\nParameters: `%s`\n\n```text\n", t->title,
			t->subtitle, t->params);
		for (int m = 0; m < t->nmetrics; m++) {
			report_chart(f, r, ti, m, &plain);
			if (m + 1 < t->nmetrics)
				fputc('\n', f);
		}
		fputs("```\n", f);
		report_tables(f, r, ti, &plain, 1);
		report_outcome(f, r, ti, 1);
		report_device(f, r, ti, &plain, 1);
		for (int i = 0; i < r->ntargets; i++)
			if (t->cells[i].failure)
				fprintf(f, "\n**%s failed on %s:** %s\n", t->name,
					r->targets[i].label, t->cells[i].failure);
	}
	struct report_verdict *v = calloc(REPORT_MAX_VERDICTS, sizeof(*v));
	int any = 0;
	for (int ti = 0; v && base >= 0 && ti < r->ntests; ti++) {
		int n = report_verdicts(r, &r->tests[ti], base, v, REPORT_MAX_VERDICTS);
		for (int q = 0; q < n; q++) {
			char text[512];
			report_verdict_text(r, &v[q], text, sizeof(text));
			if (!any++)
				fputs("\n## Every verdict\n\n", f);
			fprintf(f, "- %s: %s\n", r->tests[ti].name, text);
		}
	}
	free(v);
	fprintf(f, "\nCommand: `%s`\n", r->cmdline);
	return ferror(f) ? -1 : 0;
}
