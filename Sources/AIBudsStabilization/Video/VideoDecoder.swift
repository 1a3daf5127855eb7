import CFFmpeg
import Foundation

/// A libavcodec decoder for the input's video stream, on FFmpeg's own threads.
final class VideoDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// One decoding thread per core by default (FFmpeg's automatic choice adds one, and each holds
    /// frames); `threads` 1 decodes on the calling thread.
    init(_ input: DemuxedInput, threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws(FFmpegError) {
        guard let context = avcodec_alloc_context3(input.decoder) else { throw FFmpegError("avcodec_alloc_context3", reason: "out of memory") }
        self.context = context
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        do throws(FFmpegError) {
            try FFmpegError.check(avcodec_parameters_to_context(context, input.videoStream.pointee.codecpar), "avcodec_parameters_to_context")
            context.pointee.thread_count = Int32(max(1, min(8, threads)))
            context.pointee.pkt_timebase = input.videoStream.pointee.time_base
            try FFmpegError.check(avcodec_open2(context, input.decoder, nil), "avcodec_open2(decoder)")
        } catch {
            avcodec_free_context(&owned)
            throw error
        }
    }

    /// Sends `packet` (nil to drain) and hands every frame it completes to `body`.
    func decode(
        _ packet: UnsafeMutablePointer<AVPacket>?, into frame: UnsafeMutablePointer<AVFrame>,
        _ body: (UnsafeMutablePointer<AVFrame>) throws -> Void
    ) throws {
        let sent = avcodec_send_packet(context, packet)
        if sent != cffmpeg_error_eof() && sent != cffmpeg_error_again() { try FFmpegError.check(sent, "avcodec_send_packet") }
        while true {
            let received = avcodec_receive_frame(context, frame)
            if received == cffmpeg_error_again() || received == cffmpeg_error_eof() { return }
            try FFmpegError.check(received, "avcodec_receive_frame")
            defer { av_frame_unref(frame) }
            try body(frame)
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }
}
