import AIBudsWire
import Foundation

/// What FFmpeg's programs could not read or decode, with their message.
public struct VideoProbeFailure: Error, CustomStringConvertible {
    /// The program's complaint.
    public let description: String
}

/// The burned-in stamps (`LiveFrameStampPattern`) of the frames FFmpeg's `ffmpeg` program decodes
/// from `input` (a file or a stream's URL, after `inputOptions` such as `-rtsp_transport tcp`),
/// at most `frames` of them when given, in order; nil for a frame whose pattern does not read.
/// The raw 8-bit gray frames go to `raw` (by default beside a file input, as `.gray`).
public func decodedStamps(
    of input: URL, width: Int, height: Int, inputOptions: [String] = [], frames: Int? = nil, raw: URL? = nil
) async throws -> [LiveFrameStamp?] {
    let raw = raw ?? input.deletingPathExtension().appendingPathExtension("gray")
    let limit = frames.map { ["-frames:v", "\($0)"] } ?? []
    let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/ffmpeg"), [
        "-v", "error", "-y"] + streamTimeout(input) + inputOptions + ["-i", input.isFileURL ? input.path : input.absoluteString,
        "-vsync", "passthrough"] + limit + ["-f", "rawvideo", "-pix_fmt", "gray", raw.path,
    ])
    guard result.status == 0 else { throw VideoProbeFailure(description: "ffmpeg could not decode \(input): \(result.err)") }
    let data = try Data(contentsOf: raw)
    let size = width * height
    return data.withUnsafeBytes { bytes in
        stride(from: 0, to: data.count - size + 1, by: size).map { offset in
            LiveFrameStampPattern.read(
                luma: bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), stride: width, width: width,
                height: height)
        }
    }
}

/// `ffprobe`'s count of the video frames in `file`.
public func probedFrameCount(of file: URL) async throws -> Int {
    let out = try await probeVideo(file, ["-count_frames", "-show_entries", "stream=nb_read_frames"])
    guard let count = Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw VideoProbeFailure(description: "ffprobe could not count the frames of \(file.path): \(out)")
    }
    return count
}

/// For a stream's URL, FFmpeg's I/O timeout of 10 s: a server that stops answering fails the
/// program rather than holding the test (RTSP's `-timeout`, HTTP's `-rw_timeout`, in µs).
private func streamTimeout(_ input: URL) -> [String] {
    switch input.scheme?.lowercased() {
    case "rtsp": ["-timeout", "10000000"]
    case "http", "https": ["-rw_timeout", "10000000"]
    default: []
    }
}

/// What `ffprobe` says of the first video stream of `input` (a file or a stream's URL): the
/// entries asked for in `options` (`-show_entries stream=codec_name,width,height`, say), one value
/// a line, after `inputOptions`.
public func probeVideo(_ input: URL, _ options: [String], inputOptions: [String] = []) async throws -> String {
    let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/ffprobe"), [
        "-v", "error"] + streamTimeout(input) + inputOptions + ["-select_streams", "v:0"] + options + ["-of", "default=noprint_wrappers=1:nokey=1",
        input.isFileURL ? input.path : input.absoluteString,
    ])
    guard result.status == 0 else { throw VideoProbeFailure(description: "ffprobe could not read \(input): \(result.err)") }
    return result.out
}
