/* vm.c: a run inside a QEMU guest, its host side (see vm.h); guest.c is
 * the guest's. */
#define _GNU_SOURCE
#include "vm.h"
#include "initramfs.h"
#include "kernel.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/file.h"
#include "../core/param.h"
#include "../core/str.h"
#include "../media/server.h"
#include "../targets/state.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#define XCHG_GUEST VM_GUEST_XCHG

void vm_opts_defaults(struct vm_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mem = 2ULL << 30;
	o->cpus = 2;
	o->accel = VM_ACCEL_AUTO;
}

/* The modules a profile needs loaded before it mounts, in load order
 * (flash also needs nandsim, loaded with the chip's parameters).  Debian's
 * ext4 driver serves ext2 and ext3.  What a mount then asks for on demand
 * (a codepage, a checksum or compression driver) the guest's kernel loads
 * itself through vminit's module loader. */
int vm_profile_modules(const struct fs_profile *p, const char *out[2])
{
	switch (p->kind) {
	case MOUNT_KERNEL:
		out[0] = !strcmp(p->fstype, "ext2") || !strcmp(p->fstype, "ext3") ? "ext4" : p->fstype;
		return 1;
	case MOUNT_FUSE_BLOCK:
	case MOUNT_FUSE_IMAGE:
		out[0] = "fuse";
		return 1;
	case MOUNT_UBI:
		out[0] = "ubi", out[1] = "ubifs";
		return 2;
	case MOUNT_MTD:
		out[0] = "jffs2";
		return 1;
	default:
		return 0;
	}
}

static int is_flash(const struct fs_profile *p)
{
	return fs_kind_flash(p->kind);
}

int vm_profile_available(const struct fs_profile *p, const struct vm_kernel *k, char *why,
			 size_t len)
{
	const char *need[3];
	int n;

	if (p->kind == MOUNT_NONE) {
		snprintf(why, len, "%s", p->note);
		return -1;
	}
	if (fs_profile_tools(p, why, len))	/* the guest runs the host's tools */
		return -1;
	n = vm_profile_modules(p, need);
	if (is_flash(p))
		need[n++] = "nandsim";
	for (int i = 0; i < n; i++)
		if (!vm_kernel_has(k, need[i])) {
			snprintf(why, len, "kernel %s has no %s", k->version, need[i]);
			return -1;
		}
	return 0;
}

/* ---- host side ---- */

/* guest.argv: working directory, the binary, then the words. */
static int write_argv(const char *path, const struct vm_request *rq)
{
	char cwd[PATH_MAX], self[PATH_MAX];
	size_t cap = 2 * PATH_MAX, used = 0;
	char *buf;
	ssize_t n;
	int rc;

	if (!getcwd(cwd, sizeof(cwd)))
		return error_errno("getcwd");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return error_errno("readlink /proc/self/exe");
	self[n] = '\0';
	for (int i = 0; i < rq->argc; i++)
		cap += strlen(rq->argv[i]) + 1;
	if (cap > 60000)
		return error_set("the command line is too long for the guest");
	buf = malloc(cap);
	if (!buf)
		return error_set("out of memory");
	memcpy(buf, cwd, strlen(cwd) + 1);
	used = strlen(cwd) + 1;
	memcpy(buf + used, self, (size_t)n + 1);
	used += (size_t)n + 1;
	for (int i = 0; i < rq->argc; i++) {
		size_t l = strlen(rq->argv[i]) + 1;
		memcpy(buf + used, rq->argv[i], l);
		used += l;
	}
	rc = file_write_new(path, buf, used, 0644);
	free(buf);
	return rc;
}

static int make_image(const char *path, uint64_t size, int *direct)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd < 0)
		return error_errno("create %s", path);
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return error_errno("size %s", path);
	}
	close(fd);
	/* cache=none needs O_DIRECT where the images live (not on tmpfs). */
	fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		*direct = 0;
	else
		close(fd);
	return 0;
}

