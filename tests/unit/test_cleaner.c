/*
 * test_cleaner.c: the cleaner fsbench runs while it ages NILFS2
 * (targets/cleaner.h), without NILFS2: its start refused or failed
 * cleanly, its stop only of the process recorded, the ager's hook on a
 * cleaner that has ended.  The daemon itself runs in fsbench's guest
 * (tests/integration/test_vm.sh).  What each test catches is said above it.
 */
#define _GNU_SOURCE
#include "testutil.h"

#include "core/error.h"
#include "targets/cleaner.h"
#include "targets/state.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

/* A process of the test's own to stand for the daemon: sleep, once it is
 * sleep (its exe no longer the test's). */
static pid_t spawn_sleep(char *exe, size_t len)
{
	char link[64];
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0) {
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)p);
	for (int i = 0; i < 2000; i++) {
		ssize_t n = readlink(link, exe, len - 1);
		exe[n > 0 ? n : 0] = '\0';
		if (strstr(exe, "sleep"))
			return p;
		usleep(1000);
	}
	fail_msg("sleep did not start");
	return p;
}

static int alive(pid_t p)
{
	return waitpid(p, NULL, WNOHANG) == 0;
}

static void reap(pid_t p)
{
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
}

/* Stopped only while the pid is still the process recorded: same start
 * time, same executable.  Catches: a pid reused by another process after
 * the daemon ended killed in its place (the rule: never undo what fsbench
 * did not make), and the daemon itself left running. */
static void test_stop_only_its_own(void **state)
{
	struct fs_cleaner c;
	char exe[PATH_MAX];
	int st = 0;

	(void)state;
	pid_t p = spawn_sleep(exe, sizeof(exe));
	memset(&c, 0, sizeof(c));
	c.root = -1;
	c.pid = p;
	c.start = state_proc_start(p) + 1;	/* another process's start */
	snprintf(c.exe, sizeof(c.exe), "%s", exe);
	cleaner_stop(&c);
	assert_true(alive(p));
	assert_int_equal(c.pid, 0);

	c.pid = p;
	c.start = state_proc_start(p);
	snprintf(c.exe, sizeof(c.exe), "/usr/sbin/nilfs_cleanerd");	/* another program */
	cleaner_stop(&c);
	assert_true(alive(p));

	c.pid = p;
	snprintf(c.exe, sizeof(c.exe), "%s", exe);
	cleaner_stop(&c);
	/* reaped by cleaner_stop (fsbench as the reaper), or a zombie here */
	pid_t w = waitpid(p, &st, WNOHANG);
	if (w == p)
		assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	else
		assert_true(w == -1 && errno == ECHILD);
	assert_int_equal(c.pid, 0);
}

/* The ager's hook on a cleaner that has ended says so.  Catches: an aging
 * that waits half a minute at every refusal for a daemon that is gone,
 * then blames the profile. */
static void test_reclaim_ended(void **state)
{
	struct fs_cleaner c;
	char exe[PATH_MAX];

	(void)state;
	pid_t p = spawn_sleep(exe, sizeof(exe));
	memset(&c, 0, sizeof(c));
	c.pid = p;
	c.start = state_proc_start(p);
	snprintf(c.exe, sizeof(c.exe), "%s", exe);
	c.root = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(c.root >= 0);
	reap(p);
	assert_int_equal(cleaner_reclaim(&c), -1);
	assert_non_null(strstr(error_get(), "has ended"));
	close(c.root);
}

/* A cleaner that is not installed, or that ends without saying its pid,
 * is an error that names it, and leaves nothing behind: its configuration
 * removed, no process recorded.  Catches: a missing nilfs-tools reported
 * as a full filesystem later, a configuration file left in the scratch
 * directory (it would make the next start fail on O_EXCL), a pid of 0 or
 * garbage taken for the daemon's. */
static void test_start_fails_cleanly(void **state)
{
	struct fs_cleaner c;

	(void)state;
	assert_int_equal(cleaner_start(&c, "fsbench-no-such-cleaner", dir, "/dev/null", dir), -1);
	assert_non_null(strstr(error_get(), "fsbench-no-such-cleaner is not installed"));
	assert_int_equal(cleaner_start(&c, "false", dir, "/dev/null", dir), -1);
	assert_non_null(strstr(error_get(), "did not start"));
	assert_int_equal(c.pid, 0);
	assert_int_equal(c.root, -1);
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 0);

	/* a file of that name already there (someone else's) is refused,
	 * and left as it was */
	char conf[600];
	snprintf(conf, sizeof(conf), "%s/nilfs_cleanerd.conf", dir);
	int fd = open(conf, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "decoy\n", 6), 6);
	close(fd);
	assert_int_equal(cleaner_start(&c, "false", dir, "/dev/null", dir), -1);
	struct stat st;
	assert_int_equal(stat(conf, &st), 0);
	assert_int_equal(st.st_size, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_only_its_own),
		cmocka_unit_test_setup_teardown(test_reclaim_ended, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_start_fails_cleanly, setup_dir, teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
