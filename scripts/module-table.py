#!/usr/bin/env python3
"""Rewrites the last column of the module table of docs/architecture.md ("depends on") from
Package.swift (through `swift package dump-package`); scripts/check-deps.py checks it."""
import json
import pathlib
import re
import subprocess

root = pathlib.Path(__file__).resolve().parent.parent
package = json.loads(subprocess.run(['swift', 'package', 'dump-package'], capture_output=True, text=True, check=True,
                                    cwd=root).stdout)
deps = {t['name']: [d[next(iter(d))][0] for d in t['dependencies']] for t in package['targets']}
path = root / 'docs' / 'architecture.md'
lines = path.read_text().split('\n')
header = lines.index('| module | role | depends on (exactly as in Package.swift) |')
for index in range(header + 2, len(lines)):
    line = lines[index]
    if not line.startswith('| '):
        break
    row = re.match(r'^\| `([\w-]+)` \|', line)
    if row and row.group(1) in deps:
        cut = line.rstrip().rstrip('|').rstrip()
        lines[index] = cut[:cut.rindex(' | ')] + ' | ' + (', '.join(deps[row.group(1)]) or '—') + ' |'
path.write_text('\n'.join(lines))
