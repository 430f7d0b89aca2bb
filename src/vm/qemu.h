/*
 * qemu.h: starting and supervising one QEMU guest.
 *
 * fsbench execs qemu-system-x86_64 (argv, no shell) with the pinned
 * kernel, the initramfs, the host's root shared read-only over 9p, one
 * writable exchange directory, and one virtio disk per image (host page
 * cache bypassed when the image directory allows O_DIRECT).  The serial
 * console comes back through a pipe: lines after the guest's init marker
 * go to a callback, the last lines are kept for error messages.  The
 * process is recorded in the state file while it runs, dies with fsbench
 * (PR_SET_PDEATHSIG), and is killed at its deadline.
 *
 * Accelerator: KVM only when it proves to work.  `auto` boots with KVM
 * when /dev/kvm opens and falls back to TCG when the guest has not reached
 * init within a few seconds (on some hosts KVM creates a VM whose guest
 * then hangs in early boot).  A TCG guest that has not reached init after
 * 300 s has stalled, and is booted once more.
 */
#ifndef FSB_VM_QEMU_H
#define FSB_VM_QEMU_H

#include <stdint.h>

#include "kernel.h"

enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };

#define VM_MAX_DISKS 24

struct vm_config {
	const struct vm_kernel *kernel;
	const char *initrd;
	const char *xchg;		/* the writable exchange directory */
	const char *disks[VM_MAX_DISKS];
	int ndisks;
	/* the user's device (a block device path), its first medium_size
	 * bytes as one more disk, virtio or USB, throttled when asked;
	 * NULL: none */
	const char *medium;
	/* a modelled medium instead: the UNIX socket its NBD server listens
	 * on (media/server.h), always a USB key; NULL: none */
	const char *medium_nbd;
	uint64_t medium_size, medium_bps_read, medium_bps_write;
	int medium_usb;
	int direct;			/* 1: cache=none (O_DIRECT on the host) */
	uint64_t mem;			/* bytes */
	int cpus;
	enum vm_accel accel;
	double deadline;		/* seconds from boot, 0 = none */
	int quiet;			/* say nothing on stderr (the KVM fallback) */
	/* Each console line after init started (without the newline). */
	void (*line)(void *arg, const char *line);
	/* About once a second while the guest runs (NULL: none): the host
	 * looks at what the guest has handed over so far. */
	void (*tick)(void *arg);
	void *arg;
};

struct vm_outcome {
	char accel[8];			/* "kvm" or "tcg": what ran */
	char accel_note[256];		/* why, when auto fell back */
	int reached_init;
	int timed_out, interrupted;
	int qemu_status;		/* waitpid status */
	double boot_seconds;		/* start to init's first line */
	double seconds;			/* start to power-off */
	char tail[4096];		/* the console's last lines */
};

/* QEMU's version line ("QEMU 7.2.22"), or an error. */
int vm_qemu_version(char *out, int len);
/* Boot, run until the guest powers off (or the deadline, or a stop
 * request), and report.  0 when QEMU ran and ended by itself; -1 (error
 * set) when it could not start, was killed or failed. */
int vm_boot(const struct vm_config *c, struct vm_outcome *o);
/* Parse --vm-accel. */
int vm_accel_parse(const char *s, enum vm_accel *out);

#endif
