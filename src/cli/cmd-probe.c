/*
 * cmd-probe.c: `fsbench probe-flash DEV | --model NAME|FILE`: a flash
 * medium's page, allocation unit and open units, measured as flashbench
 * does (media/probe.h), written as a medium file `run --medium` takes.
 *
 * Reading is all it does unless --write is given: then, after the checks
 * `run --device` makes (not mounted, not held, no signature unless
 * --force-format), it writes the region it is given (--region, from the
 * device's start), held exclusively.  --model probes a modelled medium
 * in-process, by its model time: the round trip, which shows the probe
 * finds what the model was given.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "../core/error.h"
#include "../core/param.h"
#include "../media/flash.h"
#include "../media/model.h"
#include "../media/probe.h"
#include "../targets/medium.h"
#include "../targets/target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct probe_args {
	const char *model, *output;
	uint64_t region;
	int write, force_format;
};

#define A(f) offsetof(struct probe_args, f)
static const struct cli_opt probe_args[] = {
	{ "write", 0, 0, NULL, "also write (destroys what the region holds): the unit and the "
	  "open units need writes", CLI_FLAG, A(write) },
	{ "region", 1, 0, "SIZE", "the bytes from the device's start the probe may use (default "
	  "the least it needs, 608M)", CLI_SIZE, A(region), 64 << 20, 0 },
	{ "force-format", 0, 0, NULL, "write to a device that holds a filesystem or partition table",
	  CLI_FLAG, A(force_format) },
	{ "model", 1, 0, "NAME|FILE", "probe a modelled medium instead of a device (the round trip)",
	  CLI_STRING, A(model) },
	{ "output", 1, 'o', "FILE", "write what was found as a medium file (a new file)",
	  CLI_STRING, A(output) },
	{ NULL, 0, 0, NULL, NULL },
};

/* ---- a device, timed ---- */

struct dev_io {
	int fd;
	void *buf;
};

static uint64_t ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* One request, timed around its system call alone. */
static uint64_t dev_io(struct dev_io *d, int write, uint64_t off, uint32_t len)
{
	uint64_t t0 = ns_now();

	errno = 0;
	ssize_t n = write ? pwrite(d->fd, d->buf, len, (off_t)off) : pread(d->fd, d->buf, len, (off_t)off);
	if (n != (ssize_t)len)
		return 0;
	uint64_t t = ns_now() - t0;
	return t ? t : 1;
}

static uint64_t dev_read(void *arg, uint64_t off, uint32_t len)
{
	return dev_io(arg, 0, off, len);
}

static uint64_t dev_write(void *arg, uint64_t off, uint32_t len)
{
	return dev_io(arg, 1, off, len);
}

/* A medium file of what was found: sizes measured, costs from the rates
 * measured in order (over a bus taken as fast), the rest the defaults. */
static int write_medium(const char *path, const char *what, const struct probe_result *r)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno("--output %s", path);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return error_errno("--output %s", path);
	}
	double page = r->page ? r->page : 16384;
	fprintf(f, "# fsbench probe-flash of %s\n# page, unit and open units measured; read and program "
		"from the rates in order; copy and erase not measured (the defaults)\n[medium]\n", what);
	fprintf(f, "page = %uk\n", (unsigned)(page / 1024));
	if (r->unit)
		fprintf(f, "unit = %uk\n", r->unit / 1024);
	if (r->open_units && r->open_units <= PROBE_MAX_OPEN)
		fprintf(f, "open_units = %u\n", r->open_units);
	fprintf(f, "bus_mbps = 1000\n");
	if (r->read_mbps > 0)
		fprintf(f, "read = %.0fus\n", page / (r->read_mbps * 1e6) * 1e6);
	if (r->write_mbps > 0)
		fprintf(f, "program = %.0fus\n", page / (r->write_mbps * 1e6) * 1e6);
	fprintf(f, "source = fsbench probe-flash of %.150s\n", what);
	if (fclose(f))
		return error_errno("--output %s", path);
	return 0;
}

static void say(const struct probe_result *r, int wrote)
{
	printf("page: %s", r->page ? "" : "not found (no read costs more across any boundary)\n");
	if (r->page)
		printf("%u KiB (a read across it costs %.0f us more)\n", r->page / 1024, r->page_penalty / 1e3);
	printf("read in order: %.1f MB/s\n", r->read_mbps);
	if (!wrote) {
		printf("unit, open units: not measured (they need writes: --write)\n");
		return;
	}
	printf("written in order: %.1f MB/s\n", r->write_mbps);
	if (r->open_units > PROBE_MAX_OPEN)
		printf("open units: no limit up to %u (page-mapped writes?)\n", PROBE_MAX_OPEN);
	else
		printf("open units: %u\n", r->open_units);
	if (r->unit)
		printf("allocation unit: %u KiB\n", r->unit / 1024);
	else
		printf("allocation unit: not found up to %u MiB\n", PROBE_MAX_UNIT >> 20);
}

