import Foundation

/// Writes files so that a reader (or the next run after a crash) sees either the old or the new
/// content, never a torn one: write a temporary file beside the target, then rename it over.
enum AtomicFile {
    /// Replaces the file at `url` with `data`; creates the folder if needed.
    static func write(_ data: Data, to url: URL) throws(EmulatorError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: temporary)
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
