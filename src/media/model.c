/*
 * model.c: the named modelled media and the reader of a medium file (see
 * model.h).  Every key is a row of one parameter table, which also reads
 * the profiles' own definitions, so a file and a name mean the same.
 */
#include "model.h"
#include "../core/error.h"
#include "../core/ini.h"
#include "../core/param.h"
#include "../core/str.h"

#include <stdio.h>
#include <string.h>

#define M(f) offsetof(struct model_spec, f)
static const struct param_def model_defs[] = {
	{ "capacity", PT_SIZE, M(capacity), "8g", 64 << 20, 4.0 * (1ULL << 40), NULL,
	  "bytes the medium holds (a whole number of units)" },
	{ "page", PT_SIZE, M(page), "16k", 512, 1 << 20, NULL,
	  "the effective page: bytes programmed at once" },
	{ "unit", PT_SIZE, M(unit), "4m", 4096, 1 << 30, NULL,
	  "the allocation (erase) unit" },
	{ "open_units", PT_INT, M(open_units), "4", 1, FLASH_MAX_OPEN, NULL,
	  "units written into at once before one must be merged" },
	{ "mapped_units", PT_INT, M(mapped_units), "2", 0, 1 << 24, NULL,
	  "first units mapped by page (the FAT area)" },
	{ "cmd", PT_DURATION, M(cmd), "100us", 0, 1, NULL, "each request's fixed cost" },
	{ "read", PT_DURATION, M(read), "100us", 0, 1, NULL, "a page read" },
	{ "program", PT_DURATION, M(program), "500us", 0, 1, NULL, "a page written from the host" },
	{ "copy", PT_DURATION, M(copy), "250us", 0, 1, NULL, "a page copied by a merge" },
	{ "erase", PT_DURATION, M(erase), "2ms", 0, 10, NULL, "a unit erased" },
	{ "bus_mbps", PT_INT, M(bus_mbps), "400", 1, 100000, NULL, "the bus's cap, MB/s" },
	{ "usb", PT_INT, M(usb), "3", 2, 3, NULL, "attached as a USB 2 or USB 3 key" },
	{ "buffer", PT_SIZE, M(buffer), "0", 0, 1ULL << 30, NULL,
	  "volatile RAM that takes writes before they are programmed; a power cut loses it" },
	PARAM_STRING("source", struct model_spec, source, "", "where the figures come from"),
	{ NULL },
};

/* Where each figure comes from: docs/medium.md, per profile. */
static const struct {
	const char *name, *params;
} profiles[] = {
	/* a cheap USB 2 stick: 2 open units, 8-10 MB/s written in order */
	{ "usb2-key", "capacity=8g,page=16k,unit=4m,open_units=2,mapped_units=2,cmd=200us,"
		      "read=350us,program=1500us,copy=700us,erase=3ms,bus_mbps=35,usb=2,"
		      "source=flashbench's open-unit example; Phoronix 2009 (USB key filesystems)" },
	/* seed 001's USB3 stick: ~30 MB/s in order, merges of 4 MiB units */
	{ "usb3-key", "capacity=8g,page=16k,unit=4m,open_units=4,mapped_units=2,cmd=100us,"
		      "read=120us,program=500us,copy=250us,erase=2ms,bus_mbps=400,usb=3,"
		      "source=seed 001 (a USB3 stick); Linaro flash card survey" },
	/* an old Class 4 card: 10 MB/s in order, 34 random 4 KiB writes/s */
	{ "sd-class4", "capacity=4g,page=16k,unit=4m,open_units=2,mapped_units=2,cmd=150us,"
		       "read=350us,program=1600us,copy=110us,erase=3ms,bus_mbps=40,usb=2,"
		       "source=Intenso Class 4 SD (Kaiser, A1 and A2 rated SD cards)" },
	/* an A1 card: random writes page-mapped over most of it */
	{ "sd-a1", "capacity=8g,page=16k,unit=4m,open_units=16,mapped_units=1536,cmd=100us,"
		   "read=120us,program=260us,copy=60us,erase=2ms,bus_mbps=90,usb=3,"
		   "source=SanDisk Extreme A1 (Kaiser, A1 and A2 rated SD cards)" },
};

