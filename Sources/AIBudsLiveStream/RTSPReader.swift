import CFFmpeg
import Foundation
import Synchronization

/// Reads an RTSP stream's video packets with FFmpeg's libavformat, tuned for latency: no probing
/// beyond the SDP, no demuxer buffering, no RTP reordering wait over TCP, a 3 s read timeout.
final class RTSPReader: LivePacketReader {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let streamIndex: Int32
    private let timeBase: AVRational
    let parameters: LiveCodecParameters
    private var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()

    /// Opens `url` over `transport`; `interrupted` is polled during blocking calls.
    init(url: String, transport: LiveStreamTransport, interrupt: InterruptFlag) throws {
        av_log_set_level(AV_LOG_QUIET)
        avformat_network_init()
        var context = avformat_alloc_context()
        guard let allocated = context else { throw LiveStreamError(.unreachable, "avformat_alloc_context failed") }
        allocated.pointee.interrupt_callback = AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue().isSet ? 1 : 0
            }, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        allocated.pointee.flags |= AVFMT_FLAG_NOBUFFER
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "rtsp_transport", transport.rawValue, 0)
        av_dict_set(&options, "timeout", "3000000", 0)
        av_dict_set(&options, "max_delay", "0", 0)
        av_dict_set(&options, "reorder_queue_size", transport == .tcp ? "0" : "16", 0)
        av_dict_set(&options, "buffer_size", "4194304", 0)
        let opened = avformat_open_input(&context, url, nil, &options)
        guard opened >= 0, let context else {
            throw LiveStreamError(.unreachable, "cannot open \(url): \(ffmpegMessage(opened))", code: opened)
        }
        self.context = context
        // The muxers need the picture size, which the SDP does not give: read until the first key
        // frame decodes (the camera sends one at once to a new viewer).
        context.pointee.max_analyze_duration = 2_000_000
        context.pointee.probesize = 1_000_000
        let probed = avformat_find_stream_info(context, nil)
        guard probed >= 0 else {
            avformat_close_input(&self.context)
            throw LiveStreamError(.invalidData, "cannot read \(url)'s stream: \(ffmpegMessage(probed))", code: probed)
        }
        var index: Int32 = -1
        for i in 0..<Int32(context.pointee.nb_streams) where context.pointee.streams[Int(i)]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            index = i
            break
        }
        guard index >= 0, let stream = context.pointee.streams[Int(index)],
            let parameters = LiveCodecParameters(copying: stream.pointee.codecpar)
        else {
            avformat_close_input(&self.context)
            throw LiveStreamError(.invalidData, "\(url) has no video stream")
        }
        streamIndex = index
        timeBase = stream.pointee.time_base
        self.parameters = parameters
    }

    deinit {
        avformat_close_input(&context)
        av_packet_free(&packet)
    }

    /// The next video packet; throws at the end of the stream or on a read failure.
    func read() throws -> LivePacket {
        guard let context, let packet else { throw LiveStreamError(.unreachable, "closed") }
        while true {
            let status = av_read_frame(context, packet)
            guard status >= 0 else {
                throw LiveStreamError(.unreachable, status == cffmpeg_error_eof() ? "the stream ended" : "read: \(ffmpegMessage(status))",
                                      code: status)
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let pts = packet.pointee.pts == cffmpeg_no_pts() ? nil : packet.pointee.pts
            let dts = packet.pointee.dts == cffmpeg_no_pts() ? nil : packet.pointee.dts
            return LivePacket(
                bytes: Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))), pts: pts,
                dts: dts, timeBase: (timeBase.num, timeBase.den), isKeyFrame: packet.pointee.flags & AV_PKT_FLAG_KEY != 0,
                stamp: nil)
        }
    }
}

/// How RTSP carries RTP.
public enum LiveStreamTransport: String, Sendable, CaseIterable {
    /// Interleaved in the RTSP TCP connection: nothing lost, reliable through NAT.
    case tcp
    /// RTP/RTCP datagrams: no head-of-line blocking; a lost datagram damages a frame.
    case udp
}

/// A source of compressed packets: one connection to a stream.
protocol LivePacketReader: AnyObject {
    /// The stream's codec.
    var parameters: LiveCodecParameters { get }
    /// The next packet; throws when the connection ends.
    func read() throws -> LivePacket
}

/// A stop flag polled by blocking reads (FFmpeg's interrupt callback, socket waits).
final class InterruptFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
