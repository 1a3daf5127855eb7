import AIBudsStabilization
import AIBudsWire
import Foundation

/// A recorded clip the emulated camera plays as what it sees, looping, with its six-axis log
/// (`aibuds emulator --live-video FILE --live-gyro FILE.gcsv`): each frame goes out with the log's
/// readings since the previous frame, stamped relative to the frame's capture time
/// (docs/protocol.md, Live group, "Motion"). The stream has the clip's size and frame rate.
public struct LiveCameraClip: Sendable {
    /// The video file (any format FFmpeg decodes).
    public let video: URL
    /// The six-axis log, its times seconds from the clip's first frame.
    public let log: GyroLog
    /// The clip's frame size.
    public let width: Int, height: Int
    /// The clip's frame rate, rounded (the stream's only rate).
    public let framesPerSecond: Int

    /// Probes `video` for its size and rate; throws when FFmpeg cannot read it, it has no frames,
    /// or `log` has no readings.
    public init(video: URL, log: GyroLog) throws {
        let info = try VideoProbe.probe(video)
        guard !info.frameTimes.isEmpty, info.width > 0, info.height > 0 else {
            throw FFmpegError("probe \(video.lastPathComponent)", reason: "no video frames")
        }
        guard !log.samples.isEmpty else { throw FFmpegError("\(video.lastPathComponent)'s log", reason: "no readings") }
        self.video = video
        self.log = log
        width = info.width
        height = info.height
        framesPerSecond = max(1, Int(info.frameRate.rounded()))
    }

    /// The readings after `from` up to and including `to` (seconds of the clip), in the protocol's
    /// frame of reference, each as microseconds from `to`.
    func motion(after from: Double, through to: Double) -> [LiveMotionSample] {
        let samples = log.samples
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].time <= from { low = middle + 1 } else { high = middle }
        }
        var out: [LiveMotionSample] = []
        var index = low
        while index < samples.count, samples[index].time <= to, out.count < LiveMotionSEI.maximumSamples {
            let sample = samples[index]
            out.append(LiveMotionSample(
                offsetMicroseconds: Int32(((sample.time - to) * 1_000_000).rounded()),
                gyro: SIMD3<Float>(ImuAxisMapping.logFrame(fromCameraFrame: sample.gyro)),
                accel: sample.accel.map { SIMD3<Float>(ImuAxisMapping.logFrame(fromCameraFrame: $0)) }))
            index += 1
        }
        return out
    }
}
