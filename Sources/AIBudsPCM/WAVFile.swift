import AIBudsFiles
import Foundation

/// RIFF/WAVE files of 16-bit integer PCM: strict parsing (every chunk inside the file, one `fmt `
/// before `data`, whole frames) with `AudioError`s that name the byte where a file went wrong.
public enum WAVFile {
    /// The largest WAV file read whole: 1 GiB, about 3 hours of 48 kHz stereo.
    public static let maximumFileSize = 1 << 30

    /// Reads a 16-bit PCM WAV file (plain or `WAVE_FORMAT_EXTENSIBLE` with the PCM sub-format), a
    /// regular file of at most ``maximumFileSize`` bytes.
    public static func read(from url: URL) throws -> PCMAudio {
        let data: Data
        do {
            data = try InputFile.read(url, limit: maximumFileSize)
        } catch {
            throw AudioError.io(path: url.path, reason: "cannot read: \(error.reason)")
        }
        return try decode(data)
    }

    /// Writes `audio` as a canonical 44-byte-header 16-bit PCM WAV file (replacing any file there).
    public static func write(_ audio: PCMAudio, to url: URL) throws {
        let data = try encode(audio)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw AudioError.io(path: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// The bytes of a canonical 16-bit PCM WAV file holding `audio`.
    public static func encode(_ audio: PCMAudio) throws -> Data {
        try audio.validate()
        let dataBytes = audio.samples.count * 2
        guard dataBytes <= Int(UInt32.max) - 36 else {
            throw AudioError.invalidFormat("\(audio.samples.count) samples do not fit a WAV file's 4 GiB")
        }
        var out = Data(capacity: 44 + dataBytes)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { out.append(contentsOf: $0) } }
        out.append(contentsOf: Array("RIFF".utf8)); u32(36 + dataBytes)
        out.append(contentsOf: Array("WAVE".utf8))
        out.append(contentsOf: Array("fmt ".utf8)); u32(16)
        u16(1); u16(audio.channels); u32(audio.sampleRate)
        u32(audio.sampleRate * audio.channels * 2); u16(audio.channels * 2); u16(16)
        out.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        audio.samples.withUnsafeBufferPointer { buffer in
            #if _endian(little)
            out.append(UnsafeBufferPointer(start: UnsafeRawPointer(buffer.baseAddress)?
                .assumingMemoryBound(to: UInt8.self), count: buffer.count * 2))
            #else
            for s in buffer { withUnsafeBytes(of: s.littleEndian) { out.append(contentsOf: $0) } }
            #endif
        }
        return out
    }

    /// Parses the bytes of a WAV file (see `read(from:)`).
    public static func decode(_ data: Data) throws -> PCMAudio {
        let bytes = [UInt8](data)
        func fail(_ offset: Int, _ reason: String) -> AudioError {
            .malformedFile(kind: "WAV", offset: offset, reason: reason)
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<(at + 4)], as: UTF8.self) }

        guard bytes.count >= 12 else { throw fail(0, "\(bytes.count) bytes is shorter than a RIFF header") }
        guard tag(0) == "RIFF" else { throw fail(0, "no RIFF tag") }
        guard tag(8) == "WAVE" else { throw fail(8, "RIFF form is not WAVE") }
        let riffEnd = 8 + u32(4)
        guard riffEnd <= bytes.count else {
            throw fail(4, "RIFF size \(riffEnd - 8) runs past the file's \(bytes.count) bytes")
        }

