/*
 * engines.c: the list of I/O engines.  Adding one is its own file plus a
 * line here (and its name in ENGINE_CHOICES).
 */
#include "engine.h"

#include <string.h>

extern const struct io_engine_ops engine_psync, engine_sync, engine_io_uring, engine_libaio,
	engine_mmap, engine_null;

static const struct io_engine_ops *const all[] = {
	&engine_psync, &engine_sync, &engine_io_uring, &engine_libaio, &engine_mmap,
	&engine_null, NULL,
};

const struct io_engine_ops *engine_find(const char *name)
{
	for (int i = 0; all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
