# SPDX-License-Identifier: GPL-3.0-or-later
"""auto's printed report held to show of the same runs (t0076).

  auto-show.py same AUTO_TEXT RUN SHOW_TEXT SHOW_JSON [RUN SHOW_TEXT SHOW_JSON ...]
      every figure both print, number for number and word for word: the
      unit, each vector's mean and 95% interval (auto's table, show's
      trials), the recommendation's figure, action, gain and the baseline
      it is over, and what the gain column is called.
  auto-show.py scale AUTO_TEXT AUTO_JSON RUN SHOW_TEXT SHOW_JSON [...]
      every figure of either, recomputed from the stored SI values (show
      --json, auto --json) with the documented scale and decimals
      (docs/tiertune.1: GB/s = 10^9 bytes/s to 0.01, ns to 0.1, s to
      0.001, a gain in percent to 0.1, the latency objective's as the
      change of latency): a wrong scale or decimal in any column fails.
Prints one line per disagreement (nothing when all hold).
"""
import json
import re
import sys

# The display rules as documented, independent of the code under test.
SCALE = {"GB/s": (1e9, 2), "ns": (1, 1), "s": (1, 3)}
KEYS = {"GB/s": "bw", "ns": "lat", "s": "time"}
SI = {"bw": "_bytes_s", "lat": "_ns", "time": "_s"}

bad = []
compared = [0]  # figures held to each other: a check that compared none fails


def fail(msg):
    bad.append(msg)


def seen(n=1):
    compared[0] += n


def wkey(ws):
    """Weights text ("0:27,1:2,2:2") or a show trial's nodes as one key."""
    if isinstance(ws, list):
        return ",".join("%d:%d" % (n["node"], n["weight"]) for n in ws if n["weight"])
    return ",".join(p for p in ws.split(",") if not p.endswith(":0"))


def sections(text):
    """auto's text per recorded run: {run: lines}."""
    out, cur = {}, []
    for line in text.splitlines():
        if line.startswith("=== source node") and cur:
            flush(out, cur)
            cur = []
        cur.append(line)
    flush(out, cur)
    return out


def flush(out, lines):
    for line in lines:
        m = re.match(r"^recorded as run (\d+)", line)
        if m:
            out[int(m.group(1))] = lines


def auto_table(lines):
    """The figures table: unit, gain word, {weights: (name, mean, ci, gain, verdict)}."""
    rows, unit, word, on = {}, None, None, False
    for line in lines:
        m = re.match(r"^\s+weights\s+(\S+)\s+95% CI\s+best's (\S+) (?:over|vs) it\s+verdict$", line)
        if m:
            unit, word, on = m.group(1), m.group(2), True
            continue
        if not on:
            continue
        if line.startswith("("):
            break
        m = re.match(r"^(\S+)\s+(\S+)\s+(\S+)\s+(± *\S+|\S+)(?:\s{2,}(.*?)\s{2,}(.*))?$", line)
        if not m:
            fail("auto: table row not read: %r" % line)
            continue
        ci = m.group(4)
        if ci.startswith("±"):
            # The old form: mean ± half, the ends it implies.
            half, mean = ci[1:].strip(), m.group(3)
            dec = len(mean.split(".")[1]) if "." in mean else 0
            ci = ("%.*f..%.*f" % (dec, float(mean) - float(half), dec, float(mean) + float(half))
                  if half != "-" else "unbounded")
        rows[wkey(m.group(2))] = (m.group(1), m.group(3), ci, m.group(5), m.group(6))
    return unit, word, rows


def auto_verdicts(lines):
    """The "vs LABEL  GAIN..." lines: {label: gain text}."""
    out = {}
    for line in lines:
        m = re.match(r"^  vs (.{17}) (.*)$", line)
        if m:
            out[m.group(1).strip()] = m.group(2)
    return out


def auto_action(lines):
    for line in lines:
        m = re.search(r"recommendation for source node \d+: (.*)$", line)
        if not m:
            continue
        t = m.group(1)
        if t.startswith("no global weights"):
            return "per_source"
        if t.startswith("keep the kernel's auto mode"):
            return "keep_auto"
        if t.startswith("keep the weights set now"):
            return "keep_now"
        if t.startswith("bind to local memory") or "alone: bind there" in t:
            return "bind_local"
        return "apply"
    return None