        var format: (channels: Int, rate: Int)?
        var offset = 12
        while offset + 8 <= riffEnd {
            let id = tag(offset)
            let size = u32(offset + 4)
            let body = offset + 8
            guard size <= riffEnd - body else {
                throw fail(offset + 4, "chunk '\(id)' of \(size) bytes runs past the RIFF end")
            }
            switch id {
            case "fmt ":
                guard format == nil else { throw fail(offset, "a second fmt chunk") }
                guard size >= 16 else { throw fail(offset + 4, "fmt chunk of \(size) bytes (at least 16)") }
                var formatTag = u16(body)
                let channels = u16(body + 2)
                let rate = u32(body + 4)
                let byteRate = u32(body + 8)
                let blockAlign = u16(body + 12)
                let bits = u16(body + 14)
                if formatTag == 0xFFFE {
                    guard size >= 40 else { throw fail(offset + 4, "extensible fmt chunk of \(size) bytes (40)") }
                    formatTag = u16(body + 24)  // first two bytes of the sub-format GUID
                }
                guard formatTag == 1 else {
                    throw AudioError.unsupportedFile(kind: "WAV", reason: "format tag \(formatTag) (only PCM, 1)")
                }
                guard bits == 16 else {
                    throw AudioError.unsupportedFile(kind: "WAV", reason: "\(bits)-bit samples (only 16-bit)")
                }
                guard channels >= 1 else { throw fail(body + 2, "0 channels") }
                guard rate >= 1 && rate <= 768_000 else { throw fail(body + 4, "sample rate \(rate)") }
                guard blockAlign == channels * 2 else {
                    throw fail(body + 12, "block align \(blockAlign) for \(channels) 16-bit channels")
                }
                guard byteRate == rate * blockAlign else {
                    throw fail(body + 8, "byte rate \(byteRate) is not rate × block align")
                }
                format = (channels, rate)
            case "data":
                guard let format else { throw fail(offset, "data chunk before the fmt chunk") }
                guard size % (format.channels * 2) == 0 else {
                    throw fail(offset + 4, "data of \(size) bytes is not whole \(format.channels)-channel frames")
                }
                var samples = [Int16](repeating: 0, count: size / 2)
                for i in 0..<samples.count {
                    samples[i] = Int16(bitPattern: UInt16(bytes[body + 2 * i]) | UInt16(bytes[body + 2 * i + 1]) << 8)
                }
                return PCMAudio(sampleRate: format.rate, channels: format.channels, samples: samples)
            default:
                break
            }
            offset = body + size + (size & 1)  // chunks are padded to even sizes
        }
        throw fail(offset, format == nil ? "no fmt chunk" : "no data chunk")
    }

    // MARK: Growing files

    /// The size of the canonical header that ``encode(_:)`` and ``append(_:sampleRate:to:)`` write.
    public static let canonicalHeaderSize = 44

    /// Appends mono 16-bit `samples` at `sampleRate` to the canonical WAV file at `url` (created,
    /// 0600, when missing) and rewrites the header's sizes, so the file is a whole WAV file after
    /// every append: a recording in progress can be played and survives a crash.
    public static func append(_ samples: [Int16], sampleRate: Int, to url: URL) throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: url.path) {
            let empty = try encode(PCMAudio(sampleRate: sampleRate, channels: 1, samples: []))
            // Recorded speech is private to the user: 0600, whatever the umask.
            guard manager.createFile(atPath: url.path, contents: empty, attributes: [.posixPermissions: 0o600]) else {
                throw AudioError.io(path: url.path, reason: "cannot create the file")
            }
        }
        do {
            let handle = try FileHandle(forUpdating: url)
            defer { try? handle.close() }
            let end = try handle.seekToEnd()
            let pcm = samples.withUnsafeBytes { raw in Data(raw) }  // little-endian on every Linux target
            try handle.write(contentsOf: pcm)
            let dataBytes = Int(end) - canonicalHeaderSize + pcm.count
            var sizes = Data()
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: 36 + dataBytes).littleEndian) { sizes.append(contentsOf: $0) }
            try handle.seek(toOffset: 4)
            try handle.write(contentsOf: sizes)
            sizes = Data()
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: dataBytes).littleEndian) { sizes.append(contentsOf: $0) }
            try handle.seek(toOffset: 40)
            try handle.write(contentsOf: sizes)
        } catch {
            throw AudioError.io(path: url.path, reason: "cannot append: \(error.localizedDescription)")
        }
    }

    /// The largest absolute sample of each of `buckets` equal slices of a canonical mono file,
    /// from 0 to 1: one pass over the mapped bytes, without copying the samples (a waveform drawn
    /// on every update of a live recording).
    public static func peaks(of url: URL, buckets: Int) throws -> [Double] {
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw AudioError.io(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        let count = (data.count - canonicalHeaderSize) / 2
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
                    let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: canonicalHeaderSize + 2 * sample, as: Int16.self))
                    peak = max(peak, value.magnitude)
                }
                peaks.append(Double(peak) / 32768)
                index = end
            }
        }
        return peaks
    }
}