static int probe_model(const struct probe_args *o)
{
	struct model_spec m;
	struct flash_params p;
	struct probe_result r;

	if (model_lookup(o->model, &m) || model_params(&m, &p))
		return cli_fail(EXIT_USAGE, "probe-flash: %s", error_get());
	if (p.capacity < probe_span() + (64u << 20))
		return cli_fail(EXIT_USAGE, "probe-flash: the model holds less than the probe needs (%llu MiB)",
				(unsigned long long)((probe_span() + (64u << 20)) >> 20));
	struct flash *f = flash_new(&p);
	if (!f)
		return cli_fail(EXIT_FAIL, "probe-flash: out of memory");
	struct probe_io io = probe_io_model(f);
	int rc = probe_flash(&io, 64u << 20, probe_span(), 1, &r);
	flash_free(f);
	if (rc)
		return cli_fail(EXIT_FAIL, "probe-flash: %s", error_get());
	printf("probe-flash of the modelled medium %s (its own time):\n", m.name);
	say(&r, 1);
	printf("the model's own: page %llu KiB, unit %llu KiB, %lld open units: %s\n",
	       (unsigned long long)(m.page >> 10), (unsigned long long)(m.unit >> 10),
	       (long long)m.open_units,
	       r.page == p.page && r.unit == p.unit && r.open_units == p.open_units ? "found" : "NOT found");
	char what[128];
	snprintf(what, sizeof(what), "the modelled medium %s", m.name);
	if (o->output && write_medium(o->output, what, &r))
		return cli_fail(EXIT_FAIL, "probe-flash: %s", error_get());
	return EXIT_OK;
}

static int cmd_probe(const struct cli_args *a)
{
	const struct probe_args *o = a->opts;
	char found[512], identity[1024];
	uint64_t bytes = 0, region = o->region ? o->region : (64u << 20) + probe_span();
	struct stat st;

	if (o->model) {
		if (cli_npos(a) || o->write || o->force_format || o->region)
			return cli_fail(EXIT_USAGE, "probe-flash --model takes no device, --write, "
					"--region or --force-format (the model is written in memory)");
		return probe_model(o);
	}
	if (cli_npos(a) != 1)
		return cli_fail(EXIT_USAGE, "probe-flash: give one device (or --model NAME)");
	const char *dev = cli_pos(a, 0);
	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return cli_fail(EXIT_USAGE, "probe-flash: %s is not a block device", dev);
	if (o->force_format && !o->write)
		return cli_fail(EXIT_USAGE, "probe-flash: --force-format goes with --write");
	/* writing: the checks of run --device first */
	if (o->write && device_check(dev, o->force_format, found, sizeof(found)))
		return cli_fail(EXIT_USAGE, "probe-flash: %s", error_get());
	struct dev_io d = { -1, NULL };
	d.fd = open(dev, (o->write ? O_RDWR : O_RDONLY) | O_DIRECT | O_EXCL | O_CLOEXEC);
	if (d.fd < 0)
		return cli_fail(EXIT_FAIL, "probe-flash: %s: %s (mounted, or held by another program?)",
				dev, strerror(errno));
	int rc = EXIT_FAIL;
	if (ioctl(d.fd, BLKGETSIZE64, &bytes)) {
		cli_fail(EXIT_FAIL, "probe-flash: %s: its size: %s", dev, strerror(errno));
		goto out;
	}
	if (region > bytes || region < (64u << 20) + (o->write ? probe_span() : 32u << 20)) {
		char have[32], want[32];
		format_size(bytes, have, sizeof(have));
		format_size(region, want, sizeof(want));
		rc = cli_fail(EXIT_USAGE, "probe-flash: a region of %s on %s (%s): give --region between "
			      "%lluM and the device's size", want, dev, have,
			      (unsigned long long)(((64u << 20) + probe_span()) >> 20));
		goto out;
	}
	if (posix_memalign(&d.buf, 4096, 1u << 20)) {
		cli_fail(EXIT_FAIL, "probe-flash: out of memory");
		goto out;
	}
	/* what is written is not what compresses or dedupes away */
	for (size_t i = 0; i < (1u << 20) / sizeof(uint32_t); i++)
		((uint32_t *)d.buf)[i] = (uint32_t)(i * 2654435761u) ^ 0x5bd1e995u;
	medium_identify(dev, identity, sizeof(identity));
	/* past the first 64 MiB (where a key maps its FAT area by page),
	 * inside the region */
	struct probe_io io = { dev_read, dev_write, &d };
	struct probe_result r;
	if (probe_flash(&io, 64u << 20, region - (64u << 20), o->write, &r)) {
		cli_fail(EXIT_FAIL, "probe-flash: %s: %s", dev, error_get());
		goto out;
	}
	printf("probe-flash of %s\n", identity);
	say(&r, o->write);
	if (o->output && write_medium(o->output, identity, &r)) {
		cli_fail(EXIT_FAIL, "probe-flash: %s", error_get());
		goto out;
	}
	rc = EXIT_OK;
out:
	free(d.buf);
	close(d.fd);
	return rc;
}

const struct cmd_entry cmd_probe_entry = {
	.name = "probe-flash",
	.usage = "DEV [--write] | --model NAME|FILE",
	.summary = "measure a flash medium's page, allocation unit and open units, as flashbench does",
	.about = "Reads only, unless --write: then after the checks of run --device it writes the\n"
		 "region from the device's start (--region), destroying what it holds.  --output\n"
		 "writes a medium file for run --medium.  --model probes a modelled medium by its\n"
		 "own time: what it finds is what the model was given.\n",
	.args = probe_args,
	.opts_size = sizeof(struct probe_args),
	.exec = cmd_probe,
};
