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

    /// `text` cut to `width` characters with an ellipsis.
    static func fit(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(1, width - 1))) + "…"
    }

    /// Bytes in decimal units: `512 B`, `12.3 MB`.
    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: value < 10 ? "%.2f" : "%.1f", value) + " " + units[unit]
    }

    /// Seconds as `45s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        // Past 10,000 hours (a lying size, a crawling link) the exact figure means nothing.
        guard seconds.isFinite, seconds >= 0, seconds < 36_000_000 else { return "?" }
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm%02ds", total / 60, total % 60) }
        return String(format: "%dh%02dm", total / 3600, (total % 3600) / 60)
    }
}
