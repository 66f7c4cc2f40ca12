#!/usr/bin/env python3
"""doc-refs.py - every citation of a section of the project's own docs
resolves: `docs/FILE.md, "Section"` (also `FILE.md` beside it in docs/,
README.md, a markdown link `[FILE.md](FILE.md), "Section"`, the section
in parentheses `docs/FILE.md ("Section")`, several in a row `"One",
"Two"`, and a C string's `\\"Section\\"`) names a heading of that file or
the words a paragraph or list item there begins with in bold
(**Section.**). A heading may be cited without its dated parenthesis
("The turn's slots bounded" for "The turn's slots bounded (2026-11-27)")
or by its first words ("Transports" for "Transports: telnet, the
browser, SSH"). A cited docs/ file that is not there is reported too.

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

# A file name (or a markdown link to it), then one or more quoted names,
# each after a comma, a colon, "(" or a comment's continuation marks.
GAP = r'(?:\s|\*|//|#)*'
QUOTED = r'\\?"((?:[^"\\]|\\(?!"))+)\\?"'
CITE = re.compile(r'((?:docs/)?[A-Za-z_-]+\.md)(?:\]\([^)]*\))?[,:]?' + GAP +
                  r'\(?' + GAP + QUOTED + r'((?:\s*,' + GAP + QUOTED + r')*)')
MORE = re.compile(r',' + GAP + QUOTED)
JOIN = '\x01'  # where two C string literals were one
SELF = 'tests/tools/doc-refs.py'  # its examples are no citations
SOURCES = re.compile(r'(\.(c|h|md|sh|js|mjs|html|py|conf)|Makefile)$')


def anchors(text):
    """The names a markdown text's sections may be cited by, each to the
    line of its section."""
    names = {}
    for at, line in enumerate(text.splitlines()):
        m = re.match(r'#+\s+(.*?)\s*$', line)
        if m:
            head = m.group(1)
            names[head] = at
            names[re.sub(r'\s*\([^()]*\)$', '', head)] = at  # the date
        lead = re.match(r'\s*(?:[-*]\s+)?\*\*([^*]+?)\*\*', line)
        if lead:  # a paragraph's or a list item's first words
            names[lead.group(1).rstrip('.:')] = at
    return names


def resolves(section, names):
    """A name of the file's, or the first words of exactly one section's:
    a citation names one section."""
    if section in names:
        return True
    at = {names[n] for n in names for sep in ' ,:' if n.startswith(section + sep)}
    return len(at) == 1


def citations(path, text):
    """(line, doc, section) of each citation in a file's text."""
    if path.endswith(('.c', '.h')):
        # C's adjacent string literals as one ("... \\"To "  "restore
        # ...\\""): the quotes at the line's break go, the break stays
        # (marked, so that no space is read into the name there)
        text = re.sub(r'"[ \t]*\n[ \t]*"', JOIN + '\n', text)
    for m in CITE.finditer(text):
        doc = m.group(1)
        if not doc.startswith('docs/') and doc != 'README.md':
            beside = os.path.normpath(os.path.join(os.path.dirname(path), doc))
            doc = beside if beside.startswith('docs/') else 'docs/' + doc
        line = text.count('\n', 0, m.start()) + 1
        for quoted in [m.group(2)] + MORE.findall(m.group(3)):
            # a section name broken over lines of a comment
            quoted = quoted.replace(JOIN + '\n', '')
            yield line, doc, re.sub(r'\s*\n\s*(\*|//|#)?\s*', ' ',
                                    quoted).strip()


def check(files, read):
    """Lines saying which citations resolve to nothing."""
    docs = {f: anchors(read(f)) for f in files if f.endswith('.md')}
    bad = []
    for f in files:
        if not SOURCES.search(f) or f == SELF:
            continue
        for line, doc, section in citations(f, read(f)):
            if doc not in docs:
                # the project's docs only (an outside file is no citation
                # of ours: docs/style.md)
                if doc.startswith('docs/') and '/' not in doc[5:] and \
                        doc[5:].islower():
                    bad.append(f'{f}:{line}: {doc} is not there')
            elif not resolves(section, docs[doc]):
                bad.append(f'{f}:{line}: {doc} has no section "{section}"')
    return bad


def self_test():
    files = {
        'docs/a.md': '# A\n## Turns (2026-11-27)\n### Transports: telnet, SSH\n'
                     '**Behaviour** of monsters.\n'
                     'See b.md, "Gone" and b.md, "Here".\n'
                     'A [b.md](b.md), "Here" and [b.md](b.md) "Away".\n'
                     '| **Cell** | a table\'s bold words |\n'
                     '## SSH at cost\n## SSH on the loop\n',
        'docs/b.md': '## Here\n- **Lead:** of an item.\n',
        'x.c': '/* (docs/a.md, "Turns") (docs/a.md, "Transports")\n'
               ' * (docs/a.md, "Transports: telnet,\n * SSH") '
               '(docs/a.md, "Behaviour") (docs/a.md, "Turn")\n'
               ' * (docs/a.md, "Nowhere") (docs/c.md, "Not ours") */\n'
               '/* docs/b.md ("Here") docs/b.md, "Here", "Lead", "Not here" */\n'
               'f("(docs/b.md, \\"He"\n  "re\\") (docs/a.md, \\"Cell\\")");\n'
               '/* docs/a.md, "SSH" docs/a.md, "SSH at" docs/A.md, "Y" */\n',
    }
    want = ['docs/a.md:5: docs/b.md has no section "Gone"',
            'docs/a.md:6: docs/b.md has no section "Away"',
            'x.c:3: docs/a.md has no section "Turn"',
            'x.c:4: docs/a.md has no section "Nowhere"',
            'x.c:4: docs/c.md is not there',
            'x.c:5: docs/b.md has no section "Not here"',
            'x.c:7: docs/a.md has no section "Cell"',
            'x.c:8: docs/a.md has no section "SSH"']
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
