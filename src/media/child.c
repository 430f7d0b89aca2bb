/* child.c: a modelled medium's helper processes (see child.h). */
#define _GNU_SOURCE
#include "child.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"
#include "../targets/state.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static int still_it(const struct media_child *c)
{
	return c->pid > 0 && state_proc_is((long)c->pid, c->exe, c->start);
}

int media_child_start(struct media_child *c, const char *program, char **argv, int deathsig,
		      int (*ready)(void *arg), void *arg, const char *what)
{
	char path[PATH_MAX], out[256];
	int fds[2], status, recorded = 0;

	memset(c, 0, sizeof(*c));
	if (find_program(program, path, sizeof(path)) || !realpath(path, c->exe))
		return error_set("%s needs %s (scripts/install-deps)", what, program);
	argv[0] = path;
	if (pipe2(fds, O_CLOEXEC))
		return error_errno("pipe");
	pid_t parent = getpid();
	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		close(fds[0]);
		close(fds[1]);
		return error_errno("fork");
	}
	if (c->pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (deathsig) {
			prctl(PR_SET_PDEATHSIG, deathsig);
			if (getppid() != parent)
				_exit(127);
		}
		dup2(null, 0);
		dup2(null, 1);
		dup2(fds[1], 2);
		execv(path, argv);
		_exit(127);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	snprintf(c->proc, sizeof(c->proc), "/proc/%d", (int)c->pid);
	for (int i = 0; i < 2000; i++) {
		if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
			ssize_t n = read(fds[0], out, sizeof(out) - 1);
			out[n > 0 ? n : 0] = '\0';
			out[strcspn(out, "\n")] = '\0';
			close(fds[0]);
			if (recorded)
				state_remove(STATE_PROC, c->proc);
			c->pid = 0;
			return error_set("%s did not start: %s", what, out[0] ? out : "it said nothing");
		}
		if (!recorded) {
			c->start = state_proc_start((long)c->pid);
			if (c->start && still_it(c)) {
				if (state_add(STATE_PROC, c->proc, c->exe, c->start, 0)) {
					kill(c->pid, SIGKILL);
					waitpid(c->pid, NULL, 0);
					close(fds[0]);
					c->pid = 0;
					return -1;
				}
				recorded = 1;
			}
		} else if (ready(arg)) {
			close(fds[0]);
			return 0;
		}
		nap(5);
	}
	close(fds[0]);
	media_child_stop(c, 1, 1000);
	return error_set("%s did not get ready within 10 s", what);
}

void media_child_stop(struct media_child *c, int term, int wait_ms)
{
	if (c->pid > 0) {
		int i, gone = 0;
		if (term && (still_it(c) || !c->start))
			kill(c->pid, SIGTERM);
		for (i = 0; i < wait_ms / 10 && !(gone = waitpid(c->pid, NULL, WNOHANG) == c->pid); i++)
			nap(10);
		if (!gone) {
			if (still_it(c))
				kill(c->pid, SIGKILL);
			waitpid(c->pid, NULL, 0);
		}
	}
	if (c->proc[0])
		state_remove(STATE_PROC, c->proc);
	c->proc[0] = '\0';
	c->pid = 0;
}
