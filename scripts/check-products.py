#!/usr/bin/env python3
"""Checks docs/architecture.md's "Products and the system libraries they need" against Package.swift.

From `swift package dump-package` (the targets, their dependencies and the products), every
library product's system libraries are the system-library targets (CCrypto, COpus, ...) in the
transitive closure of its targets' dependencies. The script checks that:

- the products table has one row per library product, and each row lists exactly the system
  libraries of that product's closure ("—" for none);
- the legend table lists exactly the package's system-library targets, each with the libraries
  its module.modulemap links and the pkg-config name Package.swift gives it ("—" for none);
- no target in a library product's closure links a library outside a system-library target
  (`linkedLibrary` or `-l` in its settings), which the table would not see;
- the hard rules hold, whatever the table says (so a regression cannot be hidden by editing the
  table to match it): the device core (AIBudsFoundation, AIBuds, AIBudsSMP, TopStepComKit) needs
  OpenSSL's libcrypto and libdeflate at most, AIBudsBlueZ adds only libdbus, AIBudsStabilization
  only FFmpeg, AIBudsPCM nothing; the audio libraries come only with AIBudsAudio, FFmpeg only with
  stabilization or live streaming, GStreamer only with the emulator's camera (AIBudsLiveCamera).

Exits 1 and prints every difference, naming the product (or target) and what differs.

Usage: scripts/check-products.py [--dump FILE]   (FILE: a saved `swift package dump-package`)
       scripts/check-products.py --self-test     (proves that wrong rows and broken rules are caught)
"""
import copy
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
DOC = root / 'docs' / 'architecture.md'
SECTION = '## Products and the system libraries they need'

# The hard rules: a product may need at most these system libraries.
CORE_ALLOWED = {'CCrypto', 'CDeflate'}
AT_MOST = {
    'AIBudsPCM': set(),
    'AIBudsFoundation': CORE_ALLOWED,
    'AIBuds': CORE_ALLOWED,
    'AIBudsSMP': CORE_ALLOWED,
    'TopStepComKit': CORE_ALLOWED,
    'AIBudsBlueZ': CORE_ALLOWED | {'CDBus'},
    'AIBudsStabilization': CORE_ALLOWED | {'CFFmpeg'},
}
AUDIO = {'COpus', 'COggOpus', 'CSoxr', 'CPulseSimple', 'CWebRTCVAD'}
# A product that needs one of these system libraries must contain one of the owning modules.
OWNERS = [
    (AUDIO, {'AIBudsAudio'}, 'the audio libraries come only with AIBudsAudio'),
    ({'CFFmpeg'}, {'AIBudsStabilization', 'AIBudsLiveStream'},
     'FFmpeg comes only with stabilization (AIBudsStabilization) or live streaming (AIBudsLiveStream)'),
    ({'CGStreamer'}, {'AIBudsLiveCamera'}, "GStreamer comes only with the emulator's camera (AIBudsLiveCamera)"),
]


def dump_package():
    result = subprocess.run(['swift', 'package', 'dump-package'], cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f'swift package dump-package failed:\n{result.stderr}')
    return json.loads(result.stdout)


def dependencies(target):
    """The names of a target's dependencies in this package (by name or as targets)."""
    names = []
    for dependency in target['dependencies']:
        for kind in ('byName', 'target'):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


def closure(targets, start):
    seen, stack = set(), list(start)
    while stack:
        name = stack.pop()
        if name in seen or name not in targets:
            continue
        seen.add(name)
        stack += dependencies(targets[name])
    return seen


def linked_outside(target):
    """Libraries a target links through its own settings instead of a system-library target."""
    libraries = []
    for setting in target.get('settings', []):
        kind = setting.get('kind', {})
        if 'linkedLibrary' in kind:
            libraries.append(kind['linkedLibrary']['_0'])
        for flag in kind.get('unsafeFlags', {}).get('_0', []):
            if flag.startswith('-l') and len(flag) > 2:
                libraries.append(flag[2:])
    return libraries


def products_closures(package):
    """{library product: (its target closure, the system-library targets in it)}."""
    targets = {target['name']: target for target in package['targets']}
    result = {}
    for product in package['products']:
        if 'library' not in product['type']:
            continue
        members = closure(targets, product['targets'])
        result[product['name']] = (members, {name for name in members if targets[name]['type'] == 'system'})
    return result


def modulemap_links(name):
    path = root / 'Sources' / name / 'module.modulemap'
    return re.findall(r'\blink\s+"([^"]+)"', path.read_text()) if path.exists() else []


def names(cell):
    """The names in a table cell: backquotes dropped, "—" or empty for none."""
    cell = cell.replace('`', '').strip()
    if cell in ('', '—', '-'):
        return set()
    return {part.strip() for part in cell.split(',') if part.strip()}


