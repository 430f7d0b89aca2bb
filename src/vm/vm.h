/*
 * vm.h: running a whole `fsbench run` inside a QEMU guest (--vm).
 *
 * The host makes one image per filesystem target (virtio disks) and, for
 * flash targets, asks the guest to load nandsim; it boots the pinned
 * kernel with the host's root shared read-only, so the guest runs this
 * same fsbench binary with the same tools.  The guest runs the run as the
 * host would (repetitions alternating between targets, caches dropped in
 * the guest), writes it as an export document into the exchange directory
 * and powers off; the host imports that document into its own store, so
 * show, report, compare and the HTML page treat it like any run.
 *
 * Host side: vm_execute.  Guest side (FSBENCH_VM_GUEST set by the guest's
 * init): vm_guest_setup before the runner, vm_guest_finish after it.
 */
#ifndef FSB_VM_H
#define FSB_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qemu.h"
#include "../targets/profiles.h"
#include "../targets/target.h"
#include "../media/model.h"

struct vm_opts {
	const char *kernel;	/* --kernel: NULL, a version or a vmlinuz path */
	uint64_t mem;		/* --vm-mem (default 2 GiB) */
	int cpus;		/* --vm-cpus (default 2) */
	enum vm_accel accel;	/* --vm-accel (default auto) */
	double timeout;		/* --vm-timeout seconds; 0: scaled to the work */
	/* --vm-device-bus usb: the user's --device reaches the guest as a USB
	 * mass-storage device (xHCI, usb-storage) rather than a virtio disk;
	 * --vm-device-throttle: QEMU throttles it to these bytes/s (0: not),
	 * a model of a slow key that the report says is one */
	int device_usb;
	uint64_t device_bps_read, device_bps_write;
};
void vm_opts_defaults(struct vm_opts *o);

/* Can profile p run in a guest booted with kernel k?  0, or -1 and why. */
/* The kernel modules filesystem p needs (the guest loads them; the host
 * checks its kernel has them): their names in out, how many (0-2). */
int vm_profile_modules(const struct fs_profile *p, const char *out[2]);
int vm_profile_available(const struct fs_profile *p, const struct vm_kernel *k, char *why,
			 size_t len);

/* Where the guest sees the exchange directory, the one share it writes,
 * and in it the run's findings directory (run_request.findings). */
#define VM_GUEST_XCHG "/run/fsbench-vm"
#define VM_GUEST_FINDINGS VM_GUEST_XCHG "/findings"

struct vm_request {
	struct vm_opts opts;
	struct target *targets;		/* --fs targets (specs and image sizes) */
	int ntargets;
	char **argv;			/* the guest's `fsbench run ...` words */
	int argc;
	const char *image_dir;
	double work_seconds;		/* estimated host time of the work, 0 unknown */
	uint64_t flash_need;		/* the most space a test needs on one target */
	int device_mapper;		/* a test needs dm-log-writes (WL_DEVICE_MAPPER) */
	int quiet;
	/* Where the guest's findings (VM_GUEST_FINDINGS) are copied when it
	 * ends; NULL: left with the scratch. */
	const char *findings;
	/* Each line the guest's fsbench prints. */
	void (*line)(void *arg, const char *line);
	/* The guest's run so far, each time it hands over a newer one (as each
	 * repetition starts), for the host to keep as it goes; NULL: none. */
	void (*progress)(void *arg, const char *json, size_t len);
	void *arg;
	/* A run to continue (--resume): its export document, handed to the
	 * guest, which imports it and runs into it; NULL: a new run. */
	const char *resume;
	/* --device: the user's device, held by the caller, handed over as
	 * one more disk, its first medium_size bytes only (raw, the host's
	 * cache bypassed, discards passed on); medium_identity: what it is,
	 * in the host's words (the guest sees only QEMU's disk).  NULL: none. */
	const char *medium, *medium_identity;
	uint64_t medium_size;
	/* --medium: a modelled flash medium instead, served (media/server.h)
	 * from the run's scratch directory as the guest's USB key, its
	 * counters in the exchange directory for the guest to read; NULL:
	 * none */
	const struct model_spec *model;
};

struct vm_result {
	char *json;			/* the guest's run (export document), malloc'd */
	size_t len;
	/* a guest that did not finish: its run as it stood at its last test's
	 * end (progress.json), malloc'd, or NULL */
	char *partial;
	size_t partial_len;
	int guest_exit;			/* the guest fsbench's exit code */
	char accel[8];
	double boot_seconds, seconds;
};

/* Whether the guest's disks for targets fit in image_dir: the guest
 * writes their every byte, and a full host filesystem stalled it until
 * --vm-timeout, which the error then blamed (issue 69).  0, or -1 with
 * the error set. */
int vm_disks_fit(const struct target *targets, int ntargets, const char *image_dir);

/* Boot, run, collect.  0 with result->json set; -1 with the error set
 * (saying what happened and the console's last lines). */
int vm_execute(const struct vm_request *rq, struct vm_result *result);

/* nand_* options of a flash spec ("size=512M,erase_delay=2") as nandsim's
 * module parameters for a chip split into nparts partitions; def_size
 * when no size is given.  0, or -1 with the error set. */
int vm_nand_params(const char *spec, int nparts, uint64_t def_size, char *out, size_t len);
/* A line of the guest's console that is not its fsbench's: the guest
 * init's own ("fsbench-vm: ...") and the kernel's ("[    3.98] ..."),
 * which stay in the console record rather than on the user's terminal. */
bool vm_console_noise(const char *line);
/* A guest's line as it may go to a host output that is no terminal: its
 * colour sequences (ESC [ ... m) taken out, in place.  The guest's console
 * is a terminal, so its fsbench colours what it prints. */
void vm_strip_colour(char *line);

/* ---- inside the guest ---- */

/* Non-NULL when this process runs inside fsbench's guest. */
const char *vm_guest_job(void);
/* Load the modules the targets need, give each target its device (virtio
 * disk or NAND partition); *vm_text describes the machine for the system
 * table.  0 or -1 with the error set. */
int vm_guest_setup(struct target *targets, int ntargets, char *vm_text, size_t len);
/* In the guest: the disk the host made of the user's --device (into dev)
 * and what that device is (into identity, the host's words and how it was
 * handed over), a model's counters file and volatile buffer (bytes): 1;
 * 0 when the host handed none; -1 with the error set. */
int vm_guest_medium(char *dev, size_t len, char *identity, size_t ilen, char *counters,
		    size_t clen, uint64_t *buffer);
/* Write the run (an export document) into the exchange directory. */
int vm_guest_finish(const char *json_text);
/* In the guest, as each test ends: the run so far, for the host to keep if
 * the guest never finishes (replaced whole each time, by a rename). */
int vm_guest_progress(const char *json_text);
/* In the guest: the run the host asked to continue (*text, an export
 * document, malloc'd), or *text NULL when it asked for a new run.  0, or
 * -1 with the error set. */
int vm_guest_resume(char **text, size_t *len);

#endif
