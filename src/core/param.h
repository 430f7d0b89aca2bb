/*
 * param.h: declarative parameter tables.
 *
 * A workload declares its parameters once, as an array of struct param_def
 * ending with an entry whose name is NULL.  Each entry says where the value
 * lives in the workload's parameter struct (offsetof), its type, default,
 * bounds and help text.  The same table drives `name:key=value,...` on the
 * command line, suite files, `fsbench list tests`, the canonical parameter
 * string stored with every result, and the error messages for bad values.
 *
 * Storage per type:  PT_INT int64_t,  PT_SIZE uint64_t (bytes),
 * PT_DURATION double (seconds),  PT_BOOL bool,  PT_ENUM int (index into
 * choices),  PT_STRING a char array whose capacity (sizeof, with the NUL)
 * is the entry's `max`: declare string entries with PARAM_STRING so the
 * table, not the caller, bounds every copy into them.
 */
#ifndef FSB_PARAM_H
#define FSB_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PARAM_STR_MAX 256

enum param_type { PT_INT, PT_SIZE, PT_DURATION, PT_BOOL, PT_ENUM, PT_STRING };

struct param_def {
	const char *name;
	enum param_type type;
	size_t offset;
	const char *def;	/* default, written as a user would write it */
	double min, max;	/* inclusive bounds; min == max means unbounded */
	const char *choices;	/* PT_ENUM: "a|b|c" */
	const char *help;
	unsigned flags;		/* PF_* */
	/* Non-NULL: sets the value from text in its own way (a compound
	 * value, or a row that sets another's field); else by type. */
	int (*set)(const struct param_def *d, void *obj, const char *value);
};

/* A PT_STRING entry for char array `field` of struct `type`: max holds
 * its capacity, which set_value never exceeds. */
#define PARAM_STRING(name, type, field, def, help) \
	{ name, PT_STRING, offsetof(type, field), def, 0, \
	  (double)sizeof(((type *)0)->field), NULL, help, 0 }

/* A PT_STRING entry for a compound value (fio's bssplit=4k/50:8k/50):
 * the text is kept as written, for the stored parameter string, and set
 * parses it once into typed fields of the struct (a refusal changes
 * nothing); params_defaults sets the default through set too. */
#define PARAM_COMPOUND(name, type, field, def, help, set) \
	{ name, PT_STRING, offsetof(type, field), def, 0, \
	  (double)sizeof(((type *)0)->field), NULL, help, 0, set }

/* The parameter is a data size or count that --scale multiplies.  On a
 * PT_STRING it is the leading count of the text (bonnie's n=16:0:0:1). */
#define PF_SCALE 1u
/* PT_DURATION: a number without a unit is microseconds, as fio reads its
 * thinktime (elsewhere it is seconds). */
#define PF_USEC 2u
/* Another name for the row named in `choices`: param_find gives that row,
 * so every path that takes the table takes the name (PARAM_ALIAS). */
#define PF_ALIAS 4u
/* A spelling that sets other rows' fields through its `set` (fio's
 * rwmixwrite): no storage of its own, no default, never formatted. */
#define PF_DERIVED 8u
/* With PF_SCALE: the parameter is the side of a cube of work (fileop's
 * level L makes L x L x L directories and files), so --scale multiplies it
 * by the cube root of the factor and the work by the factor. */
#define PF_SCALE_CUBE 16u

#define PARAM_ALIAS(alias, target) \
	{ alias, PT_BOOL, 0, "", 0, 0, target, "fio's other name for " target, PF_ALIAS, NULL }

/* Fill every parameter of obj with its default.  obj starts zeroed (calloc,
 * memset): a row's set callback may read what it set before (bs's split). */
int params_defaults(const struct param_def *defs, void *obj);
/* Set one parameter's field from text by its type (what a `set` callback
 * uses for the plain part of a compound value). */
int param_set_value(const struct param_def *d, void *obj, const char *value);
/* Set one parameter from text. */
int params_set(const struct param_def *defs, void *obj, const char *key,
	       const char *value);
/* Apply "key=value,key=value"; an empty or NULL list is fine.  In a value
 * "\," is a comma and "\\" a backslash; an item without '=' continues the
 * value before it ("cpus_allowed=0-1,3"). */
int params_apply(const struct param_def *defs, void *obj, const char *list);
/* The same list, each key and its value (unescaped) to fn in order; fn's
 * non-zero return ends the walk and is returned. */
int params_each(const char *list, int (*fn)(const char *key, const char *value, void *arg),
		void *arg);
/* Multiply every PF_SCALE parameter by factor (at least 1 each; a 0 or a
 * negative value, meaning none or automatic, stays as it is). */
void params_scale(const struct param_def *defs, void *obj, double factor);
/* Canonical "key=value,..." of every parameter, in table order, each
 * value's commas and backslashes escaped, so that params_apply gives back
 * exactly the same parameters.  -1 (error set) when it does not fit. */
int params_format(const struct param_def *defs, const void *obj, char *buf, size_t len);
/* One "key=value" added to buf at *used, escaped as params_format does
 * (a comma first unless *used is 0); -1 (error set) when it does not fit. */
int params_append(char *buf, size_t len, size_t *used, const char *key, const char *value);
/* One value as text (sizes as 4k/1M/..., durations as 5s/250ms). */
void param_value_text(const struct param_def *d, const void *obj, char *buf,
		      size_t len);
/* What a parameter accepts, for help and errors: "size (e.g. 4k, 1M)". */
const char *param_type_text(const struct param_def *d, char *buf, size_t len);
const struct param_def *param_find(const struct param_def *defs,
				   const char *key);
/* The row name nearest a mistyped key ("did you mean"), or NULL. */
const char *param_suggest(const struct param_def *defs, const char *key);
/* A table fit to be used: every string has a capacity, every default
 * parses.  0, or -1 with the error set (a programming error). */
int params_check_table(const struct param_def *defs, size_t obj_size);

/* Stand-alone value parsers, shared by the CLI (--fs-size, --max-runs...). */
int parse_size(const char *s, uint64_t *out);
/* A plain decimal count: digits only (no sign, no 0x, no spaces), as a
 * run number or a repetition count is written. */
int parse_decimal(const char *s, int64_t *out);
int parse_int(const char *s, int64_t *out);
/* At most DURATION_MAX seconds (a year). */
#define DURATION_MAX (366.0 * 86400)
int parse_duration(const char *s, double *out);
/* "3%" or "3" -> 0.03: a percentage above 0 and below 100. */
int parse_percent(const char *s, double *out);
/* The same text ("5%" or "5" -> 0.05), any finite value from lo percent
 * up (a threshold: 0 and past 100 mean something). */
int parse_percent_at_least(const char *s, double lo, double *out);
int parse_bool(const char *s, bool *out);
/* 1048576 -> "1M", 1536 -> "1536", 65536 -> "64k". */
void format_size(uint64_t bytes, char *buf, size_t len);

/* Typed accessors used by workloads' code. */
#define PARAM_AT(obj, d, type) ((type *)((char *)(obj) + (d)->offset))

#endif
