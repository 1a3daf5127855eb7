/// What happened to an imported video in the optional stabilization phase.
///
/// The vendor does not publish raw values; these are the project's.
public enum VideoStabilizationStatus: Int, Sendable, Codable, CaseIterable {
    /// Stabilization has not run yet.
    case pending = 0
    /// A stabilized copy was written (`stabilizedFileURL`).
    case stabilized = 1
    /// Stabilization failed; the original file is kept.
    case failed = 2
    /// The file has six-axis data but no stabilization plugin is registered.
    case pluginUnavailable = 3
    /// Nothing to do: not a video, or no six-axis data.
    case skipped = 4
    /// Stabilization is explicitly disabled.
    case disabled = 5
}
