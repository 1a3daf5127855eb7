#!/usr/bin/env python3
"""Checks that every public symbol of the library modules has a `///` doc comment whose one-line
summary says something.

A symbol is a `public` or `open` declaration, a requirement of a public protocol, a member of a
`public extension`, or a case of a public enum. Attributes (`@discardableResult`, ...) may stand
between the comment and the declaration. The script rejects:

- an undocumented symbol: no `///` block (or `/** */` comment) above it, or one that opens with an
  empty line;
- a filler summary (the summary is the first paragraph of the `///` block):
  - a known filler ("Creates the message.", "The answer.", "Does nothing.", "A read.",
    "Command 3.", ... see FILLERS), or
  - a summary that only echoes the name: after dropping stop words (the, a, of, creates, returns,
    value, ... see STOP_WORDS), every word left is a word of the symbol's own name (camelCase and
    snake_case split, case-insensitive, plurals and verb forms folded; a function's name includes
    its argument labels, an initializer's is its labels, and a member's includes its type's name).

Exempt from both checks, because their meaning is given by the standard protocol they satisfy:
`init(from:)`, `encode(to:)`, `description`, `debugDescription`, `hash(into:)`, `==`, `<`,
`makeIterator()`, `next()`, `rawValue` and `id` (see EXEMPT).

Exempt by a marker: a comment line `// docs: REASON` (REASON says where the meaning is given, for
example `// docs: cases are the raw values of the table in docs/protocol.md §2`) exempts the
declarations that follow it, up to the next blank line or the end of the body it is in. Use it for a run of enum cases that the
enum's own summary documents as a group; a declaration that has a `///` comment anyway is still
checked.

Exits 1 when a symbol is rejected.

Usage: scripts/check-public-docs.py [DIR ...]   (default: every library module under Sources/)
       scripts/check-public-docs.py --self-test  (runs the checker over inline snippets)
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
MARKER = re.compile(r'^//\s*docs:\s*\S')

# The name of a declaration: the identifier after its keyword, or an operator.
DECLARATION = re.compile(
    r'\b(?:func|var|let|case|struct|class|enum|protocol|actor|typealias|associatedtype|extension)\s+'
    r'(`?[A-Za-z_][\w.]*`?)')
TYPE_DECLARATION = re.compile(r'\b(?:struct|class|enum|protocol|actor|extension)\s+([A-Za-z_][\w.]*)')
OPERATOR = re.compile(r'\bfunc\s+([^\s\w`(]+)')
INITIALIZER = re.compile(r'\binit[?!]?\s*(?:<[^>]*>)?\s*\(')
SUBSCRIPT = re.compile(r'\bsubscript\s*(?:<[^>]*>)?\s*\(')

# Witnesses of standard protocols: their meaning is the protocol's.
EXEMPT = {'init(from:)', 'encode(to:)', 'description', 'debugDescription', 'hash(into:)', '==', '<',
          'makeIterator()', 'next()', 'rawValue', 'id'}

STOP_WORDS = set('''
a an the this that these those it its it's of to from is are be been was were has have had and or
nor but not no for in on at with by as into onto per via if when then than so one ones some any
all each every which what who whose there here do does did can may might must should will would
create creates created creating return returns returned returning make makes made making get gets
got getting set sets setting new value values given current corresponding specified instance object
type property method function thing something kind default just also only same own
'''.split())

FILLERS = [re.compile(pattern, re.IGNORECASE) for pattern in (
    r'creates? (the|a|an) (message|request|response|error|value|instance|object)',
    r'creates? an? error',
    r'(the|a|an) (answer|response|reply|result|request|message|read|write|value|error)',
    r'does nothing',
    r'says so',
    r'not known',
    r'unknown',
    r'none',
    r'todo',
    r'tbd',
    r'(a|an|the)?\s*(command|op|operation|case|id|group)\s*\d+',
    r'the \w+ group',
)]

STEM_SUFFIXES = ('ies', 'ing', 'es', 'ed', 's')


def code_of(line):
    """The line without string literals and a trailing `//` comment, for brace counting."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    index = line.find('//')
    return line if index < 0 else line[:index]


def summary(lines, index):
    """The summary of the declaration at `index`: the first paragraph of the `///` block above it
    (one line), '' for a block that opens with an empty line, '*' for a `/** */` comment, or None
    when there is no comment."""
    j = index - 1
    while j >= 0 and lines[j].strip().startswith('@'):
        j -= 1
    if j < 0:
        return None
    above = lines[j].strip()
    if above.endswith('*/'):
        return '*'
    if not above.startswith('///'):
        return None
    while j > 0 and lines[j - 1].strip().startswith('///'):
        j -= 1
    paragraph = []
    while j < index and lines[j].strip().startswith('///'):
        text = lines[j].strip()[3:].strip()
        if not text or text.startswith('- '):
            break
        paragraph.append(text)
        j += 1
    return ' '.join(paragraph)


