/*
 * nbdkit-flash.c: the modelled flash medium served over NBD, an nbdkit
 * plugin (issue 71; docs/medium.md).  nbdkit speaks the protocol; this
 * stores the data in an image file fsbench made and asks the model
 * (flash.c) what each request costs, then completes it at that time: the
 * medium is one queue, so requests are served one at a time, each
 * starting when the one before ended (or when it arrived, if later).
 * The counters go to a file fsbench reads (counters.h), updated in place
 * with no system call per request.
 *
 *   nbdkit -U SOCK fsbench-flash.so file=IMAGE counters=FILE capacity=N
 *          page=N unit=N open_units=N mapped_units=N cmd_ns=N read_ns=N
 *          program_ns=N copy_ns=N erase_ns=N bus_bps=N [buffer=N] [timed=0]
 *
 * timed=0 answers at once (the model still counts): for tests of the data
 * path alone.  trace=FILE records every request (a study's, off by
 * default).
 */
#define _GNU_SOURCE
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include "../counters.h"
#include "../flash.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define THREAD_MODEL NBDKIT_THREAD_MODEL_SERIALIZE_ALL_REQUESTS

static struct flash_params params;
static char *file, *counters_path, *trace_path;
/* trace=FILE: every request as it reached the medium (op, offset, length,
 * three little-endian u64), buffered, for a study of what a filesystem
 * sends; off by default */
static int tfd = -1;
static uint64_t tbuf[3 * 4096];
static size_t tn;
static int timed = 1;
static int fd = -1, cfd = -1;
static struct flash *model;
static struct flash_counters *counters;
static uint64_t free_at;	/* when the medium is next idle, CLOCK_MONOTONIC ns */

static int config(const char *key, const char *value)
{
	static const struct {
		const char *key;
		size_t off;
		int u32;
	} nums[] = {
		{ "capacity", offsetof(struct flash_params, capacity), 0 },
		{ "page", offsetof(struct flash_params, page), 1 },
		{ "unit", offsetof(struct flash_params, unit), 1 },
		{ "open_units", offsetof(struct flash_params, open_units), 1 },
		{ "mapped_units", offsetof(struct flash_params, mapped_units), 1 },
		{ "cmd_ns", offsetof(struct flash_params, cmd_ns), 0 },
		{ "read_ns", offsetof(struct flash_params, read_ns), 0 },
		{ "program_ns", offsetof(struct flash_params, program_ns), 0 },
		{ "copy_ns", offsetof(struct flash_params, copy_ns), 0 },
		{ "erase_ns", offsetof(struct flash_params, erase_ns), 0 },
		{ "bus_bps", offsetof(struct flash_params, bus_bps), 0 },
		{ "buffer", offsetof(struct flash_params, buffer), 0 },
	};

	if (!strcmp(key, "file")) {
		free(file);
		return (file = strdup(value)) ? 0 : -1;
	}
	if (!strcmp(key, "counters")) {
		free(counters_path);
		return (counters_path = strdup(value)) ? 0 : -1;
	}
	if (!strcmp(key, "trace")) {
		free(trace_path);
		return (trace_path = strdup(value)) ? 0 : -1;
	}
	if (!strcmp(key, "timed")) {
		timed = strcmp(value, "0") != 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (strcmp(key, nums[i].key))
			continue;
		if (nums[i].u32) {
			uint32_t v;
			if (nbdkit_parse_uint32_t(key, value, &v))
				return -1;
			memcpy((char *)&params + nums[i].off, &v, sizeof(v));
		} else {
			uint64_t v;
			if (nbdkit_parse_uint64_t(key, value, &v))
				return -1;
			memcpy((char *)&params + nums[i].off, &v, sizeof(v));
		}
		return 0;
	}
	nbdkit_error("unknown parameter '%s'", key);
	return -1;
}

