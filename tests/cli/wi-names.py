#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks that the weight-interface table is true (core/wi.h).

    wi-names.py TOP     problems, one a line; exit 1 when there is any

The interfaces are the backends core/wi-<name>.c define (".name = ...");
other core/wi-*.c files (wi-common.c) are checked like any file.
Each is listed in core/wi.c's table, and no other C file of cli, core, tui,
tuner or db names one in code: no tt_wi_<name> symbol (core/wi.c's table
excepted), and no string literal made only of backend names ("rfc",
"upstream|rfc"), the form a branch on the name or a hand-kept list takes.
Comments, and names inside sentences (help and messages that describe the
table), are allowed.
"""
import glob
import os
import re
import sys

top = sys.argv[1]
problems = []
backends = {}
for path in sorted(glob.glob(os.path.join(top, "core", "wi-*.c"))):
    m = re.search(r'\.name\s*=\s*"([^"]+)"', open(path, encoding="utf-8").read())
    if m:
        backends[m.group(1)] = os.path.relpath(path, top)
backend_files = set(backends.values())
if not backends:
    problems.append("no backend in core/wi-*.c")

table = open(os.path.join(top, "core", "wi.c"), encoding="utf-8").read()
for name, path in backends.items():
    if not re.search(r"&tt_wi_%s\b" % re.escape(name), table):
        problems.append("core/wi.c: the table does not list %s (%s)" % (name, path))


def code(text):
    """The text with comments blanked, string literals kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


names = "|".join(re.escape(b) for b in backends) or "(?!)"
symbol = re.compile(r"\btt_wi_(%s)\b" % names)
only_names = re.compile(r'^(?:%s)(?:[|, /]+(?:%s))*$' % (names, names), re.I)
for folder in ("cli", "core", "tui", "tuner", "db"):
    for path in sorted(glob.glob(os.path.join(top, folder, "*.[ch]"))):
        rel = os.path.relpath(path, top)
        if rel in backend_files:
            continue
        text = code(open(path, encoding="utf-8").read())
        for lineno, line in enumerate(text.split("\n"), 1):
            if rel != "core/wi.c":
                for m in symbol.finditer(line):
                    problems.append("%s:%d: names backend symbol %s" % (rel, lineno, m.group(0)))
            for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
                if only_names.match(lit):
                    problems.append('%s:%d: names an interface in code: "%s"' % (rel, lineno, lit))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
