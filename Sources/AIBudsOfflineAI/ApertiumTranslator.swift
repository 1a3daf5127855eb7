import AIBudsAIFoundation
import AIBudsProcess
import Foundation

/// Rule-based machine translation by Apertium (Debian's `apertium` with a language-pair package
/// such as `apertium-en-es`), run as a child process: Apertium is a pipeline of programs, not a
/// library with a C API.
enum ApertiumTranslator {
    /// ISO 639-3 codes of Apertium's modes, by the BCP 47 codes apps use.
    static let codes = [
        "en": "eng", "es": "spa", "fr": "fra", "ca": "cat", "pt": "por", "it": "ita", "de": "deu", "eo": "epo",
        "gl": "glg", "oc": "oci", "ro": "ron", "nl": "nld",
    ]

    /// Translates `text`; unknown words are kept as they are (`-u`, no `*` marks).
    static func translate(_ text: String, from source: String, to target: String) throws -> String {
        let from = codes[source.lowercased()] ?? source
        let to = codes[target.lowercased()] ?? target
        let mode = "\(from)-\(to)"
        // The text goes in through a file and the complaints come out through one, so a long text
        // cannot fill one pipe while apertium waits on the other.
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-apertium-\(UUID().uuidString)")
        let errorFile = inputFile.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: inputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        do {
            try Data(text.utf8).write(to: inputFile)
        } catch {
            throw AIError(.fileError, "cannot write apertium's input: \(error)", underlying: error)
        }
        let process: ChildProcess
        do {
            process = try ChildProcess("/usr/bin/apertium", ["-u", mode], input: .file(inputFile.path), errors: .file(errorFile.path))
        } catch {
            throw AIError(.engineFailed, "apertium cannot run (Debian package apertium): \(error)", underlying: error)
        }
        let translated = process.standardOutput!.readDataToEndOfFile()
        let termination = process.waitUntilExit()
        guard termination.succeeded else {
            let reason = ((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if reason.contains("Mode") || reason.contains("mode") {
                throw AIError(.invalidParameters, "Apertium has no \(source)→\(target) pair installed (mode \(mode)): \(reason)")
            }
            throw AIError(.engineFailed, "apertium \(mode) failed: \(reason)")
        }
        return String(decoding: translated, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