def name_of(text):
    """The name of the declaration `text` in the spelling of EXEMPT: `init(from:)`, `next()`,
    `rawValue`, `==`, `case a, b` gives `a`."""
    text = code_of(text)
    match = INITIALIZER.search(text)
    if match and not DECLARATION.search(text[:match.start()]):
        return 'init(' + ''.join(label + ':' for label in argument_labels(text[match.end():])) + ')'
    match = SUBSCRIPT.search(text)
    if match and not DECLARATION.search(text[:match.start()]):
        return 'subscript(' + ''.join(label + ':' for label in argument_labels(text[match.end():])) + ')'
    match = OPERATOR.search(text)
    if match:
        return match.group(1)
    match = DECLARATION.search(text)
    if not match:
        return ''
    name = match.group(1).strip('`')
    if re.search(r'\bfunc\s', text[:match.end()]) and re.match(r'\w', name):
        rest = text[match.end():]
        rest = re.sub(r'^\s*<[^>]*>', '', rest)
        if rest.lstrip().startswith('('):
            return name + '(' + ''.join(label + ':' for label in argument_labels(rest.lstrip()[1:])) + ')'
    return name


def argument_labels(parameters):
    """The argument labels of a parameter list that starts after its `(`."""
    depth, current, parts = 0, '', []
    for char in parameters:
        if char in '([<':
            depth += 1
        elif char in ')]>':
            if depth == 0:
                break
            depth -= 1
        if char == ',' and depth == 0:
            parts.append(current)
            current = ''
        else:
            current += char
    parts.append(current)
    labels = []
    for part in parts:
        head = part.split(':')[0].split() if ':' in part else []
        if head:
            labels.append(head[0])
    return labels


def stem(word):
    """A crude stem: lowercase, without a plural or verb ending."""
    word = word.lower()
    for suffix in STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    return word.rstrip('e')


def words(text):
    """The words of `text`, camelCase and snake_case split."""
    text = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', text)
    text = re.sub(r'([A-Z]+)([A-Z][a-z])', r'\1 \2', text)
    return [w for w in re.split(r'[^A-Za-z0-9]+', text) if w]


def is_filler(summary_text, name):
    """Whether `summary_text` says nothing that `name` does not."""
    plain = re.sub(r'[`*_]', '', summary_text).strip().rstrip('.').strip()
    if any(pattern.fullmatch(plain) for pattern in FILLERS):
        return True
    name_words = {stem(w) for w in words(name)}
    left = [stem(w) for w in words(plain) if w.lower() not in STOP_WORDS]
    return all(w in name_words for w in left)


def echoed_name(name, types):
    """The words a summary of `name` must not only repeat: the name's own (a function's includes its
    argument labels, an initializer's and a subscript's are their labels) and those of the type it
    is a member of."""
    enclosing = next((t for t in reversed(types) if t), '')
    return name + ' ' + enclosing


def problems(path=None, source=None):
    """(line number, verdict, text) of every rejected public symbol of one file (or of `source`)."""
    lines = (source if source is not None else path.read_text()).splitlines()
    found = []
    bodies = []  # for each open brace: 'protocol', 'enum', 'extension' (public ones) or None
    types = []  # for each open brace: the name of the type it is the body of, or None
    in_comment = False
    exempt_run = False  # inside the run of declarations after a `// docs:` marker
    exempt_depth = 0  # the body depth of that marker; the run ends with its body
    for index, raw in enumerate(lines):
        text = raw.strip()
        if not text or len(bodies) < exempt_depth:
            exempt_run = False
        if in_comment:
            in_comment = '*/' not in text
            continue
        if text.startswith('/*') and '*/' not in text:
            in_comment = True
            continue
        if text.startswith('//'):
            if MARKER.match(text):
                exempt_run, exempt_depth = True, len(bodies)
            continue
        body = bodies[-1] if bodies else None
        is_symbol = bool(PUBLIC.match(text))
        if not is_symbol and body and not NOT_PUBLIC.match(text):
            if body == 'enum':
                is_symbol = bool(ENUM_CASE.match(text)) and not text.endswith(':')
            else:
                is_symbol = bool(MEMBER.match(text))
        if is_symbol:
            name = name_of(text)
            line_summary = summary(lines, index)
            if name in EXEMPT:
                pass
            elif line_summary is None or line_summary == '':
                if not exempt_run:
                    found.append((index + 1, 'undocumented public symbol', text))
            elif line_summary != '*' and is_filler(line_summary, echoed_name(name, types)):
                found.append((index + 1, f'filler summary "{line_summary}"', text))
        code = code_of(raw)
        kind = None
        match = BODY_KIND.search(code)
        if match and (PUBLIC.match(text) or text.startswith('extension')):
            kind = match.group(1)
            if kind == 'extension' and not PUBLIC.match(text):
                kind = None
        type_match = TYPE_DECLARATION.search(code)
        for position, char in enumerate(code):
            if char == '{':
                first = position == code.index('{')
                bodies.append(kind if kind is not None and first else None)
                types.append(type_match.group(1) if type_match and first else None)
            elif char == '}' and bodies:
                bodies.pop()
                types.pop()
    return found


