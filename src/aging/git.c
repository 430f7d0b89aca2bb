/*
 * git.c: the git-pull aging of Conway et al. (FAST'17, "File Systems
 * Fated for Senescence?"): the user's repository cloned onto the
 * filesystem being aged, then the last N commits of its branch checked
 * out one after another, oldest first, as a series of `git pull`s would
 * write them: each changed file written whole and renamed into place,
 * each removed one unlinked.  git itself does the work (exec'd with argv,
 * never a shell), so the write pattern is git's own.
 *
 * The user's repository is only read: the clone copies its objects
 * (--no-hardlinks, so nothing of the clone is an inode of theirs), and no
 * hook runs (core.hooksPath=/dev/null).  safe.directory=* lets root read a
 * repository another user owns, which is all this does with it.
 */
#define _GNU_SOURCE
#include "ager.h"
#include "../core/cpu.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/stop.h"
#include "../core/timing.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define HASH_MAX 64	/* sha256 repositories' ids */

/* git -c ... [-C clone] args...: its exit status, its output's tail in out. */
static int git(const char *clone, const char *const *args, char *out, size_t len)
{
	const char *argv[24] = { "git", "-c", "safe.directory=*", "-c", "core.hooksPath=/dev/null",
				 "-c", "advice.detachedHead=false" };
	int n = 7;

	if (clone) {
		argv[n++] = "-C";
		argv[n++] = clone;
	}
	for (int i = 0; args[i] && n < 23; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return exec_capture((char *const *)argv, out, len);
}

int age_git_run(const char *dir, const struct age_opts *o, struct age_result *res)
{
	const struct age_profile *p = o->profile;
	char clone[PATH_MAX], tail[2048], count[32];
	struct rusage ru0, ru1;
	struct stat st;
	uint64_t t0 = now_ns(), last = t0;
	char *list = NULL;
	int rc = -1;

	if (!o->repo)
		return error_set("aging: profile %s replays the commits of a repository: name one "
				 "with --age-repo DIR (fsbench ships none)", p->name);
	if (stat(o->repo, &st) || !S_ISDIR(st.st_mode))
		return error_set("--age-repo %s: not a directory", o->repo);
	if ((size_t)snprintf(clone, sizeof(clone), "%s/repo", dir) >= sizeof(clone))
		return error_set("aging: %s: path too long", dir);
	getrusage(RUSAGE_CHILDREN, &ru0);
	const char *cl[] = { "clone", "--quiet", "--no-checkout", "--no-hardlinks", "--",
			     o->repo, clone, NULL };
	if (git(NULL, cl, tail, sizeof(tail)))
		return error_set("aging: git clone %s: %s", o->repo, tool_reason(tail));
	/* the branch's last N first-parent commits, oldest first (git
	 * limits, then reverses) */
	size_t len = (size_t)p->commits * (HASH_MAX + 2) + 64;
	list = malloc(len);
	if (!list)
		return error_set("aging: out of memory");
	snprintf(count, sizeof(count), "--max-count=%u", p->commits);
	const char *rl[] = { "rev-list", "--first-parent", "--reverse", count, "HEAD", NULL };
	if (git(clone, rl, list, len)) {
		error_set("aging: git rev-list in the clone of %s: %s", o->repo, tool_reason(list));
		goto out;
	}
	size_t total = 0;
	for (char *s = list; *s; s++)
		total += *s == '\n';
	if (!total) {
		error_set("aging: %s has no commits to replay", o->repo);
		goto out;
	}
	char *save = NULL;
	for (char *id = strtok_r(list, "\n", &save); id; id = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(id);
		for (size_t i = 0; i < n; i++)
			if (!isxdigit((unsigned char)id[i]))
				n = 0;
		if (n < 40 || n > HASH_MAX) {
			error_set("aging: git rev-list gave '%.80s', not a commit id", id);
			goto out;
		}
		const char *co[] = { "checkout", "--quiet", "--force", "--detach", id, NULL };
		if (git(clone, co, tail, sizeof(tail))) {
			if (stop_requested())
				error_set("aging: interrupted");
			else
				error_set("aging: git checkout %s: %s", id, tool_reason(tail));
			goto out;
		}
		res->commits++;
		if (stop_requested()) {
			error_set("aging: interrupted");
			goto out;
		}
		uint64_t now = now_ns();
		if (o->progress && now - last > 500000000ull) {
			double done = (double)res->commits / (double)total;
			o->progress(o->arg, done, ns_to_s(now - t0) * (1 - done) / done);
			last = now;
		}
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd)) {
		error_errno("aging: syncfs %s", dir);
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	getrusage(RUSAGE_CHILDREN, &ru1);
	/* git's CPU, and what it wrote (the kernel counts it as it dirties
	 * pages, in 512-byte blocks) */
	res->user_s = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&ru0.ru_utime);
	res->sys_s = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&ru0.ru_stime);
	res->written = (uint64_t)(ru1.ru_oublock - ru0.ru_oublock) * 512;
	res->seconds = ns_to_s(now_ns() - t0);
	rc = 0;
out:
	free(list);
	return rc;
}
