/*
 * cmd-sysinfo.c: `fsbench sysinfo [DIR...]`: the system table, and for each
 * directory (default: the current one) its file system, mount options,
 * disk and I/O scheduler -- what every stored run records.
 */
#include "cli.h"
#include "../core/error.h"
#include "../core/sysinfo.h"

#include <string.h>

static int cmd_sysinfo(const struct cli_args *a)
{
	struct sysinfo si;
	struct sysfield f[8];
	int n, rc = EXIT_OK, ndirs = cli_npos(a);
	sysinfo_collect("", &si);
	n = sysinfo_fields(&si, f);
	for (int i = 0; i < n; i++)
		printf("%-14s %s\n", f[i].name, f[i].value);
	for (int i = 0; i < ndirs || i == 0; i++) {
		const char *dir = i < ndirs ? cli_pos(a, i) : ".";
		struct fsinfo fi;
		if (fsinfo_collect("", dir, &fi)) {
			rc = cli_fail(EXIT_USAGE, "sysinfo: cannot describe %s: no such directory or mount",
				      dir);
			continue;
		}
		printf("\n%s:\n", dir);
		printf("%-14s %s\n%-14s %s on %s\n%-14s %s\n%-14s %s\n%-14s %s\n",
		       "File-System", fi.fstype, "Mount", fi.mount_source, fi.mount_point,
		       "Mount Options", fi.mount_opts, "Disk", fi.disk, "I/O Scheduler",
		       fi.scheduler);
		if (i >= ndirs)
			break;
	}
	return rc;
}

const struct cmd_entry cmd_sysinfo_entry = {
	.name = "sysinfo",
	.usage = "[DIR...]",
	.summary = "print the system table and each directory's file system",
	.exec = cmd_sysinfo,
};
