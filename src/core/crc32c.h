/*
 * crc32c.h: CRC-32C (Castagnoli), the checksum verify=crc32c stores in each
 * block's header, as fio's verify=crc32c does.  Uses the SSE4.2 crc32
 * instruction when the CPU has it, a table otherwise; both give the same
 * value (checked against RFC 3720's test vectors in the unit tests).
 */
#ifndef FSB_CRC32C_H
#define FSB_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* crc32c(0, buf, len) is the checksum of buf; pass a previous result as
 * crc to continue over more data. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
