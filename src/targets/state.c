/* state.c: the leftovers record (see state.h); cleanup.c undoes what it lists. */
#define _GNU_SOURCE
#include "state.h"
#include "../core/error.h"
#include "../core/str.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER "fsbench-state 2"
/* Seven fields, two of them paths that may triple in length when encoded. */
#define LINE_MAX_LEN (6 * PATH_MAX + 256)

const char *state_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("FSBENCH_STATE"), *home = getenv("HOME");
	const char *xdg = getenv("XDG_STATE_HOME");

	if (env && *env)
		snprintf(path, sizeof(path), "%s", env);
	else if (geteuid() == 0)
		snprintf(path, sizeof(path), "/var/lib/fsbench/state");
	else if (xdg && *xdg)
		snprintf(path, sizeof(path), "%s/fsbench/state", xdg);
	else
		snprintf(path, sizeof(path), "%s/.local/state/fsbench/state", home ? home : "/tmp");
	return path;
}

/* ---- the line format ---- */

/* Bytes written as themselves; everything else (blanks, %, controls,
 * non-ASCII) as %XX, so a field never contains a space or a newline. */
static int plain_byte(unsigned char c)
{
	return isalnum(c) || strchr("._/:+=@,-~", c);
}

static int put_field(char *buf, size_t len, size_t *used, const char *s, int last)
{
	if (!strcmp(s, "-")) {		/* "-" itself, not the empty field */
		s = "";
		if (*used + 4 >= len)
			return -1;
		*used += (size_t)snprintf(buf + *used, len - *used, "%%2D");
	} else if (!*s) {		/* an empty field is "-" so it still counts */
		if (*used + 2 >= len)
			return -1;
		buf[(*used)++] = '-';
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*used + 4 >= len)
			return -1;
		if (plain_byte(*p))
			buf[(*used)++] = (char)*p;
		else
			*used += (size_t)snprintf(buf + *used, len - *used, "%%%02X", *p);
	}
	if (*used + 2 >= len)
		return -1;
	buf[(*used)++] = last ? '\n' : ' ';
	buf[*used] = '\0';
	return 0;
}

