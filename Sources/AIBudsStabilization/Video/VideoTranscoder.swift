import CFFmpeg
import Foundation

/// Decodes a video, hands each frame's YUV 4:2:0 planes to a transform that fills the output
/// frame, encodes the result and copies the audio untouched. Encoding runs on a thread of its own
/// (`EncoderThread`) beside the decode and transform; two output frames are in flight in this
/// code (plus what the codecs buffer), so memory stays bounded whatever the clip's length.
public struct VideoTranscoder: Sendable {
    /// The encoder settings.
    public var settings: EncoderSettings

    /// A transcoder that encodes with `settings` (x264 `veryfast` CRF 20 unless told otherwise);
    /// no file is opened until it runs.
    public init(settings: EncoderSettings = EncoderSettings()) {
        self.settings = settings
    }

    /// One decoded frame for the transform.
    public struct Frame {
        /// Seconds from the first frame's presentation time.
        public var time: Double
        /// The frame's position in decoding output order, from 0.
        public var index: Int
        /// The decoded planes (Y, U, V).
        public var source: [PlaneBuffer]
        /// The planes to fill (Y, U, V), same sizes.
        public var destination: [PlaneBuffer]
    }

    /// Transcodes `input` to `output` (created; its extension picks the container). `transform`
    /// fills each output frame; `shouldStop` is asked before every frame (throwing
    /// `CancellationError` when it answers true); `progress` hears the index of each frame handed
    /// to the encoder. Both closures and `transform` run on the calling thread.
    public func run(
        input: URL, output: URL, shouldStop: () -> Bool, progress: (Int) -> Void, transform: (Frame) throws -> Void
    ) throws {
        let demuxer = try DemuxedInput(input)
        // Decoding on this thread, beside the encoder's: a decoding thread per core held 10 MB more
        // at 1080p (each keeps frames of its own) for no measured speed.
        let decoder = try VideoDecoder(demuxer, threads: 1)
        let isHEVC = demuxer.videoStream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_HEVC
        let muxer = try MuxedOutput(output, input: demuxer, decoder: decoder, settings: settings, isHEVC: isHEVC)
        let width = Int(decoder.context.pointee.width), height = Int(decoder.context.pointee.height)
        let frames = try FramePool(width: width, height: height)
        let encoder = try EncoderThread(muxer: muxer, width: width, height: height)
        // After a failure or a cancel the thread stops without writing what is queued.
        defer { encoder.stop() }
        guard let packet = av_packet_alloc() else { throw FFmpegError("av_packet_alloc", reason: "out of memory") }
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&ownedPacket) }

        let videoIndex = demuxer.videoStream.pointee.index
        let timeBase = demuxer.videoStream.pointee.time_base
        var firstPTS: Int64?
        var count = 0
        let handle: (UnsafeMutablePointer<AVFrame>) throws -> Void = { decoded in
            if shouldStop() { throw CancellationError() }
            var pts = decoded.pointee.best_effort_timestamp
            if pts == cffmpeg_no_pts() { pts = decoded.pointee.pts }
            if pts == cffmpeg_no_pts() { pts = Int64(count) }
            if firstPTS == nil { firstPTS = pts }
            let source = try frames.yuv420(decoded)
            let target = try encoder.writableFrame()
            try transform(
                Frame(
                    time: Double(pts - (firstPTS ?? pts)) * av_q2d(timeBase), index: count, source: FramePool.planes(source),
                    destination: FramePool.planes(target)))
            target.pointee.pts = pts
            target.pointee.pict_type = AV_PICTURE_TYPE_NONE
            encoder.encode(target)
            progress(count)
            count += 1
        }
        while true {
            let result = av_read_frame(demuxer.context, packet)
            if result == cffmpeg_error_eof() { break }
            try FFmpegError.check(result, "av_read_frame")
            if packet.pointee.stream_index == videoIndex {
                defer { av_packet_unref(packet) }
                try decoder.decode(packet, into: frames.decoded, handle)
            } else if let stream = demuxer.context.pointee.streams[Int(packet.pointee.stream_index)] {
                defer { av_packet_unref(packet) }
                try encoder.writeCopied(packet, timeBase: stream.pointee.time_base)
            }
        }
        try decoder.decode(nil, into: frames.decoded, handle)
        try encoder.finish()
    }
}
