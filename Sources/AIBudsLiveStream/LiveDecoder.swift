import AIBudsWire
import CFFmpeg

/// Decodes a stream's packets into ``LiveFrame``s with libavcodec, for the lowest latency: one
/// thread (frame threads would hold frames back), `LOW_DELAY`, and the SEI stamp and motion read from
/// each decoded frame's side data. Pictures in another format than 4:2:0 are converted by libswscale.
final class LiveDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
    private var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    private var scaler: OpaquePointer?
    private var pendingStamps: [Int64: LiveFrameStamp] = [:]

    init(_ parameters: LiveCodecParameters) throws {
        guard let codec = avcodec_find_decoder(parameters.parameters.pointee.codec_id),
            let context = avcodec_alloc_context3(codec)
        else { throw LiveStreamError(.unsupportedCodec, "no decoder for \(parameters.codecName)") }
        self.context = context
        try check(avcodec_parameters_to_context(context, parameters.parameters), .invalidData, "avcodec_parameters_to_context")
        context.pointee.thread_count = 1
        context.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY)
        try check(avcodec_open2(context, codec, nil), .unsupportedCodec, "avcodec_open2")
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
        sws_freeContext(scaler)
    }

    /// Decodes `input`; returns the pictures it completes (none while a decoder waits for a key
    /// frame). A packet that does not decode is skipped, not fatal: the next key frame recovers.
    func decode(_ input: LivePacket, sequence: inout Int) -> [LiveFrame] {
        guard let context, let frame, let packet else { return [] }
        guard av_new_packet(packet, Int32(input.bytes.count)) >= 0 else { return [] }
        input.bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        let key = input.pts ?? Int64(sequence)
        packet.pointee.pts = key
        packet.pointee.dts = input.dts ?? key
        if input.isKeyFrame { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        if let stamp = input.stamp { pendingStamps[key] = stamp }
        let sent = avcodec_send_packet(context, packet)
        av_packet_unref(packet)
        guard sent >= 0 else { return [] }
        var frames = [LiveFrame]()
        while avcodec_receive_frame(context, frame) >= 0 {
            defer { av_frame_unref(frame) }
            let decoded = liveWallClockMicroseconds()
            var stamp = pendingStamps.removeValue(forKey: frame.pointee.pts)
            var motion: [LiveMotionSample] = []
            for index in 0..<Int(frame.pointee.nb_side_data) {
                guard let side = frame.pointee.side_data[index], side.pointee.type == AV_FRAME_DATA_SEI_UNREGISTERED else { continue }
                let payload = UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size))
                if let found = LiveFrameStamp(seiPayload: payload) {
                    stamp = found
                } else if let samples = LiveMotionSEI.samples(fromPayload: payload) {
                    motion += samples
                }
            }
            if pendingStamps.count > 64 { pendingStamps.removeAll() }
            guard let picture = planes(frame) else { continue }
            frames.append(LiveFrame(
                width: Int(frame.pointee.width), height: Int(frame.pointee.height), luma: picture.0, cb: picture.1,
                cr: picture.2, stamp: stamp, decodedMicroseconds: decoded, sequence: sequence, motion: motion))
            sequence += 1
        }
        return frames
    }

    /// The picture's planes, packed, in 4:2:0.
    private func planes(_ frame: UnsafeMutablePointer<AVFrame>) -> ([UInt8], [UInt8], [UInt8])? {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        func copy(_ data: UnsafeMutablePointer<UInt8>, _ stride: Int32, _ w: Int, _ h: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: w * h)
            out.withUnsafeMutableBufferPointer { buffer in
                for y in 0..<h { (buffer.baseAddress! + y * w).update(from: data + y * Int(stride), count: w) }
            }
            return out
        }
        if format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P {
            return (copy(frame.pointee.data.0!, frame.pointee.linesize.0, width, height),
                    copy(frame.pointee.data.1!, frame.pointee.linesize.1, chromaWidth, chromaHeight),
                    copy(frame.pointee.data.2!, frame.pointee.linesize.2, chromaWidth, chromaHeight))
        }
        scaler = sws_getCachedContext(scaler, Int32(width), Int32(height), format, Int32(width), Int32(height),
                                      AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { return nil }
        var luma = [UInt8](repeating: 0, count: width * height)
        var cb = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        var cr = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        luma.withUnsafeMutableBufferPointer { y in
            cb.withUnsafeMutableBufferPointer { u in
                cr.withUnsafeMutableBufferPointer { v in
                    var destination: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress, nil]
                    var strides: [Int32] = [Int32(width), Int32(chromaWidth), Int32(chromaWidth), 0]
                    withUnsafePointer(to: &frame.pointee.data) { data in
                        data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { source in
                            withUnsafePointer(to: &frame.pointee.linesize) { lines in
                                lines.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                                    _ = sws_scale(scaler, source, sourceStrides, 0, Int32(height), &destination, &strides)
                                }
                            }
                        }
                    }
                }
            }
        }
        return (luma, cb, cr)
    }
}
