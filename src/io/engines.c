/*
 * engines.c: the list of I/O engines.  Adding one is its own file (a const
 * struct io_engine_ops with its name, title, flags and own options) plus
 * its name here (the extern and the array); the ioengine choices, titles,
 * help and the engines' rows of the option table all come from this list.
 */
#include "engine.h"

#include <stdio.h>
#include <string.h>

extern const struct io_engine_ops engine_psync, engine_sync, engine_io_uring, engine_libaio,
	engine_mmap, engine_null, engine_pvsync, engine_pvsync2, engine_ftruncate, engine_falloc,
	engine_filecreate, engine_filestat, engine_filedelete, engine_posixaio, engine_e4defrag,
	engine_exec, engine_sg, engine_mtd;

static const struct io_engine_ops *const all[] = {
	&engine_psync, &engine_sync, &engine_io_uring, &engine_libaio, &engine_mmap,
	&engine_null, &engine_pvsync, &engine_pvsync2, &engine_ftruncate, &engine_falloc,
	&engine_filecreate, &engine_filestat, &engine_filedelete, &engine_posixaio, &engine_e4defrag,
	&engine_exec, &engine_sg, &engine_mtd, NULL,
};

char engine_choices[256];

/* Before main: the parameter tables point at engine_choices. */
__attribute__((constructor)) static void fill_choices(void)
{
	size_t used = 0;

	for (int i = 0; all[i] && used < sizeof(engine_choices); i++)
		used += (size_t)snprintf(engine_choices + used, sizeof(engine_choices) - used, "%s%s",
					 i ? "|" : "", all[i]->name);
}

const struct io_engine_ops *engine_at(int index)
{
	if (index < 0)
		return NULL;
	for (int i = 0; all[i]; i++)
		if (i == index)
			return all[i];
	return NULL;
}
