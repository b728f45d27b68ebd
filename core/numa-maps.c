// SPDX-License-Identifier: GPL-3.0-or-later
#include "numa-maps.h"

#include "error.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* mm/mempolicy.c policy_modes[], indexed by mode. */
static const char *const modes[] = {
	[TT_MPOL_DEFAULT] = "default",
	[TT_MPOL_PREFERRED] = "prefer",
	[TT_MPOL_BIND] = "bind",
	[TT_MPOL_INTERLEAVE] = "interleave",
	[TT_MPOL_LOCAL] = "local",
	[TT_MPOL_PREFERRED_MANY] = "prefer (many)",
	[TT_MPOL_WEIGHTED_INTERLEAVE] = "weighted interleave",
};
#define NMODES ((int)(sizeof(modes) / sizeof(*modes)))

const char *tt_mpol_mode_name(int mode)
{
	return mode >= 0 && mode < NMODES ? modes[mode] : "?";
}

/* The longest mode name that s starts with and that ends at '=', ':', ' '
 * or the end ("prefer (many)" before "prefer"). */
static int match_mode(const char *s, size_t *len)
{
	int best = -1;
	size_t blen = 0;

	for (int i = 0; i < NMODES; i++) {
		size_t l = strlen(modes[i]);

		if (strncmp(s, modes[i], l) == 0 && strchr("=: ", s[l]) && l > blen) {
			best = i;
			blen = l;
		}
	}
	*len = blen;
	return best;
}

int tt_numa_maps_line(const char *line, struct tt_nmap_vma *out)
{
	const char *p = line, *tok;
	size_t len;
	char buf[4096];

	memset(out, 0, sizeof(*out));
	out->page_bytes = 4096;
	/* The VMA's start, in hex. */
	if (!*p || !strchr("0123456789abcdef", *p))
		return -EINVAL;
	while (*p && strchr("0123456789abcdef", *p))
		p++;
	if (*p++ != ' ')
		return -EINVAL;
	if ((out->mode = match_mode(p, &len)) < 0)
		return -EINVAL;
	p += len;
	if (*p == '=') {
		size_t n = strcspn(++p, ": ");

		if (n == 0 || n >= sizeof(out->flags))
			return -EINVAL;
		memcpy(out->flags, p, n);
		p += n;
	}
	if (*p == ':') {
		size_t n = strcspn(++p, " ");

		if (n >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, p, n);
		buf[n] = '\0';
		if (n == 0 || tt_parse_list(buf, out->nodes.bits, TT_MAX_NODES) < 0)
			return -EINVAL;
		p += n;
	}
	/* key=value fields; file= paths have their spaces escaped (seq_path
	 * with "\n\t= "), so a space always separates fields. */
	while (*p == ' ') {
		uint64_t v;
		const char *end;

		tok = ++p;
		len = strcspn(tok, " ");
		p = tok + len;
		if (tok[0] == 'N' && tok[1] >= '0' && tok[1] <= '9') {
			uint64_t node;

			if (tt_parse_u64_prefix(tok + 1, 0, TT_MAX_NODES - 1, &node, &end) < 0 ||
			    *end != '=' || tok + len - end - 1 > 24)
				return -EINVAL;
			memcpy(buf, end + 1, (size_t)(tok + len - end - 1));
			buf[tok + len - end - 1] = '\0';
			if (tt_parse_u64(buf, 0, UINT64_MAX / 2, &v) < 0)
				return -EINVAL;
			out->pages[node] = v;
			tt_bit_set(out->resident.bits, (unsigned int)node);
		} else if (strncmp(tok, "kernelpagesize_kB=", 18) == 0 && len > 18 && len < 40) {
			memcpy(buf, tok + 18, len - 18);
			buf[len - 18] = '\0';
			if (tt_parse_u64(buf, 1, UINT64_C(1) << 24, &v) < 0)
				return -EINVAL;
			out->page_bytes = v * 1024;
		}
	}
	return *p ? -EINVAL : 0;
}

void tt_numa_maps_init(struct tt_numa_maps *m)
{
	memset(m, 0, sizeof(*m));
	m->mode = -1;
}

void tt_numa_maps_add(struct tt_numa_maps *m, const char *line)
{
	/* A VMA line holds 8 KiB of page counts: keep it off the stack of
	 * a caller that may be a small thread. */
	struct tt_nmap_vma *v = malloc(sizeof(*v));
	uint64_t bytes = 0;
	int node;

	m->vmas++;
	if (!v || tt_numa_maps_line(line, v) < 0) {
		m->bad++;
		free(v);
		return;
	}
	if (v->mode != TT_MPOL_INTERLEAVE && v->mode != TT_MPOL_WEIGHTED_INTERLEAVE) {
		free(v);
		return;
	}
	tt_nodemask_for_each (node, &v->resident) {
		uint64_t b = v->pages[node] * v->page_bytes;

		m->bytes[node] += b;
		bytes += b;
		tt_bit_set(m->resident.bits, (unsigned int)node);
	}
	m->total_bytes += bytes;
	if (m->il_vmas && (v->mode != m->mode || memcmp(&v->nodes, &m->nodes, sizeof(v->nodes))))
		m->mixed = true;
	if (!m->il_vmas || bytes > m->best_bytes) {
		m->mode = v->mode;
		memcpy(m->flags, v->flags, sizeof(m->flags));
		m->nodes = v->nodes;
		m->best_bytes = bytes;
	}
	m->il_vmas++;
	free(v);
}

int tt_numa_maps_read(const struct tt_sysfs *s, pid_t pid, struct tt_numa_maps *m)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	tt_numa_maps_init(m);
	if (tt_sysfs_path(s, path, sizeof(path), "/proc/%d/numa_maps", (int)pid) < 0)
		return TT_EINPUT;
	if (!(f = fopen(path, "re")))
		return tt_err_sys(TT_EUNAVAIL, errno, "cannot read '%s'", path);
	while (getline(&line, &cap, f) > 0) {
		tt_chomp(line);
		tt_numa_maps_add(m, line);
	}
	/* A process that exits while read gives a read error: gone. */
	int rc = ferror(f) ? tt_err(TT_EUNAVAIL, "cannot read '%s'", path) : 0;

	free(line);
	fclose(f);
	return rc;
}

int tt_numa_maps_policy(int mode, const char *flags, const struct tt_nodemask *nodes, char *buf,
			unsigned long size)
{
	char list[1024];
	int n;

	if (tt_bit_format_list(nodes->bits, TT_MAX_NODES, list, sizeof(list)) < 0)
		snprintf(list, sizeof(list), "...");
	n = snprintf(buf, size, "%s%s%s%s%s", tt_mpol_mode_name(mode), flags[0] ? "=" : "", flags,
		     list[0] ? ":" : "", list);
	return n < 0 || (unsigned long)n >= size ? TT_EINPUT : n;
}
