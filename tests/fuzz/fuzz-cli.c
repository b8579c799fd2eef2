/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fuzz-cli.c: placeholder until the fuzz target lands. */
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
