#!/usr/bin/env python3
"""Checks that Package.swift declares exactly the project modules each target imports.

For every target under Sources/ and Tests/, the project modules its Swift files import (`import X`,
`@testable import X`, `@_spi(...) import X`, ...) must be the project dependencies Package.swift
lists for it, no more and no fewer. Toolchain modules (Foundation, Testing, Glibc, ...) are not
counted. A system-library target (a folder with a module.modulemap) counts as a project module.

It also checks the module table of docs/architecture.md ("module | role | depends on"): each
row's last column must list the row's dependencies exactly as Package.swift does, in its order.

Usage: scripts/check-deps.py                exits 1 and lists every mismatch
       scripts/check-deps.py --write-table  first rewrites that column from Package.swift
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
package = (root / 'Package.swift').read_text()
# Each target declaration runs from its `.target(` (or executableTarget, testTarget, systemLibrary)
# to the next one; its first `dependencies: [...]` lists string literals only.
ordered = {}
for piece in re.split(r'\.(?:target|executableTarget|testTarget|systemLibrary)\(', package)[1:]:
    name = re.match(r'\s*name:\s*"([^"]+)"', piece).group(1)
    deps = re.search(r'dependencies:\s*\[(.*?)\]', piece, re.S)
    ordered[name] = re.findall(r'"([^"]+)"', deps.group(1)) if deps else []
targets = {name: set(deps) for name, deps in ordered.items()}

project = set(targets)
IMPORT = re.compile(r'^[ \t]*(?:@\w+(?:\([^)\n]*\))?[ \t]+)*import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?(\w+)', re.M)
# A C target uses a system library when it includes a header that the library's shim.h includes.
INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)
# The C library's own headers (a shim may include <errno.h> too) say nothing about a system library.
LIBC = {'errno.h', 'stdint.h', 'stddef.h', 'stdio.h', 'stdlib.h', 'string.h', 'signal.h', 'unistd.h',
        'fcntl.h', 'time.h', 'stdbool.h', 'stdatomic.h', 'execinfo.h', 'limits.h'}
shims = {name: set(INCLUDE.findall((root / 'Sources' / name / 'shim.h').read_text())) - LIBC
         for name in targets if (root / 'Sources' / name / 'shim.h').exists()}
problems = []
for name, declared in sorted(targets.items()):
    folder = next((base / name for base in (root / 'Sources', root / 'Tests') if (base / name).is_dir()), None)
    if folder is None or (folder / 'module.modulemap').exists():
        continue
    used = set()
    for path in folder.rglob('*.swift'):
        used |= {module for module in IMPORT.findall(path.read_text()) if module in project}
    for path in list(folder.rglob('*.c')) + list(folder.rglob('*.h')):
        included = set(INCLUDE.findall(path.read_text()))
        used |= {module for module, headers in shims.items() if headers & included}
    used.discard(name)
    for module in sorted(used - declared):
        problems.append(f'{name}: imports {module} but does not declare it')
    for module in sorted(declared - used):
        problems.append(f'{name}: declares {module} but imports nothing of it')
# The module table of docs/architecture.md says what each module depends on, as Package.swift does.
table = root / 'docs' / 'architecture.md'
lines = table.read_text().split('\n')
header = '| module | role | depends on (exactly as in Package.swift) |'
if header not in lines:
    problems.append('docs/architecture.md: the module table is missing')
else:
    for index in range(lines.index(header) + 2, len(lines)):
        line = lines[index]
        if not line.startswith('| '):
            break
        row = re.match(r'^\| `([\w-]+)` \|', line)
        if not row or row.group(1) not in ordered:
            continue
        role, written = line.rstrip().rstrip('|').rstrip().rsplit(' | ', 1)
        expected = ', '.join(ordered[row.group(1)]) or '—'
        if written.strip() == expected:
            continue
        if '--write-table' in sys.argv:
            lines[index] = f'{role} | {expected} |'
        else:
            problems.append(f'docs/architecture.md: {row.group(1)} depends on "{expected}", the table says "{written.strip()}"')
    if '--write-table' in sys.argv:
        table.write_text('\n'.join(lines))
for line in problems:
    print(line)
print(f'{len(targets)} targets checked, {len(problems)} mismatches')
sys.exit(1 if problems else 0)
