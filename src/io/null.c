/*
 * null.c: completes every request without a system call or a byte moved,
 * so its IOPS are fsbench's own ceiling: the cost of choosing offsets,
 * timing and recording each I/O (fio's null engine, for comparison).
 */
#include "iojob.h"

static int null_queue(struct io_thread *t, struct io_req *r)
{
	(void)t;
	r->res = (int)r->len;
	return IO_Q_COMPLETED;
}

const struct io_engine_ops engine_null = {
	.name = "null",
	.title = "null",
	.help = "no I/O at all: measures fsbench's own per-I/O cost",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA | ENGINE_TRIMS,
	.queue = null_queue,
};
