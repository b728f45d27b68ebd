/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The process panel's collecting: a scan of /proc/PID/numa_maps (under the
 * root prefix, so fixtures can hold processes) for the processes whose
 * memory is interleaved, on a thread of its own at a slower rate than the
 * bandwidth rows. Drawing code only takes finished scans.
 *
 *	struct tt_scanner *sc;
 *	tt_scanner_start(&sc, &sfs, 5.0);
 *	if (tt_scanner_take(sc, &scan)) ...   (scan replaced by the newest)
 *	tt_scanner_stop(sc);
 */
#ifndef TT_TUI_PROCS_H
#define TT_TUI_PROCS_H

#include "frame.h"

#include "../core/sysfs.h"

/* One scan, now, on the calling thread. Processes that vanish or deny
 * access are counted in skipped and otherwise left out. */
int tt_procs_scan(const struct tt_sysfs *s, struct tt_proc_scan *out);

struct tt_scanner;
int tt_scanner_start(struct tt_scanner **out, const struct tt_sysfs *s, double period_s);
/* Moves the newest finished scan into *scan (releasing what it held);
 * false when there is none newer than the last taken. */
bool tt_scanner_take(struct tt_scanner *sc, struct tt_proc_scan *scan);
/* Waits up to timeout_s for a scan newer than the last taken. */
bool tt_scanner_wait(struct tt_scanner *sc, double timeout_s);
/* Scans again now, not at the end of the period. */
void tt_scanner_kick(struct tt_scanner *sc);
/* Idle: no scan but on a kick. Reading numa_maps walks every page of a
 * process under its mmap lock, which a large application feels: the
 * screen scans only while its panel is shown. */
void tt_scanner_set_idle(struct tt_scanner *sc, bool idle);
void tt_scanner_set_period(struct tt_scanner *sc, double period_s);
void tt_scanner_stop(struct tt_scanner *sc);

#endif
