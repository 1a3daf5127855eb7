import AIBudsFoundation
import AIBudsSync
import Foundation

/// Post-processes an imported video with its six-axis (gyro and accelerometer) data.
///
/// Register one with `AIBudsSDK.setVideoStabilizationPlugin(_:)` (or a `VideoStabilizationRegistry`
/// handed to an import engine). The import engine runs it after the transfer phase, one file at a
/// time, for each downloaded file that carries six-axis data.
public protocol VideoStabilizationPlugin: AnyObject, Sendable {
    /// A short name for logs, for example `vidstab`.
    var name: String { get }

    /// Writes a stabilized copy of `job.sourceURL` to `job.outputURL`, reporting progress 0.0–1.0.
    ///
    /// It must leave `job.sourceURL` untouched, stop promptly when its task is cancelled (throwing
    /// `CancellationError`), and throw when it cannot stabilize the file; the engine then keeps the
    /// original and marks the file `.failed`.
    func stabilize(_ job: VideoStabilizationJob, progress: @escaping @Sendable (Double) -> Void) async throws
}

/// One video for a stabilization plugin.
public struct VideoStabilizationJob: Sendable {
    /// The imported file's model (status `.pending`).
    public var mediaFile: ImportedMediaFileModel
    /// The downloaded original.
    public var sourceURL: URL
    /// The video's six-axis samples as the device recorded them (Gyroflow's `.gcsv` text), or `nil`
    /// when they could not be downloaded.
    public var sixAxisDataURL: URL?
    /// Where to write the stabilized copy; nothing exists there yet.
    public var outputURL: URL
    /// The camera's lens profile as the device gave it (Gyroflow's lens-profile JSON, fetched once
    /// per import), or `nil` when the device gave none (the plugin then uses its own).
    public var lensProfile: Data?

    /// Creates the work of stabilizing one imported video: read `sourceURL` (and its six-axis data,
    /// when there is some, and the device's lens profile) and write `outputURL`.
    public init(mediaFile: ImportedMediaFileModel, sourceURL: URL, sixAxisDataURL: URL?, outputURL: URL, lensProfile: Data? = nil) {
        self.mediaFile = mediaFile
        self.sourceURL = sourceURL
        self.sixAxisDataURL = sixAxisDataURL
        self.outputURL = outputURL
        self.lensProfile = lensProfile
    }
}

/// Holds the registered stabilization plugin and whether stabilization is switched off.
///
/// The SDK uses ``shared``; tests and embedders may give an import engine their own.
public final class VideoStabilizationRegistry: Sendable {
    /// The registry `AIBudsSDK` and devices use by default.
    public static let shared = VideoStabilizationRegistry()

    private struct State {
        var plugin: (any VideoStabilizationPlugin)?
        var isDisabled = false
    }
    private let state = Locked(State())

    /// Creates an empty, enabled registry.
    public init(plugin: (any VideoStabilizationPlugin)? = nil, isDisabled: Bool = false) {
        state.withLock { $0 = State(plugin: plugin, isDisabled: isDisabled) }
    }

    /// The registered plugin, if any.
    public var plugin: (any VideoStabilizationPlugin)? {
        get { state.withLock { $0.plugin } }
        set { state.withLock { $0.plugin = newValue } }
    }

    /// Whether stabilization is explicitly switched off (files then come back `.disabled`).
    public var isDisabled: Bool {
        get { state.withLock { $0.isDisabled } }
        set { state.withLock { $0.isDisabled = newValue } }
    }

    /// `true` only when a plugin is registered and stabilization is not disabled.
    public var isAvailable: Bool { state.withLock { $0.plugin != nil && !$0.isDisabled } }

    /// What the engine will do with a downloaded file: run `plugin`, or settle on a final status.
    func decision(for file: MediaFileInfoModel) -> StabilizationDecision {
        let snapshot = state.withLock { $0 }
        guard file.containsSixAxisDebounceInfo else { return .settle(.skipped) }
        if snapshot.isDisabled { return .settle(.disabled) }
        guard let plugin = snapshot.plugin else { return .settle(.pluginUnavailable) }
        return .run(plugin)
    }
}

/// The stabilization phase's verdict for one downloaded file.
enum StabilizationDecision: Sendable {
    /// Hand the file to this plugin.
    case run(any VideoStabilizationPlugin)
    /// No processing; the file gets this status.
    case settle(VideoStabilizationStatus)
}
