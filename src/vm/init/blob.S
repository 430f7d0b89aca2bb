/* blob.S: the statically linked guest init (vminit.c), carried inside
 * fsbench so that the initramfs it writes needs no file found at run time.
 * VMINIT_PATH is the built binary, given by the Makefile. */
	.section .rodata
	.global fsb_vminit_start
	.global fsb_vminit_end
	.balign 16
fsb_vminit_start:
	.incbin VMINIT_PATH
fsb_vminit_end:
	.section .note.GNU-stack,"",@progbits
