import AIBudsFoundation
import AIBudsSync
import AIBudsWire
import Foundation

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

    /// Records that file `name` of device `deviceID` (`size` bytes, hex `sha256`) was imported to
    /// `localPath` at `importedAt`.
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

    /// The entry as one line of the ledger: the JSON that `JSONEncoder` writes with sorted keys
    /// and ISO 8601 dates, and a newline, built directly (a ledger records thousands of files).
    var jsonLine: [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(160 + name.utf8.count + localPath.utf8.count + deviceID.utf8.count)
        line.append(contentsOf: "{\"at\":\"".utf8)
        Self.appendISO8601(importedAt, to: &line)
        line.append(contentsOf: "\",\"device\":".utf8)
        JSONString.append(deviceID, to: &line)
        line.append(contentsOf: ",\"name\":".utf8)
        JSONString.append(name, to: &line)
        line.append(contentsOf: ",\"path\":".utf8)
        JSONString.append(localPath, to: &line)
        line.append(contentsOf: ",\"sha256\":".utf8)
        JSONString.append(sha256, to: &line)
        line.append(contentsOf: ",\"size\":".utf8)
        line.append(contentsOf: String(size).utf8)
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// Appends `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds), as `JSONEncoder`'s `.iso8601` writes dates.
    private static func appendISO8601(_ date: Date, to line: inout [UInt8]) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // Only the Gregorian years since 1583 are written by hand: Foundation's ISO 8601 (which
        // reads the ledger) counts earlier dates in the Julian calendar, and gmtime does not, so
        // a date of year 26 came back two days off (found by the `ledger` fuzz target).
        guard (1583...9999).contains(parts.tm_year + 1900) else {
            line.append(contentsOf: ISO8601DateFormatter().string(from: date).utf8)
            return
        }
        func digits(_ value: Int32, _ width: Int) {
            var divisor: Int32 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = max(0, value)
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        line.append(UInt8(ascii: "-"))
        digits(parts.tm_mon + 1, 2)
        line.append(UInt8(ascii: "-"))
        digits(parts.tm_mday, 2)
        line.append(UInt8(ascii: "T"))
        digits(parts.tm_hour, 2)
        line.append(UInt8(ascii: ":"))
        digits(parts.tm_min, 2)
        line.append(UInt8(ascii: ":"))
        digits(parts.tm_sec, 2)
        line.append(UInt8(ascii: "Z"))
    }
}

/// The record of what has been imported from one device, so that a later import can take only
/// what is new and a clean-up deletes only files that were verified.
///
/// Stored as JSON Lines (one entry per line, appended as files are verified, the last line for a
/// name wins), so recording is cheap and a crash loses at most the lines being written; an
/// unreadable line is skipped when loading. An import records its files a group at a time; a file
/// whose line was lost is recognised by the next import (same name, size and SHA-256 in the
/// folder) and recorded then. Thread-safe.
public final class ImportLedger: Sendable {
    /// The identifier of the one device whose imports this ledger records.
    public let deviceID: String
    /// Where the entries are kept, one JSON line per imported file, appended as files are recorded.
    public let fileURL: URL
    private struct State {
        /// By exact device file name: NFC and NFD twins are two files, two entries.
        var entries: [MediaFileName: ImportLedgerEntry]
        /// The file, open for appending once the first entry is recorded.
        var appender: FileHandle?
    }

    private let state: Locked<State>

    /// Opens (or starts) the ledger of `deviceID` in `directory`.
    ///
    /// - Throws: `CocoaError` when the directory cannot be created or the file cannot be read.
    public init(deviceID: String, directory: URL) throws {
        self.deviceID = deviceID
        self.fileURL = directory.appendingPathComponent(Self.fileName(for: deviceID))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var loaded: [MediaFileName: ImportLedgerEntry] = [:]
        if FileManager.default.fileExists(atPath: fileURL.path) {
            loaded = Self.entries(fromLines: try Data(contentsOf: fileURL), deviceID: deviceID)
        }
        state = Locked(State(entries: loaded))
    }

