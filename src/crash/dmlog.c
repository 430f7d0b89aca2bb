/*
 * dmlog.c: dm-log-writes devices through libdevmapper (dmlog.h).
 *
 * fsbench runs where udev may not (its guest has none), so the library is
 * told not to wait for udev and makes the /dev/mapper node itself.  Its
 * own messages go through a logger that keeps the last one, so that a
 * failure is reported once, by fsbench, with the library's reason.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "dmlog.h"
#include "../core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <libdevmapper.h>

static char dm_last[256];

static void dm_logger(int level, const char *file, int line, int dm_errno, const char *f, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno;
	if (level > 3)	/* errors and warnings only (_LOG_ERR 3, _LOG_WARN 4 is chatty) */
		return;
	va_start(ap, f);
	vsnprintf(dm_last, sizeof(dm_last), f, ap);
	va_end(ap);
}

static void dm_quiet(void)
{
	static int done;

	if (done)
		return;
	dm_log_with_errno_init(dm_logger);
	dm_udev_set_sync_support(0);
	dm_udev_set_checking(0);
	done = 1;
}

static int dm_fail(const char *what)
{
	return error_set("device-mapper: %s failed%s%s", what, dm_last[0] ? ": " : "", dm_last);
}

int dmlog_available(char *why, size_t len)
{
	struct dm_task *t;
	struct dm_versions *v, *last;
	int found = 0;

	dm_quiet();
	dm_last[0] = '\0';
	if (access("/dev/mapper/control", F_OK)) {
		snprintf(why, len, "the kernel has no device-mapper (no /dev/mapper/control)");
		return -1;
	}
	t = dm_task_create(DM_DEVICE_LIST_VERSIONS);
	if (!t || !dm_task_run(t)) {
		snprintf(why, len, "device-mapper does not answer%s%s", dm_last[0] ? ": " : "",
			 dm_last);
		if (t)
			dm_task_destroy(t);
		return -1;
	}
	v = dm_task_get_versions(t);
	do {
		last = v;
		found |= !strcmp(v->name, "log-writes");
		v = (struct dm_versions *)((char *)v + v->next);
	} while (last != v && !found);
	dm_task_destroy(t);
	if (!found)
		snprintf(why, len, "device-mapper has no log-writes target (module dm-log-writes)");
	return found ? 0 : -1;
}

static int dev_sectors(const char *dev, uint64_t *sectors)
{
	uint64_t bytes;
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return error_errno("%s", dev);
	if (ioctl(fd, BLKGETSIZE64, &bytes)) {
		close(fd);
		return error_errno("%s: not a block device", dev);
	}
	close(fd);
	*sectors = bytes >> 9;
	return *sectors ? 0 : error_set("%s: an empty device", dev);
}

void dmlog_name(struct dmlog *d)
{
	static unsigned seq;
	char boot[40] = "";
	FILE *f;

	memset(d, 0, sizeof(*d));
	/* the boot's id in the uuid: a name reused after a reboot is not ours */
	f = fopen("/proc/sys/kernel/random/boot_id", "re");
	if (f) {
		if (!fgets(boot, sizeof(boot), f))
			boot[0] = '\0';
		boot[strcspn(boot, "\n")] = '\0';
		fclose(f);
	}
	snprintf(d->name, sizeof(d->name), "fsbench-log-%ld-%u", (long)getpid(), seq);
	snprintf(d->uuid, sizeof(d->uuid), "FSBENCH-LOG-%ld-%u-%.36s", (long)getpid(), seq++, boot);
	snprintf(d->dev, sizeof(d->dev), "/dev/mapper/%s", d->name);
}

int dmlog_create(struct dmlog *d, const char *data, const char *log)
{
	char params[600];
	struct dm_task *t;
	int ok;

	dm_quiet();
	dm_last[0] = '\0';
	d->made = 0;
	if (!d->name[0])
		return error_set("device-mapper: the device was not named (dmlog_name)");
	if (dev_sectors(data, &d->sectors))
		return -1;
	if ((size_t)snprintf(params, sizeof(params), "%s %s", data, log) >= sizeof(params))
		return error_set("device-mapper: device paths too long");
	t = dm_task_create(DM_DEVICE_CREATE);
	ok = t && dm_task_set_name(t, d->name) && dm_task_set_uuid(t, d->uuid) &&
	     dm_task_add_target(t, 0, d->sectors, "log-writes", params) && dm_task_run(t);
	if (t)
		dm_task_destroy(t);
	dm_task_update_nodes();
	if (!ok)
		return dm_fail("creating the log-writes device");
	d->made = 1;
	return 0;
}

int dmlog_mark(const struct dmlog *d, const char *text)
{
	char msg[220];
	struct dm_task *t;
	int ok;

	if (!d->made)
		return error_set("device-mapper: no log device to mark");
	if ((size_t)snprintf(msg, sizeof(msg), "mark %s", text) >= sizeof(msg))
		return error_set("device-mapper: mark \"%.32s...\" too long", text);
	dm_last[0] = '\0';
	t = dm_task_create(DM_DEVICE_TARGET_MSG);
	ok = t && dm_task_set_name(t, d->name) && dm_task_set_sector(t, 0) &&
	     dm_task_set_message(t, msg) && dm_task_run(t);
	if (t)
		dm_task_destroy(t);
	return ok ? 0 : dm_fail("marking the log");
}

/* The uuid the device named name has now, or "" when there is none. */
static void current_uuid(const char *name, char *out, size_t len)
{
	struct dm_task *t = dm_task_create(DM_DEVICE_INFO);
	struct dm_info info;

	out[0] = '\0';
	if (t && dm_task_set_name(t, name) && dm_task_run(t) && dm_task_get_info(t, &info) &&
	    info.exists && dm_task_get_uuid(t))
		snprintf(out, len, "%s", dm_task_get_uuid(t));
	if (t)
		dm_task_destroy(t);
}

int dmlog_remove_named(const char *name, const char *uuid, char *why, size_t len)
{
	char now[128];
	struct dm_task *t;
	int ok;

	dm_quiet();
	dm_last[0] = '\0';
	if (access("/dev/mapper/control", F_OK))
		return 1;	/* no device-mapper: nothing of ours can be there */
	current_uuid(name, now, sizeof(now));
	if (!now[0])
		return 1;
	if (strcmp(now, uuid)) {
		snprintf(why, len, "%s now has uuid %s, not fsbench's %s", name, now, uuid);
		return 2;
	}
	t = dm_task_create(DM_DEVICE_REMOVE);
	/* retry: a just-unmounted filesystem's last reference may linger */
	ok = t && dm_task_set_name(t, name) && dm_task_retry_remove(t) && dm_task_run(t);
	if (t)
		dm_task_destroy(t);
	dm_task_update_nodes();
	if (!ok) {
		snprintf(why, len, "removing %s failed%s%s", name, dm_last[0] ? ": " : "", dm_last);
		return -1;
	}
	return 0;
}

int dmlog_remove(struct dmlog *d)
{
	char why[300];
	int r;

	if (!d->made)
		return 0;
	r = dmlog_remove_named(d->name, d->uuid, why, sizeof(why));
	d->made = 0;
	if (r == 1)
		return error_set("device-mapper: %s is gone already", d->name);
	if (r)
		return error_set("device-mapper: %s%s", why, r == 2 ? ": left alone" : "");
	return 0;
}
