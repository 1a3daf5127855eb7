import AIBudsStabilization
import AIBudsWire
import CFFmpeg

/// One encoded frame: an H.264 access unit (Annex B, parameter sets before each key frame) or a
/// JPEG picture.
struct EncodedFrame: Sendable {
    var bytes: [UInt8]
    var isKeyFrame: Bool
    var stamp: LiveFrameStamp
}

/// The camera's encoder through FFmpeg's libavcodec: libx264 tuned for latency (no B-frames, no
/// look-ahead, one slice per frame, a key frame every second and on demand), with the frame's
/// stamp and its IMU readings as SEI messages; or the JPEG encoder.
final class LiveVideoEncoder: @unchecked Sendable {
    // Used by one capture thread at a time.
    let width: Int
    let height: Int
    private let isH264: Bool
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var stamps: [Int64: LiveFrameStamp] = [:]

    /// Opens libx264 (`h264`) at `bitrateKbps`, or the JPEG encoder, for `width` × `height` at `fps`.
    init(h264: Bool, width: Int, height: Int, fps: Int, bitrateKbps: Int) throws {
        self.width = width
        self.height = height
        isH264 = h264
        FFmpegLogging.install()
        let name = h264 ? "libx264" : "mjpeg"
        guard let codec = avcodec_find_encoder_by_name(name), let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_find_encoder_by_name(\(name))", reason: "FFmpeg has no \(name) encoder")
        }
        self.context = context
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.time_base = AVRational(num: 1, den: Int32(fps))
        context.pointee.framerate = AVRational(num: Int32(fps), den: 1)
        if h264 {
            context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            context.pointee.bit_rate = Int64(bitrateKbps) * 1000
            context.pointee.rc_max_rate = Int64(bitrateKbps) * 1000
            context.pointee.rc_buffer_size = Int32(clamping: Int64(bitrateKbps) * 1000 / Int64(fps) * 2)
            context.pointee.gop_size = Int32(fps)
            context.pointee.max_b_frames = 0
            context.pointee.thread_count = 1
            av_opt_set(context.pointee.priv_data, "preset", "ultrafast", 0)
            av_opt_set(context.pointee.priv_data, "tune", "zerolatency", 0)
            av_opt_set(context.pointee.priv_data, "udu_sei", "1", 0)
            av_opt_set(context.pointee.priv_data, "forced-idr", "1", 0)
            av_opt_set(context.pointee.priv_data, "x264-params", "repeat-headers=1:log-level=error", 0)
        } else {
            context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
            context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            context.pointee.global_quality = 118 * 4
        }
        let status = avcodec_open2(context, codec, nil)
        guard status >= 0, let frame else {
            close()
            throw FFmpegError("avcodec_open2(\(name))", code: status)
        }
        frame.pointee.format = context.pointee.pix_fmt.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let buffers = av_frame_get_buffer(frame, 0)
        guard buffers >= 0 else {
            close()
            throw FFmpegError("av_frame_get_buffer", code: buffers)
        }
    }

    deinit { close() }

    private func close() {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Draws the next picture with `draw`, then encodes it as frame `stamp` (a key frame when
    /// `keyFrame`) with `motion`'s readings as a second SEI message (H.264 only); returns the frames the encoder gives back (with zero latency tuning, this one).
    func encode(_ stamp: LiveFrameStamp, keyFrame: Bool, motion: [LiveMotionSample] = [], draw: (YUVPicture) -> Void) throws
        -> [EncodedFrame]
    {
        guard let context, let frame, let packet else { return [] }
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw FFmpegError("av_frame_make_writable", code: writable) }
        draw(YUVPicture(
            luma: frame.pointee.data.0!, lumaStride: Int(frame.pointee.linesize.0), cb: frame.pointee.data.1!,
            cr: frame.pointee.data.2!, chromaStride: Int(frame.pointee.linesize.1)))
        frame.pointee.pts = Int64(stamp.frameNumber)
        frame.pointee.pict_type = keyFrame ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        frame.pointee.quality = context.pointee.global_quality
        av_frame_remove_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED)
        if isH264, let side = av_frame_new_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED, 28) {
            let payload = stamp.seiPayload
            payload.withUnsafeBufferPointer { side.pointee.data.update(from: $0.baseAddress!, count: payload.count) }
        }
        if isH264, !motion.isEmpty {
            let payload = LiveMotionSEI.payload(motion)
            if let side = av_frame_new_side_data(frame, AV_FRAME_DATA_SEI_UNREGISTERED, payload.count) {
                payload.withUnsafeBufferPointer { side.pointee.data.update(from: $0.baseAddress!, count: payload.count) }
            }
        }
        stamps[frame.pointee.pts] = stamp
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 else { throw FFmpegError("avcodec_send_frame", code: sent) }
        var frames = [EncodedFrame]()
        while avcodec_receive_packet(context, packet) >= 0 {
            let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            let stamp = stamps.removeValue(forKey: packet.pointee.pts) ?? stamp
            frames.append(EncodedFrame(bytes: bytes, isKeyFrame: packet.pointee.flags & AV_PKT_FLAG_KEY != 0, stamp: stamp))
            av_packet_unref(packet)
        }
        return frames
    }
}
