/*
 * vminit.c: PID 1 of fsbench's virtual machines (linked statically and
 * carried inside the fsbench binary; see src/vm/initramfs.c).
 *
 * It does the least a guest needs to run the host's own fsbench: load the
 * few modules that reach the host (virtio, 9p) from the initramfs, mount
 * the host's root read-only over 9p at /host with a tmpfs on /run where
 * the guest writes, mount the run's exchange directory (the only writable share)
 * at /host/run/fsbench-vm, chroot into /host and run the command the host
 * wrote there.  When that command ends it writes its exit status next to
 * it and powers the machine off.  Anything that goes wrong is said on the
 * console (the host shows its last lines) and also powers off: the host
 * sees no status file and knows the guest failed.
 *
 * The same binary is the kernel's module loader: copied to
 * /run/fsbench-modprobe in the guest's root and named in
 * /proc/sys/kernel/modprobe, the kernel runs it when a mount needs a
 * module (a codepage, a checksum driver), and it runs the host's modprobe
 * on the pinned kernel's module tree (fsbench.modroot= on the kernel
 * command line).  It must live inside /host: PID 1 shares its fs_struct
 * with the kernel threads that start helpers (CLONE_FS), so after the
 * chroot the kernel looks for its loader there too.
 *
 * No shell: a handful of syscalls, so it stays small.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define XCHG "/run/fsbench-vm"	/* the exchange share, inside /host */

static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(2, buf, (size_t)n) < 0)
		return;
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static void die(const char *what)
{
	say("fsbench-vm: init: %s: %s", what, strerror(errno));
	power_off();
}

static void do_mount(const char *src, const char *dst, const char *type, unsigned long flags,
		     const char *data)
{
	mkdir(dst, 0755);	/* exists in the cpio or on the share: EEXIST */
	/* A 9p channel appears when its virtio device has been probed. */
	for (int i = 0; i < 50; i++) {
		if (!mount(src, dst, type, flags, data))
			return;
		if (errno != ENOENT && errno != ENODEV)
			break;
		usleep(100000);
	}
	say("fsbench-vm: init: mount %s on %s (%s): %s", src, dst, type, strerror(errno));
	power_off();
}

/* /modules/load: one "FILE.ko [params]" per line, dependencies first. */
static void load_modules(void)
{
	static char list[16384];
	int fd = open("/modules/load", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n <= 0)
		return;
	list[n] = '\0';
	for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
		char path[512], *params = strchr(line, ' ');
		if (params)
			*params++ = '\0';
		snprintf(path, sizeof(path), "/modules/%s", line);
		int m = open(path, O_RDONLY | O_CLOEXEC);
		if (m < 0)
			die(path);
		if (syscall(SYS_finit_module, m, params ? params : "", 0) && errno != EEXIST)
			die(path);
		close(m);
	}
}

/* XCHG/guest.argv: the working directory, then each word, NUL-terminated. */
static char **read_job(char **cwd)
{
	static char buf[65536];
	static char *argv[1024];
	int fd = open(XCHG "/guest.argv", O_RDONLY);	/* after the chroot */
	ssize_t n;
	int argc = 0;

	if (fd < 0)
		die("open " XCHG "/guest.argv");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || buf[n - 1] != '\0')
		die("read " XCHG "/guest.argv");
	*cwd = buf;
	for (char *p = buf + strlen(buf) + 1; p < buf + n && argc < 1023; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	if (!argc) {
		errno = EINVAL;
		die(XCHG "/guest.argv holds no command");
	}
	return argv;
}

static void write_status(int status)
{
	char line[64];
	int fd = open(XCHG "/status.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	int n;

	if (WIFEXITED(status))
		n = snprintf(line, sizeof(line), "exit %d\n", WEXITSTATUS(status));
	else
		n = snprintf(line, sizeof(line), "signal %d\n", WTERMSIG(status));
	if (fd < 0 || write(fd, line, (size_t)n) != n || fsync(fd) || close(fd) ||
	    rename(XCHG "/status.tmp", XCHG "/status"))
		say("fsbench-vm: init: cannot write the status: %s", strerror(errno));
}

/* The value of NAME= on the kernel command line, or NULL. */
static const char *cmdline_value(const char *name)
{
	static char line[4096];
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, line, sizeof(line) - 1) : -1;
	size_t len = strlen(name);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return NULL;
	line[n] = '\0';
	for (char *w = strtok(line, " \n"); w; w = strtok(NULL, " \n"))
		if (!strncmp(w, name, len) && w[len] == '=')
			return w + len + 1;
	return NULL;
}

