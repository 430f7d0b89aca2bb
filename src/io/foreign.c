/*
 * foreign.c: fio 3.33's I/O engines that fsbench io does not have (see
 * foreign.h).  One row per engine: its name(s), what it drives, and the
 * names of its own options (fio's engines/<name>.c option tables).  Adding
 * an engine to fsbench (engines.c) takes its row out of here.
 */
#include "foreign.h"

#include <stddef.h>
#include <string.h>

#define OPTS(...) (const char *const[]){ __VA_ARGS__, NULL }
#define NONE ((const char *const[]){ NULL })

static const char *const cpu_opts[] = { "cpuload", "cpuchunks", "cpumode", "exit_on_io_done", NULL };
static const char *const net_opts[] = { "hostname", "port", "protocol", "proto", "listen",
	"pingpong", "interface", "intfc", "ttl", "window_size", "mss", "nodelay", NULL };
static const char *const uring_cmd_opts[] = { "cmd_type", "nonvectored", "registerfiles",
	"fixedbufs", "sqthread_poll", "sqthread_poll_cpu", "hipri", "force_async", "readfua",
	"writefua", "write_mode", "verify_mode", "deac", "pi_act", "pi_chk", "apptag",
	"apptag_mask", "md_per_io_size", "nowait", NULL };
static const char *const gluster_opts[] = { "volume", "brick", "single-instance", NULL };
static const char *const http_opts[] = { "https", "http_host", "http_user", "http_pass",
	"http_s3_key", "http_s3_keyid", "http_s3_region", "http_s3_security_token",
	"http_s3_sse_customer_key", "http_s3_sse_customer_algorithm", "http_s3_storage_class",
	"http_swift_auth_token", "http_mode", "http_verbose", "http_object_mode", NULL };

static const struct io_foreign_engine engines[] = {
	{ "cpuio", "CPU load, no I/O", cpu_opts },
	{ "net", "TCP/UDP sockets", net_opts },
	{ "netsplice", "TCP/UDP sockets through splice", net_opts },
	{ "splice", "splice(2) through a pipe", NONE },
	{ "io_uring_cmd", "NVMe passthrough commands through io_uring", uring_cmd_opts },
	{ "xnvme", "NVMe through xNVMe", OPTS("xnvme_be", "xnvme_async", "xnvme_sync",
		"xnvme_admin", "xnvme_dev_nsid", "xnvme_dev_subnqn", "xnvme_mem", "xnvme_iovec",
		"hipri", "sqthread_poll", "md_per_io_size", "pi_act", "pi_chk", "apptag",
		"apptag_mask") },
	{ "nbd", "a Network Block Device server, through libnbd", OPTS("uri") },
	{ "libiscsi", "an iSCSI target, through libiscsi", OPTS("initiator") },
	{ "nfs", "an NFS server, through libnfs", OPTS("nfs_url") },
	{ "rbd", "Ceph RBD images", OPTS("clientname", "clustername", "pool", "rbdname",
					  "busy_poll", "rbd_encryption_format",
					  "rbd_encryption_passphrase") },
	{ "rados", "Ceph RADOS objects", OPTS("clientname", "clustername", "pool", "conf",
					     "busy_poll", "touch_objects") },
	{ "gfapi", "GlusterFS volumes", gluster_opts },
	{ "gfapi_async", "GlusterFS volumes, asynchronously", gluster_opts },
	{ "http", "HTTP, WebDAV and S3 objects", http_opts },
	{ "libhdfs", "HDFS files", OPTS("namenode", "hostname", "port", "hdfsdirectory",
					"chunk_size", "single_instance", "hdfs_use_direct") },
	{ "rdma", "RDMA verbs", OPTS("hostname", "bindname", "port", "verb") },
	{ "dev-dax", "persistent memory, device DAX", NONE },
	{ "libpmem", "persistent memory, libpmem", NONE },
	{ "pmemblk", "persistent memory, libpmemblk", NONE },
	{ "ime_psync", "DDN's IME", NONE },
	{ "ime_psyncv", "DDN's IME", NONE },
	{ "ime_aio", "DDN's IME", NONE },
	{ "libzbc", "zoned block devices through libzbc", NONE },
	{ "dfs", "DAOS", OPTS("pool", "cont", "chunk_size", "object_class", "svcl") },
	{ "libcufile", "NVIDIA GPUDirect Storage", OPTS("gpu_dev_ids", "cuda_io") },
	{ NULL, NULL, NULL },
};

const struct io_foreign_engine *io_foreign_engine(const char *name)
{
	for (const struct io_foreign_engine *e = engines; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

bool io_foreign_option(const char *name, const char *key)
{
	const struct io_foreign_engine *e = io_foreign_engine(name);

	for (int i = 0; e && e->options[i]; i++)
		if (!strcmp(e->options[i], key))
			return true;
	return false;
}
