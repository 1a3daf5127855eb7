import CFFmpeg
import Foundation

/// An opened media file (libavformat) and its first video stream; closed on deinit.
final class DemuxedInput {
    /// The demuxer.
    let context: UnsafeMutablePointer<AVFormatContext>
    /// The video stream chosen.
    let videoStream: UnsafeMutablePointer<AVStream>
    /// The decoder libavformat suggests for it.
    let decoder: UnsafePointer<AVCodec>

    init(_ url: URL) throws(FFmpegError) {
        FFmpegLogging.install()
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_open_input(&context, url.path, nil, nil), "avformat_open_input(\(url.lastPathComponent))")
        guard let context else { throw FFmpegError("avformat_open_input", reason: "no context") }
        self.context = context
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        do throws(FFmpegError) {
            try FFmpegError.check(avformat_find_stream_info(context, nil), "avformat_find_stream_info(\(url.lastPathComponent))")
            var decoder: UnsafePointer<AVCodec>?
            let index = try FFmpegError.check(
                av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0), "av_find_best_stream(\(url.lastPathComponent))")
            guard let decoder, let stream = context.pointee.streams[Int(index)] else {
                throw FFmpegError("av_find_best_stream(\(url.lastPathComponent))", reason: "no decodable video stream")
            }
            self.decoder = decoder
            videoStream = stream
        } catch {
            avformat_close_input(&opened)
            throw error
        }
    }

    deinit {
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&opened)
    }
}