def tables(doc):
    """The products table and the legend table of the section, as lists of cell lists."""
    start = doc.find('\n' + SECTION + '\n')
    if start < 0:
        return None, None
    body = doc[start + len(SECTION) + 2:]
    following = re.search(r'^## ', body, re.M)
    body = body[:following.start()] if following else body
    found, current = [], None
    for line in body.split('\n'):
        if line.startswith('|'):
            cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
            if current is None:
                current = [cells]
                found.append(current)
            elif not set(''.join(cells)) <= set('-: '):
                current.append(cells)
        else:
            current = None
    products = next((table[1:] for table in found if table[0][0].lower() == 'product'), None)
    legend = next((table[1:] for table in found if table[0][0].lower().startswith('system')), None)
    return products, legend


def check(package, doc):
    """Every problem, as sentences naming the product or target."""
    problems = []
    targets = {target['name']: target for target in package['targets']}
    closures = products_closures(package)
    systems = {name for name, target in targets.items() if target['type'] == 'system'}

    # The hard rules, from Package.swift alone.
    for product, (members, libraries) in sorted(closures.items()):
        if product in AT_MOST and libraries - AT_MOST[product]:
            allowed = f'only {", ".join(sorted(AT_MOST[product]))}' if AT_MOST[product] else 'no system library'
            problems.append(
                f'{product}: needs {", ".join(sorted(libraries - AT_MOST[product]))}, but may need {allowed} '
                f'(hard rule; {" → ".join(path(targets, product, libraries - AT_MOST[product]))})')
        for restricted, owners, rule in OWNERS:
            if libraries & restricted and not members & owners:
                problems.append(f'{product}: needs {", ".join(sorted(libraries & restricted))} without '
                                f'{" or ".join(sorted(owners))} ({rule})')
        for member in sorted(members):
            for library in linked_outside(targets[member]):
                problems.append(f'{product}: target {member} links lib{library} itself; make it a system-library '
                                f'target so that the products table sees it')

    # The table against the closures.
    products, legend = tables(doc)
    if products is None:
        problems.append(f'docs/architecture.md: no "{SECTION}" section with a table whose first column is "product"')
        return problems
    rows = {}
    for cells in products:
        product = cells[0].replace('`', '').strip()
        if product in rows:
            problems.append(f'{product}: two rows in the products table')
        rows[product] = names(cells[1]) if len(cells) > 1 else set()
    for product, (_, libraries) in sorted(closures.items()):
        if product not in rows:
            problems.append(f'{product}: a library product with no row in the products table '
                            f'(it needs {", ".join(sorted(libraries)) or "—"})')
            continue
        listed = rows[product]
        if listed != libraries:
            parts = []
            if libraries - listed:
                parts.append(f'missing from the table: {", ".join(sorted(libraries - listed))}')
            if listed - libraries:
                parts.append(f'in the table but not needed: {", ".join(sorted(listed - libraries))}')
            problems.append(f'{product}: the table lists {", ".join(sorted(listed)) or "—"}; Package.swift gives '
                            f'{", ".join(sorted(libraries)) or "—"} ({"; ".join(parts)})')
    for product in sorted(set(rows) - set(closures)):
        problems.append(f'{product}: a row in the products table, but no library product of that name')
    for product, listed in sorted(rows.items()):
        for name in sorted(listed - systems):
            problems.append(f'{product}: {name} in the products table is not a system-library target')

    # The legend against the system-library targets.
    if legend is None:
        problems.append('docs/architecture.md: no legend table (first column "system-library target") in '
                        f'"{SECTION}"')
        return problems
    described = {}
    for cells in legend:
        name = cells[0].replace('`', '').strip()
        described[name] = cells
    for name in sorted(systems - set(described)):
        problems.append(f'{name}: a system-library target missing from the legend')
    for name in sorted(set(described) - systems):
        problems.append(f'{name}: in the legend, but not a system-library target')
    for name in sorted(systems & set(described)):
        cells = described[name]
        links = {'lib' + link for link in modulemap_links(name)}
        if len(cells) < 3:
            problems.append(f'{name}: its legend row needs the libraries it links and its pkg-config name')
            continue
        if names(cells[1]) != links:
            problems.append(f'{name}: the legend says it links {", ".join(sorted(names(cells[1]))) or "—"}; its '
                            f'module.modulemap links {", ".join(sorted(links)) or "—"}')
        pkg_config = targets[name].get('pkgConfig')
        if names(cells[2]) != ({pkg_config} if pkg_config else set()):
            problems.append(f'{name}: the legend gives pkg-config {cells[2]}; Package.swift gives {pkg_config or "—"}')
    return problems


def path(targets, product, libraries):
    """The shortest dependency path from the product's target to one of `libraries`."""
    paths, queue = {product: [product]}, [product]
    while queue:
        name = queue.pop(0)
        if name in libraries:
            return paths[name]
        for dependency in sorted(dependencies(targets[name])):
            if dependency in targets and dependency not in paths:
                paths[dependency] = paths[name] + [dependency]
                queue.append(dependency)
    return [product, '?']


