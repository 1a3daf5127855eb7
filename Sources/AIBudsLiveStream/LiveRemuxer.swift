import CFFmpeg

/// Writes a stream's packets unchanged into a container with FFmpeg's libavformat: FLV to an
/// `rtmp://` URL (FFmpeg's RTMP client) or fragmented MP4 to a file (each fragment a key frame's
/// group of pictures, so a stopped or crashed recording keeps every fragment it finished). Times
/// start at 0 at the first packet, which must be a key frame (earlier packets are skipped).
final class LiveRemuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    private var stream: UnsafeMutablePointer<AVStream>?
    private var origin: Int64?
    private var base: Int64 = 0
    private var lastDTS: Int64 = -1
    private(set) var written = 0
    private let target: String

    /// Opens `target` as `format` (`flv`, `mp4`) for a stream of `parameters`; `interrupt` aborts
    /// blocking network writes.
    init(target: String, format: String, parameters: LiveCodecParameters, interrupt: InterruptFlag) throws {
        self.target = target
        guard parameters.isH264 else {
            throw LiveStreamError(.unsupportedCodec, "\(format) takes H.264 without re-encoding, not \(parameters.codecName)")
        }
        avformat_network_init()
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, format, target), .output, "avformat_alloc_output_context2(\(format))")
        guard let context, let stream = avformat_new_stream(context, nil) else {
            throw LiveStreamError(.output, "cannot create the \(format) output")
        }
        self.context = context
        self.stream = stream
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue().isSet ? 1 : 0
            }, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        do {
            try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters.parameters), .output, "avcodec_parameters_copy")
            stream.pointee.codecpar.pointee.codec_tag = 0
            stream.pointee.time_base = AVRational(num: 1, den: 90_000)
            var options: OpaquePointer?
            defer { av_dict_free(&options) }
            if format == "mp4" { av_dict_set(&options, "movflags", "+frag_keyframe+empty_moov+default_base_moof", 0) }
            av_dict_set(&options, "rw_timeout", "5000000", 0)
            try check(avio_open2(&context.pointee.pb, target, AVIO_FLAG_WRITE, &context.pointee.interrupt_callback, &options),
                      .output, "open \(target)")
            try check(avformat_write_header(context, &options), .output, "write the \(format) header")
        } catch {
            close(finish: false)
            throw error
        }
    }

    deinit { close(finish: false) }

    /// Writes `input`; packets before the first key frame are skipped (false).
    @discardableResult
    func write(_ input: LivePacket) throws -> Bool {
        guard let context, let stream, let packet else { throw LiveStreamError(.output, "closed") }
        guard let pts = input.pts else { return false }
        if origin == nil {
            guard input.isKeyFrame else { return false }
            origin = input.dts ?? pts
        }
        let source = AVRational(num: input.timeBase.num, den: input.timeBase.den)
        let rebase = { (value: Int64) in self.base + av_rescale_q(value - self.origin!, source, stream.pointee.time_base) }
        var dts = rebase(input.dts ?? pts)
        if dts <= lastDTS { dts = lastDTS + 1 }
        lastDTS = dts
        try check(av_new_packet(packet, Int32(input.bytes.count)), .output, "av_new_packet")
        input.bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        packet.pointee.pts = max(rebase(pts), dts)
        packet.pointee.dts = dts
        packet.pointee.stream_index = stream.pointee.index
        if input.isKeyFrame { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        let status = av_interleaved_write_frame(context, packet)
        av_packet_unref(packet)
        try check(status, .output, "write to \(target)")
        written += 1
        return true
    }

    /// The source's clock starts again (a new connection): the next packet must be a key frame,
    /// and it follows the last written one by one frame time (1/30 s).
    func restart() {
        origin = nil
        base = lastDTS + 3_000
    }

    /// Writes the trailer (`finish`) and closes the output.
    func close(finish: Bool = true) {
        guard let context else {
            av_packet_free(&packet)
            return
        }
        if finish { av_write_trailer(context) }
        avio_closep(&context.pointee.pb)
        avformat_free_context(context)
        self.context = nil
        stream = nil
        av_packet_free(&packet)
    }
}