def show_parts(text):
    """show's text: trials' unit and {seq: (mean, ci)}, gain word, reco rows, headline."""
    unit, trials, word, recos, headline, on = None, {}, None, [], None, False
    for line in text.splitlines():
        m = re.match(r"^headline  (.*)$", line)
        if m:
            headline = m.group(1)
        m = re.match(r"^trial\s+mean (\S+)\s+95% CI measurements$", line)
        if m:
            unit, on = m.group(1), True
            continue
        m = re.match(r"^source interface weights\s+(\S+)\s+action, figure$", line)
        if m:
            word, on = m.group(1), False
            continue
        if on:
            m = re.match(r"^\s*(\d+)\s+(\S+)\s+(\S+)\s+(\d+)$", line)
            if m:
                trials[int(m.group(1))] = (m.group(2), m.group(3))
            elif line.strip():
                on = False
        m = re.match(r"^\s*(\d+) (\S+)\s+(\S+)\s+(\S+)  (\w+), (?:gain over (.+?), )?(\S+) (\S+) mean(?: \(95% CI (\S+)\))?", line)
        if m:
            recos.append(dict(source=int(m.group(1)), weights=m.group(3), gain=m.group(4),
                              action=m.group(5), over=m.group(6), mean=m.group(7),
                              unit=m.group(8), ci=m.group(9)))
    return unit, trials, word, recos, headline


def same(auto_text, triples):
    secs = sections(auto_text)
    for run, stext, sjson in triples:
        lines = secs.get(run)
        if lines is None:
            fail("run %d: auto's report does not record it" % run)
            continue
        j = json.loads(sjson)
        unit, word, rows = auto_table(lines)
        sunit, strials, sword, recos, _ = show_parts(stext)
        tag = "run %d" % run
        if unit != sunit:
            fail("%s: auto's unit %r, show's %r" % (tag, unit, sunit))
        if recos and word != sword:
            fail("%s: auto's gain is called %r, show's %r" % (tag, word, sword))
        by_w = {wkey(t["nodes"]): strials.get(t["seq"]) for t in j["trials"]}
        for w, (name, mean, ci, _, _) in rows.items():
            got = by_w.get(w)
            if got is None:
                fail("%s: auto's %s row %s is no trial of show's" % (tag, name, w))
            elif (mean, ci) != got:
                fail("%s: %s %s: auto %s %s, show %s %s" % (tag, name, w, mean, ci, *got))
            else:
                seen()
        verd = auto_verdicts(lines)
        act = auto_action(lines)
        for r in recos:
            row = rows.get(wkey(r["weights"]))
            if r["action"] != act:
                fail("%s: auto recommends %s, show says %s" % (tag, act, r["action"]))
            if r["unit"] != unit:
                fail("%s: show's recommendation in %s, auto's in %s" % (tag, r["unit"], unit))
            if row is None:
                fail("%s: show's recommended %s is no row of auto's" % (tag, r["weights"]))
            elif (row[1], row[2]) != (r["mean"], r["ci"] or "n/a"):
                fail("%s: recommended %s: auto %s %s, show %s %s"
                     % (tag, r["weights"], row[1], row[2], r["mean"], r["ci"]))
            if r["gain"] == "+0.0%" and act in ("keep_auto", "keep_now", "bind_local"):
                continue
            said = verd.get(r["over"] or "")
            if said is None:
                fail("%s: show's gain is over %r, which auto's report names not" % (tag, r["over"]))
            elif said.split()[0] != r["gain"]:
                fail("%s: gain over %s: auto %s, show %s" % (tag, r["over"], said.split()[0], r["gain"]))
            else:
                seen()


def fig(unit, v):
    div, dec = SCALE[unit]
    return "%.*f" % (dec, v / div)


def pct(g, latency):
    if latency:
        g = 1 / (1 + g) - 1
    return "%+.1f%%" % (100 * g)


