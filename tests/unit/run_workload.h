/*
 * run_workload.h: one repetition of a test, as the runner would do it
 * (parse, prepare, run, cleanup), in a directory the test chooses.
 */
#ifndef FSB_RUN_WORKLOAD_H
#define FSB_RUN_WORKLOAD_H

#include "runner/testspec.h"

/* Returns run's rc (or prepare's); `detail` may be NULL; `nmetrics`, when
 * not NULL, receives the number of metrics the test produces. */
static inline int run_workload(const char *spec, const char *where, double *values,
			       char *detail, int *nmetrics)
{
	struct test_spec ts;
	struct wl_ctx ctx;
	int rc;

	assert_int_equal(test_spec_parse(spec, &ts), 0);
	if (nmetrics)
		*nmetrics = ts.nmetrics;
	memset(&ctx, 0, sizeof(ctx));
	ctx.dir = where;
	ctx.params = ts.params;
	ctx.detail = detail;
	rc = ts.wl->prepare ? ts.wl->prepare(&ctx) : 0;
	if (!rc)
		rc = ts.wl->run(&ctx, values);
	if (ts.wl->cleanup)
		ts.wl->cleanup(&ctx);
	test_spec_free(&ts);
	return rc;
}

#endif
