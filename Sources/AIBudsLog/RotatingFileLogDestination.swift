import AIBudsSync
import Foundation

/// Appends records as lines to a file and rotates it by size.
///
/// When writing a line would make the file larger than `maximumFileSize`, `name.log` becomes
/// `name.log.1`, `name.log.1` becomes `name.log.2`, and so on; the oldest beyond `maximumBackupCount`
/// is removed. Write failures do not throw (logging must never break the caller); they are counted in
/// ``failedWriteCount``.
public final class RotatingFileLogDestination: LogDestination {
    private struct State {
        var handle: FileHandle?
        var size: UInt64 = 0
        var failedWrites = 0
    }

    /// The active log file.
    public let fileURL: URL
    /// The size in bytes at which the file is rotated.
    public let maximumFileSize: UInt64
    /// How many rotated files are kept.
    public let maximumBackupCount: Int
    private let formatter: LogFormatter
    private let state = Locked(State())

    /// Creates a destination; the directory is created on the first write.
    public init(
        fileURL: URL, maximumFileSize: UInt64 = 5 * 1024 * 1024, maximumBackupCount: Int = 3,
        formatter: LogFormatter = LogFormatter()
    ) {
        self.fileURL = fileURL
        self.maximumFileSize = max(maximumFileSize, 1)
        self.maximumBackupCount = max(maximumBackupCount, 0)
        self.formatter = formatter
    }

    deinit {
        state.withLock { try? $0.handle?.close() }
    }

    /// How many writes failed (file system errors) since the destination was created.
    public var failedWriteCount: Int { state.withLock { $0.failedWrites } }

    /// The URL of rotated file number `index` (1 is the newest).
    public func backupURL(_ index: Int) -> URL {
        fileURL.deletingLastPathComponent().appendingPathComponent(fileURL.lastPathComponent + ".\(index)")
    }

    /// Appends the record's line, rotating first when the file would grow past the limit.
    public func write(_ record: LogRecord) {
        let data = Data((formatter.format(record) + "\n").utf8)
        state.withLock { state in
            do {
                if state.handle == nil { try open(&state) }
                if state.size > 0, state.size + UInt64(data.count) > maximumFileSize {
                    try rotate(&state)
                }
                try state.handle?.write(contentsOf: data)
                state.size += UInt64(data.count)
            } catch {
                state.failedWrites += 1
                try? state.handle?.close()
                state.handle = nil
            }
        }
    }

    private func open(_ state: inout State) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !manager.fileExists(atPath: fileURL.path) {
            guard manager.createFile(atPath: fileURL.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        let handle = try FileHandle(forWritingTo: fileURL)
        state.size = try handle.seekToEnd()
        state.handle = handle
    }

    private func rotate(_ state: inout State) throws {
        try state.handle?.close()
        state.handle = nil
        let manager = FileManager.default
        if maximumBackupCount == 0 {
            try? manager.removeItem(at: fileURL)
        } else {
            try? manager.removeItem(at: backupURL(maximumBackupCount))
            for index in stride(from: maximumBackupCount - 1, through: 1, by: -1)
            where manager.fileExists(atPath: backupURL(index).path) {
                try manager.moveItem(at: backupURL(index), to: backupURL(index + 1))
            }
            try manager.moveItem(at: fileURL, to: backupURL(1))
        }
        try open(&state)
    }
}