/* Why a guest stopped without a result, from its console. */
static void explain(const struct vm_outcome *o, const char *status, char *out, size_t len)
{
	if (o->timed_out)
		snprintf(out, len, "it did not finish in time and was killed (--vm-timeout sets the limit)");
	else if (strstr(o->tail, "Kernel panic"))
		snprintf(out, len, "the guest kernel panicked");
	else if (strstr(o->tail, "Out of memory") || strstr(o->tail, "oom-kill"))
		snprintf(out, len, "the guest ran out of memory (--vm-mem gives it more)");
	else if (!o->reached_init)
		snprintf(out, len, "the guest never reached its init");
	else if (status && !strncmp(status, "signal", 6))
		snprintf(out, len, "fsbench in the guest was killed (%.40s)", status);
	else
		snprintf(out, len, "the guest stopped without a result%s%.40s", status ? ": " : "",
			 status ? status : "");
}

/* The last `lines` lines of the console, indented, for an error. */
static void tail_lines(const char *tail, int lines, char *out, size_t len)
{
	const char *p = tail + strlen(tail);
	int seen = 0;

	while (p > tail && seen <= lines)
		if (*--p == '\n')
			seen++;
	if (*p == '\n')
		p++;
	size_t used = 0;
	out[0] = '\0';
	while (*p && used + 8 < len) {
		size_t l = strcspn(p, "\n");
		int n = snprintf(out + used, len - used, "\n  | %.*s", (int)l, p);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
		p += l + (p[l] == '\n');
	}
}

/* What the guest's workloads kept of their findings (powercut's images
 * and logs), one directory each in the exchange directory's findings/,
 * copied into the host's before the scratch goes.  The guest wrote them:
 * only regular files are taken, no link followed.  A failure is said, not
 * fatal: the run itself came back. */
static void collect_findings(const char *xchg, const char *dest, int quiet)
{
	char dir[PATH_MAX + 32], sub[PATH_MAX + 300], out[PATH_MAX + 300];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int dfd;

	snprintf(dir, sizeof(dir), "%s/findings", xchg);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) > 200 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (file_copy_dir_flat(sub, dest, 1ULL << 40, out, sizeof(out)) < 0)
			fprintf(stderr, "fsbench: warning: the guest's finding %s was not kept: %s\n",
				de->d_name, error_get());
		else if (!quiet)
			fprintf(stderr, "fsbench: the guest's finding kept in %s\n", out);
	}
	closedir(d);
}

int vm_disks_fit(const struct target *targets, int ntargets, const char *image_dir)
{
	uint64_t need = 0, have = 0;

	for (int i = 0; i < ntargets; i++)
		if (!is_flash(target_fs_spec(&targets[i])->profile) && target_uses_device(&targets[i]) &&
		    !targets[i].shares)	/* the user's device is no image */
			need += target_image_size(&targets[i]);
	if (!need)
		return 0;
	if (free_space(image_dir, &have))
		return -1;
	if (need > have) {
		char want[32], got[32];
		format_size(need, want, sizeof(want));
		format_size(have & ~((1ULL << 20) - 1), got, sizeof(got));
		return error_set("--vm: the guest's disks (%s in all) do not fit in %s (%s free): use "
				 "--fs-size or --image-dir", want, image_dir, got);
	}
	return 0;
}

/* The host's side of the exchange while the guest runs: its lines passed
 * on, and each newer progress.json (renamed into place whole by the
 * guest) handed to the caller. */
struct watch {
	const struct vm_request *rq;
	char path[PATH_MAX + 32];
	struct timespec seen;
	off_t size;
};

static void watch_line(void *arg, const char *line)
{
	struct watch *w = arg;

	if (w->rq->line)
		w->rq->line(w->rq->arg, line);
}

static void watch_progress(void *arg)
{
	struct watch *w = arg;
	struct stat sb;
	size_t len;

	if (!w->rq->progress || lstat(w->path, &sb) || !S_ISREG(sb.st_mode) ||
	    (sb.st_mtim.tv_sec == w->seen.tv_sec && sb.st_mtim.tv_nsec == w->seen.tv_nsec &&
	     sb.st_size == w->size))
		return;
	char *text = file_read_all(w->path, 1u << 30, FILE_NOFOLLOW, &len);
	if (!text)
		return;	/* replaced as it was read: the next tick */
	w->seen = sb.st_mtim;
	w->size = sb.st_size;
	w->rq->progress(w->rq->arg, text, len);
	free(text);
}