    /// The entries of `deviceID` in a ledger file's bytes, by exact name (the last line for a
    /// name wins); lines that do not decode, and other devices' lines, are skipped.
    static func entries(fromLines data: Data, deviceID: String) -> [MediaFileName: ImportLedgerEntry] {
        var loaded: [MediaFileName: ImportLedgerEntry] = [:]
        let decoder = Self.decoder
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let entry = try? decoder.decode(ImportLedgerEntry.self, from: Data(line)),
                entry.deviceID == deviceID
            else { continue }
            loaded[MediaFileName(entry.name)] = entry
        }
        return loaded
    }

    deinit {
        state.withLock { try? $0.appender?.close() }
    }

    /// Every entry, ordered by name.
    public var entries: [ImportLedgerEntry] {
        let all = state.withLock { Array($0.entries.values) }
        return all.sorted { a, b in a.name.unicodeScalars.lexicographicallyPrecedes(b.name.unicodeScalars) }
    }

    /// The entry for the device file `name`, if it was imported.
    public func entry(named name: String) -> ImportLedgerEntry? { state.withLock { $0.entries[MediaFileName(name)] } }

    /// Whether the device file `name` of `size` bytes was imported and verified before.
    public func contains(name: String, size: UInt64) -> Bool { entry(named: name)?.size == size }

    /// Records a verified import and appends it to the file.
    ///
    /// - Throws: `AIBudsError` (`operationFailedDueToWrongParameters`) for another device's entry;
    ///   `CocoaError` when the line cannot be written (the entry is then not recorded).
    public func record(_ entry: ImportLedgerEntry) throws {
        try record(contentsOf: [entry])
    }

    /// Records several verified imports with one write (as an import does, a group at a time).
    ///
    /// - Throws: `AIBudsError` (`operationFailedDueToWrongParameters`) when an entry is another
    ///   device's (nothing is recorded); `CocoaError` when the lines cannot be written (the
    ///   entries are then not recorded).
    public func record(contentsOf entries: [ImportLedgerEntry]) throws {
        if let foreign = entries.first(where: { $0.deviceID != deviceID }) {
            throw AIBudsError(
                .operationFailedDueToWrongParameters, "the ledger of \(deviceID) cannot record a file of \(foreign.deviceID)")
        }
        guard !entries.isEmpty else { return }
        var lines: [UInt8] = []
        for entry in entries { lines += entry.jsonLine }
        try state.withLock { state in
            if state.appender == nil { state.appender = try Self.openForAppending(fileURL) }
            do {
                try state.appender?.write(contentsOf: lines)
            } catch {
                // A torn line may be left (a full disk): the next write opens the file afresh,
                // which starts it on a new line.
                try? state.appender?.close()
                state.appender = nil
                throw error
            }
            for entry in entries { state.entries[MediaFileName(entry.name)] = entry }
        }
    }

    /// Forgets the device file `name` (for example after deleting the local copy); rewrites the file
    /// first, so a failed write leaves the ledger (memory and file) as it was.
    public func remove(named name: String) throws {
        try state.withLock { state in
            let key = MediaFileName(name)
            guard state.entries[key] != nil else { return }
            var data = Data()
            for (entryKey, entry) in state.entries where entryKey != key { data.append(contentsOf: entry.jsonLine) }
            try state.appender?.close()
            state.appender = nil
            try data.write(to: fileURL, options: .atomic)
            state.entries[key] = nil
        }
    }

    /// The ledger's file name for a device id.
    static func fileName(for deviceID: String) -> String { "ledger-\(safeComponent(deviceID)).jsonl" }

    /// A device id as one safe path (or object key) component: `A–Z a–z 0–9 - .` kept, other bytes written as
    /// `_XX` hex (so distinct ids stay distinct), never starting with a dot.
    public static func safeComponent(_ deviceID: String) -> String {
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

    /// Opens (creating) the ledger file positioned at its end, on a fresh line.
    private static func openForAppending(_ url: URL) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forUpdating: url)
        do {
            let end = try handle.seekToEnd()
            if end > 0 {
                // A crash may have left a torn last line: start on a fresh one.
                try handle.seek(toOffset: end - 1)
                if try handle.read(upToCount: 1) != Data([UInt8(ascii: "\n")]) {
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data([UInt8(ascii: "\n")]))
                }
                try handle.seekToEnd()
            }
            return handle
        } catch {
            try? handle.close()
            throw error
        }
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