def self_test():
    package = dump_package()
    doc = DOC.read_text()
    failures = []

    def expect(label, package, doc, *needles):
        problems = check(package, doc)
        text = '\n'.join(problems)
        if not needles and problems:
            failures.append(f'{label}: expected no problems, got:\n  ' + '\n  '.join(problems))
        for needle in needles:
            if not re.search(needle, text):
                failures.append(f'{label}: expected a problem matching {needle!r}, got:\n  ' + '\n  '.join(problems))

    def row(product, libraries):
        return f'| `{product}` | {libraries} |'

    def in_section(doc, change):
        """`doc` with `change` applied to the products section only (the module table has rows of
        the same names)."""
        start = doc.index('\n' + SECTION + '\n')
        end = doc.find('\n## ', start + 1)
        end = len(doc) if end < 0 else end
        return doc[:start] + change(doc[start:end]) + doc[end:]

    def replace_row(doc, product, libraries):
        def change(section):
            new, count = re.subn(r'^\| `' + re.escape(product) + r'` \|[^\n]*$', row(product, libraries), section,
                                 flags=re.M)
            assert count == 1, f'no row for {product}'
            return new
        return in_section(doc, change)

    def add_dependency(package, target, dependency):
        changed = copy.deepcopy(package)
        for entry in changed['targets']:
            if entry['name'] == target:
                entry['dependencies'].append({'byName': [dependency, None]})
        return changed

    expect('the real table', package, doc)
    expect('a library dropped from a row', package, replace_row(doc, 'AIBudsSMP', 'CCrypto'),
           r'AIBudsSMP: the table lists CCrypto; Package.swift gives CCrypto, CDeflate \(missing from the table: CDeflate\)')
    expect('a library added to a row', package, replace_row(doc, 'AIBudsAudio', 'COggOpus, COpus, CPulseSimple, CSoxr, CWebRTCVAD, CFFmpeg'),
           r'AIBudsAudio: .*in the table but not needed: CFFmpeg')
    expect('a row removed', package,
           in_section(doc, lambda section: re.sub(r'^\| `TopStepComKit` \|[^\n]*\n', '', section, flags=re.M)),
           r'TopStepComKit: a library product with no row')
    expect('a row for no product', package, doc.replace(row('AIBudsPCM', '—'), row('AIBudsPCM', '—') + '\n' + row('AIBudsNothing', '—')),
           r'AIBudsNothing: a row in the products table, but no library product')
    expect('the section gone', package, doc.replace(SECTION, '## Something else'), r'no "## Products and the system')
    expect('a legend row wrong', package,
           in_section(doc, lambda section: re.sub(r'^(\| `CDeflate` \|)[^|]*\|', r'\1 libz |', section, flags=re.M)),
           r'CDeflate: the legend says it links libz; its module.modulemap links libdeflate')
    # The core regressing to the audio libraries, with the table edited to match: still caught.
    regressed = add_dependency(package, 'AIBuds', 'AIBudsAudio')
    edited = doc
    for product, (_, libraries) in products_closures(regressed).items():
        edited = replace_row(edited, product, ', '.join(sorted(libraries)) or '—')
    expect('the core needing Opus, the table matching', regressed, edited,
           r'AIBuds: needs COggOpus, COpus, CPulseSimple, CSoxr, CWebRTCVAD, but may need only CCrypto, CDeflate',
           r'AIBudsSMP: needs .*COpus', r'TopStepComKit: needs .*COpus', r'AIBudsBlueZ: needs .*COpus',
           r'AIBudsStabilization: needs .*COpus')
    expect('GStreamer in the live stream client', add_dependency(package, 'AIBudsLiveStream', 'CGStreamer'), doc,
           r'AIBudsLiveStream: needs CGStreamer without AIBudsLiveCamera')
    expect('FFmpeg in the AI core', add_dependency(package, 'AIBudsAISDK', 'CFFmpeg'), doc,
           r'AIBudsAISDK: needs CFFmpeg without AIBudsLiveStream or AIBudsStabilization')
    expect('Opus outside AIBudsAudio', add_dependency(package, 'AIBudsLiveStream', 'COpus'), doc,
           r'AIBudsLiveStream: needs COpus without AIBudsAudio')
    expect('PCM linking a library', add_dependency(package, 'AIBudsPCM', 'CSoxr'), doc,
           r'AIBudsPCM: needs CSoxr, but may need no system library')
    linking = copy.deepcopy(package)
    for entry in linking['targets']:
        if entry['name'] == 'AIBudsWire':
            entry['settings'].append({'kind': {'linkedLibrary': {'_0': 'opus'}}, 'tool': 'linker'})
    expect('a library linked by settings', linking, doc, r'AIBudsSMP: target AIBudsWire links libopus itself')
    for failure in failures:
        print('self-test:', failure)
    print(f'self-test: {"failed" if failures else "ok"}')
    return 1 if failures else 0


def main():
    if '--self-test' in sys.argv[1:]:
        sys.exit(self_test())
    if '--dump' in sys.argv[1:]:
        package = json.loads(pathlib.Path(sys.argv[sys.argv.index('--dump') + 1]).read_text())
    else:
        package = dump_package()
    problems = check(package, DOC.read_text())
    for line in problems:
        print(line)
    print(f'{len(products_closures(package))} library products checked, {len(problems)} problems')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