int state_format_line(const struct state_entry *e, char *buf, size_t len)
{
	char num[3][32];
	size_t used = 0;

	snprintf(num[0], sizeof(num[0]), "%ld", e->pid);
	snprintf(num[1], sizeof(num[1]), "%llu", e->start);
	if (!len || put_field(buf, len, &used, num[0], 0) || put_field(buf, len, &used, num[1], 0) ||
	    put_field(buf, len, &used, e->kind, 0) || put_field(buf, len, &used, e->arg, 0) ||
	    put_field(buf, len, &used, e->arg2, 0))
		return -1;
	snprintf(num[0], sizeof(num[0]), "%" PRIu64, e->dev);
	snprintf(num[2], sizeof(num[2]), "%" PRIu64, e->ino);
	if (put_field(buf, len, &used, num[0], 0) || put_field(buf, len, &used, num[2], 1))
		return -1;
	return (int)used;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decode one field of n bytes into out (len with the NUL). */
static int get_field(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	if (n == 1 && s[0] == '-') {
		out[0] = '\0';
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == '%') {
			if (i + 2 >= n)		/* fewer than two hex digits left */
				return -1;
			int hi = hexval((unsigned char)s[i + 1]);
			int lo = hexval((unsigned char)s[i + 2]);
			if (hi < 0 || lo < 0 || (c = hi * 16 + lo) == 0)
				return -1;
			i += 2;
		} else if (!plain_byte((unsigned char)c)) {
			return -1;
		}
		if (o + 1 >= len)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return n ? 0 : -1;
}

static int get_number(const char *s, size_t n, unsigned long long max, unsigned long long *v)
{
	char buf[24], *end;

	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

int state_parse_line(const char *line, struct state_entry *e)
{
	const char *f[7];
	size_t n[7];
	const char *p = line;
	unsigned long long v;

	memset(e, 0, sizeof(*e));
	for (int i = 0; i < 7; i++) {
		f[i] = p;
		n[i] = strcspn(p, " \n");
		p += n[i];
		if (i < 6 && *p != ' ')
			return error_set("state entry with fewer than 7 fields");
		if (i < 6)
			p++;
	}
	if (*p == '\n')
		p++;
	if (*p)
		return error_set("state entry with more than 7 fields");
	if (get_number(f[0], n[0], 0x7fffffff, &v) || v == 0)
		return error_set("state entry: bad pid");
	e->pid = (long)v;
	if (get_number(f[1], n[1], ~0ULL, &e->start))
		return error_set("state entry: bad start time");
	if (get_field(f[2], n[2], e->kind, sizeof(e->kind)) ||
	    (strcmp(e->kind, STATE_DIR) && strcmp(e->kind, STATE_LOOP) &&
	     strcmp(e->kind, STATE_MOUNT) && strcmp(e->kind, STATE_CGROUP) &&
	     strcmp(e->kind, STATE_PROC) && strcmp(e->kind, STATE_RUN) &&
	     strcmp(e->kind, STATE_DM) && strcmp(e->kind, STATE_FILE)))
		return error_set("state entry: unknown kind");
	if (get_field(f[3], n[3], e->arg, sizeof(e->arg)) || e->arg[0] != '/')
		return error_set("state entry: bad path");
	if (get_field(f[4], n[4], e->arg2, sizeof(e->arg2)))
		return error_set("state entry: bad second field");
	if (get_number(f[5], n[5], ~0ULL, &v))
		return error_set("state entry: bad device number");
	e->dev = v;
	if (get_number(f[6], n[6], ~0ULL, &v))
		return error_set("state entry: bad inode number");
	e->ino = v;
	return 0;
}

unsigned long long state_proc_stat(long pid, char *state)
{
	char p[64], buf[1024], *rp;
	unsigned long long start = 0;
	ssize_t n;
	int fd;

	if (state)
		*state = 0;
	if (pid <= 0)
		return 0;
	snprintf(p, sizeof(p), "/proc/%ld/stat", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* The command name may hold anything; the fields follow its last ')'. */
	rp = strrchr(buf, ')');
	if (!rp)
		return 0;
	if (state && rp[1] == ' ')
		*state = rp[2];	/* field 3 */
	/* Field 22 is starttime; fields 3.. follow ") ". */
	char *save = NULL, *tok = strtok_r(rp + 1, " ", &save);
	for (int field = 3; tok && field < 22; field++)
		tok = strtok_r(NULL, " ", &save);
	if (tok)
		start = strtoull(tok, NULL, 10);
	return start;
}

unsigned long long state_proc_start(long pid)
{
	return state_proc_stat(pid, NULL);
}

/* ---- the file ---- */

static void make_parents(const char *path)
{
	char dir[PATH_MAX];

	str_copy(dir, sizeof(dir), path);
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
}

/* Open and lock the state file; NULL with the error set.  A file that is
 * not a regular file of ours, writable by nobody else, is refused: its
 * entries decide what fsbench unmounts and deletes as root.  Each update
 * renames a new file over the path, so a lock won on a file the path no
 * longer names is let go and the path opened again. */
static FILE *open_locked(int create)
{
	struct stat st, now;
	int fd;
	FILE *f;

	if (create)
		make_parents(state_path());
	for (;;) {
		fd = open(state_path(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0),
			  0600);
		if (fd < 0) {
			error_errno("cannot open the state file %s (FSBENCH_STATE names another)",
				    state_path());
			return NULL;
		}
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    (st.st_mode & 022)) {
			close(fd);
			error_set("refusing the state file %s: not a regular file owned by uid %d and "
				  "writable by it alone", state_path(), (int)geteuid());
			return NULL;
		}
		while (flock(fd, LOCK_EX) && errno == EINTR)
			;
		if (!lstat(state_path(), &now) && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
			break;
		close(fd);
	}
	f = fdopen(fd, "r+");
	if (!f) {
		close(fd);
		error_errno("cannot open the state file %s", state_path());
	}
	return f;
}

/* Read every entry; a file in another format or with a bad line is
 * refused whole, never half-trusted. */
static int read_all(FILE *f, struct state_entry **out, int *n)
{
	char *line = malloc(LINE_MAX_LEN);
	int cap = 0, lineno = 0, rc = 0;

	*out = NULL;
	*n = 0;
	if (!line)
		return error_set("out of memory");
	rewind(f);
	while (fgets(line, LINE_MAX_LEN, f)) {
		struct state_entry e;
		lineno++;
		if (!strchr(line, '\n')) {
			rc = error_set("state file %s: line %d is too long or unterminated",
				       state_path(), lineno);
			break;
		}
		if (lineno == 1) {
			if (strcmp(line, HEADER "\n")) {
				rc = error_set("state file %s is not in fsbench's current format; "
					       "undo what it lists by hand, then remove it", state_path());
				break;
			}
			continue;
		}
		if (state_parse_line(line, &e)) {
			char why[256];
			str_copy(why, sizeof(why), error_get());
			rc = error_set("state file %s: line %d: %s; fix or remove that line by hand",
				       state_path(), lineno, why);
			break;
		}
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct state_entry *ne = realloc(*out, sizeof(**out) * (size_t)cap);
			if (!ne) {
				rc = error_set("out of memory");
				break;
			}
			*out = ne;
		}
		(*out)[(*n)++] = e;
	}
	free(line);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* The new entries go to a file of their own beside the state file, which
 * is then renamed over it: a process killed (or a power cut) mid-update
 * leaves the old list or the new one whole, never an empty file that
 * would forget what is mounted.  The caller holds the lock on the old
 * file until after the rename, so no other process reads in between. */
static int write_all(const struct state_entry *e, int n)
{
	char tmp[PATH_MAX + 16], dir[PATH_MAX], *line, *slash;
	int rc = 0, fd, dfd;
	FILE *out;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", state_path()) >= (int)sizeof(tmp))
		return error_set("state file path too long: %s", state_path());
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return error_errno("cannot rewrite %s", state_path());
	out = fdopen(fd, "w");
	line = malloc(LINE_MAX_LEN);
	if (!out || !line) {
		rc = out ? error_set("out of memory") : error_errno("cannot rewrite %s", state_path());
		if (out)
			fclose(out);
		else
			close(fd);
		free(line);
		unlink(tmp);
		return rc;
	}
	fputs(HEADER "\n", out);
	for (int i = 0; i < n && !rc; i++)
		if (state_format_line(&e[i], line, LINE_MAX_LEN) < 0 || fputs(line, out) < 0)
			rc = error_set("cannot record an entry in %s", state_path());
	free(line);
	if (fflush(out) || fsync(fileno(out)))
		rc = rc ? rc : error_errno("cannot write %s", state_path());
	if (fclose(out))
		rc = rc ? rc : error_errno("cannot write %s", state_path());
	if (!rc && rename(tmp, state_path()))
		rc = error_errno("cannot replace %s", state_path());
	if (rc) {
		unlink(tmp);
		return rc;
	}
	/* The rename itself survives a power cut once the directory is synced. */
	str_copy(dir, sizeof(dir), state_path());
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

/* Read, change and write back under the lock. */
static int update(int (*fn)(struct state_entry **e, int *n, void *arg), void *arg, int create)
{
	struct state_entry *e = NULL;
	int n = 0, rc;
	FILE *f = open_locked(create);

	if (!f)
		return -1;
	rc = read_all(f, &e, &n);
	if (!rc)
		rc = fn(&e, &n, arg);
	if (!rc)
		rc = write_all(e, n);
	free(e);
	fclose(f);
	return rc;
}

struct change {
	const char *kind, *arg, *arg2;
	uint64_t dev, ino;
};

static int do_add(struct state_entry **e, int *n, void *arg)
{
	const struct change *c = arg;
	struct state_entry *ne = realloc(*e, sizeof(**e) * (size_t)(*n + 1)), *x;

	if (!ne)
		return error_set("out of memory");
	*e = ne;
	x = &ne[(*n)++];
	memset(x, 0, sizeof(*x));
	x->pid = (long)getpid();
	x->start = state_proc_start(x->pid);
	str_copy(x->kind, sizeof(x->kind), c->kind);
	if (strlen(c->arg) >= sizeof(x->arg) || strlen(c->arg2) >= sizeof(x->arg2))
		return error_set("path too long to record: %s", c->arg);
	str_copy(x->arg, sizeof(x->arg), c->arg);
	str_copy(x->arg2, sizeof(x->arg2), c->arg2);
	x->dev = c->dev;
	x->ino = c->ino;
	return 0;
}

int state_add(const char *kind, const char *arg, const char *arg2, uint64_t dev, uint64_t ino)
{
	struct change c = { kind, arg, arg2 ? arg2 : "", dev, ino };

	if (arg[0] != '/')
		return error_set("cannot record '%s': not an absolute path", arg);
	if (update(do_add, &c, 1))
		return error_prefix("cannot record what fsbench makes");
	return 0;
}

static int mine(const struct state_entry *x, const struct change *c)
{
	return x->pid == (long)getpid() && !strcmp(x->kind, c->kind) && !strcmp(x->arg, c->arg);
}

static int do_set_id(struct state_entry **e, int *n, void *arg)
{
	const struct change *c = arg;

	for (int i = 0; i < *n; i++)
		if (mine(&(*e)[i], c)) {
			(*e)[i].dev = c->dev;
			(*e)[i].ino = c->ino;
		}
	return 0;
}

int state_set_id(const char *kind, const char *arg, uint64_t dev, uint64_t ino)
{
	struct change c = { kind, arg, NULL, dev, ino };

	return update(do_set_id, &c, 0);
}

static int do_remove(struct state_entry **e, int *n, void *arg)
{
	const struct change *c = arg;
	int k = 0;

	for (int i = 0; i < *n; i++)
		if (!mine(&(*e)[i], c))
			(*e)[k++] = (*e)[i];
	*n = k;
	return 0;
}

int state_remove(const char *kind, const char *arg)
{
	struct change c = { kind, arg, NULL, 0, 0 };

	return update(do_remove, &c, 0);
}

int state_proc_is(long pid, const char *exe, unsigned long long start)
{
	char link[64], now[PATH_MAX];

	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	ssize_t n = readlink(link, now, sizeof(now) - 1);
	now[n > 0 ? n : 0] = '\0';
	return n > 0 && !strcmp(now, exe) && state_proc_start(pid) == start;
}

/* The recording process still runs: same pid and same start time, and
 * not a zombie (killed, its parent not yet waiting for it: what it made
 * is already a leftover). */
static int alive(const struct state_entry *e)
{
	char st = 0;
	unsigned long long now = state_proc_stat(e->pid, &st);

	if (st == 'Z' || st == 'X')
		return 0;

	if (e->start)
		return now == e->start;
	return e->pid > 0 && (kill((pid_t)e->pid, 0) == 0 || errno == EPERM);
}

/* Open, lock and read an existing state file: 1 with *f locked and the
 * entries read, 0 when there is none, -1 (error set) when it is refused. */
static int open_existing(FILE **f, struct state_entry **e, int *n)
{
	if (access(state_path(), F_OK))
		return 0;
	*f = open_locked(0);
	if (!*f)
		return -1;
	if (read_all(*f, e, n)) {
		fclose(*f);
		return -1;
	}
	return 1;
}

long state_run_owner(const char *store, const char *id)
{
	struct state_entry *e;
	int n, rc;
	long pid = 0;
	FILE *f;

	if ((rc = open_existing(&f, &e, &n)) <= 0)
		return rc;
	for (int i = 0; i < n && !pid; i++)
		if (!strcmp(e[i].kind, STATE_RUN) && !strcmp(e[i].arg, store) &&
		    !strcmp(e[i].arg2, id) && alive(&e[i]))
			pid = e[i].pid;
	free(e);
	fclose(f);
	return pid;
}

int state_leftovers(void)
{
	struct state_entry *e;
	int n, dead = 0, rc;
	FILE *f;

	if ((rc = open_existing(&f, &e, &n)) <= 0)
		return rc;
	for (int i = 0; i < n; i++)
		dead += !alive(&e[i]);
	free(e);
	fclose(f);
	return dead;
}

int state_sweep(enum state_outcome (*undo)(const struct state_entry *e, char *why, size_t len),
		void (*fn)(const struct state_entry *e, enum state_outcome what, const char *why,
			   void *arg),
		void *arg)
{
	struct state_entry *e;
	int n, k = 0, failed = 0, rc;
	FILE *f;

	if ((rc = open_existing(&f, &e, &n)) <= 0)
		return rc;
	char *keep = calloc((size_t)n + 1, 1);
	if (!keep) {
		free(e);
		fclose(f);
		return error_set("out of memory");
	}
	/* Newest first: a mount before its loop device before its directory. */
	for (int i = n - 1; i >= 0; i--) {
		char why[PATH_MAX + 256];
		if (alive(&e[i])) {
			keep[i] = 1;
			continue;
		}
		enum state_outcome what = undo(&e[i], why, sizeof(why));
		if (fn)
			fn(&e[i], what, why, arg);
		if (what == STATE_FAILED) {
			keep[i] = 1;
			failed++;
		}
	}
	for (int i = 0; i < n; i++)
		if (keep[i])
			e[k++] = e[i];
	if (write_all(e, k))
		failed++;
	free(keep);
	free(e);
	fclose(f);
	return failed;
}
