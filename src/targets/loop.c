/* loop.c: loop devices through their ioctls (see loop.h). */
#define _GNU_SOURCE
#include "loop.h"
#include "../core/error.h"
#include "../core/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

void loop_backing_file(const char *dev, char *out, size_t len)
{
	char p[256];
	const char *name = strrchr(dev, '/');
	FILE *f;

	out[0] = '\0';
	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", name ? name + 1 : dev);
	f = fopen(p, "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static int configure(int lfd, int ffd, const char *image, int direct_io, uint64_t limit)
{
	struct loop_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)ffd;
	cfg.info.lo_sizelimit = limit;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | (direct_io ? LO_FLAGS_DIRECT_IO : 0);
	str_copy((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), image);
	if (!ioctl(lfd, LOOP_CONFIGURE, &cfg))
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -1;
	/* Kernels before 5.8: the old three-step way. */
	if (ioctl(lfd, LOOP_SET_FD, ffd))
		return -1;
	struct loop_info64 info;
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	info.lo_sizelimit = limit;
	str_copy((char *)info.lo_file_name, sizeof(info.lo_file_name), image);
	ioctl(lfd, LOOP_SET_STATUS64, &info);
	if (direct_io)
		ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL);
	return 0;
}

static int dio_state(const char *dev)
{
	char p[256], v[8] = "0";
	FILE *f;

	snprintf(p, sizeof(p), "/sys/block/%s/loop/dio", strrchr(dev, '/') + 1);
	f = fopen(p, "r");
	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = '0';
		fclose(f);
	}
	return v[0] == '1';
}

/* A loop device turns a discard into a hole punched in its image, and
 * mkfs discards the whole device: the image would be sparse again before
 * every test, and the first writes after mkfs would pay for allocation on
 * the host (see write_zeros in fs.c).  So fsbench's loop devices take no
 * discard, as many USB keys do not; the filesystem sees a device without
 * it.  Best effort: an older kernel keeps it read-only. */
static void no_discard(const char *dev)
{
	char p[256];

	snprintf(p, sizeof(p), "/sys/block/%s/queue/discard_max_bytes", strrchr(dev, '/') + 1);
	int fd = open(p, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		ssize_t w = write(fd, "0", 1);	/* failing, the device keeps discard */
		(void)w;
		close(fd);
	}
}

int loop_attach(const char *image, int direct_io, char *dev, size_t len, int *dio,
		int *fd)
{
	int ffd = open(image, O_RDWR | O_CLOEXEC);

	if (ffd < 0)
		return error_errno("cannot open image %s", image);
	int rc = loop_attach_fd(ffd, image, 0, direct_io, dev, len, dio, fd);
	close(ffd);
	return rc;
}

int loop_attach_fd(int ffd, const char *name, uint64_t limit, int direct_io, char *dev,
		   size_t len, int *dio, int *fd)
{
	int ctl, tries = 0;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return error_errno("cannot open /dev/loop-control (loop devices need root)");
	for (;;) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0) {
			error_errno("no free loop device");
			break;
		}
		snprintf(dev, len, "/dev/loop%d", n);
		int lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			error_errno("cannot open %s", dev);
			break;
		}
		int rc = configure(lfd, ffd, name, direct_io, limit);
		if (rc && direct_io && errno == EINVAL)
			rc = configure(lfd, ffd, name, 0, limit);	/* backing fs without O_DIRECT */
		int saved = errno;
		if (!rc) {
			/* Autoclear: the device detaches itself once the last
			 * holder (this fd, a mount) is gone, even if we are killed. */
			*fd = lfd;
			*dio = dio_state(dev);
			no_discard(dev);
			close(ctl);
			return 0;
		}
		close(lfd);
		errno = saved;
		if (errno != EBUSY || ++tries > 16) {	/* EBUSY: someone took it first */
			error_errno("cannot attach %s to %s", name, dev);
			break;
		}
	}
	close(ctl);
	return -1;
}

int loop_detach(const char *dev, int fd)
{
	if (fd < 0)
		fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENXIO ? 0 : error_errno("cannot open %s", dev);
	for (int i = 0; i < 50; i++) {
		if (!ioctl(fd, LOOP_CLR_FD, 0) || errno == ENXIO) {
			close(fd);
			return 0;
		}
		if (errno != EBUSY)
			break;
		usleep(20000);	/* a just-unmounted fs may still hold it */
	}
	int saved = errno;
	close(fd);
	errno = saved;
	return error_errno("cannot detach %s", dev);
}
