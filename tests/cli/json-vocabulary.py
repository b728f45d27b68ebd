#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks JSON documents against docs/json.md, the vocabulary of every command.

    json-vocabulary.py DOCS_MD --doc               the vocabulary is self-consistent
    json-vocabulary.py DOCS_MD NAME < out.json     a command's output fits document NAME

Prints one line per problem and exits 1 when there is any. See docs/json.md
for the path syntax and the rules checked.
"""
import json
import re
import sys

TYPES = {"string", "integer", "number", "boolean", "object", "array", "null"}
# A unit and the name ending it requires (the style guide: the unit in the name).
SUFFIX = [("bytes/s", "_bytes_s"), ("pages/s", "_pages_s"), ("bytes", "_bytes"), ("ns", "_ns"),
          ("s", "_s")]


def parse(md):
    """{doc: {path: (types, unit)}}."""
    docs, doc = {}, None
    for line in open(md, encoding="utf-8"):
        m = re.match(r"^## doc: (\S+)", line)
        if m:
            doc = m.group(1)
            docs[doc] = {}
            continue
        if line.startswith("## "):
            doc = None
            continue
        cells = [c.strip().replace("\0", "|")
                 for c in line.replace("\\|", "\0").strip().strip("|").split("|")]
        if doc and line.startswith("| `") and len(cells) >= 3:
            docs[doc][cells[0].strip("`")] = (set(cells[1].split("|")), cells[2])
    return docs


def leaf(path):
    name = re.split(r"[.\[\]]+", path.rstrip("[]*."))
    return name[-1] if name else path


def check_doc(docs):
    problems, seen = [], {}
    for doc, fields in docs.items():
        if not fields:
            problems.append("%s: no fields" % doc)
        for path, (types, unit) in fields.items():
            if not types <= TYPES:
                problems.append("%s: %s: unknown type %s" % (doc, path, types - TYPES))
            name = leaf(path)
            for u, suffix in SUFFIX:
                if unit == u and not name.endswith(suffix):
                    problems.append("%s: %s is in %s but its name does not end %s"
                                    % (doc, path, u, suffix))
                    break
                if unit != u and name.endswith(suffix) and not path.endswith("*"):
                    problems.append("%s: %s ends %s but its unit is '%s'" % (doc, path, suffix, unit))
                    break
                if name.endswith(suffix):
                    break
            if path.endswith("[]") or path.endswith("*"):
                continue
            key = (types - {"null"}, unit)
            if name in seen and seen[name][0] != key:
                problems.append("%s: %s is %s %s here but %s %s in %s" % (
                    doc, path, "|".join(sorted(key[0])), key[1] or "-",
                    "|".join(sorted(seen[name][0][0])), seen[name][0][1] or "-", seen[name][1]))
            seen.setdefault(name, (key, doc))
    return problems


def typename(v):
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    return {float: "number", str: "string", dict: "object", list: "array",
            type(None): "null"}[type(v)]


def check_output(fields, j):
    problems = []

    def lookup(path):
        # Map keys are documented as '*': try each key of the path as one.
        parts = re.findall(r"[^.\[\]]+|\[\]", path)
        cands = [""]
        for p in parts:
            nxt = []
            for c in cands:
                for q in ([p] if p == "[]" else [p, "*"]):
                    s = c + q if q == "[]" or not c else c + "." + q
                    nxt.append(s)
            cands = nxt
        for c in cands:
            if c in fields:
                return c
        return None

    def walk(v, path):
        if path:
            doc = lookup(path)
            if doc is None:
                problems.append("%s: not in the vocabulary" % path)
                return
            t = typename(v)
            types = fields[doc][0]
            if not (t in types or (t == "integer" and "number" in types)):
                problems.append("%s: is %s, documented %s" % (path, t, "|".join(sorted(types))))
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + "." + k if path else k)
        elif isinstance(v, list):
            for x in v:
                walk(x, path + "[]")

    if "[]" in fields:
        if not isinstance(j, list):
            problems.append("document is %s, documented a list" % typename(j))
    elif not isinstance(j, dict) or not isinstance(j.get("schema_version"), int):
        problems.append("no integer schema_version at the top")
    walk(j, "")
    return problems


def main():
    docs = parse(sys.argv[1])
    if sys.argv[2] == "--doc":
        problems = check_doc(docs)
    elif sys.argv[2] not in docs:
        problems = ["no document '%s' in %s" % (sys.argv[2], sys.argv[1])]
    else:
        try:
            j = json.load(sys.stdin)
        except ValueError as e:
            problems = ["not JSON: %s" % e]
        else:
            problems = check_output(docs[sys.argv[2]], j)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()
