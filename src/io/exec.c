/*
 * exec.c: a program run beside the other jobs, no I/O of its own (fio's
 * exec engine): a monitor (turbostat, iostat) over a job's runtime, or a
 * load of another kind.  As fio's: program= and arguments= (split at
 * spaces, no shell; %r is the runtime in seconds, %n the job's name),
 * its output into NAME.stdout and NAME.stderr in the working directory
 * unless std_redirect=0, SIGTERM once the runtime is over (or when the
 * job is stopped), grace_time seconds, then SIGKILL.  Without a runtime
 * the job lasts as long as the program.
 *
 * fsbench's own rules: the program is recorded in the state file once it
 * is that program (fsbench cleanup kills it after a SIGKILL of fsbench)
 * and dies with the I/O thread that started it (PR_SET_PDEATHSIG); the
 * output files are never opened through a symbolic link; and only
 * `fsbench io` starts programs: a run refuses the engine (paths.c).
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "io_internal.h"
#include "../core/error.h"
#include "../core/exec.h"
#include "../core/str.h"
#include "../core/timing.h"
#include "../targets/state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXEC_ARGS_MAX 64

struct exec_opts {
	char program[160];
	char arguments[320];
	int64_t grace_time;
	bool std_redirect;
};
_Static_assert(sizeof(struct exec_opts) <= ENGINE_OPTS_MAX, "room in a job");

#define X(f) offsetof(struct exec_opts, f)
static const struct param_def exec_options[] = {
	PARAM_STRING("program", struct exec_opts, program, "",
		     "exec: the program to run (a path, or a name looked up in PATH)"),
	PARAM_STRING("arguments", struct exec_opts, arguments, "",
		     "exec: its arguments, split at spaces (%r: the runtime in seconds, %n: the job's name)"),
	{ "grace_time", PT_INT, X(grace_time), "1", 0, 3600, NULL,
	  "exec: seconds between SIGTERM at the runtime's end and SIGKILL" },
	{ "std_redirect", PT_BOOL, X(std_redirect), "1", 0, 0, NULL,
	  "exec: its stdout and stderr into NAME.stdout and NAME.stderr (0: fsbench's own)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

/* arguments with %r and %n replaced, into out; -1 when it would not fit */
static int expand(const struct io_options *o, const char *in, char *out, size_t len)
{
	char runtime[32];
	size_t n = 0;

	snprintf(runtime, sizeof(runtime), "%lld", (long long)o->runtime);
	for (const char *p = in; *p; p++) {
		const char *with = NULL;
		if (p[0] == '%' && p[1] == 'r')
			with = runtime;
		else if (p[0] == '%' && p[1] == 'n')
			with = o->name;
		if (with) {
			size_t k = strlen(with);
			if (n + k >= len)
				return -1;
			memcpy(out + n, with, k);
			n += k;
			p++;
			continue;
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = *p;
	}
	out[n] = '\0';
	return 0;
}

static int open_output(const char *name, const char *suffix)
{
	char path[PARAM_STR_MAX + 16];

	snprintf(path, sizeof(path), "%s.%s", name, suffix);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		error_errno("exec: cannot open %s", path);
	return fd;
}

static int exec_init(struct io_thread *t)
{
	const struct exec_opts *eo = io_engine_opts(t->o);

	if (!eo->program[0])
		return error_set("ioengine=exec needs program= (the program to run)");
	return 0;
}

/* The job: the program started, watched until it ends or the runtime
 * does, then stopped as fio stops it. */
static int exec_run(struct io_thread *t)
{
	const struct exec_opts *eo = io_engine_opts(t->o);
	char path[PATH_MAX], args[sizeof(eo->arguments) + 256], *argv[EXEC_ARGS_MAX + 2];
	char proc[64] = "", exe[PATH_MAX];
	unsigned long long start = 0;
	int outfd = -1, errfd = -1, argc = 0, status, rc = 0;
	bool recorded = false, ended = false;
	pid_t pid;

	if (strchr(eo->program, '/'))
		str_copy(path, sizeof(path), eo->program);
	else if (find_program(eo->program, path, sizeof(path)))
		return error_set("exec: no program '%s' in PATH", eo->program);
	if (!realpath(path, exe))
		return error_errno("exec: %s", path);
	if (expand(t->o, eo->arguments, args, sizeof(args)))
		return error_set("exec: the arguments are too long once expanded");
	char args_said[sizeof(args)];
	str_copy(args_said, sizeof(args_said), args);	/* strtok_r cuts args */
	argv[argc++] = path;
	for (char *save = NULL, *w = strtok_r(args, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (argc > EXEC_ARGS_MAX)
			return error_set("exec: more than %d arguments", EXEC_ARGS_MAX);
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	if (eo->std_redirect &&
	    ((outfd = open_output(t->o->name, "stdout")) < 0 ||
	     (errfd = open_output(t->o->name, "stderr")) < 0)) {
		if (outfd >= 0)
			close(outfd);
		return -1;
	}
	/* what fio says as the job starts, on its output */
	if (eo->std_redirect)
		printf("%s : Saving output of %s %s : stdout=%s.stdout stderr=%s.stderr\n", t->o->name,
		       eo->program, args_said, t->o->name, t->o->name);
	else
		printf("%s : Running %s %s\n", t->o->name, eo->program, args_said);
	fflush(stdout);
	pid_t parent = getpid();
	pid = fork();
	if (pid == 0) {
		/* it ends with the thread that started it, whatever ends that */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		if (outfd >= 0) {
			dup2(outfd, 1);
			dup2(errfd, 2);
		}
		execv(path, argv);
		_exit(127);
	}
	if (outfd >= 0) {
		close(outfd);
		close(errfd);
	}
	if (pid < 0)
		return error_errno("exec: fork");
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	/* watched every 50 ms, as fio's thinktime for it */
	for (;;) {
		uint64_t now = now_ns();
		if (waitpid(pid, &status, WNOHANG) == pid) {
			ended = true;
			break;
		}
		if (!recorded) {
			start = state_proc_start((long)pid);
			if (start && state_proc_is((long)pid, exe, start)) {
				if (state_add(STATE_PROC, proc, exe, start, 0)) {
					rc = -1;
					break;
				}
				recorded = true;
			}
		}
		if (now >= t->deadline || io_stopping(t))
			break;
		uint64_t next = now + 50000000ULL;
		io_sleep_until(t, next < t->deadline ? next : t->deadline);
	}
	if (!ended) {
		kill(pid, SIGTERM);
		uint64_t until = now_ns() + (uint64_t)eo->grace_time * 1000000000ULL;
		while (!(ended = waitpid(pid, &status, WNOHANG) == pid) && now_ns() < until) {
			struct timespec ts = { 0, 10000000 };
			nanosleep(&ts, NULL);
		}
		if (!ended) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
		}
	}
	if (recorded)
		state_remove(STATE_PROC, proc);
	if (!rc && ended && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		rc = error_set("exec: %s could not be run", path);
	return rc;
}

const struct io_engine_ops engine_exec = {
	.name = "exec",
	.title = "Exec",
	.help = "runs program= (with arguments=) for the job's runtime, no I/O of its own (a "
		"monitor or another load beside the other jobs); fsbench io only",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_RUNS_PROGRAM,
	.options = exec_options,
	.options_size = sizeof(struct exec_opts),
	.init = exec_init,
	.run = exec_run,
};
