/*
 * sg.c: SCSI commands to the disk itself through the kernel's SG_IO
 * (fio's sg engine on a block device): each read a READ(10) or READ(16),
 * each write a WRITE, WRITE AND VERIFY, WRITE SAME or VERIFY as
 * sg_write_mode says, each trim an UNMAP of its range, issued one at a
 * time (SG_IO returns when the device has answered), with the FUA bit on
 * reads or writes as readfua and writefua ask.  Below the block layer's
 * page cache and scheduler: what a USB key's or a disk's controller does
 * with the commands themselves.  The logical block size comes from READ
 * CAPACITY(16), which a device that is not SCSI (virtio, NVMe, a loop
 * device) refuses, and so the job.
 *
 * Where fio differs: fio sends every command with a 16-byte length and
 * uses a 10-byte CDB for any LBA below 2^32, cutting a count of blocks
 * above 65535; fsbench gives each CDB its own length and takes the 16-byte
 * one for such counts.  write_stream (which opens a stream first) is not
 * here.  The commands are the kernel's SG_IO, built in place: no library
 * allocates per I/O.
 */
#define _GNU_SOURCE
#include "iojob.h"
#include "../core/error.h"

#include <errno.h>
#include <scsi/sg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

enum sg_write_mode {
	SGW_WRITE, SGW_WRITE_AND_VERIFY, SGW_VERIFY, SGW_WRITE_SAME, SGW_WRITE_SAME_NDOB,
	SGW_VERIFY_BYTCHK_00, SGW_VERIFY_BYTCHK_01, SGW_VERIFY_BYTCHK_11, SGW_WRITE_STREAM,
};

struct sg_opts {
	bool readfua, writefua;
	int write_mode;
	int64_t stream_id;
};
_Static_assert(sizeof(struct sg_opts) <= ENGINE_OPTS_MAX, "room in a job");

