/*
 * dmlog.h: a dm-log-writes device, made and undone through libdevmapper.
 *
 * The powercut workload puts the filesystem under test on one: every
 * write, flush and FUA the filesystem sends to the data device is also
 * written, in the order it reached the media, to the log device
 * (logwrites.h reads it back).  dmlog_mark puts a text into the log at
 * this moment (the workload's acknowledgements); dmlog_remove ends the
 * log (the kernel writes its end mark and the final count then).
 *
 * Every device is named "fsbench-log-PID-N" and carries the uuid
 * "FSBENCH-LOG-PID-N-<boot>", so that what is removed is only what this
 * fsbench made: dmlog_remove checks the uuid before it removes a device.
 */
#ifndef FSB_DMLOG_H
#define FSB_DMLOG_H

#include <stddef.h>
#include <stdint.h>

struct dmlog {
	char name[64];
	char uuid[96];
	char dev[96];		/* /dev/mapper/NAME */
	uint64_t sectors;	/* of the data device, in 512-byte sectors */
	int made;
};

/* Whether the kernel has device-mapper and its log-writes target (the
 * module loaded); 0, or -1 with why filled in. */
int dmlog_available(char *why, size_t len);
/* Choose d's name and uuid, so that the caller can record them (the
 * state file) before the device exists. */
void dmlog_name(struct dmlog *d);
/* Make the named d over the two block devices: data's whole size is
 * mapped, log must hold every write the workload will make.  0, or -1
 * with the error set (d->made then 0: nothing to undo). */
int dmlog_create(struct dmlog *d, const char *data, const char *log);
/* Put text into the log ("mark TEXT"); at most 200 bytes. */
int dmlog_mark(const struct dmlog *d, const char *text);
/* Remove d, once its uuid is still ours; the log is complete after. */
int dmlog_remove(struct dmlog *d);
/* The same by name, for cleanup after a crash (the state file's record):
 * 0 removed, 1 gone already, 2 left alone (another uuid: not ours), -1
 * failed; why says what for 2 and -1. */
int dmlog_remove_named(const char *name, const char *uuid, char *why, size_t len);

#endif
