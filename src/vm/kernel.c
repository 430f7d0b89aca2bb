/* kernel.c: finding, fetching and reading pinned kernels (see kernel.h). */
#define _GNU_SOURCE
#include "kernel.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/file.h"
#include "../core/str.h"
#include "../targets/target.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

int vm_kernel_cache_dir(char *out, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(out, len, "%s/fsbench/kernels", xdg);
	else if (home && home[0] == '/')
		n = snprintf(out, len, "%s/.cache/fsbench/kernels", home);
	else
		return error_set("no HOME: cannot find fsbench's kernel cache");
	if (n < 0 || (size_t)n >= len)
		return error_set("kernel cache path too long");
	return 0;
}

int vm_kernel_image_version(const char *vmlinuz, char *out, size_t len)
{
	unsigned char hdr[0x220];
	char text[256];
	int fd = open(vmlinuz, O_RDONLY | O_CLOEXEC);
	unsigned off;

	if (fd < 0)
		return error_errno("kernel %s", vmlinuz);
	if (pread(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		return error_set("kernel %s: not a bzImage (no setup header)", vmlinuz);
	}
	/* kernel_version: offset of the version string, minus 0x200. */
	off = (unsigned)hdr[0x20e] | (unsigned)hdr[0x20f] << 8;
	ssize_t n = off ? pread(fd, text, sizeof(text) - 1, (off_t)off + 0x200) : -1;
	close(fd);
	if (n <= 0)
		return error_set("kernel %s: no version string in its header", vmlinuz);
	text[n] = '\0';
	text[strcspn(text, " ")] = '\0';
	if (!text[0] || str_has_control(text))
		return error_set("kernel %s: unreadable version string", vmlinuz);
	str_copy(out, len, text);
	return 0;
}

static int is_dir(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* Fill k from a bzImage and the tree that holds its modules. */
static int fill(struct vm_kernel *k, const char *vmlinuz, const char *root, const char *source)
{
	memset(k, 0, sizeof(*k));
	if (vm_kernel_image_version(vmlinuz, k->version, sizeof(k->version)))
		return -1;
	str_copy(k->vmlinuz, sizeof(k->vmlinuz), vmlinuz);
	str_copy(k->root, sizeof(k->root), root);
	snprintf(k->moddir, sizeof(k->moddir), "%s/lib/modules/%s", strcmp(root, "/") ? root : "",
		 k->version);
	k->source = source;
	char dep[PATH_MAX + 16];
	snprintf(dep, sizeof(dep), "%s/modules.dep", k->moddir);
	if (access(dep, R_OK))
		return error_set("kernel %s: no module tree with modules.dep at %s (fetch it with "
				 "`fsbench kernel fetch %s`)", k->version, k->moddir, k->version);
	return 0;
}

static int by_version_desc(const void *a, const void *b)
{
	return strverscmp((const char *)b, (const char *)a);
}

int vm_kernel_list(char (*versions)[128], int max)
{
	char dir[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (vm_kernel_cache_dir(dir, sizeof(dir)) || !(d = opendir(dir)))
		return 0;
	while (n < max && (de = readdir(d))) {
		char img[PATH_MAX * 2];
		if (de->d_name[0] == '.' || !strncmp(de->d_name, "fsbench.", 8) ||
		    strlen(de->d_name) >= 128)
			continue;
		snprintf(img, sizeof(img), "%s/%s/boot/vmlinuz-%s", dir, de->d_name, de->d_name);
		if (!access(img, R_OK))
			str_copy(versions[n++], 128, de->d_name);
	}
	closedir(d);
	qsort(versions, (size_t)n, 128, by_version_desc);
	return n;
}

static int from_cache(const char *version, struct vm_kernel *k)
{
	char dir[PATH_MAX], root[PATH_MAX + 160], img[PATH_MAX * 2];

	if (vm_kernel_cache_dir(dir, sizeof(dir)))
		return -1;
	snprintf(root, sizeof(root), "%s/%s", dir, version);
	snprintf(img, sizeof(img), "%s/boot/vmlinuz-%s", root, version);
	if (access(img, R_OK))
		return 1;
	return fill(k, img, root, "cache");
}

int vm_kernel_find(const char *want, struct vm_kernel *k)
{
	char versions[32][128], img[PATH_MAX];
	struct utsname u;
	int n, rc;

	if (want && strchr(want, '/')) {
		/* A vmlinuz path: its modules in the cache, else in the host's tree. */
		char version[128], dir[PATH_MAX], root[PATH_MAX + 160], mods[PATH_MAX * 2];
		if (vm_kernel_image_version(want, version, sizeof(version)) ||
		    vm_kernel_cache_dir(dir, sizeof(dir)))
			return -1;
		snprintf(root, sizeof(root), "%s/%s", dir, version);
		snprintf(mods, sizeof(mods), "%s/lib/modules/%s", root, version);
		return fill(k, want, is_dir(mods) ? root : "/", "path");
	}
	if (want) {
		if (strlen(want) >= 128 || strchr(want, ' '))
			return error_set("--kernel: bad version '%s'", want);
		if ((rc = from_cache(want, k)) <= 0)
			return rc;
		snprintf(img, sizeof(img), "/boot/vmlinuz-%s", want);
		if (!access(img, R_OK))
			return fill(k, img, "/", "host");
		return error_set("--kernel %s: not in fsbench's kernel cache nor in /boot (fetch it with "
				 "`fsbench kernel fetch %s`)", want, want);
	}
	if (!uname(&u)) {
		snprintf(img, sizeof(img), "/boot/vmlinuz-%s", u.release);
		char mods[PATH_MAX];
		snprintf(mods, sizeof(mods), "/lib/modules/%s/modules.dep", u.release);
		if (!access(img, R_OK) && !access(mods, R_OK))
			return fill(k, img, "/", "host");
	}
	n = vm_kernel_list(versions, 32);
	if (!n)
		return error_set("no kernel for the virtual machine: the host's own (/boot/vmlinuz-%s) is "
				 "not there and fsbench's cache is empty; run `fsbench kernel fetch` "
				 "(downloads Debian's kernel package and unpacks it into the cache)",
				 u.release);
	return from_cache(versions[0], k) ? -1 : 0;
}

/* ---- modules.dep ---- */

/* "kernel/fs/f2fs/f2fs.ko" -> "f2fs"; '-' -> '_' as the kernel does. */
static void mod_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	str_copy(out, len, b ? b + 1 : path);
	out[strcspn(out, ".")] = '\0';
	for (char *p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

struct depfile {
	char *text;
	size_t len;
};

static int read_file(const char *path, struct depfile *d)
{
	d->text = file_read_all(path, 64u << 20, 0, &d->len);
	return d->text ? 0 : -1;
}

/* The modules.dep line of module `name` (without the newline), or NULL. */
static const char *dep_line(const struct depfile *d, const char *name, size_t *llen)
{
	for (const char *p = d->text; p && *p;) {
		const char *nl = strchr(p, '\n'), *colon = strchr(p, ':');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (colon && colon < p + n) {
			char path[256], mn[128];
			size_t pl = (size_t)(colon - p);
			if (pl < sizeof(path)) {
				memcpy(path, p, pl);
				path[pl] = '\0';
				mod_name(path, mn, sizeof(mn));
				if (!strcmp(mn, name)) {
					*llen = n;
					return p;
				}
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static void norm(const char *in, char *out, size_t len)
{
	str_copy(out, len, in);
	for (char *p = out; *p; p++)
		if (*p == '-')
			*p = '_';
}

int vm_kernel_has(const struct vm_kernel *k, const char *name)
{
	const char *files[] = { "modules.dep", "modules.builtin" };
	char want[128];
	int found = 0;

	norm(name, want, sizeof(want));
	for (int i = 0; i < 2 && !found; i++) {
		char path[PATH_MAX + 32];
		struct depfile d;
		snprintf(path, sizeof(path), "%s/%s", k->moddir, files[i]);
		if (read_file(path, &d))
			continue;
		for (char *line = strtok(d.text, "\n"); line && !found; line = strtok(NULL, "\n")) {
			char mn[128];
			line[strcspn(line, ":")] = '\0';
			mod_name(line, mn, sizeof(mn));
			found = !strcmp(mn, want);
		}
		free(d.text);
	}
	return found;
}

static int add_closure(const struct depfile *d, const char *name, char (*out)[256], int *n,
		       int max, int depth)
{
	size_t llen;
	const char *line = dep_line(d, name, &llen);
	char buf[4096], *colon, *w, *rest;

	if (depth > 32)
		return error_set("module %s: dependency loop", name);
	if (!line)
		return 0;	/* built in (or unknown): nothing to load */
	if (llen >= sizeof(buf))
		return error_set("module %s: modules.dep line too long", name);
	memcpy(buf, line, llen);
	buf[llen] = '\0';
	colon = strchr(buf, ':');
	*colon = '\0';
	for (int i = 0; i < *n; i++)
		if (!strcmp(out[i], buf))
			return 0;
	/* Each dependency (with its own dependencies) before the module. */
	for (rest = colon + 1; (w = strsep(&rest, " ")) != NULL;) {
		char mn[128];
		if (!*w)
			continue;
		mod_name(w, mn, sizeof(mn));
		if (add_closure(d, mn, out, n, max, depth + 1))
			return -1;
	}
	for (int i = 0; i < *n; i++)
		if (!strcmp(out[i], buf))
			return 0;
	if (*n >= max || strlen(buf) >= 256)
		return error_set("module %s: too many dependencies", name);
	str_copy(out[(*n)++], 256, buf);
	return 0;
}

int vm_kernel_closure(const struct vm_kernel *k, const char *const *names, int nnames,
		      char (*out)[256], int max)
{
	char path[PATH_MAX + 32];
	struct depfile d;
	int n = 0, rc = 0;

	snprintf(path, sizeof(path), "%s/modules.dep", k->moddir);
	if (read_file(path, &d))
		return -1;
	for (int i = 0; i < nnames && !rc; i++) {
		char want[128];
		norm(names[i], want, sizeof(want));
		rc = add_closure(&d, want, out, &n, max, 0);
	}
	free(d.text);
	return rc ? -1 : n;
}

/* ---- fetching ---- */

/* What linux-image-amd64 (the metapackage) depends on: its version. */
static int default_version(char *out, size_t len)
{
	char text[65536], *argv[] = { "apt-cache", "depends", "linux-image-amd64", NULL };
	int rc = exec_capture(argv, text, sizeof(text));

	if (rc)
		return error_set("apt-cache depends linux-image-amd64 failed%s%s", rc > 0 ? ": " : "",
				 rc > 0 ? last_line(text) : "");
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *p = strstr(line, "Depends: linux-image-");
		if (p) {
			p += strlen("Depends: linux-image-");
			p[strcspn(p, " \t<>")] = '\0';
			if (*p && strlen(p) < len && !strchr(p, '/')) {
				str_copy(out, len, p);
				return 0;
			}
		}
	}
	return error_set("apt-cache: linux-image-amd64 names no kernel package");
}

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX];

	str_copy(tmp, sizeof(tmp), path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return error_errno("mkdir %s", tmp);
			*p = '/';
		}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return error_errno("mkdir %s", tmp);
	return 0;
}

int vm_kernel_version_check(const char *v)
{
	size_t n = strlen(v);

	/* Debian's: 6.1.0-57-amd64; it names a package and a directory */
	if (!n || n >= 100 || !isdigit((unsigned char)v[0]) ||
	    v[strspn(v, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-")])
		return error_set("bad kernel version '%.100s%s' (a Debian kernel's, such as "
				 "6.1.0-57-amd64)", v, n >= 100 ? "..." : "");
	return 0;
}

int vm_kernel_fetch(const char *version, char *got, size_t len)
{
	char dir[PATH_MAX], ver[128], pkg[160], work[PATH_MAX], unpack[PATH_MAX + 16],
		final[PATH_MAX + 160], deb[PATH_MAX + 300], out[8192];
	int rc = -1;

	if (version && vm_kernel_version_check(version))
		return -1;
	if (vm_kernel_cache_dir(dir, sizeof(dir)) || mkdirs(dir))
		return -1;
	if (version)
		str_copy(ver, sizeof(ver), version);
	else if (default_version(ver, sizeof(ver)))
		return -1;
	if (vm_kernel_version_check(ver))
		return -1;
	str_copy(got, len, ver);
	snprintf(final, sizeof(final), "%s/%s", dir, ver);
	if (is_dir(final)) {
		fprintf(stderr, "fsbench: kernel %s is already in %s\n", ver, dir);
		return 0;
	}
	snprintf(pkg, sizeof(pkg), "linux-image-%s", ver);
	/* A directory of ours for the download, named so that only fsbench's
	 * own scratch removal may take it away. */
	snprintf(work, sizeof(work), "%s/fsbench.XXXXXX", dir);
	if (!mkdtemp(work))
		return error_errno("mkdtemp in %s", dir);
	fprintf(stderr, "fsbench: downloading %s (apt-get download) into %s\n", pkg, dir);
	char *dl[] = { "apt-get", "download", "-q", pkg, NULL };
	if ((rc = exec_capture_at(work, dl, out, sizeof(out)))) {
		if (rc > 0)
			error_set("apt-get download %s failed: %s", pkg, tool_reason(out));
		rc = -1;
		goto done;
	}
	DIR *d = opendir(work);
	struct dirent *de;
	deb[0] = '\0';
	while (d && (de = readdir(d)))
		if (strstr(de->d_name, ".deb") && !strncmp(de->d_name, pkg, strlen(pkg)))
			snprintf(deb, sizeof(deb), "%s/%s", work, de->d_name);
	if (d)
		closedir(d);
	if (!deb[0]) {
		rc = error_set("apt-get download %s left no .deb", pkg);
		goto done;
	}
	/* Unpacked, never installed: nothing in /boot or /lib/modules. */
	snprintf(unpack, sizeof(unpack), "%s/root", work);
	char *x[] = { "dpkg-deb", "-x", deb, unpack, NULL };
	char *dm[] = { "depmod", "-b", unpack, ver, NULL };
	if ((rc = exec_capture(x, out, sizeof(out)))) {
		if (rc > 0)
			error_set("dpkg-deb -x %s failed: %s", deb, tool_reason(out));
		rc = -1;
		goto done;
	}
	if ((rc = exec_capture(dm, out, sizeof(out)))) {
		if (rc > 0)
			error_set("depmod -b %s %s failed: %s", unpack, ver, tool_reason(out));
		rc = -1;
		goto done;
	}
	if (rename(unpack, final)) {
		rc = error_errno("rename %s to %s", unpack, final);
		goto done;
	}
	fprintf(stderr, "fsbench: kernel %s unpacked into %s\n", ver, final);
	rc = 0;
done:
	if (scratch_remove_tree(work) && !rc)
		rc = -1;
	return rc;
}
