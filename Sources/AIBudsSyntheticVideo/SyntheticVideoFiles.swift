import AIBudsStabilization
import CFFmpeg
import Foundation

/// Encodes and decodes test videos with FFmpeg's libraries directly (libx264, gray chroma).
public enum SyntheticVideoFiles {
    /// Writes luma frames (`width` × `height` bytes each) as an H.264 MP4 at `fps`.
    public static func writeH264(_ frames: [[UInt8]], width: Int, height: Int, fps: Int, to url: URL) throws {
        try writeH264(frameCount: frames.count, width: width, height: height, fps: fps, to: url) { frames[$0] }
    }

    /// Writes `frameCount` luma frames made one at a time by `frame` (so a long clip never sits in
    /// memory) as an H.264 MP4 at `fps`, CRF 10 with x264's `ultrafast` preset (`crf`/`preset` to
    /// change; `encoder` `libx265` writes HEVC instead).
    public static func writeH264(
        frameCount: Int, width: Int, height: Int, fps: Int, to url: URL, crf: Int = 10, preset: String = "ultrafast",
        encoder encoderName: String = "libx264", frame makeFrame: (Int) -> [UInt8]
    ) throws {
        FFmpegLogging.install()
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, nil, nil, url.path) >= 0, let context,
            let codec = avcodec_find_encoder_by_name(encoderName), let encoder = avcodec_alloc_context3(codec),
            let stream = avformat_new_stream(context, nil), let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw FFmpegError("test writer", reason: "setup failed") }
        var encoderPointer: UnsafeMutablePointer<AVCodecContext>? = encoder
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            avcodec_free_context(&encoderPointer)
            av_frame_free(&framePointer)
            av_packet_free(&packetPointer)
            avio_closep(&context.pointee.pb)
            avformat_free_context(context)
        }
        encoder.pointee.width = Int32(width)
        encoder.pointee.height = Int32(height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = AVRational(num: 1, den: Int32(fps))
        encoder.pointee.framerate = AVRational(num: Int32(fps), den: 1)
        encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        av_opt_set(encoder.pointee.priv_data, "preset", preset, 0)
        av_opt_set(encoder.pointee.priv_data, "crf", String(crf), 0)
        if encoderName == "libx265" {
            av_opt_set(encoder.pointee.priv_data, "x265-params", "log-level=error", 0)
        }
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "open")
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "params")
        stream.pointee.time_base = encoder.pointee.time_base
        try FFmpegError.check(avio_open(&context.pointee.pb, url.path, AVIO_FLAG_WRITE), "avio_open")
        try FFmpegError.check(avformat_write_header(context, nil), "header")
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        try FFmpegError.check(av_frame_get_buffer(frame, 0), "buffer")
        func drain() throws {
            while avcodec_receive_packet(encoder, packet) >= 0 {
                // Each frame lasts one frame time: without a duration the MP4 muxer gives the last
                // sample none, and decoders honouring the edit list drop it.
                packet.pointee.duration = 1
                av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
                packet.pointee.stream_index = stream.pointee.index
                try FFmpegError.check(av_interleaved_write_frame(context, packet), "write")
            }
        }
        for index in 0..<frameCount {
            let luma = makeFrame(index)
            try FFmpegError.check(av_frame_make_writable(frame), "writable")
            let planes = FramePlanes(frame)
            for row in 0..<height {
                luma.withUnsafeBufferPointer { (planes.y + row * planes.yStride).update(from: $0.baseAddress! + row * width, count: width) }
            }
            for row in 0..<(height / 2) {
                (planes.u + row * planes.uStride).update(repeating: 128, count: width / 2)
                (planes.v + row * planes.vStride).update(repeating: 128, count: width / 2)
            }
            frame.pointee.pts = Int64(index)
            try FFmpegError.check(avcodec_send_frame(encoder, frame), "send")
            try drain()
        }
        avcodec_send_frame(encoder, nil)
        try drain()
        try FFmpegError.check(av_write_trailer(context), "trailer")
    }

    /// Every frame's luma plane (`width` × `height` bytes) of the first video stream.
    public static func decodeLuma(_ url: URL) throws -> (frames: [[UInt8]], width: Int, height: Int) {
        var frames: [[UInt8]] = []
        var size = (0, 0)
        try forEachLuma(url) { plane, width, height in
            size = (width, height)
            frames.append(plane)
        }
        return (frames, size.0, size.1)
    }

    /// Hands each frame's luma plane (`width` × `height` bytes, packed) to `body`, one at a time.
    public static func forEachLuma(_ url: URL, _ body: ([UInt8], Int, Int) throws -> Void) throws {
        try VideoFrameReader.forEachFrame(url) { _, planes in
            let y = planes[0]
            var plane = [UInt8](repeating: 0, count: y.width * y.height)
            plane.withUnsafeMutableBufferPointer { buffer in
                for row in 0..<y.height { (buffer.baseAddress! + row * y.width).update(from: y.base + row * y.stride, count: y.width) }
            }
            try body(plane, y.width, y.height)
        }
    }
}

/// The plane pointers of a YUV 4:2:0 AVFrame.
struct FramePlanes {
    /// The planes of `frame`.
    let y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    let yStride: Int, uStride: Int, vStride: Int

    init(_ frame: UnsafeMutablePointer<AVFrame>) {
        y = frame.pointee.data.0!
        u = frame.pointee.data.1!
        v = frame.pointee.data.2!
        yStride = Int(frame.pointee.linesize.0)
        uStride = Int(frame.pointee.linesize.1)
        vStride = Int(frame.pointee.linesize.2)
    }
}
