#!/usr/bin/env python3
"""Lists public symbols of the library modules that have no `///` doc comment with a one-line summary.

A symbol is a `public` or `open` declaration, a requirement of a public protocol, a member of a
`public extension`, or a case of a public enum. Attributes (`@discardableResult`, ...) may stand
between the comment and the declaration. Exits 1 when a symbol is undocumented.

Usage: scripts/check-public-docs.py [DIR ...]   (default: every library module under Sources/)
"""
import pathlib
import re
import sys

EXECUTABLES = {"aibuds", "aibuds-bench-http", "CCrypto"}
ATTRIBUTES = r'(?:@\w+(?:\([^)]*\))?\s+)*'
PUBLIC = re.compile('^' + ATTRIBUTES + r'(?:(?:public|open)\s+(?=[a-z@])(?!import\b)|(?:public|open)\()')
MEMBER = re.compile('^' + ATTRIBUTES + r'(?:(?:static|class|mutating|nonmutating|nonisolated)\s+)*'
                    r'(func|var|let|init|subscript|associatedtype|typealias)\b')
ENUM_CASE = re.compile(r'^case\s+\w+')
NOT_PUBLIC = re.compile(r'^' + ATTRIBUTES + r'(?:\w+\s+)*?(private|fileprivate|internal)\b')
BODY_KIND = re.compile(r'\b(protocol|enum|extension)\b')


def code_of(line):
    """The line without string literals and a trailing `//` comment, for brace counting."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    index = line.find('//')
    return line if index < 0 else line[:index]


def documented(lines, index):
    """Whether the declaration at `index` has a `///` block (or a `/** */` comment) above it whose
    first line is a summary."""
    j = index - 1
    while j >= 0 and lines[j].strip().startswith('@'):
        j -= 1
    if j < 0:
        return False
    above = lines[j].strip()
    if above.endswith('*/'):
        return True
    if not above.startswith('///'):
        return False
    while j > 0 and lines[j - 1].strip().startswith('///'):
        j -= 1
    return lines[j].strip() != '///'


def undocumented(path):
    """(line number, text) of every undocumented public symbol of one file."""
    lines = path.read_text().splitlines()
    found = []
    bodies = []  # for each open brace: 'protocol', 'enum', 'extension' (public ones) or None
    in_comment = False
    for index, raw in enumerate(lines):
        text = raw.strip()
        if in_comment:
            in_comment = '*/' not in text
            continue
        if text.startswith('/*') and '*/' not in text:
            in_comment = True
            continue
        if text.startswith('//'):
            continue
        body = bodies[-1] if bodies else None
        is_symbol = bool(PUBLIC.match(text))
        if not is_symbol and body and not NOT_PUBLIC.match(text):
            if body == 'enum':
                is_symbol = bool(ENUM_CASE.match(text)) and not text.endswith(':')
            else:
                is_symbol = bool(MEMBER.match(text))
        if is_symbol and not documented(lines, index):
            found.append((index + 1, text))
        code = code_of(raw)
        kind = None
        match = BODY_KIND.search(code)
        if match and (PUBLIC.match(text) or text.startswith('extension')):
            kind = match.group(1)
            if kind == 'extension' and not PUBLIC.match(text):
                kind = None
        for position, char in enumerate(code):
            if char == '{':
                opens_body = kind is not None and position == code.index('{')
                bodies.append(kind if opens_body else None)
            elif char == '}' and bodies:
                bodies.pop()
    return found


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    dirs = [pathlib.Path(d) for d in sys.argv[1:]] or [
        d for d in sorted((root / 'Sources').iterdir()) if d.is_dir() and d.name not in EXECUTABLES
    ]
    total = 0
    for directory in dirs:
        for path in sorted(directory.rglob('*.swift')):
            for line, text in undocumented(path):
                total += 1
                print(f'{path}:{line}: undocumented public symbol: {text}')
    print(f'{total} undocumented public symbols', file=sys.stderr)
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