int vm_execute(const struct vm_request *rq, struct vm_result *res)
{
	struct watch w = { .rq = rq };
	static const char *const boot_mods[] = { "virtio_pci", "virtio_blk", "9pnet_virtio", "9p" };
	struct vm_kernel k;
	struct vm_config c;
	struct vm_outcome o;
	char work[PATH_MAX], xchg[PATH_MAX + 16], initrd[PATH_MAX + 16], path[PATH_MAX + 64],
		qver[64], why[512], mods[64][256];
	char (*disks)[PATH_MAX + 32] = NULL;
	const char *nand = NULL;
	json_t *job = NULL, *jt;
	int nmods, ndisks = 0, nflash = 0, rc = -1;
	struct flash_server served = { 0 };

	memset(res, 0, sizeof(*res));
	memset(&c, 0, sizeof(c));
	if (vm_kernel_find(rq->opts.kernel, &k) || vm_qemu_version(qver, sizeof(qver)))
		return -1;
	if (strchr(k.root, ' ') || strlen(k.root) > 1000)
		return error_set("kernel module tree %s: its path must have no blanks", k.root);
	for (int i = 0; i < rq->ntargets; i++) {
		const struct fs_spec *s = target_fs_spec(&rq->targets[i]);
		if (!s)
			return error_set("--vm: '%s' is a directory on the host; the guest tests "
					 "filesystems fsbench makes (--fs)", rq->targets[i].label);
		if (vm_profile_available(s->profile, &k, why, sizeof(why)))
			return error_set("fs '%s' cannot run in the virtual machine: %s",
					 rq->targets[i].label, why);
		if (is_flash(s->profile)) {
			if (nand && strcmp(nand, s->nand))
				return error_set("flash targets share one simulated NAND chip: give them "
						 "the same nand_* options");
			nand = s->nand;
			nflash++;
		}
	}
	nmods = vm_kernel_closure(&k, boot_mods, 4, mods, 64);
	if (nmods < 0)
		return -1;
	disks = calloc(VM_MAX_DISKS, sizeof(*disks));
	job = json_object();
	if (!disks || !job) {
		free(disks);
		json_decref(job);
		return error_set("out of memory");
	}
	if (scratch_create(rq->image_dir, work, sizeof(work))) {
		free(disks);
		json_decref(job);
		return -1;
	}
	snprintf(xchg, sizeof(xchg), "%s/xchg", work);
	snprintf(initrd, sizeof(initrd), "%s/initrd", work);
	if (mkdir(xchg, 0755)) {
		error_errno("mkdir %s", xchg);
		goto out;
	}
	c.direct = 1;
	if (vm_disks_fit(rq->targets, rq->ntargets, rq->image_dir))
		goto out;
	jt = json_array();
	json_object_set_new(job, "targets", jt);
	for (int i = 0, f = 0; i < rq->ntargets; i++) {
		const struct fs_spec *s = target_fs_spec(&rq->targets[i]);
		json_t *o1 = json_object();
		json_array_append_new(jt, o1);
		if (is_flash(s->profile)) {
			json_object_set_new(o1, "flash", json_integer(f++));
		} else if (rq->targets[i].shares) {
			/* on the user's device, handed over below */
		} else if (target_uses_device(&rq->targets[i])) {
			if (ndisks == VM_MAX_DISKS) {
				error_set("--vm: at most %d disks", VM_MAX_DISKS);
				goto out;
			}
			snprintf(disks[ndisks], sizeof(disks[0]), "%s/disk%d.img", work, ndisks);
			if (make_image(disks[ndisks], target_image_size(&rq->targets[i]), &c.direct))
				goto out;
			c.disks[ndisks] = disks[ndisks];
			json_object_set_new(o1, "disk", json_integer(ndisks++));
		}
	}
	c.ndisks = ndisks;
	if (rq->model) {
		/* the model served from the scratch directory, its counters
		 * where the guest reads them as it runs */
		char how[1400];
		model_text(rq->model, how, sizeof(how));
		size_t n = strlen(how);
		snprintf(how + n, sizeof(how) - n, "; served by nbdkit to the guest as a USB "
			 "Attached SCSI key (xHCI)");
		if (flash_server_start(&served, work, xchg, rq->model, 1))
			goto out;
		c.medium_nbd = served.sock;
		json_t *md = json_object();
		json_object_set_new(md, "usb", json_true());
		json_object_set_new(md, "buffer", json_integer((json_int_t)rq->model->buffer));
		json_object_set_new(md, "identity", json_string(how));
		json_object_set_new(md, "counters", json_string(VM_GUEST_XCHG "/medium.counters"));
		json_object_set_new(job, "medium", md);
	} else if (rq->medium) {
		const struct vm_opts *vo = &rq->opts;
		char how[1400];
		int model = vo->device_bps_read || vo->device_bps_write;
		c.medium = rq->medium;
		c.medium_size = rq->medium_size;
		c.medium_usb = vo->device_usb;
		c.medium_bps_read = vo->device_bps_read;
		c.medium_bps_write = vo->device_bps_write;
		/* the guest sees QEMU's disk: the device, in the host's words,
		 * and how it was handed over; a throttled one is a model */
		snprintf(how, sizeof(how), "%s%s; handed to the guest as %s%s", model ?
			 "MODELLED, not this device's own speed: " : "", rq->medium_identity,
			 vo->device_usb ? "a USB mass-storage device (xHCI)" : "a virtio disk",
			 model ? ", throttled by QEMU" : "");
		if (model) {
			size_t n = strlen(how);
			snprintf(how + n, sizeof(how) - n, " to %.0f MB/s read, %.0f MB/s write",
				 vo->device_bps_read / 1e6, vo->device_bps_write / 1e6);
		}
		json_t *md = json_object();
		json_object_set_new(md, "usb", json_boolean(vo->device_usb));
		json_object_set_new(md, "identity", json_string(how));
		json_object_set_new(job, "medium", md);
	}
	json_object_set_new(job, "modroot", json_string(k.root));
	json_object_set_new(job, "kernel", json_string(k.version));
	json_object_set_new(job, "kernel_source", json_string(k.source));
	json_object_set_new(job, "qemu", json_string(qver));
	json_object_set_new(job, "mem", json_integer((json_int_t)rq->opts.mem));
	json_object_set_new(job, "cpus", json_integer(rq->opts.cpus));
	json_object_set_new(job, "direct", json_boolean(c.direct));
	json_object_set_new(job, "nflash", json_integer(nflash));
	json_object_set_new(job, "device_mapper", json_boolean(rq->device_mapper));
	json_object_set_new(job, "nand", json_string(nand ? nand : ""));
	/* A test with a device of its own (powercut) gets, on flash, a twin
	 * partition per flash target: it makes, cuts and checks its
	 * filesystem there, the target's staying as the runner made it. */
	int nparts = nflash * (rq->device_mapper ? 2 : 1);
	if (nflash) {
		/* Without nand_size: a chip with room for the biggest test on
		 * every flash target (half again for UBI's and JFFS2's own
		 * overhead), in a power of two as nandsim sizes chips. */
		uint64_t each = rq->flash_need + rq->flash_need / 2, total = 256ULL << 20;
		if (each < (64ULL << 20))
			each = 64ULL << 20;
		while (total < each * (uint64_t)nparts && total < (1ULL << 40))
			total <<= 1;
		if (!strstr(nand ? nand : "", "size=") && total + (512ULL << 20) > rq->opts.mem) {
			error_set("the simulated NAND (%llu MiB for %d flash target%s) lives in the guest's "
				  "memory: give --vm-mem %lluM or more, or a smaller nand_size",
				  (unsigned long long)(total >> 20), nflash, nflash == 1 ? "" : "s",
				  (unsigned long long)((total + (1ULL << 30)) >> 20));
			goto out;
		}
		json_object_set_new(job, "nand_size", json_integer((json_int_t)total));
		char params[512];	/* a bad nand_* option is said before booting */
		if (vm_nand_params(nand ? nand : "", nparts, total, params, sizeof(params)))
			goto out;
	}
	char *jtext = json_dumps(job, JSON_INDENT(1));
	snprintf(path, sizeof(path), "%s/job.json", xchg);
	int wrc = jtext ? file_write_new(path, jtext, strlen(jtext), 0644) : error_set("out of memory");
	free(jtext);
	if (wrc)
		goto out;
	if (rq->resume) {
		snprintf(path, sizeof(path), "%s/resume.json", xchg);
		if (file_write_new(path, rq->resume, strlen(rq->resume), 0644))
			goto out;
	}
	snprintf(path, sizeof(path), "%s/guest.argv", xchg);
	if (write_argv(path, rq) || initramfs_write(initrd, k.moddir, mods, nmods))
		goto out;
	if (!c.direct && !rq->quiet)
		fprintf(stderr, "fsbench: warning: %s does not allow O_DIRECT: the guest's disks go "
			"through the host page cache (give --image-dir on a disk filesystem)\n",
			rq->image_dir);
	c.kernel = &k;
	c.initrd = initrd;
	c.xchg = xchg;
	c.mem = rq->opts.mem;
	c.cpus = rq->opts.cpus;
	c.accel = rq->opts.accel;
	c.deadline = rq->opts.timeout;
	snprintf(w.path, sizeof(w.path), "%s/progress.json", xchg);
	c.line = watch_line;
	c.tick = watch_progress;
	c.arg = &w;
	if (!rq->quiet)
		fprintf(stderr, "fsbench: booting kernel %s (%s) in %s, %llu MiB, %d CPU%s%s\n",
			k.version, k.source, qver, (unsigned long long)(c.mem >> 20), c.cpus,
			c.cpus == 1 ? "" : "s", c.deadline > 0 ? "" : "");
	c.quiet = rq->quiet;
	vm_boot(&c, &o);
	str_copy(res->accel, sizeof(res->accel), o.accel);
	res->boot_seconds = o.boot_seconds;
	res->seconds = o.seconds;
	snprintf(path, sizeof(path), "%s/status", xchg);
	/* the exchange directory is the guest's to write: no symlink taken */
	char *status = file_read_all(path, 64, FILE_NOFOLLOW, NULL);
	if (status)
		status[strcspn(status, "\n")] = '\0';
	snprintf(path, sizeof(path), "%s/result.json", xchg);
	res->json = status ? file_read_all(path, 1u << 30, FILE_NOFOLLOW, &res->len) : NULL;
	if (!res->json) {	/* what the guest measured before it stopped */
		snprintf(path, sizeof(path), "%s/progress.json", xchg);
		if (!access(path, F_OK))
			res->partial = file_read_all(path, 1u << 30, FILE_NOFOLLOW, &res->partial_len);
	}
	if (o.interrupted) {
		error_set("interrupted: the virtual machine was stopped");
	} else if (!res->json) {
		char lines[2048];
		explain(&o, status, why, sizeof(why));
		tail_lines(o.tail, 12, lines, sizeof(lines));
		/* The console first (an error message is one line). */
		fprintf(stderr, "fsbench: the guest console's last lines:%s\n",
			lines[0] ? lines : " (none)");
		error_set("virtual machine (%s, kernel %s): %s", o.accel[0] ? o.accel : "?", k.version,
			  why);
	} else {
		res->guest_exit = status && !strncmp(status, "exit ", 5) ? atoi(status + 5) : 1;
		rc = 0;
	}
	free(status);
	if (rq->findings)
		collect_findings(xchg, rq->findings, rq->quiet);
out:
	flash_server_stop(&served);
	if (scratch_remove(work) && !rc) {
		free(res->json);
		res->json = NULL;
		rc = -1;
	}
	free(disks);
	json_decref(job);
	return rc;
}

bool vm_console_noise(const char *line)
{
	const char *p = line;

	if (!strncmp(line, "fsbench-vm:", 11))
		return true;
	/* "[    3.989433] reboot: Power down" (fsbench's own "[0s] test ..."
	 * has no fraction) */
	if (*p++ != '[')
		return false;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == ']';
}

void vm_strip_colour(char *line)
{
	char *out = line;

	for (const char *p = line; *p;) {
		if (p[0] == '\033' && p[1] == '[') {
			const char *q = p + 2;
			while (isdigit((unsigned char)*q) || *q == ';')
				q++;
			if (*q == 'm') {
				p = q + 1;
				continue;
			}
		}
		*out++ = *p++;
	}
	*out = '\0';
}