static int config_complete(void)
{
	char why[128];
	struct stat st;

	if (!file || !counters_path) {
		nbdkit_error("file= and counters= are needed");
		return -1;
	}
	if (flash_params_check(&params, why, sizeof(why))) {
		nbdkit_error("%s", why);
		return -1;
	}
	/* the image fsbench made, never a link to something else */
	fd = open(file, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < params.capacity) {
		nbdkit_error("%s: not a regular file of %llu bytes", file,
			     (unsigned long long)params.capacity);
		return -1;
	}
	/* the counters file is new: made here, in fsbench's directory */
	cfd = open(counters_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (cfd < 0 || ftruncate(cfd, sizeof(struct flash_counters))) {
		nbdkit_error("%s: %s", counters_path, strerror(errno));
		return -1;
	}
	counters = mmap(NULL, sizeof(*counters), PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
	if (counters == MAP_FAILED) {
		counters = NULL;
		nbdkit_error("mmap %s: %s", counters_path, strerror(errno));
		return -1;
	}
	memcpy(counters->magic, FLASH_COUNTERS_MAGIC, 8);
	counters->page = params.page;
	if (trace_path &&
	    (tfd = open(trace_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0) {
		nbdkit_error("%s: %s", trace_path, strerror(errno));
		return -1;
	}
	if (!(model = flash_new(&params))) {
		nbdkit_error("out of memory for the model");
		return -1;
	}
	return 0;
}

static void trace_flush(void)
{
	if (tfd >= 0 && tn && write(tfd, tbuf, tn * sizeof(tbuf[0])) < 0)
		nbdkit_debug("trace: %s", strerror(errno));
	tn = 0;
}

static void trace(uint64_t op, uint64_t off, uint64_t len)
{
	if (tfd < 0)
		return;
	tbuf[tn++] = op;
	tbuf[tn++] = off;
	tbuf[tn++] = len;
	if (tn == sizeof(tbuf) / sizeof(tbuf[0]))
		trace_flush();
}

static void unload(void)
{
	trace_flush();
	if (tfd >= 0)
		close(tfd);
	free(trace_path);
	if (counters)
		munmap(counters, sizeof(*counters));
	if (cfd >= 0)
		close(cfd);
	if (fd >= 0)
		close(fd);
	flash_free(model);
	free(file);
	free(counters_path);
}

static void *flash_open(int readonly)
{
	(void)readonly;
	return model;
}

static int64_t get_size(void *h)
{
	(void)h;
	return (int64_t)params.capacity;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The time the medium sat idle since the last request ended (and since
 * the last such call), handed to the model: its buffer drains then.
 * Called as a request arrives, before the model costs it. */
static void idle(void)
{
	static uint64_t idled_to;
	uint64_t now = now_ns(), from = free_at > idled_to ? free_at : idled_to;

	if (now > from)
		flash_idle(model, now - from);
	idled_to = now > from ? now : from;
}

/* The request's device time: it starts when the medium is idle, ends
 * cost later; the counters published. */
static uint64_t begin(uint64_t cost)
{
	uint64_t start = now_ns();

	if (start < free_at)
		start = free_at;
	free_at = start + cost;
	__atomic_store_n(&counters->seq, counters->seq + 1, __ATOMIC_RELEASE);
	counters->st = *flash_stats(model);
	__atomic_store_n(&counters->seq, counters->seq + 1, __ATOMIC_RELEASE);
	return free_at;
}

/* Until the medium would have finished it. */
static void finish(uint64_t at)
{
	struct timespec ts = { (time_t)(at / 1000000000ULL), (long)(at % 1000000000ULL) };

	if (!timed)
		return;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int whole(ssize_t (*io)(int, void *, size_t, off_t), void *buf, uint32_t count, uint64_t off)
{
	char *p = buf;

	while (count) {
		ssize_t n = io(fd, p, count, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			nbdkit_error("%s", n < 0 ? strerror(errno) : "short I/O on the image");
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		count -= (uint32_t)n;
	}
	return 0;
}

static ssize_t pwrite_cast(int f, void *buf, size_t n, off_t off)
{
	return pwrite(f, buf, n, off);
}

static int flash_pread(void *h, void *buf, uint32_t count, uint64_t offset, uint32_t flags)
{
	(void)h;
	(void)flags;
	trace(0, offset, count);
	idle();
	uint64_t at = begin(flash_read(model, offset, count));
	int rc = whole(pread, buf, count, offset);
	finish(at);
	return rc;
}

static int flash_pwrite(void *h, const void *buf, uint32_t count, uint64_t offset, uint32_t flags)
{
	(void)h;
	(void)flags;	/* FUA: nothing volatile to write back */
	trace(1, offset, count);
	idle();
	uint64_t at = begin(flash_write(model, offset, count));
	int rc = whole(pwrite_cast, (void *)buf, count, offset);
	finish(at);
	return rc;
}

static int flash_trim_cb(void *h, uint32_t count, uint64_t offset, uint32_t flags)
{
	(void)h;
	(void)flags;
	trace(2, offset, count);
	idle();
	uint64_t at = begin(flash_trim(model, offset, count));
	/* what was trimmed reads as zeros, as most keys return it */
	int rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, count);
	finish(at);
	if (rc)
		nbdkit_error("trim: %s", strerror(errno));
	return rc ? -1 : 0;
}

static int flash_flush_cb(void *h, uint32_t flags)
{
	(void)h;
	(void)flags;
	idle();
	finish(begin(flash_flush(model)));
	return 0;
}

static int yes(void *h)
{
	(void)h;
	return 1;
}

static int no(void *h)
{
	(void)h;
	return 0;
}

static int fua_native(void *h)
{
	(void)h;
	return NBDKIT_FUA_NATIVE;
}

static struct nbdkit_plugin plugin = {
	.name = "fsbench-flash",
	.longname = "fsbench's modelled flash medium",
	.version = "1",
	.description = "a cheap flash medium's translation layer, timed",
	.config = config,
	.config_complete = config_complete,
	.unload = unload,
	.open = flash_open,
	.get_size = get_size,
	.pread = flash_pread,
	.pwrite = flash_pwrite,
	.trim = flash_trim_cb,
	.flush = flash_flush_cb,
	.can_write = yes,
	.can_flush = yes,
	.can_trim = yes,
	.can_fua = fua_native,
	.is_rotational = no,
	.can_multi_conn = no,
};

NBDKIT_REGISTER_PLUGIN(plugin)