def scale(auto_text, auto_json, triples):
    secs = sections(auto_text)
    aj = json.loads(auto_json)
    docs = aj["sources"] if aj.get("all_sources") else [aj]
    for run, stext, sjson in triples:
        j = json.loads(sjson)
        tag = "run %d" % run
        latency = j["objective"].startswith("latency:")
        unit, trials, word, recos, headline = show_parts(stext)
        if unit not in SCALE:
            fail("%s: show's unit %r is none of the documented" % (tag, unit))
            continue
        k = KEYS[unit]
        for t in j["trials"]:
            mean = t.get(k + "_mean" + SI[k])
            if mean is None or t["seq"] not in trials:
                continue
            lo, hi = t.get(k + "_ci_low" + SI[k]), t.get(k + "_ci_high" + SI[k])
            want = (fig(unit, mean), "%s..%s" % (fig(unit, lo), fig(unit, hi))
                    if lo is not None and hi is not None else trials[t["seq"]][1])
            if trials[t["seq"]] != want:
                fail("%s: show's trial %d reads %s %s, its figures %s %s"
                     % (tag, t["seq"], *trials[t["seq"]], *want))
            seen()
        hm = j.get(k + "_mean" + SI[k])
        if hm is not None and (fig(unit, hm) + " " + unit) not in (headline or ""):
            fail("%s: show's headline %r, its figure %s %s" % (tag, headline, fig(unit, hm), unit))
        for r, sr in zip(j["recommendations"], recos):
            if r.get("gain") is not None and sr["gain"] != pct(r["gain"], latency):
                fail("%s: show's gain %s, stored %r" % (tag, sr["gain"], r["gain"]))
            seen()
        # auto's report of the same run: its table and verdicts from the
        # run's auto --json (the same seed measures the same figures).
        lines = secs.get(run)
        doc = next((d for d in docs if d.get("run") == run), None)
        if lines is None or doc is None:
            fail("%s: not in auto's report" % tag)
            continue
        if "sources" not in doc:
            doc = aj if not aj.get("all_sources") else doc
        aunit, _, rows = auto_table(lines)
        if aunit != unit:
            fail("%s: auto's unit %r" % (tag, aunit))
        scale_words(tag, lines, doc, latency)
        base = {wkey(",".join("%s:%s" % kv for kv in b["weights"].items())): b
                for b in doc.get("baselines", [])}
        for w, (name, mean, ci, gain, verdict) in rows.items():
            b = base.get(w) if name != "best" else None
            if b is None or gain in (None, "-"):
                continue
            want = "%s (%s..%s)" % (pct(b["gain"], latency),
                                    *(("%+.1f" % (100 * (1 / (1 + x) - 1 if latency else x)))
                                      for x in ((b["gain_ci_high"], b["gain_ci_low"]) if latency
                                                else (b["gain_ci_low"], b["gain_ci_high"]))))
            if gain != want:
                fail("%s: auto's %s gain column %s, its figures %s" % (tag, name, gain, want))
            seen()


def ci_text(lo, hi, latency):
    ends = (hi, lo) if latency else (lo, hi)
    return tuple(pct(x, latency)[:-1] for x in ends)


def scale_words(tag, lines, doc, latency):
    """auto's verdict lines and headline gain against the run's JSON."""
    said = [v for _, v in auto_verdicts(lines).items()]
    for b, text in zip(doc.get("baselines", []), said):
        if not re.match(r"^[-+]\d", text) or b.get("gain") is None:
            continue
        want = pct(b["gain"], latency)
        if b.get("gain_ci_low") is not None:
            want += "%s (95%% CI %s%%..%s%%)" % (
                "" if not latency else " latency, " + text.split(", ")[1].split(" (")[0],
                *ci_text(b["gain_ci_low"], b["gain_ci_high"], latency))
        if not text.startswith(want):
            fail("%s: auto's verdict on %s reads %r, its figures %r" % (tag, b["name"], text, want))
        seen()
    now = doc.get("against_now")
    for line in lines:
        m = re.search(r"recommendation for source node \d+: [^,]+, ([-+]\S+) \(95% CI (\S+)%\.\.(\S+)%\)", line)
        if m and now and now.get("gain_ci_low") is not None:
            want = (pct(now["gain"], latency),) + ci_text(now["gain_ci_low"], now["gain_ci_high"], latency)
            if m.groups() != want:
                fail("%s: auto's headline gain %r, its figures %r" % (tag, m.groups(), want))
            seen()


def triples(args):
    return [(int(args[i]), open(args[i + 1]).read(), open(args[i + 2]).read())
            for i in range(0, len(args), 3)]


if sys.argv[1] == "same":
    same(open(sys.argv[2]).read(), triples(sys.argv[3:]))
else:
    scale(open(sys.argv[2]).read(), open(sys.argv[3]).read(), triples(sys.argv[4:]))
if not compared[0]:
    fail("nothing compared: the report or show was not read")
for b in bad:
    print(b)
