// SPDX-License-Identifier: GPL-3.0-or-later
#include "bitmap.h"

#include <stdio.h>

unsigned int tt_bit_count(const uint64_t *bits, unsigned int nbits)
{
	unsigned int n = 0;

	for (unsigned int w = 0; w < nbits / 64; w++)
		n += (unsigned int)__builtin_popcountll(bits[w]);
	return n;
}

unsigned int tt_bit_next(const uint64_t *bits, unsigned int nbits, unsigned int from)
{
	while (from < nbits) {
		uint64_t word = bits[from / 64] >> (from % 64);

		if (word)
			return from + (unsigned int)__builtin_ctzll(word);
		from = (from / 64 + 1) * 64;
	}
	return nbits;
}

int tt_bit_format_list(const uint64_t *bits, unsigned int nbits, char *buf, unsigned long size)
{
	unsigned long len = 0;
	unsigned int i = tt_bit_next(bits, nbits, 0);

	if (size == 0)
		return -1;
	buf[0] = '\0';
	while (i < nbits) {
		unsigned int end = i;
		int n;

		while (end + 1 < nbits && tt_bit_test(bits, end + 1))
			end++;
		if (end == i)
			n = snprintf(buf + len, size - len, "%s%u", len ? "," : "", i);
		else
			n = snprintf(buf + len, size - len, "%s%u-%u", len ? "," : "", i, end);
		if (n < 0 || (unsigned long)n >= size - len)
			return -1;
		len += (unsigned long)n;
		i = tt_bit_next(bits, nbits, end + 1);
	}
	return (int)len;
}
