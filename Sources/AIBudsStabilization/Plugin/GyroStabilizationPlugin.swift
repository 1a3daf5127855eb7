import AIBudsSync
import AIBuds
import AIBudsImport
import AIBudsFoundation
import Foundation

/// The built-in ``/AIBudsImport/VideoStabilizationPlugin``: gyro-based electronic image stabilization of each
/// imported video from its `.gcsv` sidecar and the camera's lens profile (see ``GyroStabilizer``).
public final class GyroStabilizationPlugin: VideoStabilizationPlugin {
    /// `gyro-eis`.
    public let name = "gyro-eis"
    /// The lens profile used for a video whose device gave none (``/AIBudsImport/VideoStabilizationJob/lensProfile``).
    public let lensProfile: LensProfile
    /// Smoothing, lens and encoder choices applied to every video the import hands over.
    public let settings: StabilizationSettings

    /// Creates the plugin for a camera with `lensProfile` (by default the AIBuds glasses' lens).
    public init(lensProfile: LensProfile = .aibudsGlasses, settings: StabilizationSettings = StabilizationSettings()) {
        self.lensProfile = lensProfile
        self.settings = settings
    }

    /// Parses the job's six-axis log and the device's lens profile (its own ``lensProfile`` when the
    /// job has none), then stabilizes on a thread of its own; throws a ``GyroLogError`` for a bad or
    /// missing log, a ``LensProfileError`` for a bad profile, an ``FFmpegError`` when the video
    /// cannot be decoded or the output encoded, and `CancellationError` within a frame of a cancel.
    public func stabilize(_ job: VideoStabilizationJob, progress: @escaping @Sendable (Double) -> Void) async throws {
        guard let logURL = job.sixAxisDataURL else {
            throw GyroLogError(.notAGyroLog, line: 0, "the device's six-axis data for \(job.sourceURL.lastPathComponent) was not downloaded")
        }
        let profile = try job.lensProfile.map { try LensProfileParser.parse($0) } ?? lensProfile
        let stabilizer = GyroStabilizer(settings: settings)
        try await runOnOwnThread(name: "aibuds.stabilize", stackSize: 8 << 20) { cancel in
            let log = try GyroLogParser.parse(contentsOf: logURL)
            try stabilizer.stabilize(
                input: job.sourceURL, log: log, profile: profile, output: job.outputURL, shouldStop: { cancel.isRaised }, progress: progress)
        }
    }
}
