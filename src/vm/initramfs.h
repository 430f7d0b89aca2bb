/*
 * initramfs.h: the guest's initial root, written for every boot.
 *
 * A newc cpio archive (written with libarchive) holding /init -- vminit,
 * carried inside fsbench -- and the kernel modules that reach the host
 * (virtio PCI and block, 9p), with /modules/load naming them in load
 * order.  Everything else the guest runs comes from the host's root over
 * 9p, so there is no second root filesystem to keep up to date.
 */
#ifndef FSB_VM_INITRAMFS_H
#define FSB_VM_INITRAMFS_H

/* Write it to `path` (created O_EXCL): mods are paths relative to moddir,
 * dependencies first. */
int initramfs_write(const char *path, const char *moddir, char (*mods)[256], int nmods);

#endif
