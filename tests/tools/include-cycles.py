#!/usr/bin/env python3
"""The include graph of server/ and common/ and its circles.

A node is a module: x.c and x.h together (a header alone is a module too;
a private header x_impl.h is part of module x, whose files share it).
An arrow A -> B is an #include "B.h" in A.c or A.h. A circle is a strongly
connected component of more than one module: a set of modules each of which
reaches every other through includes. docs/architecture.md says which one
circle is allowed (the loop and the session: server and session).

  tests/tools/include-cycles.py            print the graph's size and circles
  tests/tools/include-cycles.py --check    also exit 1 if a circle other
                                           than the allowed one exists
"""
import os
import re
import sys

ROOTS = ("server", "common")
ALLOWED = [{"server", "session"}]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def modules(top):
    files = {}
    for root in ROOTS:
        for d, _, names in os.walk(os.path.join(top, root)):
            for n in names:
                if n.endswith((".c", ".h")):
                    m = n[:-2]
                    if m.endswith("_impl"):
                        m = m[:-5]
                    files.setdefault(m, []).append(os.path.join(d, n))
    return files


def graph(files):
    arrows = {m: set() for m in files}
    for m, paths in files.items():
        for p in paths:
            with open(p, encoding="utf-8", errors="replace") as f:
                for inc in INCLUDE.findall(f.read()):
                    b = os.path.basename(inc)
                    b = b[:-2]
                    if b.endswith("_impl"):
                        b = b[:-5]
                    if b in files and b != m:
                        arrows[m].add(b)
    return arrows


def circles(arrows):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    n = 0
    for start in sorted(arrows):
        if start in index:
            continue
        work = [(start, iter(sorted(arrows[start])))]
        index[start] = low[start] = n
        n += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(arrows[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    files = modules(top)
    arrows = graph(files)
    found = circles(arrows)
    print("modules %d, arrows %d, circles %d"
          % (len(files), sum(len(a) for a in arrows.values()), len(found)))
    bad = 0
    for comp in sorted(found, key=lambda c: (-len(c), sorted(c))):
        ok = comp in ALLOWED
        bad += not ok
        print("  %s%d: %s" % ("(allowed) " if ok else "", len(comp),
                              " ".join(sorted(comp))))
    if "--check" in sys.argv and bad:
        print("%d circle(s) beyond the allowed one" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
