import Foundation
import Synchronization

/// One verified import: which device file, its size and SHA-256, and where it went.
public struct ImportLedgerEntry: Codable, Sendable, Equatable {
    /// The device's identifier (its serial number, or another stable id).
    public var deviceID: String
    /// The device file name.
    public var name: String
    /// The file size in bytes.
    public var size: UInt64
    /// The file's SHA-256 as lower-case hex, checked against the device.
    public var sha256: String
    /// The local path the file was imported to.
    public var localPath: String
    /// When the import finished.
    public var importedAt: Date

    /// Creates an entry.
    public init(deviceID: String, name: String, size: UInt64, sha256: String, localPath: String, importedAt: Date = Date()) {
        self.deviceID = deviceID
        self.name = name
        self.size = size
        self.sha256 = sha256
        self.localPath = localPath
        self.importedAt = importedAt
    }

    private enum CodingKeys: String, CodingKey {
        case deviceID = "device", name, size, sha256, localPath = "path", importedAt = "at"
    }
}

/// The record of what has been imported from one device, so that a later import can take only
/// what is new and a clean-up deletes only files that were verified.
///
/// Stored as JSON Lines (one entry per line, appended as each file is verified, the last line for a
/// name wins), so recording is cheap and a crash loses at most the line being written; an
/// unreadable line is skipped when loading. Thread-safe.
public final class ImportLedger: Sendable {
    /// The device this ledger is for.
    public let deviceID: String
    /// The ledger file.
    public let fileURL: URL
    private let entriesByName: Mutex<[String: ImportLedgerEntry]>

    /// Opens (or starts) the ledger of `deviceID` in `directory`.
    ///
    /// - Throws: `CocoaError` when the directory cannot be created or the file cannot be read.
    public init(deviceID: String, directory: URL) throws {
        self.deviceID = deviceID
        self.fileURL = directory.appendingPathComponent(Self.fileName(for: deviceID))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var loaded: [String: ImportLedgerEntry] = [:]
        if FileManager.default.fileExists(atPath: fileURL.path) {
            let data = try Data(contentsOf: fileURL)
            let decoder = Self.decoder
            for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
                guard let entry = try? decoder.decode(ImportLedgerEntry.self, from: Data(line)),
                    entry.deviceID == deviceID
                else { continue }
                loaded[entry.name] = entry
            }
        }
        entriesByName = Mutex(loaded)
    }

    /// Every entry, ordered by name.
    public var entries: [ImportLedgerEntry] {
        let all = entriesByName.withLock { Array($0.values) }
        return all.sorted { a, b in a.name.unicodeScalars.lexicographicallyPrecedes(b.name.unicodeScalars) }
    }

    /// The entry for the device file `name`, if it was imported.
    public func entry(named name: String) -> ImportLedgerEntry? { entriesByName.withLock { $0[name] } }

    /// Whether the device file `name` of `size` bytes was imported and verified before.
    public func contains(name: String, size: UInt64) -> Bool { entry(named: name)?.size == size }

    /// Records a verified import and appends it to the file.
    ///
    /// - Throws: `CocoaError` when the line cannot be written (the entry is then not recorded).
    public func record(_ entry: ImportLedgerEntry) throws {
        precondition(entry.deviceID == deviceID, "a ledger records only its own device's files")
        var line = try Self.encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        try entriesByName.withLock { entries in
            try Self.append(line, to: fileURL)
            entries[entry.name] = entry
        }
    }

    /// Forgets the device file `name` (for example after deleting the local copy); rewrites the file.
    public func remove(named name: String) throws {
        try entriesByName.withLock { entries in
            guard entries.removeValue(forKey: name) != nil else { return }
            var data = Data()
            for entry in entries.values { data.append(try Self.encoder.encode(entry)); data.append(UInt8(ascii: "\n")) }
            try data.write(to: fileURL, options: .atomic)
        }
    }

    /// The ledger's file name for a device id.
    static func fileName(for deviceID: String) -> String { "ledger-\(safeComponent(deviceID)).jsonl" }

    /// A device id as one safe path component: `A–Z a–z 0–9 - .` kept, other bytes written as
    /// `_XX` hex (so distinct ids stay distinct), never starting with a dot.
    static func safeComponent(_ deviceID: String) -> String {
        var name = ""
        for byte in deviceID.utf8.prefix(128) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name += String(format: "_%02X", byte)
            }
        }
        if name.hasPrefix(".") { name = "_2E" + name.dropFirst() }
        return name.isEmpty ? "_" : name
    }

    private static func append(_ line: Data, to url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        let end = try handle.seekToEnd()
        var bytes = line
        if end > 0 {
            // A crash may have left a torn last line: start on a fresh one.
            try handle.seek(toOffset: end - 1)
            if try handle.read(upToCount: 1) != Data([UInt8(ascii: "\n")]) { bytes.insert(UInt8(ascii: "\n"), at: 0) }
            try handle.seekToEnd()
        }
        try handle.write(contentsOf: bytes)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
