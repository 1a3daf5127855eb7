import AIBudsWire
import Foundation

/// Writes an announcement file on start and removes it on stop.
final class DiscoveryAnnouncer: Sendable {
    let url: URL

    /// Writes `announcement` into `directory` as `<pid>-<port>.json` (with a numeric suffix when
    /// another emulator of this process already announced that port).
    init(_ announcement: DiscoveryAnnouncement, port: UInt16, directory: URL) throws(EmulatorError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw EmulatorError(.io, "cannot create \(directory.path)", underlying: error)
        }
        var url = directory.appendingPathComponent("\(announcement.pid)-\(port).json")
        var suffix = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = directory.appendingPathComponent("\(announcement.pid)-\(port)-\(suffix).json")
            suffix += 1
        }
        try AtomicFile.writeJSON(announcement, what: "the discovery announcement", to: url)
        self.url = url
    }

    /// Removes the announcement file.
    func remove() { try? FileManager.default.removeItem(at: url) }
}
