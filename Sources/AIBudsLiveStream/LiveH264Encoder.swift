import AIBudsWire
import CFFmpeg

/// The stabilized stream's encoder: libx264 with the camera's low-latency settings (`ultrafast`,
/// `zerolatency`: no B-frames, no look-ahead, sliced threads; a key frame every second), each
/// frame's capture stamp as its SEI message (so latency is measurable downstream), parameter sets
/// in the codec's extradata for the MP4 and FLV muxers. Used by one thread at a time.
final class LiveH264Encoder {
    let width: Int
    let height: Int
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// The output's codec, for muxers.
    let parameters: LiveCodecParameters

    /// The encoder's input picture, to fill before ``encode(pts:stamp:)``.
    var picture: UnsafeMutablePointer<AVFrame>? { frame }

    /// Opens libx264 for `width` × `height` at `fps` and `bitrateKbps`.
    init(width: Int, height: Int, fps: Int, bitrateKbps: Int, threads: Int) throws {
        self.width = width
        self.height = height
        guard let codec = avcodec_find_encoder_by_name("libx264"), let context = avcodec_alloc_context3(codec) else {
            throw LiveStreamError(.unsupportedCodec, "FFmpeg has no libx264 encoder")
        }
        self.context = context
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.time_base = AVRational(num: 1, den: 90_000)
        context.pointee.framerate = AVRational(num: Int32(fps), den: 1)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.bit_rate = Int64(bitrateKbps) * 1000
        context.pointee.rc_max_rate = Int64(bitrateKbps) * 1000
        context.pointee.rc_buffer_size = Int32(clamping: Int64(bitrateKbps) * 1000 / Int64(max(1, fps)) * 2)
        context.pointee.gop_size = Int32(fps)
        context.pointee.max_b_frames = 0
        context.pointee.thread_count = Int32(max(1, threads))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        av_opt_set(context.pointee.priv_data, "preset", "ultrafast", 0)
        av_opt_set(context.pointee.priv_data, "tune", "zerolatency", 0)
        av_opt_set(context.pointee.priv_data, "udu_sei", "1", 0)
        av_opt_set(context.pointee.priv_data, "x264-params", "log-level=error", 0)
        var parameters: LiveCodecParameters?
        do {
            try check(avcodec_open2(context, codec, nil), .unsupportedCodec, "avcodec_open2(libx264)")
            guard let frame else { throw LiveStreamError(.output, "out of memory") }
            frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            frame.pointee.width = Int32(width)
            frame.pointee.height = Int32(height)
            try check(av_frame_get_buffer(frame, 0), .output, "av_frame_get_buffer")
            parameters = LiveCodecParameters(context: context)
        } catch {
            avcodec_free_context(&self.context)
            av_frame_free(&frame)
            av_packet_free(&packet)
            throw error
        }
        guard let parameters else { throw LiveStreamError(.output, "cannot describe the encoder's stream") }
        self.parameters = parameters
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Makes ``picture`` writable (the encoder may still reference the last one).
    func prepare() throws {
        guard let frame else { return }
        try check(av_frame_make_writable(frame), .output, "av_frame_make_writable")
    }

    /// Encodes ``picture`` at `pts` (1/90,000 s) with `stamp`'s SEI; returns the packets the
    /// encoder gives back (with zero-latency tuning, this frame's).
    func encode(pts: Int64, stamp: LiveFrameStamp?) throws -> [LivePacket] {
        guard let context, let frame, let packet else { return [] }
        frame.pointee.pts = pts
        frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
        av_frame_remove_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED)
        var stamps: [Int64: LiveFrameStamp] = [:]
        if let stamp, let side = av_frame_new_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED, 28) {
            let payload = stamp.seiPayload
            payload.withUnsafeBufferPointer { side.pointee.data.update(from: $0.baseAddress!, count: payload.count) }
            stamps[pts] = stamp
        }
        try check(avcodec_send_frame(context, frame), .output, "avcodec_send_frame")
        var packets: [LivePacket] = []
        while avcodec_receive_packet(context, packet) >= 0 {
            packets.append(LivePacket(
                bytes: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                pts: packet.pointee.pts, dts: packet.pointee.dts, timeBase: (1, 90_000),
                isKeyFrame: packet.pointee.flags & AV_PKT_FLAG_KEY != 0, stamp: stamps[packet.pointee.pts]))
            av_packet_unref(packet)
        }
        return packets
    }
}
