#!/usr/bin/env python3
"""doc-refs.py - every citation of a section of the project's own docs
resolves: `docs/FILE.md, "Section"` (or `FILE.md, "Section"` beside it in
docs/, or README.md's) names a heading of that file, or the words a
paragraph there begins with in bold (**Section.**). A heading may be cited
without its dated parenthesis ("The turn's slots bounded" for "The turn's
slots bounded (2026-11-27)") or by its first words ("Transports" for
"Transports: telnet, the browser, SSH").

Code comments and docs cite sections by name (docs/style.md); a heading
renamed or a section moved left 10 such citations pointing nowhere before
this check. Files are the repository's (git ls-files).

    doc-refs.py --check      list each citation that resolves to nothing,
                             exit 1 if any does
    doc-refs.py --self-test  the matcher on examples of its own, exit 1 if
                             it gets one wrong
"""
import os
import re
import subprocess
import sys

CITE = re.compile(r'((?:docs/)?[A-Za-z_-]+\.md)[,:]?(?:\s|\*|//|#)*"([^"]+)"')
SOURCES = re.compile(r'(\.(c|h|md|sh|js|mjs|html|py)|Makefile)$')


def anchors(text):
    """The names a markdown text's sections may be cited by."""
    names = set()
    for line in text.splitlines():
        m = re.match(r'#+\s+(.*?)\s*$', line)
        if m:
            head = m.group(1)
            names.add(head)
            names.add(re.sub(r'\s*\([^()]*\)$', '', head))  # the date
        for lead in re.findall(r'\*\*([^*]+?)\*\*', line):
            names.add(lead.rstrip('.:'))
    return names


def resolves(section, names):
    if section in names:
        return True
    return any(n.startswith(section + sep) for n in names for sep in ' ,:')


def citations(path, text):
    """(line, doc, section) of each citation in a file's text."""
    for m in CITE.finditer(text):
        doc = m.group(1)
        # a section name broken over lines of a comment
        section = re.sub(r'\s*\n\s*(\*|//|#)?\s*', ' ', m.group(2)).strip()
        if not doc.startswith('docs/') and doc != 'README.md':
            beside = os.path.normpath(os.path.join(os.path.dirname(path), doc))
            doc = beside if beside.startswith('docs/') else 'docs/' + doc
        yield text.count('\n', 0, m.start()) + 1, doc, section


def check(files, read):
    """Lines saying which citations resolve to nothing."""
    docs = {f: anchors(read(f)) for f in files if f.endswith('.md')}
    bad = []
    for f in files:
        if not SOURCES.search(f):
            continue
        for line, doc, section in citations(f, read(f)):
            if doc in docs and not resolves(section, docs[doc]):
                bad.append(f'{f}:{line}: {doc} has no section "{section}"')
    return bad


def self_test():
    files = {
        'docs/a.md': '# A\n## Turns (2026-11-27)\n### Transports: telnet, SSH\n'
                     '**Behaviour** of monsters.\n'
                     'See b.md, "Gone" and b.md, "Here".\n',
        'docs/b.md': '## Here\n',
        'x.c': '/* (docs/a.md, "Turns") (docs/a.md, "Transports")\n'
               ' * (docs/a.md, "Transports: telnet,\n * SSH") '
               '(docs/a.md, "Behaviour") (docs/a.md, "Turn")\n'
               ' * (docs/a.md, "Nowhere") (docs/c.md, "Not ours") */\n',
    }
    want = ['docs/a.md:5: docs/b.md has no section "Gone"',
            'x.c:3: docs/a.md has no section "Turn"',
            'x.c:4: docs/a.md has no section "Nowhere"']
    got = check(sorted(files), files.get)
    if got != want:
        print('doc-refs self-test: got', got, 'wanted', want)
        return 1
    print('doc-refs self-test: passed')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if sys.argv[1:] != ['--check']:
        print(__doc__.strip())
        return 2
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    files = subprocess.check_output(['git', 'ls-files'], text=True).split()
    files = [f for f in files if os.path.isfile(f)]

    def read(f):
        with open(f, encoding='utf-8', errors='replace') as fh:
            return fh.read()
    bad = check(files, read)
    for b in bad:
        print(b)
    print(f'doc-refs: {len(bad)} citation(s) of a docs section that is not there')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
