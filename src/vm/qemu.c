/* qemu.c: one supervised QEMU guest (see qemu.h). */
#define _GNU_SOURCE
#include "qemu.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/stop.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../targets/state.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define INIT_MARK "fsbench-vm: init"
#define KVM_PROBE_SECONDS 10.0	/* a working KVM guest reaches init in 1-3 s */
/* A TCG guest reaches init in about 20 s, a minute or two on a loaded
 * host; one that has not after this long has stalled (seen: a soft lockup
 * of a vCPU in the kernel's crypto self-tests for 20 minutes, with the
 * host's CPUs oversubscribed four times) and is booted once more. */
#define TCG_BOOT_SECONDS 300.0

static double secs(void)
{
	return ns_to_s(now_ns());
}

int vm_accel_parse(const char *s, enum vm_accel *out)
{
	if (!strcmp(s, "auto"))
		*out = VM_ACCEL_AUTO;
	else if (!strcmp(s, "kvm"))
		*out = VM_ACCEL_KVM;
	else if (!strcmp(s, "tcg"))
		*out = VM_ACCEL_TCG;
	else
		return error_set("--vm-accel: bad value '%s' (auto, kvm or tcg)", s);
	return 0;
}

int vm_qemu_version(char *out, int len)
{
	char text[4096], *argv[] = { "qemu-system-x86_64", "--version", NULL }, *p;
	int rc = exec_capture(argv, text, sizeof(text));

	if (rc)
		return error_set("qemu-system-x86_64 is not usable here (install qemu-system-x86)");
	p = strstr(text, "version ");
	if (!p)
		return error_set("qemu-system-x86_64 --version: unexpected output");
	p += 8;
	p[strcspn(p, " \n")] = '\0';
	snprintf(out, (size_t)len, "QEMU %s", p);
	return 0;
}

/* A value inside a QEMU option list: commas doubled. */
static int qarg(char *out, size_t len, const char *fmt_prefix, const char *value, const char *suffix)
{
	size_t n = (size_t)snprintf(out, len, "%s", fmt_prefix);

	for (const char *p = value; *p && n + 2 < len; p++) {
		if (*p == ',')
			out[n++] = ',';
		out[n++] = *p;
	}
	if (n + strlen(suffix) + 1 > len)
		return error_set("QEMU argument too long");
	snprintf(out + n, len - n, "%s", suffix);
	return 0;
}

struct argbuf {
	char *argv[96];
	char store[24][PATH_MAX + 256];
	int n, used;
};

static char *keep(struct argbuf *b, const char *s)
{
	if (b->used == 24)
		return NULL;
	str_copy(b->store[b->used], sizeof(b->store[0]), s);
	return b->store[b->used++];
}

