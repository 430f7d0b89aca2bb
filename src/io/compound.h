/*
 * compound.h: the set callbacks of fio's compound options (compound.c),
 * named in their rows of the option table (options.c).  Each parses the
 * text once into struct io_parsed and keeps the text as written; a value
 * it refuses changes nothing.
 */
#ifndef FSB_IO_COMPOUND_H
#define FSB_IO_COMPOUND_H

#include "../core/param.h"

int io_set_seq_add(const struct param_def *d, void *obj, const char *value);
int io_set_bsrange(const struct param_def *d, void *obj, const char *value);
/* cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0 */
int io_set_cmdprio_bssplit(const struct param_def *d, void *obj, const char *value);
int io_set_bssplit(const struct param_def *d, void *obj, const char *value);
int io_set_distribution(const struct param_def *d, void *obj, const char *value);
int io_set_cpus_allowed(const struct param_def *d, void *obj, const char *value);
int io_set_cpumask(const struct param_def *d, void *obj, const char *value);
int io_set_latency_percentile(const struct param_def *d, void *obj, const char *value);
int io_set_percentile_list(const struct param_def *d, void *obj, const char *value);
int io_set_rate(const struct param_def *d, void *obj, const char *value);
int io_set_ss(const struct param_def *d, void *obj, const char *value);
int io_set_ignore_error(const struct param_def *d, void *obj, const char *value);
int io_set_pattern(const struct param_def *d, void *obj, const char *value);

#endif
