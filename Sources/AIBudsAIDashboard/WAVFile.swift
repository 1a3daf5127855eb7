import Foundation

/// The 16 kHz mono 16-bit PCM WAV files the record store keeps audio in.
enum WAVFile {
    static let sampleRate = 16_000
    static let headerSize = 44

    /// The 44-byte header of a file holding `dataBytes` bytes of samples.
    static func header(dataBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        func text(_ value: String) { bytes += Array(value.utf8) }
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        text("RIFF"); u32(36 + dataBytes); text("WAVE")
        text("fmt "); u32(16); u16(1); u16(1); u32(sampleRate); u32(sampleRate * 2); u16(2); u16(16)
        text("data"); u32(dataBytes)
        return bytes
    }

    /// Appends samples to `url` (created with a header when missing) and rewrites the header's sizes.
    static func append(_ samples: [Int16], to url: URL) throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: url.path) {
            // The session's audio is private to the user: 0600, whatever the umask.
            guard manager.createFile(atPath: url.path, contents: Data(header(dataBytes: 0)), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        let end = try handle.seekToEnd()
        let pcm = samples.withUnsafeBytes { raw in Data(raw) }  // little-endian on every Linux target
        try handle.write(contentsOf: pcm)
        let dataBytes = Int(end) - headerSize + pcm.count
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data(header(dataBytes: dataBytes)))
    }

    /// The largest absolute sample of each of `buckets` equal slices, from 0 to 1. One pass over
    /// the file's bytes, without copying the samples (it runs on every update of a live record).
    static func peaks(of url: URL, buckets: Int) throws -> [Double] {
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        let count = (data.count - headerSize) / 2
        guard count > 0, buckets > 0 else { return [] }
        let per = max(1, (count + buckets - 1) / buckets)
        var peaks = [Double]()
        peaks.reserveCapacity((count + per - 1) / per)
        data.withUnsafeBytes { raw in
            var index = 0
            while index < count {
                let end = min(index + per, count)
                var peak: UInt16 = 0
                for sample in index..<end {
                    let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: headerSize + 2 * sample, as: Int16.self))
                    peak = max(peak, value.magnitude)
                }
                peaks.append(Double(peak) / 32768)
                index = end
            }
        }
        return peaks
    }
}
