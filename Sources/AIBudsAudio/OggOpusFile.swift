import AIBudsPCM
import COggOpus
import Foundation

/// Ogg/Opus files (`.opus`, RFC 7845): read through libopusfile (which checks pages, CRCs, headers
/// and gaps) and written through libopusenc (which builds the headers, granule positions and
/// pre-skip), both Xiph's reference libraries from Debian.
public enum OggOpusFile {
    /// Decodes a whole Ogg/Opus file; libopusfile always decodes at 48 kHz, so the audio is 48 kHz
    /// (use `speechFormat()` for 16 kHz mono).
    public static func read(from url: URL) throws -> PCMAudio {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw AudioError.io(path: url.path, reason: "cannot read the file")
        }
        var error: Int32 = 0
        guard let file = op_open_file(url.path, &error) else {
            throw AudioError.malformedFile(kind: "Ogg/Opus", offset: 0, reason: "libopusfile cannot open it (error \(error))")
        }
        defer { op_free(file) }
        let channels = Int(op_channel_count(file, -1))
        var samples: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 5_760 * channels)  // 120 ms at 48 kHz
        while true {
            let frames = buffer.withUnsafeMutableBufferPointer { out in
                op_read(file, out.baseAddress, Int32(out.count), nil)
            }
            if frames == 0 { break }
            guard frames > 0 else {
                throw AudioError.malformedFile(kind: "Ogg/Opus", offset: Int(op_raw_tell(file)),
                                               reason: "libopusfile cannot decode it (error \(frames))")
            }
            samples += buffer.prefix(Int(frames) * channels)
        }
        return PCMAudio(sampleRate: 48_000, channels: channels, samples: samples)
    }

    /// Encodes `audio` (any rate; libopusenc resamples internally) to an Ogg/Opus file at `bitrate`.
    public static func write(_ audio: PCMAudio, to url: URL, bitrate: Int = 32_000) throws {
        try audio.validate()
        guard audio.channels <= 2 else { throw AudioError.invalidFormat("Ogg/Opus here takes 1 or 2 channels") }
        guard let comments = ope_comments_create() else {
            throw AudioError.codec(library: "libopusenc", code: -1, message: "cannot create the comments")
        }
        defer { ope_comments_destroy(comments) }
        var error: Int32 = 0
        guard let encoder = ope_encoder_create_file(url.path, comments, Int32(audio.sampleRate), Int32(audio.channels), 0, &error) else {
            throw AudioError.io(path: url.path, reason: "libopusenc cannot create it: \(String(cString: ope_strerror(error)))")
        }
        defer { ope_encoder_destroy(encoder) }
        func check(_ code: Int32, _ what: String) throws {
            guard code == OPE_OK else {
                throw AudioError.codec(library: "libopusenc", code: code, message: "\(what): \(String(cString: ope_strerror(code)))")
            }
        }
        try check(coggopus_set_bitrate(encoder, Int32(clamping: bitrate)), "bitrate \(bitrate)")
        try check(audio.samples.withUnsafeBufferPointer { ope_encoder_write(encoder, $0.baseAddress, Int32(audio.frameCount)) },
                  "cannot encode")
        try check(ope_encoder_drain(encoder), "cannot finish the file")
    }
}

/// Reads WAV and Ogg/Opus files by their first bytes, whatever their name says.
public enum AudioFile {
    /// The file's audio: `RIFF` is WAV, `OggS` is Ogg/Opus; anything else is `unsupportedFile`.
    public static func read(from url: URL) throws -> PCMAudio {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw AudioError.io(path: url.path, reason: "cannot open the file")
        }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        switch Array(magic) {
        case Array("RIFF".utf8): return try WAVFile.read(from: url)
        case Array("OggS".utf8): return try OggOpusFile.read(from: url)
        default: throw AudioError.unsupportedFile(kind: "audio", reason: "neither WAV (RIFF) nor Ogg/Opus (OggS)")
        }
    }
}