static int build_argv(const struct vm_config *c, const char *qemu, int kvm, struct argbuf *b)
{
	char tmp[PATH_MAX + 256];
	int rc = 0;

	b->n = b->used = 0;
#define A(s) (b->argv[b->n++] = (char *)(s))
	A(qemu);
	A("-nodefaults");
	A("-no-user-config");
	A("-display");
	A("none");
	A("-serial");
	A("stdio");
	A("-monitor");
	A("none");
	A("-no-reboot");
	A("-accel");
	A(kvm ? "kvm" : "tcg,thread=multi");
	/* Under KVM, the host's CPU without the MSR some hosts refuse to set
	 * (QEMU aborts on 0x10a there); under TCG, every feature TCG has. */
	A("-cpu");
	A(kvm ? "host,-arch-capabilities" : "max");
	snprintf(tmp, sizeof(tmp), "%d", c->cpus);
	A("-smp");
	A(keep(b, tmp));
	snprintf(tmp, sizeof(tmp), "%lluM", (unsigned long long)(c->mem >> 20));
	A("-m");
	A(keep(b, tmp));
	A("-kernel");
	A(c->kernel->vmlinuz);
	A("-initrd");
	A(c->initrd);
	/* The guest learns its accelerator and module tree from here. */
	snprintf(tmp, sizeof(tmp), "console=ttyS0 quiet loglevel=3 panic=-1 fsbench.modroot=%s "
		 "fsbench.accel=%s", c->kernel->root, kvm ? "kvm" : "tcg");
	A("-append");
	A(keep(b, tmp));
	A("-virtfs");
	A("local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap");
	rc |= qarg(tmp, sizeof(tmp), "local,path=", c->xchg,
		   ",mount_tag=fsbxchg,security_model=none,multidevs=remap");
	A("-virtfs");
	A(keep(b, tmp));
	for (int i = 0; i < c->ndisks && !rc; i++) {
		char suffix[128];
		snprintf(suffix, sizeof(suffix), ",format=raw,if=none,id=d%d,%s", i,
			 c->direct ? "cache=none,aio=native" : "cache=writeback");
		rc |= qarg(tmp, sizeof(tmp), "file=", c->disks[i], suffix);
		A("-drive");
		A(keep(b, tmp));
		snprintf(tmp, sizeof(tmp), "virtio-blk-pci,drive=d%d,serial=fsbench%d", i, i);
		A("-device");
		A(keep(b, tmp));
	}
	if (c->medium_nbd && !rc) {
		/* the model, as QEMU's NBD client: the guest's discards reach it.
		 * UAS, as USB 3 keys attach: the guest's usb-storage driver
		 * skips the SCSI pages that announce discard, UAS reads them */
		rc |= qarg(tmp, sizeof(tmp), "driver=nbd,node-name=dm,export=key,discard=unmap,"
			   "server.type=unix,server.path=", c->medium_nbd, "");
		A("-blockdev");
		A(keep(b, tmp));
		A("-device");
		A("qemu-xhci,id=xhci");
		A("-device");
		A("usb-uas,id=uas,bus=xhci.0");
		A("-device");
		A("scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=dm,serial=fsbenchkey");
	} else if (c->medium && !rc) {
		/* the region only (raw's size), never the host's page cache, the
		 * guest's discards passed on to the device */
		char suffix[320];
		int n = snprintf(suffix, sizeof(suffix), ",format=raw,size=%llu,if=none,id=dm,cache=none,"
				 "aio=native,discard=unmap", (unsigned long long)c->medium_size);
		if (c->medium_bps_read || c->medium_bps_write)
			snprintf(suffix + n, sizeof(suffix) - (size_t)n,
				 ",throttling.bps-read=%llu,throttling.bps-write=%llu",
				 (unsigned long long)c->medium_bps_read,
				 (unsigned long long)c->medium_bps_write);
		rc |= qarg(tmp, sizeof(tmp), "file=", c->medium, suffix);
		A("-drive");
		A(keep(b, tmp));
		if (c->medium_usb) {
			A("-device");
			A("qemu-xhci,id=xhci");
			A("-device");
			A("usb-storage,bus=xhci.0,drive=dm,serial=fsbenchkey");
		} else {
			A("-device");
			A("virtio-blk-pci,drive=dm,serial=fsbenchkey");
		}
	}
#undef A
	b->argv[b->n] = NULL;
	if (b->used == 24 || b->n >= 95)
		return error_set("too many virtual disks");
	return rc;
}

/* The console's last lines, kept in a ring of bytes. */
static void tail_add(struct vm_outcome *o, const char *line)
{
	size_t have = strlen(o->tail), add = strlen(line) + 1;

	if (add >= sizeof(o->tail))
		return;
	if (have + add >= sizeof(o->tail)) {
		/* drop whole lines from the front */
		const char *cut = o->tail + (have + add - sizeof(o->tail) + 1);
		const char *nl = strchr(cut, '\n');
		cut = nl ? nl + 1 : o->tail + have;
		memmove(o->tail, cut, strlen(cut) + 1);
		have = strlen(o->tail);
	}
	snprintf(o->tail + have, sizeof(o->tail) - have, "%s\n", line);
}

static void kill_wait(pid_t pid, int *status)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

/* One boot with one accelerator; probe: give up when init is not reached
 * within `probe` seconds (0: no probe). */
static int boot_once(const struct vm_config *c, const char *qemu, int kvm, double probe,
		     struct vm_outcome *o)
{
	struct argbuf *b = calloc(1, sizeof(*b));
	char proc[64], exe[PATH_MAX], real[PATH_MAX], buf[4096], line[2048];
	size_t ll = 0;
	int fds[2], status = 0, recorded = 0, rc = -1;
	double t0 = secs();
	pid_t pid;

