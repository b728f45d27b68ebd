# SPDX-License-Identifier: GPL-3.0-or-later
"""tiertune rebalance on the 3-node guest (tests/qemu/guest-rebalance.sh's
blocks): 10007 pages held on node 0 moved to 5:3:2 over nodes 0-2, each
node's share within 1% of its target by the process's own move_pages
query and by the kernel's numa_maps, every page counted; --order
interleave page for page tiertune simulate's order; the refusals moved
nothing; a process killed at several points of a move ends each run with
what moved, recorded; a private MAP_HUGETLB buffer moved whole; a full
target node, 30 THPs that the interleave order cannot bring within the
tolerance, a cpuset that does not allow a target node. check-rebalance.py
calls each check_*()."""
import json

PAGES = 10007
# 10007 x 5:3:2 by the largest remainder: 5003.5, 3002.1, 2001.4.
TARGET = {0: 5004, 1: 3002, 2: 2001}


def nodes_lines(out):
    return [[int(x) for x in line.split()[1:]] for line in out.splitlines()
            if line.startswith("nodes")]


def counts(pages):
    return {k: pages.count(k) for k in (0, 1, 2)}


def within(c):
    # 1% of the pages: 100 pages per node.
    return sum(c.values()) == PAGES and all(abs(c[k] - TARGET[k]) <= PAGES // 100 for k in c)


def jhead(block, name):
    """A block's JSON document, with what the command said on stderr after
    it (guest.sh's no_tty: rebalance's progress lines) left out."""
    rc, out = block(name)
    try:
        return rc, json.JSONDecoder().raw_decode(out.lstrip())[0]
    except ValueError:
        return rc, None


def check(block, jblock, tap):
    rc, out = block("rebalance-held")
    held = nodes_lines(out)
    tap(rc == 0 and held and held[0] == [0] * PAGES,
        "rebalance: pagemap holds 10007 pages on node 0", out[-500:])
    rc, j = jblock("rebalance-dry")
    tap(rc == 0 and j and j["dry_run"] and j["per_page"]
        and j["before"]["node_pages"].get("0", 0) >= PAGES
        and j["target_bp"] == {"0": 5000, "1": 3000, "2": 2000} and j["after"] is None,
        "rebalance dry run: every page on node 0 (a query per page), targets 5000/3000/2000 bp, "
        "nothing moved", block("rebalance-dry")[1][-1500:])
    rc, j = jhead(block, "rebalance-move")
    res = (j or {}).get("result") or {}
    mib = res.get("planned_pages", 0) * 4096 / 2**20
    # Planned: node 0's surplus over half the process's pages (the buffer
    # and the little else it has, some of it elsewhere): about 5000.
    tap(rc == 0 and j and j["within_tolerance"]
        and res.get("moved_pages") == res.get("planned_pages", 0) > 4900
        and res.get("process_gone") is False and j["run"] is not None and j["rounds"] >= 1
        and res.get("elapsed_s", 0) >= 0.9 * mib / 64,
        "rebalance --move --rate 64: within tolerance, %s of %s pages moved at most 64 MiB/s "
        "(%s s), recorded" % (res.get("moved_pages"), res.get("planned_pages"),
                              res.get("elapsed_s")),
        block("rebalance-move")[1][-2000:])
    rc, out = block("rebalance-after")
    after = nodes_lines(out)
    c = counts(after[-1]) if len(after) >= 2 else {}
    tap(rc == 0 and len(after) >= 2 and within(c),
        "after rebalance, the process's own move_pages query: %s, each within 1%% of %s, "
        "all %d pages" % (c, TARGET, PAGES), out[-300:])
    rc, out = block("rebalance-numa-maps")
    line = [x for x in out.splitlines() if " anon=%d " % PAGES in x]
    nm = {}
    for f in (line[0].split() if line else []):
        if f[:1] == "N" and "=" in f:
            nm[int(f[1:f.index("=")])] = int(f[f.index("=") + 1:])
    tap(rc == 0 and len(line) == 1 and within({k: nm.get(k, 0) for k in (0, 1, 2)}),
        "the kernel's numa_maps of the buffer agrees: %s" % nm, out[-1500:])
    rc, j = jblock("rebalance-recorded")
    runs = [r for r in (j or {}).get("runs", []) if r.get("kind") == "rebalance"]
    tap(rc == 0 and runs and runs[0]["status"] == "done",
        "recorded as a run of kind rebalance, done", json.dumps(runs)[:1500])
    rc, out = block("rebalance-gone")
    tap(rc == 2 and "no process" in out, "a process that has exited: refused (exit 2)", out)

    rc, j = jhead(block, "rebalance-il-move")
    tap(rc == 0 and j and j["order"] == "interleave" and j["within_tolerance"],
        "rebalance --order interleave --move: within tolerance",
        block("rebalance-il-move")[1][-2000:])
    rc, out = block("rebalance-il-after")
    il = nodes_lines(out)
    rc2, sim = jblock("rebalance-il-simulate")
    want = (sim or {}).get("page_nodes") or []
    got = il[-1] if len(il) >= 2 else []
    diff = [i for i in range(min(len(got), len(want))) if got[i] != want[i]]
    tap(rc == 0 and rc2 == 0 and len(got) == PAGES and len(want) == PAGES and not diff,
        "--order interleave: page for page tiertune simulate's order (%d of %d differ)"
        % (len(diff), len(got)), "first differences at %s" % diff[:10])
    rc, out = block("rebalance-offline")
    tap(rc == 2 and "node 3 is not an online memory node" in out,
        "weights on a node not online: refused (exit 2)", out)
    rc, out = block("rebalance-kthread")
    tap(rc == 2 and "is a kernel thread" in out, "a kernel thread: refused (exit 2)", out)
    rc, out = block("rebalance-refused-after")
    last = nodes_lines(out)
    tap(rc == 0 and len(last) >= 3 and last[-1] == last[-2],
        "the refusals moved nothing: the buffer's nodes as before them", out[-300:])

    # Huge pages, where the guest's THP setting allows them.
    rc, out = block("rebalance-thp-enabled")
    if "[never]" in out or rc != 0:
        tap(True, "# SKIP transparent huge pages off in the guest: %s" % out.strip())
        return
    thp_pages = 10240
    rc, j = jblock("rebalance-thp-dry")
    tap(rc == 0 and j and j["huge_units"] >= 20,
        "rebalance dry run of a THP buffer: its 20 huge pages found (%s)"
        % (j or {}).get("huge_units"), block("rebalance-thp-dry")[1][-1500:])
    rc, j = jhead(block, "rebalance-thp-move")
    tap(rc == 0 and j and j["within_tolerance"],
        "rebalance --move of the THP buffer: within tolerance",
        block("rebalance-thp-move")[1][-2000:])
    rc, out = block("rebalance-thp-after")
    after = nodes_lines(out)
    got = after[-1] if len(after) >= 2 else []
    c = {k: got.count(k) for k in (0, 1, 2)}
    # Whole huge pages: each 512-page block on one node.
    whole = len(got) == thp_pages and all(len(set(got[i:i + 512])) == 1
                                          for i in range(0, thp_pages, 512))
    tap(rc == 0 and whole and sum(c.values()) == thp_pages
        and all(abs(c[k] - t) <= thp_pages // 100 for k, t in ((0, 5120), (1, 3072), (2, 2048))),
        "THP buffer after: %s, whole 2 MiB blocks per node, within 1%% of 5120/3072/2048" % c,
        out[-300:])
    rc, out = block("rebalance-thp-smaps")
    ahp = sum(int(line.split()[1]) for line in out.splitlines()
              if line.startswith("AnonHugePages:"))
    tap(rc == 0 and ahp >= thp_pages * 4,
        "still huge pages after the move (smaps AnonHugePages %d kB of %d)"
        % (ahp, thp_pages * 4), out[-800:])
    rc, j = jblock("rebalance-thp-again")
    tap(rc == 0 and j and j["huge_units"] >= 20 and j["within_tolerance"],
        "looked at again: %s huge pages, within tolerance" % (j or {}).get("huge_units"),
        block("rebalance-thp-again")[1][-1500:])


def check_exiting(block, jblock, tap):
    """Killed at several points of a --move: each run said gone with what
    moved and recorded, or refused with nothing moved; no raw error."""
    gone = 0
    for at in ("0.5", "1.5", "3", "5"):
        name = "rebalance-kill-" + at
        rc, j = jhead(block, name)
        out = block(name)[1]
        res = (j or {}).get("result") or {}
        moved_gone = (rc == 1 and j is not None and res.get("process_gone") is True
                      and j["run"] is not None and res.get("moved_pages", -1) >= 0
                      and j["within_tolerance"] is False)
        # Killed before tiertune looked (reaped: no process; a zombie:
        # refused), or while it read the pages: nothing moved either way.
        # Under TCG tiertune starts slower than 0.5 s: the first point
        # found the process reaped (busybox ash reaps its jobs as they end).
        before = rc == 2 and ("nothing moved" in out or "has exited (a zombie)" in out
                              or "no process" in out)
        raw = "Invalid argument" in out or "No such process" in out
        gone += moved_gone
        tap((moved_gone or before) and not raw,
            "rebalance --move, its process killed after %s s: %s" % (
                at, "gone midway, %s of %s pages had moved, recorded as run %s"
                % (res.get("moved_pages"), res.get("planned_pages"), (j or {}).get("run"))
                if moved_gone else "killed before any move" if before else "neither"),
            out[-1500:])
    rc, j = jblock("rebalance-kill-recorded")
    failed = [r for r in (j or {}).get("runs", [])
              if r.get("kind") == "rebalance" and r.get("status") == "failed"]
    tap(rc == 0 and gone >= 1 and len(failed) >= gone,
        "each run that moved before its process died is recorded, failed (%d of %d)"
        % (len(failed), gone), json.dumps(failed)[:1500])


def check_hugetlb(block, jblock, tap):
    """20 private MAP_HUGETLB pages on node 0: counted, moved whole to
    5:3:2, still hugetlb pages afterwards."""
    pages = 10240
    rc, out = block("rebalance-htlb-pool")
    free = [int(x) for x in out.split()] if rc == 0 else []
    if len(free) != 3 or min(free) < 10:
        tap(True, "# SKIP no hugetlb pool of 2 MiB pages in the guest: %s" % out.strip())
        return
    rc, j = jblock("rebalance-htlb-dry")
    tap(rc == 0 and j and j["huge_units"] >= 20
        and j["before"]["node_pages"].get("0", 0) >= pages,
        "rebalance dry run of a MAP_HUGETLB buffer: its 20 huge pages counted (%s), on node 0"
        % (j or {}).get("huge_units"), block("rebalance-htlb-dry")[1][-1500:])
    rc, j = jhead(block, "rebalance-htlb-move")
    tap(rc == 0 and j and j["within_tolerance"],
        "rebalance --move of the MAP_HUGETLB buffer: within tolerance",
        block("rebalance-htlb-move")[1][-2000:])
    rc, out = block("rebalance-htlb-after")
    after = nodes_lines(out)
    got = after[-1] if len(after) >= 2 else []
    c = {k: got.count(k) for k in (0, 1, 2)}
    whole = len(got) == pages and all(len(set(got[i:i + 512])) == 1
                                      for i in range(0, pages, 512))
    tap(rc == 0 and whole
        and all(abs(c[k] - t) <= pages // 100 for k, t in ((0, 5120), (1, 3072), (2, 2048))),
        "MAP_HUGETLB buffer after: %s, whole 2 MiB pages per node, within 1%% of "
        "5120/3072/2048" % c, out[-300:])
    rc, out = block("rebalance-htlb-smaps")
    ph = sum(int(line.split()[1]) for line in out.splitlines()
             if line.startswith("Private_Hugetlb:"))
    tap(rc == 0 and ph >= pages * 4,
        "still hugetlb pages after the move (smaps Private_Hugetlb %d kB of %d)"
        % (ph, pages * 4), out[-800:])


def check_full_node(block, jblock, tap):
    """10007 pages toward 1:1 over nodes 0 and 2, node 2 with about 16 MiB
    free: the pages that fit moved, the rest named ENOMEM with node 2 full,
    every planned page counted once, recorded as failed with why, exit 1."""
    rc, out = block("rebalance-full-free")
    rc, j = jhead(block, "rebalance-full-move")
    out = block("rebalance-full-move")[1]
    res = (j or {}).get("result") or {}
    failed = sum(res.get(k, 0) for k in ("ebusy_pages", "efault_pages", "enoent_pages",
                                         "eacces_pages", "enomem_pages", "other_pages"))
    tap(rc == 1 and j is not None and res.get("full_nodes") == [2]
        and res.get("moved_pages", 0) > 0 and res.get("enomem_pages", 0) > 0
        and res.get("moved_pages", 0) + failed == res.get("planned_pages")
        and j["within_tolerance"] is False and j["run"] is not None
        and "node 2 had no room (ENOMEM)" in (j.get("end_reason") or "")
        and "Cannot allocate memory" not in out,
        "a full target node (%s): %s of %s pages moved, %s named ENOMEM, node 2 full, "
        "recorded as run %s, exit %d" % (" ".join(block("rebalance-full-free")[1].split()),
                                         res.get("moved_pages"), res.get("planned_pages"),
                                         res.get("enomem_pages"), (j or {}).get("run"), rc),
        out[-2000:])
    rc, out = block("rebalance-full-after")
    after = nodes_lines(out)
    got = after[-1] if len(after) >= 2 else []
    c = counts(got)
    # Conservation: every page somewhere; node 2 holds what moved there
    # (pagemap's own pages besides the buffer may have moved too).
    tap(rc == 0 and len(got) == PAGES and sum(c.values()) == PAGES and c[1] == 0
        and 0 < c[2] <= res.get("moved_pages", 0),
        "after it, the buffer's own query: %s, all %d pages, node 2 only what moved" % (c, PAGES),
        out[-300:])
    rc, rj = jblock("rebalance-full-runs-json")
    runs = (rj or {}).get("runs") or [{}]
    text = block("rebalance-full-runs")[1]
    tap(rc == 0 and runs[0].get("kind") == "rebalance" and runs[0].get("status") == "failed"
        and runs[0].get("end_reason") == (j or {}).get("end_reason")
        and "node 2 had no room (ENOMEM)" in text,
        "the record says why: failed, end_reason %r, in runs' text too"
        % runs[0].get("end_reason"), json.dumps(runs)[:800] + "\n" + text)


def check_granularity(block, jblock, tap):
    """30 THPs toward 3:2:2 in the interleave order: the 2 MiB granularity
    named, with what would meet it, in text and JSON; the suggestion holds."""
    rc, out = block("rebalance-gran-dry")
    # The note is wrapped at 80 columns: read as one line.
    note = " ".join(out.split())
    rc2, j = jblock("rebalance-gran-json")
    g = (j or {}).get("granularity") or ""
    off = (j or {}).get("planned_off_bp")
    tap(rc == 0 and rc2 == 0 and j and j["huge_units"] >= 30 and off is not None and off > 100
        and "2 MiB huge pages" in g and ("--order shares" in g or "--tolerance" in g)
        and "note: " + g in note,
        "30 THPs, --order interleave at the default tolerance: planned_off_bp %s, and the text "
        "and JSON say: %s" % (off, g), out[-1500:])
    rc, alt = block("rebalance-gran-alt")
    rc2, f = jblock("rebalance-gran-fits")
    alt = alt.strip()
    tap(rc2 == 0 and f and alt and f["granularity"] is None and f["planned_off_bp"] is not None
        and f["planned_off_bp"] <= f["tolerance_bp"],
        "its suggestion (%s) taken: planned %s bp off, within %s bp"
        % (alt, (f or {}).get("planned_off_bp"), (f or {}).get("tolerance_bp")),
        block("rebalance-gran-fits")[1][-1500:])
    rc, m = jhead(block, "rebalance-gran-move")
    after = ((m or {}).get("after") or {}).get("off_bp")
    tap(rc == 1 and m and m["within_tolerance"] is False and m["granularity"] == g
        and after is not None and after > m["tolerance_bp"],
        "--move: NOT within tolerance (exit 1), %s bp off (planned %s), the note kept"
        % (after, off), block("rebalance-gran-move")[1][-1500:])


def check_cpuset(block, jblock, tap):
    """A cpuset that allows nodes 0-1: weights on node 2 refused before any
    move; narrowed midway, the move ends naming node 2, recorded with why."""
    rc, out = block("rebalance-cpuset-status")
    if "Mems_allowed_list:\t0-1" not in out:
        tap(True, "# SKIP no cpuset of nodes 0-1 in the guest: %s" % out.strip())
        return
    rc, out = block("rebalance-cpuset")
    tap(rc == 2 and "node 2 is not one process" in out and "Mems_allowed_list" in out
        and "credentials" not in out,
        "weights on a node the cpuset does not allow: refused (exit 2), the cpuset named", out)
    rc, out = block("rebalance-cpuset-after")
    held = nodes_lines(out)
    tap(rc == 0 and len(held) >= 2 and held[-1] == [0] * PAGES,
        "the refusal moved nothing: every page still on node 0", out[-300:])
    rc, j = jhead(block, "rebalance-cpuset-narrow")
    out = block("rebalance-cpuset-narrow")[1]
    res = (j or {}).get("result") or {}
    why = (j or {}).get("end_reason") or ""
    tap(rc == 1 and j and res.get("process_unreachable") is True
        and res.get("forbidden_nodes") == [2] and "cpuset" in why and "node 2" in why
        and "credentials" not in out and j["run"] is not None,
        "cpuset narrowed to nodes 0-1 midway: %s of %s pages had moved, %r" % (
            res.get("moved_pages"), res.get("planned_pages"), why), out[-2000:])
    text = block("rebalance-cpuset-narrow-runs")[1] + block("rebalance-cpuset-narrow-show")[1]
    # runs prints it under the run's row, show on its "ended" line.
    tap(bool(why) and text.count(why) == 2,
        "runs and show print why it ended", text[-1500:])
