/// Makes text that came from a device (names, file names, its error messages) safe to print on a
/// terminal: control and format characters cannot move the cursor, retitle or clear the window,
/// reorder the line (bidi overrides) or fake a line; a name of any length takes a bounded width.
///
/// `--json` output does not go through here: it carries the exact text, escaped as JSON only.
enum TerminalText {
    /// How many Unicode scalars of one device-supplied text are shown; the rest becomes `…`.
    /// (Scalars, not characters: one character may carry thousands of combining marks.)
    static let maxCharacters = 200

    /// `text` with every control and format character escaped (`\e`, `\n`, `\r`, `\t`, `\0`,
    /// else `\u{HEX}`), cut to `limit` Unicode scalars with an ellipsis.
    static func safe(_ text: String, limit: Int = maxCharacters) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            out += escaped(scalar)
            count += 1
        }
        return out
    }

    /// `text` with control and format characters escaped except line feeds and tabs (the
    /// command's own layout), uncapped: the last guard of every human-readable line the command
    /// prints.
    static func keepingLines(_ text: String) -> String {
        func kept(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\t" || !needsEscape(scalar) }
        guard !text.unicodeScalars.allSatisfy(kept) else { return text }
        var out = ""
        for scalar in text.unicodeScalars { out += kept(scalar) ? String(scalar) : escaped(scalar) }
        return out
    }

    /// One scalar as it may reach a terminal.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        guard needsEscape(scalar) else { return String(scalar) }
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00: return "\\0"
        default: return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }

    /// Whether a terminal could interpret `scalar` (C0 and C1 controls, DEL, bidi and other
    /// format characters, line and paragraph separators) instead of showing it. The zero-width
    /// joiner stays: emoji sequences need it and it moves nothing.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        if scalar.value < 0xA0 || scalar.value == 0x200D { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
        default: return false
        }
    }
}
