/*
 * cmd-kernel.c: `fsbench kernel list|fetch [VERSION]`: the pinned kernels
 * that `run --vm` boots.
 *
 * fetch downloads a Debian kernel package (apt-get download) and unpacks
 * it (dpkg-deb -x, then depmod) into fsbench's cache; it never installs a
 * kernel into the host's /boot, so what the host boots does not change.
 */
#include "cli.h"
#include "../core/error.h"
#include "../vm/kernel.h"

#include <stdio.h>
#include <string.h>

struct kernel_args {
	int if_missing;
};

static const struct cli_opt kernel_args[] = {
	{ "if-missing", 0, 0, NULL, "fetch: do nothing when the cache already has a kernel",
	  CLI_FLAG, offsetof(struct kernel_args, if_missing) },
	{ NULL, 0, 0, NULL, NULL },
};

static int cmd_kernel(const struct cli_args *a)
{
	const char *what = cli_npos(a) ? cli_pos(a, 0) : "list";
	char versions[32][128], dir[4096], got[128];
	int n = vm_kernel_list(versions, 32);

	if (!strcmp(what, "list") && cli_npos(a) <= 1) {
		struct vm_kernel k;
		if (vm_kernel_cache_dir(dir, sizeof(dir)))
			return cli_fail(EXIT_FAIL, "%s", error_get());
		printf("kernel cache: %s\n", dir);
		for (int i = 0; i < n; i++)
			printf("  %s\n", versions[i]);
		if (!n)
			printf("  (empty: `fsbench kernel fetch` adds Debian's current kernel)\n");
		if (!vm_kernel_find(NULL, &k))
			printf("run --vm boots by default: %s (%s, %s)\n", k.version, k.source, k.vmlinuz);
		return EXIT_OK;
	}
	if (!strcmp(what, "fetch") && cli_npos(a) <= 2) {
		if (cli_npos(a) == 2 && vm_kernel_version_check(cli_pos(a, 1)))
			return cli_fail(EXIT_USAGE, "kernel fetch: %s", error_get());
		if (((const struct kernel_args *)a->opts)->if_missing && n > 0)
			return EXIT_OK;
		if (vm_kernel_fetch(cli_npos(a) == 2 ? cli_pos(a, 1) : NULL, got, sizeof(got)))
			return cli_fail(EXIT_FAIL, "kernel fetch: %s", error_get());
		return EXIT_OK;
	}
	return cli_fail(EXIT_USAGE, "kernel: give list, or fetch [VERSION] (e.g. 6.1.0-57-amd64)");
}

const struct cmd_entry cmd_kernel_entry = {
	.name = "kernel",
	.usage = "list | fetch [VERSION]",
	.summary = "the pinned kernels `run --vm` boots: list them, or fetch one",
	.about = "fetch downloads Debian's kernel package (linux-image-VERSION; by default the\n"
		 "one linux-image-amd64 names) and unpacks it into ~/.cache/fsbench/kernels\n"
		 "with its modules; nothing is installed on the host.\n",
	.args = kernel_args,
	.opts_size = sizeof(struct kernel_args),
	.exec = cmd_kernel,
};
