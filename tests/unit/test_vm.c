/* test_vm.c: the pieces of run --vm that need no guest: the version a
 * bzImage carries, the module closure in load order from modules.dep,
 * module lookup (built in or not), the initramfs archive, and nand_*
 * options turned into nandsim parameters. */
#include "testutil.h"
#include "core/error.h"
#include "vm/initramfs.h"
#include "vm/kernel.h"
#include "vm/vm.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* mkdir -p of base/rel, without a shell. */
static void mkdirs(const char *base, const char *rel)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	for (char *q = strchr(p + strlen(base) + 1, '/'); q; q = strchr(q + 1, '/')) {
		*q = '\0';
		mkdir(p, 0755);
		*q = '/';
	}
	mkdir(p, 0755);
}

/* A fake kernel tree: ROOT/boot/vmlinuz-V with a setup header, and
 * ROOT/lib/modules/V/{modules.dep,modules.builtin,kernel/...}. */
static void fake_kernel(const char *root, struct vm_kernel *k)
{
	char p[600];
	unsigned char img[0x400] = { 0 };
	const char *ver = "6.1.0-99-test (builder@example) #1 SMP";

	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00;	/* version at 0x100 + 0x200 */
	img[0x20f] = 0x01;
	memcpy(img + 0x300, ver, strlen(ver) + 1);
	snprintf(p, sizeof(p), "%s/boot", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/boot/vmlinuz-6.1.0-99-test", root);
	write_file(p, img, sizeof(img));
	mkdirs(root, "lib/modules/6.1.0-99-test/kernel");
	const char *dep =
		"kernel/fs/9p/9p.ko: kernel/net/9p/9pnet.ko kernel/fs/fscache/fscache.ko kernel/fs/netfs/netfs.ko\n"
		"kernel/net/9p/9pnet.ko:\n"
		"kernel/fs/fscache/fscache.ko: kernel/fs/netfs/netfs.ko\n"
		"kernel/fs/netfs/netfs.ko:\n"
		"kernel/net/9p/9pnet_virtio.ko: kernel/net/9p/9pnet.ko\n"
		"kernel/fs/f2fs/f2fs.ko: kernel/lib/lz4/lz4_compress.ko\n"
		"kernel/lib/lz4/lz4_compress.ko:\n";
	snprintf(p, sizeof(p), "%s/lib/modules/6.1.0-99-test/modules.dep", root);
	write_file(p, dep, strlen(dep));
	snprintf(p, sizeof(p), "%s/lib/modules/6.1.0-99-test/modules.builtin", root);
	write_file(p, "kernel/fs/ext4/ext4.ko\n", 23);
	const char *mods[] = { "9p", "9pnet", "fscache", "netfs", "9pnet_virtio" };
	const char *dirs[] = { "fs/9p", "net/9p", "fs/fscache", "fs/netfs", "net/9p" };
	for (int i = 0; i < 5; i++) {
		char d[700], rel[200];
		snprintf(rel, sizeof(rel), "lib/modules/6.1.0-99-test/kernel/%s", dirs[i]);
		mkdirs(root, rel);
		snprintf(d, sizeof(d), "%s/%s", root, rel);
		char f[800];
		snprintf(f, sizeof(f), "%s/%s.ko", d, mods[i]);
		write_file(f, "\x7f" "ELF fake", 9);
	}
	assert_int_equal(vm_kernel_find("6.1.0-99-test", k), 0);
}

static void test_kernel(void **state)
{
	(void)state;
	char tdir[64], mods[16][256];
	struct vm_kernel k;

	char root[128], versions[4][128];
	make_tmpdir(tdir, sizeof(tdir));
	made_dir(tdir);	/* removed by the teardown if an assertion fails */
	setenv("XDG_CACHE_HOME", tdir, 1);	/* the cache: TDIR/fsbench/kernels */
	mkdirs(tdir, "fsbench/kernels/6.1.0-99-test");
	snprintf(root, sizeof(root), "%s/fsbench/kernels/6.1.0-99-test", tdir);
	fake_kernel(root, &k);
	assert_string_equal(k.version, "6.1.0-99-test");	/* from the bzImage header */
	assert_string_equal(k.source, "cache");
	assert_string_equal(k.root, root);
	assert_int_equal(vm_kernel_list(versions, 4), 1);
	assert_string_equal(versions[0], "6.1.0-99-test");
	assert_int_equal(vm_kernel_find("6.1.0-98-none", &k), -1);
	assert_non_null(strstr(error_get(), "kernel fetch"));
	assert_int_equal(vm_kernel_find("6.1.0-99-test", &k), 0);
	assert_int_equal(vm_kernel_has(&k, "f2fs"), 1);
	assert_int_equal(vm_kernel_has(&k, "ext4"), 1);		/* built in */
	assert_int_equal(vm_kernel_has(&k, "9pnet-virtio"), 1);	/* '-' == '_' */
	assert_int_equal(vm_kernel_has(&k, "nilfs2"), 0);
	const char *want[] = { "9pnet_virtio", "9p" };
	int n = vm_kernel_closure(&k, want, 2, mods, 16);
	assert_int_equal(n, 5);
	/* every dependency before what needs it, each once */
	int pos[5] = { -1, -1, -1, -1, -1 };
	const char *names[] = { "kernel/net/9p/9pnet.ko", "kernel/net/9p/9pnet_virtio.ko",
				"kernel/fs/netfs/netfs.ko", "kernel/fs/fscache/fscache.ko",
				"kernel/fs/9p/9p.ko" };
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 5; j++)
			if (!strcmp(mods[i], names[j]))
				pos[j] = i;
	for (int j = 0; j < 5; j++)
		assert_true(pos[j] >= 0);
	assert_true(pos[0] < pos[1] && pos[2] < pos[3] && pos[3] < pos[4] && pos[0] < pos[4]);

	/* the initramfs: /init, the modules and their load list, in a
	 * newc archive */
	char cpio[128];
	snprintf(cpio, sizeof(cpio), "%s/initrd", tdir);
	assert_int_equal(initramfs_write(cpio, k.moddir, mods, n), 0);
	assert_int_equal(initramfs_write(cpio, k.moddir, mods, n), -1);	/* O_EXCL */
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int have_init = 0, have_load = 0, nko = 0;
	archive_read_support_format_cpio(a);
	assert_int_equal(archive_read_open_filename(a, cpio, 65536), ARCHIVE_OK);
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *p = archive_entry_pathname(e);
		have_init |= !strcmp(p, "init") && archive_entry_size(e) > 1000 &&
			     (archive_entry_perm(e) & 0111);
		if (!strcmp(p, "modules/load")) {
			char buf[512] = "";
			la_ssize_t got = archive_read_data(a, buf, sizeof(buf) - 1);
			buf[got > 0 ? got : 0] = '\0';
			have_load = strstr(buf, "9pnet.ko\n") && strstr(buf, "9p.ko\n") &&
				    strstr(buf, "9pnet.ko\n") < strstr(buf, "9pnet_virtio.ko\n");
		}
		nko += strstr(p, ".ko") != NULL;
	}
	archive_read_free(a);
	assert_true(have_init && have_load);
	assert_int_equal(nko, 5);
	unsetenv("XDG_CACHE_HOME");
	undo(tdir);
}

