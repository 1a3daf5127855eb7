import Foundation

/// Writes files so that a reader (or the next run after a crash) sees either the old or the new
/// content, never a torn one: write a temporary file beside the target, then rename it over.
enum AtomicFile {
    /// Replaces the file at `url` with `value` as JSON (sorted keys); `what` names the value in
    /// the error when it cannot be encoded.
    static func writeJSON(_ value: some Encodable, what: String, to url: URL) throws(EmulatorError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(value) } catch {
            throw EmulatorError(.io, "cannot encode \(what)", underlying: error)
        }
        try write(to: url) { try data.write(to: $0) }
    }

    /// Replaces the file at `url` with what `fill` writes into the temporary file it is given;
    /// creates the folder if needed. The temporary file is removed when anything fails.
    static func write(to url: URL, _ fill: (URL) throws -> Void) throws(EmulatorError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try fill(temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw EmulatorError(.io, "cannot rename \(temporary.path) to \(url.path) (errno \(errno))")
            }
        } catch let error as EmulatorError {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw EmulatorError(.io, "cannot write \(url.path)", underlying: error)
        }
    }
}
