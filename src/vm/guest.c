/* guest.c: a run's guest side (see vm.h): inside fsbench's guest, the
 * job the host handed over, the modules, disks and medium it names made
 * ready for the targets, and the run's progress and result handed back
 * through the exchange directory.  vm.c is the host side. */
#define _GNU_SOURCE
#include "vm.h"
#include "initramfs.h"
#include "kernel.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/file.h"
#include "../core/param.h"
#include "../core/str.h"
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

const char *vm_guest_job(void)
{
	const char *p = getenv("FSBENCH_VM_GUEST");
	return p && *p ? p : NULL;
}

static char modroot[PATH_MAX];
static char devices[VM_MAX_DISKS + 16][32];
static char twin_devices[VM_MAX_DISKS + 16][32];	/* flash: the powercut workload's */

static int modprobe(char *const *names, int n, const char *params)
{
	char *argv[32], out[4096], extra[512];
	int k = 0;

	argv[k++] = "modprobe";
	argv[k++] = "-d";
	argv[k++] = modroot;
	if (!params)
		argv[k++] = "-a";
	for (int i = 0; i < n && k < 28; i++)
		argv[k++] = names[i];
	if (params) {
		str_copy(extra, sizeof(extra), params);
		k += split_words(extra, argv + k, 32 - k) ;
	}
	argv[k] = NULL;
	int rc = exec_capture(argv, out, sizeof(out));
	if (rc) {
		/* modprobe says "see dmesg": the guest's kernel log is here only */
		static char klog[1 << 16];
		int got = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, sizeof(klog) - 1);
		klog[got > 0 ? got : 0] = '\0';
		fprintf(stderr, "fsbench: the guest kernel's last messages:\n%s\n",
			klog + (strlen(klog) > 600 ? strlen(klog) - 600 : 0));
		return rc < 0 ? -1 : error_set("modprobe %s failed: %s", names[0], tool_reason(out));
	}
	return 0;
}

/* The virtio disk whose serial is fsbenchN. */
static int find_serial(const char *want, char *out, size_t len);

static int find_disk(int n, char *out, size_t len)
{
	char want[32];

	snprintf(want, sizeof(want), "fsbench%d", n);
	return find_serial(want, out, len);
}

