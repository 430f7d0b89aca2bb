/*
 * model.h: modelled flash media by name (`--medium usb3-key`) or from a
 * file (`--medium FILE`), each a set of the translation layer's
 * parameters (flash.h) declared once in a table (docs/medium.md says
 * where each profile's figures come from).
 */
#ifndef FSB_MODEL_H
#define FSB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "flash.h"

struct model_spec {
	char name[64];
	char source[200];	/* where its figures come from */
	uint64_t capacity, page, unit;
	uint64_t buffer;	/* volatile write buffer, bytes (0: none) */
	int64_t open_units, mapped_units;
	double cmd, read, program, copy, erase;	/* seconds */
	int64_t bus_mbps;	/* the bus's cap, MB/s (10^6 bytes) */
	int64_t usb;		/* the bus: 2 or 3 (what the guest's key is attached as) */
};

/* A named profile, or a file of "key = value" lines (a name with a '/'
 * or ending in .medium): 0, or -1 with the error set. */
int model_lookup(const char *what, struct model_spec *out);
/* The same from text (FILE's contents; name for messages). */
int model_parse(const char *name, const char *text, struct model_spec *out);
/* The translation layer's parameters: 0, or -1 with the error set. */
int model_params(const struct model_spec *m, struct flash_params *p);
/* One line for the system table and every chart: "modelled medium:
 * usb3-key (...)". */
void model_text(const struct model_spec *m, char *buf, size_t len);
/* The names, for help and errors ("usb2-key, usb3-key, ..."). */
void model_names(char *buf, size_t len);

#endif
