import CFFmpeg
import Foundation

/// Decodes a video's frames without writing anything: for measuring a result (motion, borders,
/// frame count) with the same decoder the stabilizer uses.
public enum VideoFrameReader {
    /// Calls `body` with each frame's presentation time (seconds from the first frame) and its
    /// YUV 4:2:0 planes, valid only during the call.
    public static func forEachFrame(_ url: URL, _ body: (Double, [PlaneBuffer]) throws -> Void) throws {
        try forEachFrame(url, decodingThreads: ProcessInfo.processInfo.activeProcessorCount, body)
    }

    /// `forEachFrame` with `decodingThreads` decoder threads (1: on the calling thread).
    static func forEachFrame(_ url: URL, decodingThreads: Int, _ body: (Double, [PlaneBuffer]) throws -> Void) throws {
        let demuxer = try DemuxedInput(url)
        let decoder = try VideoDecoder(demuxer, threads: decodingThreads)
        let frames = try FramePool(width: Int(decoder.context.pointee.width), height: Int(decoder.context.pointee.height))
        guard let packet = av_packet_alloc() else { throw FFmpegError("av_packet_alloc", reason: "out of memory") }
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&ownedPacket) }
        let timeBase = av_q2d(demuxer.videoStream.pointee.time_base)
        var first: Int64?
        let handle: (UnsafeMutablePointer<AVFrame>) throws -> Void = { decoded in
            let pts = decoded.pointee.best_effort_timestamp
            if first == nil { first = pts }
            try body(Double(pts - (first ?? pts)) * timeBase, FramePool.planes(try frames.yuv420(decoded)))
        }
        while true {
            let result = av_read_frame(demuxer.context, packet)
            if result == cffmpeg_error_eof() { break }
            try FFmpegError.check(result, "av_read_frame")
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == demuxer.videoStream.pointee.index { try decoder.decode(packet, into: frames.decoded, handle) }
        }
        try decoder.decode(nil, into: frames.decoded, handle)
    }
}
