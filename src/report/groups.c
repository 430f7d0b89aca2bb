/*
 * groups.c: seed 003's grouping of a comparison's targets by compression.
 * The seed charts bonnie++ not over all fifteen filesystems at once but as
 * three questions: which filesystem is fastest without compression, which
 * algorithm is fastest on each filesystem, and which filesystem is fastest
 * for each algorithm.  Here a target's filesystem is its stored fstype and
 * its algorithm is read from the options it was mounted with (btrfs's
 * compress= or compress-force=, F2FS's compress_algorithm=; the level after
 * ':' dropped), or from its spec when no mount was recorded.  Renderers
 * draw each group as charts of its own (html.c); the data is the run's.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

/* The value of KEY in a comma-separated option list, up to ',' or ':'. */
static int option_value(const char *opts, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = opts; p && *p;) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1;
			size_t n = strcspn(v, ",:");
			if (!n || n >= len)
				return -1;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

void report_target_compression(const struct r_target *t, char *algo, size_t len)
{
	static const char *keys[] = { "compress", "compress-force", "compress_algorithm" };
	const char *lists[2] = { t->mount_opts, t->spec };

	snprintf(algo, len, "none");
	for (int l = 0; l < 2; l++) {
		/* a spec reads "btrfs:mount=compress=zstd" or a profile's name */
		const char *opts = lists[l];
		if (l && opts && strstr(opts, "mount="))
			opts = strstr(opts, "mount=") + 6;
		for (size_t k = 0; opts && k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!option_value(opts, keys[k], algo, len))
				return;
	}
	/* a profile named for its algorithm (btrfs-zstd) mounts with it; its
	 * options are in mount_opts, so only a run without them gets here */
}

static const char *fs_of(const struct r_target *t)
{
	return t->fstype && t->fstype[0] ? t->fstype : t->label;
}

static int add_group(struct report_group *g, int n, int max, const char *title,
		     const int *idx, int count)
{
	if (n >= max || count < 2)
		return n;
	snprintf(g[n].title, sizeof(g[n].title), "%.127s", title);
	g[n].n = count < REPORT_GROUP_MAX ? count : REPORT_GROUP_MAX;
	memcpy(g[n].idx, idx, sizeof(int) * (size_t)g[n].n);
	return n + 1;
}

int report_compression_groups(const struct result *r, struct report_group *g, int max)
{
	int nt = r->ntargets < REPORT_GROUP_MAX ? r->ntargets : REPORT_GROUP_MAX;
	char algo[REPORT_GROUP_MAX][32];
	int idx[REPORT_GROUP_MAX], n = 0, any = 0, count;
	char title[128];

	for (int i = 0; i < nt; i++) {
		report_target_compression(&r->targets[i], algo[i], sizeof(algo[i]));
		any |= strcmp(algo[i], "none") != 0;
	}
	if (!any || nt < 3)	/* nothing to group by, or the flat chart says it */
		return 0;
	count = 0;
	for (int i = 0; i < nt; i++)
		if (!strcmp(algo[i], "none"))
			idx[count++] = i;
	n = add_group(g, n, max, "Without compression: each filesystem", idx, count);
	/* each filesystem's algorithms, its uncompressed self included */
	for (int i = 0; i < nt; i++) {
		int first = 1;
		for (int k = 0; k < i; k++)
			first &= strcmp(fs_of(&r->targets[k]), fs_of(&r->targets[i])) != 0;
		if (!first)
			continue;
		count = 0;
		for (int k = i; k < nt; k++)
			if (!strcmp(fs_of(&r->targets[k]), fs_of(&r->targets[i])))
				idx[count++] = k;
		snprintf(title, sizeof(title), "%.80s: each compression algorithm", fs_of(&r->targets[i]));
		if (count >= 2) {
			int compressed = 0;
			for (int k = 0; k < count; k++)
				compressed |= strcmp(algo[idx[k]], "none") != 0;
			if (compressed)
				n = add_group(g, n, max, title, idx, count);
		}
	}
	/* each algorithm on every filesystem that has it */
	for (int i = 0; i < nt; i++) {
		int first = strcmp(algo[i], "none") != 0;
		for (int k = 0; first && k < i; k++)
			first = strcmp(algo[k], algo[i]) != 0;
		if (!first)
			continue;
		count = 0;
		for (int k = i; k < nt; k++)
			if (!strcmp(algo[k], algo[i]))
				idx[count++] = k;
		snprintf(title, sizeof(title), "%.31s: each filesystem", algo[i]);
		n = add_group(g, n, max, title, idx, count);
	}
	return n;
}
