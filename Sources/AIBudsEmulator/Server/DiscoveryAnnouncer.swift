import AIBudsFiles
import AIBudsWire
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
        Self.removeStale(in: directory)
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

    /// Removes the announcements of processes that are gone (an emulator that crashed or was
    /// killed could not remove its own). Files that are not announcements are left alone; a pid
    /// that a new process took over keeps its file, which scanners then fail to confirm.
    static func removeStale(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let file = directory.appendingPathComponent(name)
            guard let data = try? InputFile.read(file, limit: 64 * 1024),
                let announcement = try? JSONDecoder().decode(DiscoveryAnnouncement.self, from: data),
                announcement.pid > 0, kill(announcement.pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }
}