	if (!b)
		return error_set("out of memory");
	if (build_argv(c, qemu, kvm, b)) {
		free(b);
		return -1;
	}
	if (!realpath(qemu, real))
		str_copy(real, sizeof(real), qemu);
	if (pipe2(fds, O_CLOEXEC)) {
		free(b);
		return error_errno("pipe");
	}
	pid = fork_worker();	/* dies with fsbench */
	if (pid < 0) {
		free(b);
		return error_errno("fork");
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execv(qemu, b->argv);
		_exit(127);
	}
	close(fds[1]);
	snprintf(o->accel, sizeof(o->accel), "%s", kvm ? "kvm" : "tcg");
	/* Recorded once it is QEMU (before exec it is still fsbench). */
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	for (int i = 0; i < 400 && !recorded; i++) {
		char link[80];
		snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
		ssize_t n = readlink(link, exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		if (!strcmp(exe, real)) {
			if (state_add(STATE_PROC, proc, real, state_proc_start(pid), 0))
				break;
			recorded = 1;
		} else if (waitpid(pid, &status, WNOHANG) == pid) {
			pid = 0;
			break;
		} else {
			usleep(5000);
		}
	}
	double ticked = 0;
	for (;;) {
		double t = secs() - t0;
		struct pollfd p = { fds[0], POLLIN, 0 };
		if (pid && stop_requested()) {
			kill_wait(pid, &status);
			pid = 0;
			o->interrupted = 1;
			break;
		}
		if (pid && probe > 0 && !o->reached_init && t > probe) {
			kill_wait(pid, &status);
			pid = 0;
			break;
		}
		if (pid && c->deadline > 0 && t > c->deadline) {
			kill_wait(pid, &status);
			pid = 0;
			o->timed_out = 1;
			break;
		}
		if (c->tick && o->reached_init && t - ticked >= 1.0) {
			ticked = t;
			c->tick(c->arg);
		}
		int pr = poll(&p, 1, 200);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr <= 0)
			continue;
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* QEMU closed the console: it is ending */
		for (ssize_t i = 0; i < n; i++) {
			char ch = buf[i];
			if (ch == '\r')
				continue;
			if (ch != '\n' && ll < sizeof(line) - 1) {
				line[ll++] = ch;
				continue;
			}
			if (ch != '\n')
				continue;	/* an over-long line: the rest is dropped */
			line[ll] = '\0';
			ll = 0;
			tail_add(o, line);
			if (!o->reached_init && strstr(line, INIT_MARK)) {
				o->reached_init = 1;
				o->boot_seconds = secs() - t0;
			} else if (o->reached_init && c->line) {
				c->line(c->arg, line);
			}
		}
	}
	close(fds[0]);
	if (pid)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (recorded)
		state_remove(STATE_PROC, proc);
	o->qemu_status = status;
	o->seconds = secs() - t0;
	if (o->interrupted)
		error_set("interrupted: the virtual machine was stopped");
	else if (o->timed_out)
		error_set("the virtual machine did not finish within %.0f s and was killed", c->deadline);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		rc = 0;
	else
		error_set("qemu-system-x86_64 failed (%s %d)", WIFEXITED(status) ? "exit" : "signal",
			  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	free(b);
	return rc;
}

int vm_boot(const struct vm_config *c, struct vm_outcome *o)
{
	char qemu[PATH_MAX];
	int kvm = c->accel == VM_ACCEL_KVM, fd;

	memset(o, 0, sizeof(*o));
	if (find_program("qemu-system-x86_64", qemu, sizeof(qemu)))
		return error_set("qemu-system-x86_64 not found: install qemu-system-x86");
	if (c->accel == VM_ACCEL_AUTO && (fd = open("/dev/kvm", O_RDWR | O_CLOEXEC)) >= 0) {
		close(fd);
		int rc = boot_once(c, qemu, 1, KVM_PROBE_SECONDS, o);
		if (o->reached_init || o->interrupted)
			return rc;
		snprintf(o->accel_note, sizeof(o->accel_note),
			 "a KVM guest did not reach init within %.0f s: using TCG (emulated CPU)",
			 KVM_PROBE_SECONDS);
		char note[256];
		str_copy(note, sizeof(note), o->accel_note);
		if (!c->quiet)
			fprintf(stderr, "fsbench: %s\n", note);
		memset(o, 0, sizeof(*o));
		str_copy(o->accel_note, sizeof(o->accel_note), note);
	} else if (c->accel == VM_ACCEL_AUTO) {
		/* said as the KVM probe's failure is: auto chose for the user */
		snprintf(o->accel_note, sizeof(o->accel_note), "no usable /dev/kvm: using TCG (emulated CPU)");
		if (!c->quiet)
			fprintf(stderr, "fsbench: %s\n", o->accel_note);
	}
	if (kvm)
		return boot_once(c, qemu, 1, 0, o);
	/* TCG: a boot that stalls before init is made again, once; the
	 * second has no such limit (only the deadline), so a slow host is
	 * only slower, never failed for it */
	char note[256];
	str_copy(note, sizeof(note), o->accel_note);
	int rc = boot_once(c, qemu, 0, TCG_BOOT_SECONDS, o);
	if (o->reached_init || o->interrupted || o->timed_out || o->seconds < TCG_BOOT_SECONDS)
		return rc;
	if (!c->quiet) {
		char tail[sizeof(o->tail)];
		str_copy(tail, sizeof(tail), o->tail);
		const char *last = last_line(tail);
		fprintf(stderr, "fsbench: the guest had not reached its init after %.0f s (%s%s): "
			"booting it again\n", TCG_BOOT_SECONDS, *last ? "its console's last line: " :
			"nothing on its console", last);
	}
	memset(o, 0, sizeof(*o));
	str_copy(o->accel_note, sizeof(o->accel_note), note);
	return boot_once(c, qemu, 0, 0, o);
}
