/*
 * testspec.h: turning "fsmark:files=1000,size=1M" or a named test such as
 * "fsmark-1000x1M" (optionally with overrides, "fsmark-1000x1M:threads=2")
 * into a workload plus a filled, validated parameter struct.
 */
#ifndef FSB_TESTSPEC_H
#define FSB_TESTSPEC_H

#include "../workloads/workload.h"

struct test_spec {
	const struct workload *wl;
	void *params;		/* wl->params_size bytes, owned */
	char name[160];		/* as given: preset or workload, plus overrides */
	char params_text[8192];	/* canonical key=value list, every parameter (params_format) */
	char title[128];
	char subtitle[256];
	char show[64];		/* a suite's show = : the text view's extra tables */
	int runs;		/* a suite's runs = (the minimum); 0 = as the run says */
	int warmup;		/* a suite's warmup = : unrecorded runs first, per target */
	int nmetrics;		/* metrics these parameters produce */
};

int test_spec_parse(const char *arg, struct test_spec *ts);
/* A test from a filled parameter struct (a fio job file's job), copied
 * and validated. */
int test_spec_from_params(const struct workload *wl, const void *params, const char *name,
			  struct test_spec *ts);
void test_spec_free(struct test_spec *ts);
/* Multiply its data sizes (PF_SCALE parameters) by factor; the stored
 * parameters and the chart subtitle follow. */
int test_spec_scale(struct test_spec *ts, double factor);
/* The preset called `name`, searching every workload; NULL if none. */
const struct preset *preset_find(const char *name, const struct workload **wl);

#endif
