/*
 * foreign.h: fio's I/O engines that fsbench io does not have, and their
 * own options, so that a job file naming one parses as fio parses it
 * (`--parse-only`: fio reads any engine name and loads an engine only for
 * its options) while running it is refused with what the engine is.
 */
#ifndef FSB_IO_FOREIGN_H
#define FSB_IO_FOREIGN_H

#include <stdbool.h>

struct io_foreign_engine {
	const char *name;
	const char *what;		/* what it drives, for the refusal */
	const char *const *options;	/* its own options (NULL-terminated) */
};

/* fio's engine of that name fsbench lacks, or NULL (unknown to both). */
const struct io_foreign_engine *io_foreign_engine(const char *name);
/* Whether key is one of engine name's own options (name: any engine
 * name a job gave, known or not). */
bool io_foreign_option(const char *name, const char *key);

#endif
