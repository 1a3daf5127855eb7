import CFFmpeg

/// Encodes decoded frames as JPEG pictures with libavcodec's JPEG encoder (quality 4 on FFmpeg's
/// 2–31 scale), for the viewer page and for frames written to files.
final class LiveJPEGEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
    private var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    private var size = (width: 0, height: 0)

    deinit { close() }

    private func close() {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    private func open(width: Int, height: Int) throws {
        avcodec_free_context(&context)
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG), let context = avcodec_alloc_context3(codec) else {
            throw LiveStreamError(.unsupportedCodec, "FFmpeg has no JPEG encoder")
        }
        self.context = context
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 30)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        context.pointee.global_quality = 118 * 4
        try check(avcodec_open2(context, codec, nil), .unsupportedCodec, "avcodec_open2(mjpeg)")
        size = (width, height)
    }

    /// The JPEG picture of `input`.
    func encode(_ input: LiveFrame) throws -> [UInt8] {
        if context == nil || size != (input.width, input.height) { try open(width: input.width, height: input.height) }
        guard let context, let frame, let packet else { throw LiveStreamError(.output, "closed") }
        av_frame_unref(frame)
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        frame.pointee.width = Int32(input.width)
        frame.pointee.height = Int32(input.height)
        frame.pointee.quality = context.pointee.global_quality
        try check(av_frame_get_buffer(frame, 0), .output, "av_frame_get_buffer")
        let chroma = (input.width + 1) / 2
        func copy(_ plane: [UInt8], _ data: UnsafeMutablePointer<UInt8>, _ stride: Int32, _ width: Int) {
            plane.withUnsafeBufferPointer { source in
                for y in 0..<(plane.count / width) {
                    (data + y * Int(stride)).update(from: source.baseAddress! + y * width, count: width)
                }
            }
        }
        copy(input.luma, frame.pointee.data.0!, frame.pointee.linesize.0, input.width)
        copy(input.cb, frame.pointee.data.1!, frame.pointee.linesize.1, chroma)
        copy(input.cr, frame.pointee.data.2!, frame.pointee.linesize.2, chroma)
        try check(avcodec_send_frame(context, frame), .output, "avcodec_send_frame(mjpeg)")
        try check(avcodec_receive_packet(context, packet), .output, "avcodec_receive_packet(mjpeg)")
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}
