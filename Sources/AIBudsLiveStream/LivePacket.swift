import AIBudsWire
import CFFmpeg

/// One compressed frame as the stream delivered it: an H.264 access unit or a JPEG picture, with
/// its presentation time in ``timeBase`` units.
public struct LivePacket: Sendable {
    /// The bytes (H.264 as the demuxer gives them, Annex B from RTSP).
    public var bytes: [UInt8]
    /// The presentation time in ``timeBase`` units (nil when the stream gave none).
    public var pts: Int64?
    /// The decoding time in ``timeBase`` units.
    public var dts: Int64?
    /// The time base as a fraction of a second (`num/den`).
    public var timeBase: (num: Int32, den: Int32)
    /// Whether a decoder can start here.
    public var isKeyFrame: Bool
    /// The camera's stamp when the transport carries it (JPEG part headers).
    public var stamp: LiveFrameStamp?
}

/// The codec of a connected stream, as FFmpeg describes it (a copy of the demuxer's
/// `AVCodecParameters`), for decoders and for muxers that copy the stream.
public final class LiveCodecParameters: @unchecked Sendable {
    // Written once at creation; read by muxers and decoders, never changed.
    let parameters: UnsafeMutablePointer<AVCodecParameters>

    init?(copying source: UnsafePointer<AVCodecParameters>) {
        guard let parameters = avcodec_parameters_alloc() else { return nil }
        guard avcodec_parameters_copy(parameters, source) >= 0 else {
            var pointer: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&pointer)
            return nil
        }
        self.parameters = parameters
    }

    /// The parameters of an opened encoder (its extradata included).
    init?(context: UnsafePointer<AVCodecContext>) {
        guard let parameters = avcodec_parameters_alloc() else { return nil }
        guard avcodec_parameters_from_context(parameters, context) >= 0 else {
            var pointer: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&pointer)
            return nil
        }
        self.parameters = parameters
    }

    init?(codec: AVCodecID, width: Int, height: Int) {
        guard let parameters = avcodec_parameters_alloc() else { return nil }
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = codec
        parameters.pointee.width = Int32(width)
        parameters.pointee.height = Int32(height)
        self.parameters = parameters
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&pointer)
    }

    /// Whether the stream is H.264 (which RTMP and MP4 take without re-encoding).
    public var isH264: Bool { parameters.pointee.codec_id == AV_CODEC_ID_H264 }

    /// The codec's name (`h264`, `mjpeg`).
    public var codecName: String { String(cString: avcodec_get_name(parameters.pointee.codec_id)) }
}
