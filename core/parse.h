/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Strict parsers for the text formats of sysfs, procfs and the command line.
 * They return 0, -EINVAL (malformed) or -ERANGE (out of range) and record no
 * message: the caller knows which file or option the text came from and
 * names it in its own message. Each parser has a fuzz target in tests/fuzz/.
 */
#ifndef TT_PARSE_H
#define TT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Decimal, no sign, no spaces, no trailing text; min <= value <= max. */
int tt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Like tt_parse_u64 for the leading digits of s only; *end is set past
 * them, so the caller checks what follows. */
int tt_parse_u64_prefix(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **end);
/* A size in bytes: a decimal, with an optional binary unit K, M, G or T
 * (powers of 1024) in any case, optionally followed by "iB" (any case):
 * 4096, 64M, 64m, 64MiB, 1.5G. A fraction must come to whole bytes
 * (-EDOM otherwise). "MB" is refused (-EINVAL): it means 10^6 to some and
 * 2^20 to others. The product must fit and lie in [min, max] (-ERANGE). */
int tt_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);
#define TT_SIZE_FORMS                                                                              \
	"a number of bytes, or one with K, M, G or T (powers of 1024, any case, "                  \
	"iB optional): 4096, 64M, 64MiB, 1.5G"

/* A kernel "%*pbl" list ("0-3,8", or "" for the empty set) into bits[nbits],
 * which is cleared first. */
int tt_parse_list(const char *s, uint64_t *bits, unsigned int nbits);

/* A kernel "%*pb" cpumap: comma-separated 32-bit hex words, most
 * significant first ("00000000,0000000f"). */
int tt_parse_cpumap(const char *s, uint64_t *bits, unsigned int nbits);

/*
 * "key value [kB]" lines as in /proc/vmstat, nodeN/numastat, nodeN/vmstat and
 * nodeN/meminfo ("Node 0 MemTotal:   24563796 kB"). The "Node N" prefix and a
 * trailing ':' on the key are dropped; "kB" multiplies by 1024. Calls fn for
 * every line; a non-zero return from fn stops the walk and is returned.
 */
typedef int (*tt_kv_fn)(const char *key, uint64_t value, void *ctx);
int tt_parse_kv(const char *text, tt_kv_fn fn, void *ctx);

/* Strips one trailing newline in place (sysfs values end in one). */
void tt_chomp(char *s);

/* in, made safe for one line of a terminal, a comment in a shell script or
 * a config file: control characters (C0, DEL, and C1 as UTF-8) and bytes
 * that are not part of a well-formed UTF-8 character become \n, \t, \r or
 * \xNN, a backslash becomes \\. Every string that comes from a
 * host or a database and reaches an export or the terminal goes through
 * here. Cut (never mid-escape) to fit size; returns out. */
const char *tt_str_escape(const char *in, char *out, size_t size);

#endif
