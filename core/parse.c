// SPDX-License-Identifier: GPL-3.0-or-later
#include "parse.h"

#include "bitmap.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int tt_parse_u64_prefix(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	const char *p = s;

	/* Hand-rolled rather than strtoull: strtoull accepts leading blanks and
	 * a sign ("-1" becomes UINT64_MAX), both of which must be errors here. */
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*end = p;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int tt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int rc = tt_parse_u64_prefix(s, 0, UINT64_MAX, &v, &end);

	if (rc)
		return rc;
	if (*end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int tt_parse_list(const char *s, uint64_t *bits, unsigned int nbits)
{
	const char *p = s;

	memset(bits, 0, nbits / 8);
	if (*p == '\0')
		return 0;
	for (;;) {
		uint64_t lo, hi;
		int rc = tt_parse_u64_prefix(p, 0, nbits - 1, &lo, &p);

		if (rc)
			return rc;
		hi = lo;
		if (*p == '-') {
			rc = tt_parse_u64_prefix(p + 1, 0, nbits - 1, &hi, &p);
			if (rc)
				return rc;
			if (hi < lo)
				return -EINVAL;
		}
		for (uint64_t i = lo; i <= hi; i++)
			tt_bit_set(bits, (unsigned int)i);
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
}

int tt_parse_cpumap(const char *s, uint64_t *bits, unsigned int nbits)
{
	size_t nwords = 1, len = strlen(s);

	memset(bits, 0, nbits / 8);
	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		nwords += s[i] == ',';
	/* Words are most significant first; walk them and place each. */
	const char *p = s;
	for (size_t w = 0; w < nwords; w++) {
		size_t word_index = nwords - 1 - w;
		uint32_t v = 0;
		int digits = 0;

		for (; *p && *p != ','; p++, digits++) {
			int c = tolower((unsigned char)*p);

			if (digits == 8 || !isxdigit(c))
				return -EINVAL;
			v = (v << 4) | (uint32_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
		}
		if (digits == 0)
			return -EINVAL;
		if (*p == ',')
			p++;
		for (unsigned int b = 0; b < 32; b++) {
			if (!(v >> b & 1))
				continue;
			if (word_index * 32 + b >= nbits)
				return -ERANGE;
			tt_bit_set(bits, (unsigned int)(word_index * 32 + b));
		}
	}
	return 0;
}

int tt_parse_kv(const char *text, tt_kv_fn fn, void *ctx)
{
	const char *line = text;

	while (*line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[256], *tok[5], *save = NULL;
		int ntok = 0;
		uint64_t v;

		if (len >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line += len + (eol ? 1 : 0);
		for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
			if (ntok == 5)
				return -EINVAL;
			tok[ntok++] = t;
		}
		if (ntok == 0)
			continue;
		int k = 0;
		if (ntok >= 4 && strcmp(tok[0], "Node") == 0) {
			if (tt_parse_u64(tok[1], 0, TT_MAX_NODES - 1, &v))
				return -EINVAL;
			k = 2;
		}
		if (ntok - k != 2 && ntok - k != 3)
			return -EINVAL;
		size_t klen = strlen(tok[k]);
		if (klen > 1 && tok[k][klen - 1] == ':')
			tok[k][klen - 1] = '\0';
		int rc = tt_parse_u64(tok[k + 1], 0, UINT64_MAX, &v);
		if (rc)
			return rc;
		if (ntok - k == 3) {
			if (strcmp(tok[k + 2], "kB") != 0)
				return -EINVAL;
			if (v > UINT64_MAX / 1024)
				return -ERANGE;
			v *= 1024;
		}
		rc = fn(tok[k], v, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

void tt_chomp(char *s)
{
	size_t len = strlen(s);

	if (len && s[len - 1] == '\n')
		s[len - 1] = '\0';
}

int tt_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	static const char units[] = "kmgt";
	const char *end, *u;
	uint64_t v, frac = 0, scale = 1, mult = 1;
	int rc = tt_parse_u64_prefix(s, 0, UINT64_MAX, &v, &end);

	if (rc)
		return rc;
	/* A fraction of a unit, as people write "1.5G": at most 9 digits. */
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++) {
			if (scale >= 1000000000)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*end - '0');
			scale *= 10;
		}
		if (scale == 1)
			return -EINVAL;
	}
	if (*end) {
		if (!(u = strchr(units, tolower((unsigned char)*end))) || !*u)
			return -EINVAL;
		mult = (uint64_t)1 << (10 * (u - units + 1));
		end++;
		if (strcasecmp(end, "ib") == 0)
			end += 2;
		if (*end)
			return -EINVAL;
	}
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	v *= mult;
	/* mult <= 2^40 and frac < 10^9: the product fits. */
	if (frac) {
		if (frac * mult % scale)
			return -EDOM; /* not a whole number of bytes */
		if (v > UINT64_MAX - frac * mult / scale)
			return -ERANGE;
		v += frac * mult / scale;
	}
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* The length of the well-formed UTF-8 character at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if it is not one. */
static int utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int k;

	if (*p >= 0xc2 && *p <= 0xdf)
		k = 2;
	else if (*p >= 0xe0 && *p <= 0xef) {
		k = 3;
		lo = *p == 0xe0 ? 0xa0 : 0x80;
		hi = *p == 0xed ? 0x9f : 0xbf;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		k = 4;
		lo = *p == 0xf0 ? 0x90 : 0x80;
		hi = *p == 0xf4 ? 0x8f : 0xbf;
	} else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < k; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return k;
}

const char *tt_str_escape(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t len = 0;

	if (!size)
		return out;
	for (; *p; p++) {
		char esc[8];
		int n;

		if (*p == '\n' || *p == '\t' || *p == '\r' || *p == '\\')
			n = snprintf(esc, sizeof(esc), "\\%c",
				     *p == '\n'	  ? 'n'
				     : *p == '\t' ? 't'
				     : *p == '\r' ? 'r'
						  : '\\');
		else if (*p < 0x20 || *p == 0x7f)
			n = snprintf(esc, sizeof(esc), "\\x%02x", *p);
		/* U+0080..U+009F: CSI (U+009B) and friends act as escapes on
		 * terminals that honour 8-bit controls. */
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			n = snprintf(esc, sizeof(esc), "\\x%02x", *++p);
		} else if (*p >= 0x80) {
			/* A whole UTF-8 character passes; any other byte at or
			 * above 0x80 is escaped: a raw 0x9b is CSI to a terminal
			 * in an 8-bit locale, and garbage is garbage. */
			int k = utf8_len(p);

			if (k == 0)
				n = snprintf(esc, sizeof(esc), "\\x%02x", *p);
			else {
				memcpy(esc, p, (size_t)k);
				n = k;
				p += k - 1;
			}
		} else
			n = snprintf(esc, sizeof(esc), "%c", *p);
		if (len + (size_t)n >= size)
			break;
		memcpy(out + len, esc, (size_t)n);
		len += (size_t)n;
	}
	out[len] = '\0';
	return out;
}