/* Run as the kernel's modprobe: the host's modprobe on the pinned
 * kernel's modules (already in the host's root, see above). */
static int modprobe_helper(int argc, char **argv)
{
	const char *root = cmdline_value("fsbench.modroot");
	char *args[64];
	int n = 0;

	if (!root)
		return 1;
	args[n++] = "/usr/sbin/modprobe";
	args[n++] = "-d";
	args[n++] = (char *)root;
	for (int i = 1; i < argc && n < 63; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	execv(args[0], args);
	return 1;
}

/* This program, copied where the kernel will look for its loader. */
static void copy_self(const char *from, const char *to)
{
	static char buf[1 << 16];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0755);
	ssize_t n;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	if (in < 0 || out < 0)
		say("fsbench-vm: init: cannot copy the module loader: %s", strerror(errno));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

int main(int argc, char **argv)
{
	char *cwd, **job;
	char *envp[] = {
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=/run/home", "TMPDIR=/run/tmp", "LANG=C", "TERM=dumb",
		"FSBENCH_STATE=/run/fsbench-guest/state", "FSBENCH_VM_GUEST=" XCHG "/job.json", NULL,
	};
	pid_t child;
	int status, fd;

	if (getpid() != 1)
		return modprobe_helper(argc, argv);
	do_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	say("fsbench-vm: init");
	do_mount("proc", "/proc", "proc", 0, NULL);
	do_mount("sysfs", "/sys", "sysfs", 0, NULL);
	load_modules();
	do_mount("hostroot", "/host", "9p", MS_RDONLY,
		 "trans=virtio,version=9p2000.L,msize=262144,cache=loose");
	do_mount("tmpfs", "/host/run", "tmpfs", 0, "mode=0755");
	do_mount("fsbxchg", "/host" XCHG, "9p", 0, "trans=virtio,version=9p2000.L,msize=262144");
	/* The guest writes only under /run (and the filesystems under test);
	 * the host's /tmp stays visible, read-only, so paths given on the
	 * host's command line still resolve. */
	mkdir("/host/run/home", 0700);
	mkdir("/host/run/tmp", 01777);
	mkdir("/host/run/fsbench-guest", 0700);
	do_mount("devtmpfs", "/host/dev", "devtmpfs", 0, NULL);
	do_mount("tmpfs", "/host/dev/shm", "tmpfs", 0, "mode=1777");
	do_mount("proc", "/host/proc", "proc", 0, NULL);
	do_mount("sysfs", "/host/sys", "sysfs", 0, NULL);
	do_mount("debugfs", "/host/sys/kernel/debug", "debugfs", 0, NULL);
	do_mount("cgroup2", "/host/sys/fs/cgroup", "cgroup2", 0, NULL);
	copy_self("/init", "/host/run/fsbench-modprobe");
	if (chroot("/host") || chdir("/"))
		die("chroot /host");
	fd = open("/proc/sys/kernel/modprobe", O_WRONLY);
	if (fd < 0 || write(fd, "/run/fsbench-modprobe\n", 22) != 22)
		say("fsbench-vm: init: cannot set the module loader: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	job = read_job(&cwd);
	if (chdir(cwd))
		die(cwd);
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		execve(job[0], job, envp);
		say("fsbench-vm: init: exec %s: %s", job[0], strerror(errno));
		_exit(127);
	}
	/* PID 1 also reaps orphans: wait until the command itself ends. */
	while (waitpid(-1, &status, 0) != child)
		if (errno == ECHILD)
			break;
	write_status(status);
	say("fsbench-vm: done");
	power_off();
	return 0;
}