#define V(f) offsetof(struct sg_opts, f)
static const struct param_def sg_options[] = {
	{ "readfua", PT_BOOL, V(readfua), "0", 0, 0, NULL,
	  "sg: reads with FUA set (from the medium, not the device's cache)" },
	{ "writefua", PT_BOOL, V(writefua), "0", 0, 0, NULL,
	  "sg: writes with FUA set (on the medium before the command completes)" },
	{ "sg_write_mode", PT_ENUM, V(write_mode), "write", 0, 0,
	  "write|write_and_verify|verify|write_same|write_same_ndob|verify_bytchk_00|"
	  "verify_bytchk_01|verify_bytchk_11|write_stream",
	  "sg: the command a write is: WRITE, WRITE AND VERIFY (verify is its old name), "
	  "WRITE SAME (of the first block; ndob: zeros, no data sent), VERIFY (00: the medium "
	  "only; 01: against the data; 11: against the first block)" },
	{ "stream_id", PT_INT, V(stream_id), "0", 0, 65535, NULL,
	  "sg with sg_write_mode=write_stream: the stream (not supported: refused)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

#define SG_TIMEOUT_MS 30000	/* as fio's */
#define UNMAP_PARAM 24		/* header and one block descriptor */

struct sg_data {
	struct sg_opts opt;
	uint32_t block;		/* logical block size */
	uint64_t blocks;	/* the disk's */
	unsigned char sense[64];
	unsigned char unmap[UNMAP_PARAM];
};

static void be16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void be32(unsigned char *p, uint32_t v)
{
	be16(p, (uint16_t)(v >> 16));
	be16(p + 2, (uint16_t)v);
}

static void be64(unsigned char *p, uint64_t v)
{
	be32(p, (uint32_t)(v >> 32));
	be32(p + 4, (uint32_t)v);
}

static uint64_t get_be(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* One command; 0, -errno for the call, or -EIO for a status other than
 * GOOD (the sense kept in d->sense). */
static int sg_do(int fd, struct sg_data *d, unsigned char *cdb, int cdb_len, int dir, void *buf,
		 uint32_t len)
{
	struct sg_io_hdr h;

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.cmdp = cdb;
	h.cmd_len = (unsigned char)cdb_len;
	h.dxfer_direction = len ? dir : SG_DXFER_NONE;
	h.dxferp = buf;
	h.dxfer_len = len;
	h.sbp = d->sense;
	h.mx_sb_len = sizeof(d->sense);
	h.timeout = SG_TIMEOUT_MS;
	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	return (h.info & SG_INFO_OK_MASK) == SG_INFO_OK ? 0 : -EIO;
}

/* The sense's key, ASC and ASCQ (fixed or descriptor format). */
static void sense_text(const unsigned char *s, char *out, size_t len)
{
	int desc = (s[0] & 0x7f) >= 0x72;
	unsigned key = desc ? s[1] & 0xf : s[2] & 0xf;
	unsigned asc = desc ? s[2] : s[12], ascq = desc ? s[3] : s[13];

	snprintf(out, len, "sense key 0x%x, ASC 0x%02x, ASCQ 0x%02x", key, asc, ascq);
}

static int sg_init(struct io_thread *t)
{
	struct sg_data *d = calloc(1, sizeof(*d));
	unsigned char cdb[16] = { 0x9e, 0x10 }, cap[32];	/* READ CAPACITY(16) */
	const struct io_file *f = &t->files[0];
	char why[96];
	int rc;

	if (!d)
		return error_set("out of memory");
	t->engine_data = d;
	memcpy(&d->opt, io_engine_opts(t->o), sizeof(d->opt));
	if (!t->o->target_device[0])	/* paths.c refuses it before: never a file's */
		return error_set("ioengine=sg runs only on a run's raw target");
	if (d->opt.write_mode == SGW_WRITE_STREAM)
		return error_set("ioengine=sg: sg_write_mode=write_stream is not supported (it opens "
				 "a stream on the device first)");
	be32(cdb + 10, sizeof(cap));
	rc = sg_do(f->fd, d, cdb, 16, SG_DXFER_FROM_DEV, cap, sizeof(cap));
	if (rc == -ENOTTY || rc == -EINVAL)
		return error_set("ioengine=sg: %s takes no SCSI commands (SG_IO): it is not a SCSI "
				 "disk (a USB key or SATA disk is one; virtio, NVMe and loop devices "
				 "are not)", f->path);
	if (rc) {
		sense_text(d->sense, why, sizeof(why));
		return error_set("ioengine=sg: READ CAPACITY(16) of %s failed: %s", f->path,
				 rc == -EIO ? why : strerror(-rc));
	}
	d->blocks = get_be(cap, 8) + 1;
	d->block = (uint32_t)get_be(cap + 8, 4);
	if (!d->block || d->block > (1u << 20) || t->min_bs % d->block || t->max_bs % d->block)
		return error_set("ioengine=sg: %s has blocks of %u bytes: bs= must be a multiple of "
				 "it", f->path, d->block);
	/* a run's raw target: never a command past its region, whatever
	 * the disk holds beyond it (the user's data) */
	if (t->o->target_device[0] && t->o->target_device_bytes / d->block < d->blocks)
		d->blocks = t->o->target_device_bytes / d->block;
	return 0;
}

static void sg_cleanup(struct io_thread *t)
{
	free(t->engine_data);
	t->engine_data = NULL;
}

/* A READ, WRITE or VERIFY family CDB for lba and count: the 10-byte form
 * where both fit it, else the 16-byte one. */
static int rw_cdb(unsigned char *cdb, unsigned char op10, unsigned char op16, uint64_t lba,
		  uint64_t count, bool force16)
{
	memset(cdb, 0, 16);
	if (!force16 && lba <= 0xffffffffULL && count <= 0xffff) {
		cdb[0] = op10;
		be32(cdb + 2, (uint32_t)lba);
		be16(cdb + 7, (uint16_t)count);
		return 10;
	}
	cdb[0] = op16;
	be64(cdb + 2, lba);
	be32(cdb + 10, (uint32_t)count);
	return 16;
}

static int sg_queue(struct io_thread *t, struct io_req *r)
{
	struct sg_data *d = t->engine_data;
	uint64_t lba = r->offset / d->block, count = r->len / d->block;
	unsigned char cdb[16];
	int n, dir = SG_DXFER_TO_DEV, rc;
	uint32_t len = r->len;

	if (r->offset % d->block || r->len % d->block || lba + count > d->blocks) {
		r->res = -EINVAL;
		return IO_Q_COMPLETED;
	}
	if (r->dir == DIR_READ) {
		n = rw_cdb(cdb, 0x28, 0x88, lba, count, false);
		dir = SG_DXFER_FROM_DEV;
		if (d->opt.readfua)
			cdb[1] |= 0x08;
	} else if (r->dir == DIR_TRIM) {	/* UNMAP of one range */
		memset(cdb, 0, 16);
		memset(d->unmap, 0, sizeof(d->unmap));
		cdb[0] = 0x42;
		be16(cdb + 7, UNMAP_PARAM);
		be16(d->unmap, UNMAP_PARAM - 2);
		be16(d->unmap + 2, 16);
		be64(d->unmap + 8, lba);
		be32(d->unmap + 16, (uint32_t)count);
		rc = sg_do(r->file->fd, d, cdb, 10, SG_DXFER_TO_DEV, d->unmap, UNMAP_PARAM);
		r->res = rc ? rc : (int)r->len;
		return IO_Q_COMPLETED;
	} else {
		switch (d->opt.write_mode) {
		case SGW_WRITE_AND_VERIFY:
		case SGW_VERIFY:
			n = rw_cdb(cdb, 0x2e, 0x8e, lba, count, false);
			break;
		case SGW_WRITE_SAME:
			n = rw_cdb(cdb, 0x41, 0x93, lba, count, false);
			len = d->block;
			break;
		case SGW_WRITE_SAME_NDOB:
			n = rw_cdb(cdb, 0x41, 0x93, lba, count, true);
			cdb[1] |= 0x01;
			len = 0;
			break;
		case SGW_VERIFY_BYTCHK_00:
		case SGW_VERIFY_BYTCHK_01:
		case SGW_VERIFY_BYTCHK_11:
			n = rw_cdb(cdb, 0x2f, 0x8f, lba, count, false);
			cdb[1] |= d->opt.write_mode == SGW_VERIFY_BYTCHK_01 ? 0x02
				: d->opt.write_mode == SGW_VERIFY_BYTCHK_11 ? 0x06 : 0;
			len = d->opt.write_mode == SGW_VERIFY_BYTCHK_00 ? 0
			    : d->opt.write_mode == SGW_VERIFY_BYTCHK_11 ? d->block : len;
			break;
		default:
			n = rw_cdb(cdb, 0x2a, 0x8a, lba, count, false);
			if (d->opt.writefua)
				cdb[1] |= 0x08;
			break;
		}
	}
	rc = sg_do(r->file->fd, d, cdb, n, dir, r->buf, len);
	r->res = rc ? rc : (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_sg = {
	.name = "sg",
	.title = "SG",
	.help = "SCSI commands to the disk itself through SG_IO, one at a time (a raw target's "
		"SCSI disk: --fs raw on a USB key or SATA disk); sg_write_mode=, readfua=, writefua=",
	.flags = ENGINE_SYNC | ENGINE_SCSI | ENGINE_TRIMS,
	.options = sg_options,
	.options_size = sizeof(struct sg_opts),
	.init = sg_init,
	.queue = sg_queue,
	.cleanup = sg_cleanup,
};
