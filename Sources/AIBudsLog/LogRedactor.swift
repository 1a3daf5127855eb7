import AIBudsSync
import Foundation

/// Removes secrets from log messages before any destination sees them.
///
/// It replaces, with `<redacted>`: every registered secret value (hotspot passphrases, bearer tokens
/// the SDK received); the value after a key that names a secret (`password=…`, `passphrase: …`,
/// `"token":"…"`, `access_token=…`, `secret=…`); and the credentials after `Bearer` or `Authorization:`.
public final class LogRedactor: Sendable {
    /// The text that replaces a secret.
    public static let replacement = "<redacted>"
    /// The redactor the SDK's log services share; the SDK registers the secrets it learns here.
    public static let shared = LogRedactor()
    /// Secrets shorter than this are redacted only where they stand whole (not inside a longer
    /// word or number): replacing them everywhere would mangle ordinary text.
    public static let minimumSecretLength = 4

    private let secrets = Locked<Set<String>>([])

    private static let keyNames = "[A-Za-z0-9_.-]*(?:password|passwd|passphrase|token|secret)"
    private static let patterns: [(NSRegularExpression, String)] = [
        // Authorization: Bearer abc / bearer abc
        (#"(?i)(\bbearer\s+)(?!<redacted>)[^\s"',;]+"#, "$1<redacted>"),
        // Authorization: Basic abc (any scheme other than Bearer)
        (#"(?i)(\bauthorization"?\s*[:=]\s*"?)(?!bearer\b)(?!<redacted>)[^\s"',;]+(\s+[^\s"',;]+)?"#,
         "$1<redacted>"),
        // "password": "quoted value, maybe with spaces"
        (#"(?i)(\b\#(keyNames)"?\s*[:=]\s*)"(?:[^"\\]|\\.)*""#, "$1\"<redacted>\""),
        // password=value, token: value, passphrase='value'
        (#"(?i)(\b\#(keyNames)['"]?\s*[:=]\s*'?)(?!["<])[^\s"',;&})\]]+"#, "$1<redacted>"),
    ].map { pattern, template in
        // The patterns are constants; a failure here is a programming error caught by the tests.
        (try! NSRegularExpression(pattern: pattern), template)
    }

    /// Words at least one of which every pattern above needs (lowercase ASCII).
    private static let triggerWords: [[UInt8]] = ["bearer", "authorization", "passw", "passphrase", "token", "secret"]
        .map { Array($0.utf8) }

    /// Whether `text` holds a trigger word in any letter case (or any non-ASCII character): a
    /// byte scan, since Foundation's `contains` costs microseconds a call on Linux.
    static func mentionsTriggerWord(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Non-ASCII text takes the patterns' path: their case folding matches more than ASCII
            // (the Kelvin sign for k, the long s for s).
            if bytes.contains(where: { $0 >= 0x80 }) { return true }
            guard bytes.count >= 5 else { return false }
            for start in 0...(bytes.count - 5) {
                let first = bytes[start] | 0x20
                guard first == UInt8(ascii: "b") || first == UInt8(ascii: "a") || first == UInt8(ascii: "p")
                    || first == UInt8(ascii: "t") || first == UInt8(ascii: "s") else { continue }
                for word in triggerWords where word[0] == first && start + word.count <= bytes.count {
                    var matches = true
                    for offset in 1..<word.count where bytes[start + offset] | 0x20 != word[offset] {
                        matches = false
                        break
                    }
                    if matches { return true }
                }
            }
            return false
        }
    }

    /// Creates a redactor with no registered secrets.
    public init() {}

    /// Registers a secret value so that it never appears in a log line (a short one, wherever it
    /// stands whole); the empty string is ignored.
    public func register(_ secret: String) {
        guard !secret.isEmpty else { return }
        _ = secrets.withLock { $0.insert(secret) }
    }

    /// Forgets a registered secret (for example when a session's token is voided).
    public func unregister(_ secret: String) {
        _ = secrets.withLock { $0.remove(secret) }
    }

    /// The message with every secret replaced by `<redacted>`.
    public func redact(_ message: String) -> String {
        var text = message
        let known = secrets.withLock { $0 }.sorted { $0.count > $1.count }
        for secret in known where text.contains(secret) {
            if secret.count >= Self.minimumSecretLength {
                text = text.replacingOccurrences(of: secret, with: Self.replacement)
            } else {
                text = Self.replacingWhole(secret, in: text)
            }
        }
        // Every pattern needs one of these words: a message without any (most of them) skips the
        // regular expressions, which cost tens of microseconds each (docs/benchmarks.md).
        guard Self.mentionsTriggerWord(text) else { return text }
        for (regex, template) in Self.patterns {
            let range = NSRange(text.startIndex..., in: text)
            text = regex.stringByReplacingMatches(in: text, range: range, withTemplate: template)
        }
        return text
    }

    /// `text` with each occurrence of `secret` that no letter, digit or `_` adjoins replaced.
    private static func replacingWhole(_ secret: String, in text: String) -> String {
        let escaped = NSRegularExpression.escapedPattern(for: secret)
        guard let regex = try? NSRegularExpression(pattern: #"(?<![\p{L}\p{N}_])"# + escaped + #"(?![\p{L}\p{N}_])"#) else {
            return text
        }
        let range = NSRange(text.startIndex..., in: text)
        return regex.stringByReplacingMatches(
            in: text, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: replacement))
    }

    /// The record with its message redacted.
    public func redact(_ record: LogRecord) -> LogRecord {
        var copy = record
        copy.message = redact(record.message)
        return copy
    }
}