SELF_TESTS = [
    # (snippet, expected verdicts in order: 'undocumented' or 'filler')
    ('public struct Box {\n    public var size: Int\n}\n', ['undocumented', 'undocumented']),
    ('/// A box of files the device lists.\npublic struct Box {\n'
     '    /// The bytes the files take on the device.\n    public var size: Int\n}\n', []),
    ('/// Box sizes in bytes.\npublic struct Box {\n    /// Creates the message.\n    public init(size: Int) {}\n'
     '    /// The size.\n    public var size: Int\n    /// Returns the box size.\n    public func boxSize() -> Int\n}\n',
     ['filler', 'filler', 'filler']),
    ('/// A box.\n/// \n/// More.\npublic struct Box {}\n', ['filler']),
    ('/// Listed files.\npublic struct Box: Codable, Hashable, CustomStringConvertible {\n'
     '    public init(from decoder: Decoder) throws {}\n    public func encode(to encoder: Encoder) throws {}\n'
     '    public var description: String { "" }\n    public static func == (a: Box, b: Box) -> Bool { true }\n'
     '    public func hash(into hasher: inout Hasher) {}\n}\n', []),
    ('/// Kinds of files, by their wire number.\npublic enum Kind: UInt8 {\n'
     '    // docs: cases are the raw values of the table in docs/protocol.md §2\n    case photo = 1\n    case video = 2\n\n'
     '    case audio = 3\n    /// Not known.\n    case other = 4\n}\n', ['undocumented', 'filler']),
    ('/// Ways to fail.\npublic enum Failure {\n    /// Creates an error.\n    case timeout\n'
     '    /// The device did not answer within the request\'s timeout.\n    case lost\n}\n', ['filler']),
    ('/// Commands.\npublic protocol Runner {\n    /// Command 3.\n    func run()\n'
     '    /// Runs the command and waits for the device to acknowledge it.\n    func go()\n}\n', ['filler']),
    ('/// Reads files.\npublic struct Reader {\n    /// Creates a reader of `path` that reads 4 KiB at a time.\n'
     '    public init(path: String) {}\n    /// Creates a reader of `path` with the given size.\n    public init(path: String, size: Int) {}\n'
     '    private var hidden: Int\n}\n', ['filler']),
    # a marker's run ends with its body, and a marker needs a reason
    ('/// Media kinds by wire number.\npublic enum Kind: Int {\n    // docs: raw values of the table in docs/protocol.md §2\n'
     '    case photo = 1\n}\npublic var loose: Int\n// docs:\npublic var bare: Int\n', ['undocumented', 'undocumented']),
    # argument labels are part of a function's name
    ('/// Device events.\npublic protocol Watcher {\n    /// The work state changed.\n'
     '    func device(_ device: Int, didWorkStateChanged state: Int)\n'
     '    /// Called on the callback queue once the device reports recording or idling.\n'
     '    func device(_ device: Int, didModeChanged mode: Int)\n}\n', ['filler']),
    # witnesses of standard protocols need no comment at all
    ('/// Files by id.\npublic struct Item: Identifiable, RawRepresentable, Comparable, Sequence {\n'
     '    public var id: Int\n    public var rawValue: Int\n    public static func < (a: Item, b: Item) -> Bool { true }\n'
     '    public func makeIterator() -> IndexingIterator<[Int]> { [].makeIterator() }\n'
     '    public var debugDescription: String { "" }\n}\n', []),
] + [
    # every known filler, on a member whose name shares no word with it
    ('/// Animals with stripes.\npublic struct Zebra {\n    /// ' + filler + '\n    public var stripes: Int\n}\n', ['filler'])
    for filler in ('Creates the message.', 'The answer.', 'Does nothing.', 'A read.', 'A write.', 'Says so.',
                   'Not known.', 'Creates an error.', 'Command 7.', '``unknown``.', 'The Device group.')
]


def self_test():
    """Runs the checker over SELF_TESTS; exits 1 when a verdict differs."""
    failures = 0
    for number, (snippet, expected) in enumerate(SELF_TESTS, 1):
        verdicts = ['undocumented' if verdict.startswith('undocumented') else 'filler'
                    for _, verdict, _ in problems(source=snippet)]
        if verdicts != expected:
            failures += 1
            print(f'self-test {number}: expected {expected}, got {verdicts}:\n{snippet}')
    print(f'{len(SELF_TESTS) - failures} of {len(SELF_TESTS)} self-tests pass', file=sys.stderr)
    return 1 if failures else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    root = pathlib.Path(__file__).resolve().parent.parent
    dirs = [pathlib.Path(d) for d in sys.argv[1:]] or [
        d for d in sorted((root / 'Sources').iterdir()) if d.is_dir() and d.name not in EXECUTABLES
    ]
    total = 0
    for directory in dirs:
        for path in sorted(directory.rglob('*.swift')):
            for line, verdict, text in problems(path):
                total += 1
                print(f'{path}:{line}: {verdict}: {text}')
    print(f'{total} public symbols undocumented or with a filler summary', file=sys.stderr)
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
