import CFFmpeg
import Foundation

/// The output file: an encoded video stream (libx264, or libx265 for HEVC) and the input's audio
/// streams copied packet for packet, with the input's rotation, metadata and time bases.
final class MuxedOutput {
    let context: UnsafeMutablePointer<AVFormatContext>
    let encoder: UnsafeMutablePointer<AVCodecContext>
    let videoStream: UnsafeMutablePointer<AVStream>
    /// Input stream index → output stream, for the copied streams.
    private(set) var copied: [Int32: UnsafeMutablePointer<AVStream>] = [:]
    private var headerWritten = false
    private let packet: UnsafeMutablePointer<AVPacket>

    init(_ url: URL, input: DemuxedInput, decoder: VideoDecoder, settings: EncoderSettings, isHEVC: Bool) throws(FFmpegError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&context, nil, nil, url.path), "avformat_alloc_output_context2(\(url.lastPathComponent))")
        guard let context else { throw FFmpegError("avformat_alloc_output_context2", reason: "no context") }
        // Until every stored property is set, a failure frees what was allocated here (after
        // that, deinit does).
        var ownedPacket = av_packet_alloc()
        guard let packet = ownedPacket else {
            avformat_free_context(context)
            throw FFmpegError("av_packet_alloc", reason: "out of memory")
        }
        self.context = context
        self.packet = packet
        let codec = (isHEVC && settings.keepsHEVC ? avcodec_find_encoder_by_name("libx265") : nil) ?? avcodec_find_encoder_by_name("libx264")
        var ownedEncoder = codec.flatMap { avcodec_alloc_context3($0) }
        guard let codec, let encoder = ownedEncoder, let stream = avformat_new_stream(context, nil) else {
            avcodec_free_context(&ownedEncoder)
            av_packet_free(&ownedPacket)
            avformat_free_context(context)
            throw FFmpegError("avcodec_find_encoder_by_name", reason: "neither libx264 nor libx265 is available")
        }
        self.encoder = encoder
        videoStream = stream
        let source = input.videoStream.pointee
        let parameters = source.codecpar.pointee
        encoder.pointee.width = parameters.width
        encoder.pointee.height = parameters.height
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.time_base = source.time_base
        encoder.pointee.framerate = source.avg_frame_rate
        encoder.pointee.sample_aspect_ratio = parameters.sample_aspect_ratio
        encoder.pointee.color_range = parameters.color_range
        encoder.pointee.color_primaries = parameters.color_primaries
        encoder.pointee.color_trc = parameters.color_trc
        encoder.pointee.colorspace = parameters.color_space
        // One encoding thread per core: x264's automatic 1.5 per core adds a frame's state per
        // thread (about 10 MB each at 1080p) for little speed when the warp shares the cores.
        encoder.pointee.thread_count = Int32(max(1, min(16, ProcessInfo.processInfo.activeProcessorCount)))
        if (context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 {
            encoder.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        av_opt_set(encoder.pointee.priv_data, "preset", settings.preset, 0)
        av_opt_set(encoder.pointee.priv_data, "crf", String(settings.crf), 0)
        if String(cString: codec.pointee.name) == "libx265" { av_opt_set(encoder.pointee.priv_data, "x265-params", "log-level=error", 0) }
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2(\(String(cString: codec.pointee.name)))")
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "avcodec_parameters_from_context")
        if encoder.pointee.codec_id == AV_CODEC_ID_HEVC { stream.pointee.codecpar.pointee.codec_tag = Self.tag("hvc1") }
        stream.pointee.time_base = source.time_base
        stream.pointee.avg_frame_rate = source.avg_frame_rate
        av_dict_copy(&stream.pointee.metadata, source.metadata, 0)
        Self.copySideData(from: input.videoStream, to: stream)
        av_dict_copy(&context.pointee.metadata, input.context.pointee.metadata, 0)

        for index in 0..<Int(input.context.pointee.nb_streams) {
            guard let inStream = input.context.pointee.streams[index],
                inStream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO,
                let outStream = avformat_new_stream(context, nil)
            else { continue }
            try FFmpegError.check(avcodec_parameters_copy(outStream.pointee.codecpar, inStream.pointee.codecpar), "avcodec_parameters_copy")
            outStream.pointee.codecpar.pointee.codec_tag = 0
            outStream.pointee.time_base = inStream.pointee.time_base
            outStream.pointee.disposition = inStream.pointee.disposition
            av_dict_copy(&outStream.pointee.metadata, inStream.pointee.metadata, 0)
            copied[inStream.pointee.index] = outStream
        }
        if (context.pointee.oformat.pointee.flags & AVFMT_NOFILE) == 0 {
            try FFmpegError.check(avio_open(&context.pointee.pb, url.path, AVIO_FLAG_WRITE), "avio_open(\(url.lastPathComponent))")
        }
        try FFmpegError.check(avformat_write_header(context, nil), "avformat_write_header")
        headerWritten = true
    }

    /// Writes a packet of a copied stream (its timestamps in `timeBase`); takes the packet's data.
    func writeCopied(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) throws(FFmpegError) {
        guard let stream = copied[packet.pointee.stream_index] else {
            av_packet_unref(packet)
            return
        }
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        try FFmpegError.check(av_interleaved_write_frame(context, packet), "av_interleaved_write_frame(audio)")
    }

    /// Encodes `frame` (nil to drain) and writes every packet the encoder completes.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(FFmpegError) {
        let sent = avcodec_send_frame(encoder, frame)
        if sent != cffmpeg_error_eof() { try FFmpegError.check(sent, "avcodec_send_frame") }
        while true {
            let received = avcodec_receive_packet(encoder, packet)
            if received == cffmpeg_error_again() || received == cffmpeg_error_eof() { return }
            try FFmpegError.check(received, "avcodec_receive_packet")
            av_packet_rescale_ts(packet, encoder.pointee.time_base, videoStream.pointee.time_base)
            packet.pointee.stream_index = videoStream.pointee.index
            try FFmpegError.check(av_interleaved_write_frame(context, packet), "av_interleaved_write_frame(video)")
        }
    }

    /// Drains the encoder and writes the trailer.
    func finish() throws(FFmpegError) {
        try encode(nil)
        try FFmpegError.check(av_write_trailer(context), "av_write_trailer")
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&owned)
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&ownedPacket)
        if (context.pointee.oformat.pointee.flags & AVFMT_NOFILE) == 0 { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
        _ = headerWritten
    }

    /// The display matrix (rotation) and other stream side data, copied.
    private static func copySideData(from input: UnsafeMutablePointer<AVStream>, to output: UnsafeMutablePointer<AVStream>) {
        for index in 0..<Int(input.pointee.nb_side_data) {
            let item = input.pointee.side_data[index]
            guard item.type == AV_PKT_DATA_DISPLAYMATRIX, let target = av_stream_new_side_data(output, item.type, item.size) else { continue }
            target.update(from: item.data, count: item.size)
        }
    }

    /// A four-character code as FFmpeg's MKTAG packs it.
    private static func tag(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
