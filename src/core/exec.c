/* exec.c: running external tools with their output captured (see exec.h). */
#define _GNU_SOURCE
#include "exec.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int find_program(const char *name, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[4096];

	if (strchr(name, '/')) {
		snprintf(path, len, "%s", name);
		return access(path, X_OK) ? -1 : 0;
	}
	snprintf(dirs, sizeof(dirs), "%s:/usr/local/sbin:/usr/sbin:/sbin", env ? env : "/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(path, len, "%s/%s", d, name) < len && !access(path, X_OK))
			return 0;
	}
	return -1;
}

pid_t fork_worker(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)	/* died before prctl took effect */
			_exit(1);
	}
	return pid;
}

int split_words(char *buf, char **argv, int max)
{
	int n = 0;
	char *p = buf, *w;

	while (*p && n < max - 1) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		argv[n++] = w = p;
		for (char q = 0; *p && (q || (*p != ' ' && *p != '\t')); p++) {
			if (!q && (*p == '\'' || *p == '"'))
				q = *p;
			else if (q && *p == q)
				q = 0;
			else
				*w++ = *p;
		}
		if (*p)
			p++;
		*w = '\0';
	}
	argv[n] = NULL;
	return n;
}

const char *last_line(char *text)
{
	size_t n = strlen(text);

	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	char *nl = strrchr(text, '\n');
	return nl ? nl + 1 : text;
}

const char *tool_reason(char *text)
{
	char *usage = NULL, *prev = NULL, *line = text;

	/* mkfs.btrfs: "ERROR: ... too small"; mkfs.xfs: its reason, then
	 * "Usage: mkfs.xfs" and forty lines of options. */
	while (line && *line) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strcasestr(line, "error")) {
			return line;
		}
		if (!usage && !strncasecmp(line, "usage:", 6)) {
			usage = line;
			if (prev) {
				char *end = strchr(prev, '\n');
				if (end)
					*end = '\0';
				return prev;
			}
		}
		if (*line)
			prev = line;
		if (nl)
			*nl = '\n';
		line = nl ? nl + 1 : NULL;
	}
	return last_line(text);
}

int exec_capture(char *const argv[], char *out, size_t len)
{
	return exec_capture_at(NULL, argv, out, len);
}

int exec_capture_at(const char *cwd, char *const argv[], char *out, size_t len)
{
	char path[4096];
	int pipefd[2], status;
	pid_t pid;

	if (out && len)
		out[0] = '\0';
	if (find_program(argv[0], path, sizeof(path)))
		return error_set("%s: not found", argv[0]);
	if (pipe2(pipefd, O_CLOEXEC))
		return error_errno("pipe");
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return error_errno("fork");
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		if (cwd && chdir(cwd))
			_exit(127);
		execv(path, argv);
		_exit(127);
	}
	close(pipefd[1]);
	size_t used = 0;
	char buf[4096];
	ssize_t r;
	while ((r = read(pipefd[0], buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; out && len > 1 && i < r; i++) {
			if (used == len - 1) {	/* keep the tail: errors come last */
				memmove(out, out + len / 2, used - len / 2);
				used -= len / 2;
			}
			out[used++] = buf[i];
		}
	}
	if (out && len)
		out[used] = '\0';
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
