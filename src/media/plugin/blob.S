/* blob.S: the modelled medium's nbdkit plugin (nbdkit-flash.c), carried
 * inside fsbench so that it needs no file installed beside it: the server
 * (media/server.c) writes it into its own directory for nbdkit to load.
 * FLASHSO_PATH is the built plugin, given by the Makefile. */
	.section .rodata
	.global fsb_flashso_start
	.global fsb_flashso_end
	.balign 16
fsb_flashso_start:
	.incbin FLASHSO_PATH
fsb_flashso_end:
	.section .note.GNU-stack,"",@progbits
