import CFFmpeg
import Foundation

/// Reads a video file's streams and every video packet's timestamp without decoding.
public enum VideoProbe {
    /// The first video stream's size, frame times, rate and codec, and the audio stream count.
    public static func probe(_ url: URL) throws(FFmpegError) -> VideoStreamInfo {
        let input = try DemuxedInput(url)
        let stream = input.videoStream
        let parameters = stream.pointee.codecpar.pointee
        let timeBase = av_q2d(stream.pointee.time_base)
        guard let packet = av_packet_alloc() else { throw FFmpegError("av_packet_alloc", reason: "out of memory") }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        var stamps: [Int64] = []
        while true {
            let result = av_read_frame(input.context, packet)
            if result == cffmpeg_error_eof() { break }
            try FFmpegError.check(result, "av_read_frame(\(url.lastPathComponent))")
            if packet.pointee.stream_index == stream.pointee.index {
                let pts = packet.pointee.pts != cffmpeg_no_pts() ? packet.pointee.pts : packet.pointee.dts
                if pts != cffmpeg_no_pts() { stamps.append(pts) }
            }
            av_packet_unref(packet)
        }
        guard !stamps.isEmpty else { throw FFmpegError("probe(\(url.lastPathComponent))", reason: "the video stream has no frames") }
        stamps.sort()
        let first = stamps[0]
        let times = stamps.map { Double($0 - first) * timeBase }
        var rate = av_q2d(stream.pointee.avg_frame_rate)
        if !(rate.isFinite && rate > 0), times.count > 1, let last = times.last, last > 0 { rate = Double(times.count - 1) / last }
        if !(rate.isFinite && rate > 0) { rate = 30 }
        let audio = (0..<Int(input.context.pointee.nb_streams)).filter {
            input.context.pointee.streams[$0]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
        }.count
        return VideoStreamInfo(
            width: Int(parameters.width), height: Int(parameters.height), frameTimes: times, frameRate: rate,
            isHEVC: parameters.codec_id == AV_CODEC_ID_HEVC, audioStreamCount: audio)
    }
}
