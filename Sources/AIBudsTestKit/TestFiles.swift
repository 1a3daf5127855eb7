import Foundation

/// Pseudo-random bytes for test content, the same for the same seed (xorshift64, eight bytes a
/// step, so that tens of megabytes of fixtures cost little even in a debug build).
public func pseudoRandomBytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            if count - offset >= 8 {
                buffer.storeBytes(of: state.littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            } else {
                var word = state
                while offset < count {
                    buffer[offset] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    offset += 1
                }
            }
        }
    }
    return bytes
}

/// Writes `bytes` to a new file at `url` (replacing one there), without the `fsync` that
/// `Data.write(to:)` does on Linux even when not atomic: fixtures need no durability, and a suite
/// that writes tens of megabytes of them waited for a busy disk on Swift concurrency's threads.
public func writeTestFile(_ bytes: some Sequence<UInt8>, to url: URL) throws {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.write(contentsOf: Data(bytes))
}

/// Writes an executable script at `url`, created by a separate `install` process.
///
/// A file this process has open for writing is inherited by any program another test starts at
/// that moment, until that program's `exec`; running the script then fails with "text file busy"
/// (ETXTBSY). Measured beside three threads starting programs: 12 of 300 fresh scripts failed to
/// start when written here, 2 of 1,000 even through an `O_CLOEXEC` descriptor. This process never
/// holds the script open for writing.
public func writeExecutableScript(_ text: String, to url: URL) async throws {
    let source = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).source")
    try writeTestFile(Array(text.utf8), to: source)
    defer { try? FileManager.default.removeItem(at: source) }
    let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/install"), ["-m", "0755", source.path, url.path])
    guard result.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: result.err])
    }
}
