import CFFmpeg

/// The frames one decode reuses: the decoder's, and a YUV 4:2:0 conversion of it when the decoder
/// gives another format (the encoder's frames are ``EncoderThread``'s).
final class FramePool {
    let decoded: UnsafeMutablePointer<AVFrame>
    private let converted: UnsafeMutablePointer<AVFrame>
    private var scaler: OpaquePointer?
    private let width: Int32
    private let height: Int32

    init(width: Int, height: Int) throws(FFmpegError) {
        var frames: [UnsafeMutablePointer<AVFrame>?] = [av_frame_alloc(), av_frame_alloc()]
        guard let decoded = frames[0], let converted = frames[1] else {
            // Those that were allocated are freed (from here on, deinit frees them).
            for index in frames.indices { av_frame_free(&frames[index]) }
            throw FFmpegError("av_frame_alloc", reason: "out of memory")
        }
        self.decoded = decoded
        self.converted = converted
        self.width = Int32(width)
        self.height = Int32(height)
    }

    /// `frame` itself when it is 8-bit YUV 4:2:0 at the stream's size, else its conversion.
    func yuv420(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        let format = frame.pointee.format
        if (format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue),
            frame.pointee.width == width, frame.pointee.height == height
        {
            return frame
        }
        scaler = sws_getCachedContext(
            scaler, frame.pointee.width, frame.pointee.height, AVPixelFormat(rawValue: format), width, height, AV_PIX_FMT_YUV420P,
            SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { throw FFmpegError("sws_getCachedContext", reason: "cannot convert pixel format \(format)") }
        if converted.pointee.data.0 == nil {
            // Allocated on first use: most videos decode to 4:2:0 already.
            converted.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            converted.pointee.width = width
            converted.pointee.height = height
            try FFmpegError.check(av_frame_get_buffer(converted, 0), "av_frame_get_buffer")
        }
        try FFmpegError.check(av_frame_make_writable(converted), "av_frame_make_writable")
        let result = withUnsafePointer(to: &frame.pointee.data) { source in
            withUnsafePointer(to: &frame.pointee.linesize) { sourceStride in
                withUnsafePointer(to: &converted.pointee.data) { target in
                    withUnsafePointer(to: &converted.pointee.linesize) { targetStride in
                        source.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sourcePlanes in
                            sourceStride.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                                target.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { targetPlanes in
                                    targetStride.withMemoryRebound(to: Int32.self, capacity: 8) { targetStrides in
                                        sws_scale(scaler, sourcePlanes, sourceStrides, 0, frame.pointee.height, targetPlanes, targetStrides)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        try FFmpegError.check(result, "sws_scale")
        return converted
    }

    /// The three planes of a YUV 4:2:0 frame.
    static func planes(_ frame: UnsafeMutablePointer<AVFrame>) -> [PlaneBuffer] {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let data = frame.pointee.data, stride = frame.pointee.linesize
        return [
            PlaneBuffer(base: data.0!, stride: Int(stride.0), width: width, height: height),
            PlaneBuffer(base: data.1!, stride: Int(stride.1), width: (width + 1) / 2, height: (height + 1) / 2),
            PlaneBuffer(base: data.2!, stride: Int(stride.2), width: (width + 1) / 2, height: (height + 1) / 2),
        ]
    }

    deinit {
        var frames: [UnsafeMutablePointer<AVFrame>?] = [decoded, converted]
        for index in frames.indices { av_frame_free(&frames[index]) }
        sws_freeContext(scaler)
    }
}
