/*
 * kernel.h: the pinned kernels fsbench boots its virtual machines with.
 *
 * A kernel is a bzImage plus its module tree.  fsbench never installs a
 * kernel on the host (that would change what the host boots): `fsbench
 * kernel fetch` downloads a Debian kernel package and unpacks it into
 * fsbench's cache, ~/.cache/fsbench/kernels/VERSION/{boot,lib/modules},
 * then runs depmod there.  The guest loads modules from that tree with
 * `modprobe -d ROOT`; the initramfs carries only what reaches the host.
 */
#ifndef FSB_VM_KERNEL_H
#define FSB_VM_KERNEL_H

#include <limits.h>
#include <stddef.h>

struct vm_kernel {
	char version[128];	/* "6.1.0-57-amd64", read from the bzImage */
	char vmlinuz[PATH_MAX];
	char root[PATH_MAX];	/* modprobe -d ROOT: ROOT/lib/modules/VERSION */
	char moddir[PATH_MAX];	/* ROOT/lib/modules/VERSION */
	const char *source;	/* "cache", "host", "path" */
};

/* fsbench's kernel cache directory (not created). */
int vm_kernel_cache_dir(char *out, size_t len);
/* `want`: NULL (the host's running kernel when its image and modules are
 * there, else the newest cached one), a version, or a vmlinuz path. */
int vm_kernel_find(const char *want, struct vm_kernel *k);
/* Cached kernels' versions, newest first; returns how many (<= max). */
int vm_kernel_list(char (*versions)[128], int max);
/* The version string a bzImage carries in its setup header. */
int vm_kernel_image_version(const char *vmlinuz, char *out, size_t len);
/* A version fsbench may name a package and a cache directory after:
 * 0, or -1 with the error set. */
int vm_kernel_version_check(const char *v);
/* Download (apt-get download) and unpack the Debian kernel package for
 * `version` ("6.1.0-57-amd64"; NULL: what linux-image-amd64 depends on)
 * into the cache.  Prints what it does on stderr. */
int vm_kernel_fetch(const char *version, char *got, size_t len);

/* Is module `name` (f2fs, nandsim; '-' and '_' alike) in this kernel,
 * built in or as a module?  1 yes, 0 no. */
int vm_kernel_has(const struct vm_kernel *k, const char *name);
/* The modules `names` need, dependencies first, as paths relative to
 * moddir; returns how many, -1 with the error set. */
int vm_kernel_closure(const struct vm_kernel *k, const char *const *names, int nnames,
		      char (*out)[256], int max);

#endif