static int find_serial(const char *want, char *out, size_t len)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		char p[300], serial[64] = "";
		if (strncmp(de->d_name, "vd", 2))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/serial", de->d_name);
		FILE *f = fopen(p, "re");
		if (f && fgets(serial, sizeof(serial), f))
			serial[strcspn(serial, "\n")] = '\0';
		if (f)
			fclose(f);
		if (!strcmp(serial, want)) {
			snprintf(out, len, "/dev/%.24s", de->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found ? 0 : error_set("guest: no virtio disk with serial %s", want);
}

/* The USB key the host made of the user's device: the one SCSI disk
 * below a USB port, once the bus has found it. */
static int find_usb_disk(char *out, size_t len)
{
	for (int tries = 0; tries < 600; tries++) {	/* USB enumeration: up to a minute under TCG */
		DIR *d = opendir("/sys/block");
		struct dirent *de;
		while (d && (de = readdir(d))) {
			char p[300], real[PATH_MAX];
			if (strncmp(de->d_name, "sd", 2))
				continue;
			snprintf(p, sizeof(p), "/sys/block/%s", de->d_name);
			if (realpath(p, real) && strstr(real, "/usb")) {
				snprintf(out, len, "/dev/%.24s", de->d_name);
				closedir(d);
				return 0;
			}
		}
		if (d)
			closedir(d);
		usleep(100000);
	}
	return error_set("guest: the USB key the host handed over did not appear");
}

/* No command on the guest's USB key larger than 128 KiB.  With UAS's
 * queue, QEMU's SCSI disk moves each command's data in 128 KiB pieces and
 * interleaves the pieces of the commands in flight, so a filesystem's
 * in-order writes reached the medium out of order (a modelled key's trace
 * showed 512 KiB writes crossed in 128 KiB steps); at 128 KiB each command
 * is one piece, issued in order.  usb-storage caps a key at 120 KiB
 * itself (max_sectors 240).  1, or -1 with the error set. */
static int usb_one_piece(const char *dev)
{
	char path[128], hw[32] = "";

	/* usb-storage's own cap (120 KiB) is below it already */
	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_hw_sectors_kb", dev + 5);
	FILE *f = fopen(path, "re");
	if (f && fgets(hw, sizeof(hw), f) && atoi(hw) > 0 && atoi(hw) <= 128) {
		fclose(f);
		return 1;
	}
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/max_sectors_kb", dev + 5);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno("guest: %s", path);
	int ok = write(fd, "128", 3) == 3;
	close(fd);
	return ok ? 1 : error_errno("guest: %s", path);
}

int vm_guest_medium(char *dev, size_t len, char *identity, size_t ilen, char *counters,
		    size_t clen, uint64_t *buffer)
{
	const char *path = vm_guest_job();
	json_error_t jerr;
	json_t *job = path ? json_load_file(path, 0, &jerr) : NULL;
	json_t *md = json_object_get(job, "medium");
	int rc = 0;

	if (!job)
		return error_set("guest: cannot read %s", path ? path : "the job");
	if (json_is_object(md)) {
		const char *id = json_string_value(json_object_get(md, "identity"));
		str_copy(identity, ilen, id ? id : "the host's device");
		const char *cn = json_string_value(json_object_get(md, "counters"));
		str_copy(counters, clen, cn ? cn : "");
		json_int_t b = json_integer_value(json_object_get(md, "buffer"));
		*buffer = b > 0 ? (uint64_t)b : 0;
		/* the region is a loop device over the disk, as on the host */
		char *usb[] = { "loop", "xhci_pci", "usb_storage", "sd_mod", "uas" };
		int on_usb = json_is_true(json_object_get(md, "usb"));
		if (modprobe(usb, on_usb ? 5 : 1, NULL))
			rc = -1;
		else if (on_usb)
			rc = find_usb_disk(dev, len) ? -1 : usb_one_piece(dev);
		else
			rc = find_serial("fsbenchkey", dev, len) ? -1 : 1;
	}
	json_decref(job);
	return rc;
}

/* nand_* options -> nandsim parameters: a 2 KiB-page chip with 128 KiB
 * erase blocks (ID 20 aa 00 15), sized by overridesize. */
int vm_nand_params(const char *spec, int nparts, uint64_t def_size, char *out, size_t len)
{
	char copy[256], *rest = copy, *w;
	uint64_t size = def_size ? def_size : 256ULL << 20, eb = 128 << 10;
	unsigned delays[5] = { 0 };
	static const char *const dn[5] = { "access_delay", "program_delay", "erase_delay",
					   "output_cycle", "input_cycle" };
	static const char *const pn[5] = { "access_delay", "programm_delay", "erase_delay",
					   "output_cycle", "input_cycle" };
	int any = 0, shift = 0;

	if (nparts < 1 || nparts > 16)
		return error_set("at most 16 flash targets share the simulated NAND");
	str_copy(copy, sizeof(copy), spec);
	while ((w = strsep(&rest, ",")) && *w) {
		char *eq = strchr(w, '=');
		int64_t v;
		int ok = 0;
		if (!eq)
			return error_set("flash option '%s': no value", w);
		*eq++ = '\0';
		if (!strcmp(w, "size"))
			ok = !parse_size(eq, &size);
		for (int i = 0; i < 5; i++)
			if (!strcmp(w, dn[i]) && !parse_int(eq, &v) && v >= 0 && v < 1000000) {
				delays[i] = (unsigned)v;
				any |= v > 0;
				ok = 1;
			}
		if (!ok)
			return error_set("flash option nand_%s=%s: not one of nand_size, "
					 "nand_access_delay (us), nand_program_delay (us), "
					 "nand_erase_delay (ms), nand_output_cycle, nand_input_cycle (ns)", w, eq);
	}
	while ((eb << shift) < size && shift < 20)
		shift++;
	/* Below the 256 MiB chip that ID describes, UBI cannot attach
	 * (seen with 6.1's nandsim at 128 MiB). */
	if ((eb << shift) != size || size < (256ULL << 20))
		return error_set("nand_size: a power of two from 256M (e.g. 512M), not %llu bytes",
				 (unsigned long long)size);
	size_t used = (size_t)snprintf(out, len, "id_bytes=0x20,0xaa,0x00,0x15 overridesize=%d", shift);
	for (int i = 0; i < 5; i++)
		if (delays[i])
			used += (size_t)snprintf(out + used, len - used, " %s=%u", pn[i], delays[i]);
	if (any)
		used += (size_t)snprintf(out + used, len - used, " do_delays=1");
	if (nparts > 1) {
		uint64_t each = (size / eb) / (uint64_t)nparts;
		used += (size_t)snprintf(out + used, len - used, " parts=");
		for (int i = 0; i < nparts && used < len; i++)
			used += (size_t)snprintf(out + used, len - used, "%s%llu", i ? "," : "",
						 (unsigned long long)each);
	}
	return used < len ? 0 : error_set("nandsim parameters too long");
}

static const char *cmdline_accel(void)
{
	static char line[4096];
	FILE *f = fopen("/proc/cmdline", "re");
	char *p;

	if (!f)
		return "?";
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	p = strstr(line, "fsbench.accel=");
	if (!p)
		return "?";
	p += 14;
	p[strcspn(p, " \n")] = '\0';
	return p;
}

int vm_guest_setup(struct target *targets, int ntargets, char *vm_text, size_t len)
{
	const char *path = vm_guest_job();
	json_error_t jerr;
	json_t *job = path ? json_load_file(path, 0, &jerr) : NULL, *jt;
	char *mods[32];
	int nmods = 0, rc = -1;

	if (!job)
		return error_set("guest: cannot read %s", path ? path : "the job");
	jt = json_object_get(job, "targets");
	str_copy(modroot, sizeof(modroot), json_string_value(json_object_get(job, "modroot")) ?
		 json_string_value(json_object_get(job, "modroot")) : "/");
	if (json_array_size(jt) != (size_t)ntargets) {
		error_set("guest: the job names %zu targets, the command line %d",
			  json_array_size(jt), ntargets);
		goto out;
	}
	/* Each filesystem's module, loaded now so that the availability check
	 * (/proc/filesystems) sees it. */
	for (int i = 0; i < ntargets && nmods < 30; i++) {
		const struct fs_spec *s = target_fs_spec(&targets[i]);
		if (s)
			nmods += vm_profile_modules(s->profile, (const char **)mods + nmods);
	}
	if (nmods && modprobe(mods, nmods, NULL))
		goto out;
	if (json_is_true(json_object_get(job, "device_mapper"))) {
		/* dm-mod comes as dm-log-writes's dependency; the recorded
		 * device's images sit on loop devices */
		char *dm[] = { "dm-log-writes", "loop" };
		if (modprobe(dm, 2, NULL))
			goto out;
	}
	int nflash = (int)json_integer_value(json_object_get(job, "nflash"));
	int twins = json_is_true(json_object_get(job, "device_mapper"));
	if (nflash > 0) {
		char params[512];
		char *ns[] = { "nandsim" };
		const char *nand = json_string_value(json_object_get(job, "nand"));
		if (vm_nand_params(nand ? nand : "", nflash * (twins ? 2 : 1),
				   (uint64_t)json_integer_value(json_object_get(job, "nand_size")), params,
				   sizeof(params)) ||
		    modprobe(ns, 1, params))
			goto out;
	}
	for (int i = 0; i < ntargets; i++) {
		json_t *o = json_array_get(jt, (size_t)i);
		json_t *disk = json_object_get(o, "disk"), *flash = json_object_get(o, "flash");
		if (json_is_integer(disk)) {
			if (find_disk((int)json_integer_value(disk), devices[i], sizeof(devices[i])))
				goto out;
			target_set_device(&targets[i], devices[i]);
		} else if (json_is_integer(flash)) {
			int f = (int)json_integer_value(flash);
			snprintf(devices[i], sizeof(devices[i]), "/dev/mtd%d", f);
			target_set_device(&targets[i], devices[i]);
			if (twins) {
				snprintf(twin_devices[i], sizeof(twin_devices[i]), "/dev/mtd%d", nflash + f);
				target_set_flash_twin(&targets[i], twin_devices[i]);
			}
		}
	}
	const char *accel = cmdline_accel();
	snprintf(vm_text, len, "%s, %s, %lld MiB, %lld CPU%s, kernel %s (%s)%s",
		 json_string_value(json_object_get(job, "qemu")) ?
			 json_string_value(json_object_get(job, "qemu")) : "QEMU",
		 !strcmp(accel, "tcg") ? "TCG (emulated CPU)" : !strcmp(accel, "kvm") ? "KVM" : accel,
		 (long long)(json_integer_value(json_object_get(job, "mem")) >> 20),
		 (long long)json_integer_value(json_object_get(job, "cpus")),
		 json_integer_value(json_object_get(job, "cpus")) == 1 ? "" : "s",
		 json_string_value(json_object_get(job, "kernel")) ?
			 json_string_value(json_object_get(job, "kernel")) : "?",
		 json_string_value(json_object_get(job, "kernel_source")) ?
			 json_string_value(json_object_get(job, "kernel_source")) : "?",
		 json_is_false(json_object_get(job, "direct")) ?
			 ", disks through the host page cache" : ", disks cache=none");
	rc = 0;
out:
	json_decref(job);
	return rc;
}

int vm_guest_progress(const char *json_text)
{
	char tmp[] = XCHG_GUEST "/progress.json.new", path[] = XCHG_GUEST "/progress.json";

	unlink(tmp);
	if (file_write_new(tmp, json_text, strlen(json_text), 0644))
		return -1;
	return rename(tmp, path) ? error_errno("rename %s", tmp) : 0;
}

int vm_guest_resume(char **text, size_t *len)
{
	char path[] = XCHG_GUEST "/resume.json";

	*text = NULL;
	if (access(path, F_OK))
		return 0;
	*text = file_read_all(path, 1u << 30, FILE_NOFOLLOW, len);
	return *text ? 0 : -1;
}

int vm_guest_finish(const char *json_text)
{
	char path[] = XCHG_GUEST "/result.json";

	return file_write_new(path, json_text, strlen(json_text), 0644);
}

