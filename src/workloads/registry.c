/*
 * registry.c: the list of workloads.  Adding a workload is its own file
 * plus its name here (the extern and the array).  Elsewhere only the io
 * workload is named, by runner/request.c, which makes io tests of fio job
 * files.
 */
#include "workload.h"

#include <string.h>

extern const struct workload wl_fsmark, wl_fileop, wl_postmark, wl_tree, wl_bonnie, wl_io,
	wl_sqlite_speedtest, wl_sqlite_inserts, wl_kv,
	wl_appstart, wl_ior, wl_mdtest, wl_powercut;

static const struct workload *const all[] = {
	&wl_fsmark,
	&wl_fileop,
	&wl_postmark,
	&wl_tree,
	&wl_bonnie,
	&wl_io,
	&wl_sqlite_speedtest,
	&wl_sqlite_inserts,
	&wl_kv,
	&wl_appstart,
	&wl_ior,
	&wl_mdtest,
	&wl_powercut,
	NULL,
};

const struct workload *const *workload_all(void)
{
	return all;
}

const struct workload *workload_find(const char *name)
{
	for (int i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