void model_names(char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", profiles[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

static int entry(void *arg, const char *key, const char *value, int line)
{
	struct model_spec *m = arg;

	if (!strcmp(key, "name")) {
		if (!value || !value[0] || strlen(value) >= sizeof(m->name))
			return error_set("line %d: name: 1 to %zu characters", line, sizeof(m->name) - 1);
		str_copy(m->name, sizeof(m->name), value);
		return 0;
	}
	if (!value)
		return error_set("line %d: %s needs a value", line, key);
	if (params_set(model_defs, m, key, value))
		return error_prefix("line %d", line);
	return 0;
}

static int section(void *arg, const char *name, int line)
{
	(void)arg;
	if (strcmp(name, "medium"))
		return error_set("line %d: [%s]: a medium file has one section, [medium]", line, name);
	return 0;
}

int model_parse(const char *name, const char *text, struct model_spec *out)
{
	static const struct ini_handler h = { 0, section, entry };
	struct flash_params p;

	memset(out, 0, sizeof(*out));
	params_defaults(model_defs, out);
	str_copy(out->name, sizeof(out->name), "custom");
	if (ini_parse(name, text, &h, out) || model_params(out, &p))
		return error_prefix("medium %s", name);
	return 0;
}

int model_lookup(const char *what, struct model_spec *out)
{
	static const struct ini_handler h = { 0, section, entry };
	size_t n = strlen(what);
	struct flash_params p;

	memset(out, 0, sizeof(*out));
	params_defaults(model_defs, out);
	if (strchr(what, '/') || (n > 7 && !strcmp(what + n - 7, ".medium"))) {
		const char *base = strrchr(what, '/');
		str_copy(out->name, sizeof(out->name), base ? base + 1 : what);
		if (ini_load(what, 1 << 16, &h, out) || model_params(out, &p))
			return error_prefix("--medium %s", what);
		return 0;
	}
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(what, profiles[i].name)) {
			str_copy(out->name, sizeof(out->name), what);
			if (params_apply(model_defs, out, profiles[i].params) || model_params(out, &p))
				return error_prefix("medium %s", what);
			return 0;
		}
	char names[256];
	model_names(names, sizeof(names));
	return error_set("--medium %s: no such medium (%s, or a FILE ending in .medium)", what, names);
}

static uint64_t ns(double s)
{
	return (uint64_t)(s * 1e9 + 0.5);
}

int model_params(const struct model_spec *m, struct flash_params *p)
{
	char why[128];

	memset(p, 0, sizeof(*p));
	if (m->page > UINT32_MAX || m->unit > UINT32_MAX)
		return error_set("page and unit must be under 4 GiB");
	p->capacity = m->capacity;
	p->page = (uint32_t)m->page;
	p->unit = (uint32_t)m->unit;
	p->open_units = (uint32_t)m->open_units;
	p->mapped_units = (uint32_t)m->mapped_units;
	p->cmd_ns = ns(m->cmd);
	p->read_ns = ns(m->read);
	p->program_ns = ns(m->program);
	p->copy_ns = ns(m->copy);
	p->erase_ns = ns(m->erase);
	p->bus_bps = (uint64_t)m->bus_mbps * 1000000ULL;
	p->buffer = m->buffer;
	if (flash_params_check(p, why, sizeof(why)))
		return error_set("%s", why);
	return 0;
}

void model_text(const struct model_spec *m, char *buf, size_t len)
{
	char cap[32], page[32], unit[32], buffer[64] = "";

	format_size(m->capacity, cap, sizeof(cap));
	format_size(m->page, page, sizeof(page));
	format_size(m->unit, unit, sizeof(unit));
	if (m->buffer) {
		char b[32];
		format_size(m->buffer, b, sizeof(b));
		snprintf(buffer, sizeof(buffer), ", a %s volatile buffer", b);
	}
	snprintf(buf, len, "modelled medium: %s (not a device: %s, %s pages, %s units, %lld open, "
		 "first %lld mapped by page, USB %lld at %lld MB/s%s)",
		 m->name, cap, page, unit, (long long)m->open_units, (long long)m->mapped_units,
		 (long long)m->usb, (long long)m->bus_mbps, buffer);
}
