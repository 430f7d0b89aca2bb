/*
 * fileop_engine.c: what the file-operation engines (filecreate.c, filestat.c,
 * filedelete.c) share.  In fio these engines do their work when a file is
 * opened, which fio does once per file per pass, and their I/Os on the
 * open file are fakes that fio counts but does not time (FIO_NOSTATS).
 * fsbench keeps no file open for them: a file's first request in a pass
 * makes the operation, and the rest are counted untimed.
 */
#include "iojob.h"
#include "../core/error.h"

bool engine_file_op_due(struct io_thread *t, struct io_req *r)
{
	struct io_file *f = r->file;

	r->untimed = f->op_pass == t->pass + 1;
	if (r->untimed) {
		r->res = (int)r->len;
		return false;
	}
	f->op_pass = t->pass + 1;
	return true;
}

int engine_file_op_init(struct io_thread *t)
{
	if (t->fixed_dir < 0)
		return error_set("ioengine=%s: a file operation has no direction: use rw=read or "
				 "rw=write (or their random forms), not a mix", t->ops->name);
	return 0;
}