static void test_image_version_refuses(void **state)
{
	(void)state;
	char tdir[64], p[128], v[128];

	make_tmpdir(tdir, sizeof(tdir));
	made_dir(tdir);
	snprintf(p, sizeof(p), "%s/notakernel", tdir);
	write_file(p, "hello", 5);
	assert_int_equal(vm_kernel_image_version(p, v, sizeof(v)), -1);
	assert_non_null(strstr(error_get(), "not a bzImage"));
	undo(tdir);
}

static void test_nand_params(void **state)
{
	(void)state;
	char out[512];

	assert_int_equal(vm_nand_params("", 1, 0, out, sizeof(out)), 0);
	/* 256 MiB of 128 KiB blocks: 2^11 */
	assert_non_null(strstr(out, "overridesize=11"));
	assert_null(strstr(out, "do_delays"));
	assert_int_equal(vm_nand_params("size=512M,erase_delay=2,program_delay=200", 2, 0, out,
					sizeof(out)), 0);
	assert_non_null(strstr(out, "overridesize=12"));
	assert_non_null(strstr(out, "erase_delay=2"));
	assert_non_null(strstr(out, "programm_delay=200"));	/* nandsim's spelling */
	assert_non_null(strstr(out, "do_delays=1"));
	assert_non_null(strstr(out, "parts=2048,2048"));
	assert_int_equal(vm_nand_params("", 1, 1ULL << 30, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "overridesize=13"));
	assert_int_equal(vm_nand_params("size=128M", 1, 0, out, sizeof(out)), -1);
	assert_int_equal(vm_nand_params("size=300M", 1, 0, out, sizeof(out)), -1);
	assert_non_null(strstr(error_get(), "power of two"));
	assert_int_equal(vm_nand_params("speed=9", 1, 0, out, sizeof(out)), -1);
	assert_int_equal(vm_nand_params("erase_delay=-1", 1, 0, out, sizeof(out)), -1);
	assert_int_equal(vm_nand_params("", 17, 0, out, sizeof(out)), -1);
}

/* The guest's coloured lines written to a file on the host come out
 * plain, as a host run's would; other escapes and text stay.  Catches:
 * "\033[2m 0.77~*\033[0m" in a report redirected to a file (seen in a
 * seed 002 run under --vm). */
static void test_strip_colour(void **state)
{
	char a[] = "ubifs   \033[2m 0.77~*\033[0m  \033[31m 0.41-*\033[0m  x";
	char b[] = "\033[1;32mok\033[m \033[2Kkept [0s] \033[";

	(void)state;
	vm_strip_colour(a);
	assert_string_equal(a, "ubifs    0.77~*   0.41-*  x");
	vm_strip_colour(b);
	assert_string_equal(b, "ok \033[2Kkept [0s] \033[");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_kernel, teardown_made),
		cmocka_unit_test_teardown(test_image_version_refuses, teardown_made),
		cmocka_unit_test(test_nand_params),
		cmocka_unit_test(test_strip_colour),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
