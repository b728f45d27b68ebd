#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What cli/ prints of its own that the figure table owns (core/figure.c):
units, scales and figure names. Prints "file:line: what" for each.

	cli-figures.py TOP [FILE...]     (default: TOP/cli/*.c)

The list comes from the table itself: its labels and row words (GB/s, ns,
ns/load, MiB, MiB/s; the bare words "s", "seconds" and "metric" are prose
too often to look for), its JSON names (bw_best_bytes_s ...), the other
spellings of its units (MB/s, GiB), the scales between SI and shown units
(a product or quotient with 1e9, 1e-9, 1e6 or 1e-6; 1 << 20, 1 << 30, 1024
* 1024, >> 20, >> 30) and gains formatted by
hand ("%+.1f%%"). Comments do not count; nor do an option's declaration
(CLI_*(...): its help names the unit it takes, as STYLE.md asks) and a
usage error (cli_usage(...): it quotes the input in the option's unit).
"""
import glob
import os
import re
import sys

top = sys.argv[1]
files = sys.argv[2:] or sorted(glob.glob(os.path.join(top, "cli", "*.c")))
table = open(os.path.join(top, "core", "figure.c")).read()
prose = {"", "s", "seconds", "metric"}
units = set(re.findall(r'\.(?:label|row|plot_unit)\s*=\s*"([^"]*)"', table)) - prose
units |= {"MB/s", "GiB"}
names = set(re.findall(r'\.(?:best|median|worst|mean)\s*=\s*"([^"]*)"', table))
unit_re = re.compile(
    r"(?<![A-Za-z0-9_/])(" + "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True)) + r")(?![A-Za-z0-9_/])"
)
gain_re = re.compile(r"%\+[0-9]*\.?[0-9]*f%%")
scale_re = re.compile(
    r"[*/]\s*1e-?[69](?![\w.])|(?<![\w.])1e-?[69]\s*[*/]|\b1\s*<<\s*(?:20|30)\b|>>\s*(?:20|30)\b"
    r"|\b1024(?:\.0)?\s*\*\s*1024(?:\.0)?\b"
)
exempt_re = re.compile(r"^(CLI_[A-Z0-9_]+|cli_usage)$")


def scan(path):
    src = open(path).read()
    found = []
    i, line, n = 0, 1, len(src)
    stack = []  # the name before each open parenthesis ("" for none)
    word = ""  # the identifier just read
    code = []  # (line, text) of code outside literals and comments

    def exempt():
        return any(exempt_re.match(s) for s in stack)

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if c == "#" and (i == 0 or src[i - 1] == "\n"):
            # A preprocessor line: includes name no unit; a #define's
            # body is code.
            j = src.find("\n", i)
            j = n if j < 0 else j
            text = src[i:j]
            if text.startswith("#define"):
                code.append((line, text))
            i = j
            continue
        if c in "\"'":
            j, start = i + 1, line
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            lit = src[i + 1 : j]
            line += src.count("\n", i, j)
            i = j + 1
            if c == '"' and not exempt():
                for m in unit_re.finditer(lit):
                    found.append((start, "unit '%s' in \"%s\"" % (m.group(1), lit)))
                for m in gain_re.finditer(lit):
                    found.append((start, "gain format '%s' in \"%s\"" % (m.group(0), lit)))
                if lit in names:
                    found.append((start, "figure name \"%s\"" % lit))
            word = ""
            continue
        if c.isalnum() or c == "_":
            prev = src[i - 1] if i else " "
            word = word + c if prev.isalnum() or prev == "_" else c
        else:
            if c == "(":
                stack.append(word)
            elif c == ")" and stack:
                stack.pop()
            elif c in ";{}":
                stack = []
            if not c.isspace():
                word = ""
        if c == "\n":
            line += 1
        elif not exempt():
            code.append((line, c))
        i += 1
    # The code outside literals, comments and exempt calls, a line at a time.
    lines = {}
    for ln, text in code:
        lines[ln] = lines.get(ln, "") + text
    for ln in sorted(lines):
        for m in scale_re.finditer(lines[ln]):
            found.append((ln, "scale '%s'" % m.group(0)))
    return found


for path in files:
    rel = os.path.relpath(path, top)
    for ln, what in sorted(scan(path)):
        print("%s:%d: %s" % (rel, ln, what))
