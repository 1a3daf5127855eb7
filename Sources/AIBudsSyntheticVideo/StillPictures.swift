import AIBudsStabilization
import CFFmpeg
import Foundation

/// JPEG pictures of luma planes (gray, chroma at mid value), with libavcodec's JPEG encoder:
/// the emulated camera's photos and the stabilization comparison's contact sheets.
public enum StillPictures {
    /// The JPEG bytes of a `width` × `height` luma plane at `quality` (FFmpeg's scale, 2 best to 31).
    public static func jpeg(luma: [UInt8], width: Int, height: Int, quality: Int = 3) throws -> Data {
        precondition(luma.count == width * height && width > 0 && height > 0, "the plane must be width × height bytes")
        FFmpegLogging.install()
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG), let context = avcodec_alloc_context3(codec),
            let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw FFmpegError("jpeg", reason: "FFmpeg has no JPEG encoder") }
        var contextPointer: UnsafeMutablePointer<AVCodecContext>? = context
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            avcodec_free_context(&contextPointer)
            av_frame_free(&framePointer)
            av_packet_free(&packetPointer)
        }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        context.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(min(max(quality, 2), 31))
        try FFmpegError.check(avcodec_open2(context, codec, nil), "avcodec_open2(mjpeg)")
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.quality = context.pointee.global_quality
        try FFmpegError.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        let planes = FramePlanes(frame)
        luma.withUnsafeBufferPointer { source in
            for row in 0..<height { (planes.y + row * planes.yStride).update(from: source.baseAddress! + row * width, count: width) }
        }
        for row in 0..<((height + 1) / 2) {
            (planes.u + row * planes.uStride).update(repeating: 128, count: (width + 1) / 2)
            (planes.v + row * planes.vStride).update(repeating: 128, count: (width + 1) / 2)
        }
        try FFmpegError.check(avcodec_send_frame(context, frame), "avcodec_send_frame(mjpeg)")
        try FFmpegError.check(avcodec_receive_packet(context, packet), "avcodec_receive_packet(mjpeg)")
        defer { av_packet_unref(packet) }
        return Data(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}
