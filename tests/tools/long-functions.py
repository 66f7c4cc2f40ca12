#!/usr/bin/env python3
"""Functions and files over the house's limits (docs/style.md): a function
over 100 lines (main excepted), a file over 1,000 lines, in server/ and
common/ (or the folders named). A function is counted from the line of its
name to its closing brace at column 0, as the code is laid out here.

  tests/tools/long-functions.py [--top N] [--check] [DIR...]"""
import os
import re
import sys

FUNC = re.compile(r'^[A-Za-z_][^;=()]*?\b([A-Za-z_]\w*)\s*\(')


def functions(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    out, name, start = [], None, 0
    for i, line in enumerate(lines):
        if name is None:
            m = FUNC.match(line)
            if m and not line.startswith(("typedef", "struct", "#", "static const", "return")):
                # its body opens at a line "{" before any ';'
                for j in range(i, min(i + 12, len(lines))):
                    if lines[j].startswith("{"):
                        name, start = m.group(1), i
                        break
                    if lines[j].rstrip().endswith(";"):
                        break
        elif line.startswith("}"):
            out.append((i - start + 1, name))
            name = None
    return out, len(lines) - (1 if lines and lines[-1] == "" else 0)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    top = 10
    if "--top" in sys.argv:
        top = int(sys.argv[sys.argv.index("--top") + 1])
        args = [a for a in args if a != str(top)]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    dirs = args or ["server", "common"]
    funcs, files = [], []
    for d in dirs:
        for dp, _, names in os.walk(os.path.join(root, d)):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    p = os.path.join(dp, n)
                    rel = os.path.relpath(p, root)
                    fs, nlines = functions(p)
                    files.append((nlines, rel))
                    funcs += [(k, rel + ":" + fn) for k, fn in fs]
    funcs.sort(reverse=True)
    files.sort(reverse=True)
    print("longest functions:")
    for k, fn in funcs[:top]:
        print("  %4d %s" % (k, fn))
    print("largest files:")
    for k, fn in files[:top]:
        print("  %4d %s" % (k, fn))
    bad = [f for f in funcs if f[0] > 100 and not f[1].endswith(":main")]
    bad += [f for f in files if f[0] > 1000]
    if "--check" in sys.argv and bad:
        print("over the limits: " + ", ".join("%s (%d)" % (n, k) for k, n in bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
