/// Turns a growing byte count into a smoothed transfer speed, a few reports a second.
///
/// The import engine samples its running byte total on a fixed tick (every `interval`) and hands it
/// to `sample(totalBytes:at:)`; the meter returns the exponentially smoothed speed in bytes per
/// second. A stalled transfer decays towards zero because every tick counts, even without bytes.
struct TransferSpeedMeter: Sendable {
    /// How strongly a new sample moves the smoothed value (0 < `smoothing` ≤ 1).
    let smoothing: Double
    private var last: (bytes: UInt64, instant: ContinuousClock.Instant)?
    private var smoothed: Double?

    /// Creates a meter; `smoothing` is the weight of the newest sample.
    init(smoothing: Double = 0.3) {
        precondition(smoothing > 0 && smoothing <= 1, "smoothing must be in (0, 1]")
        self.smoothing = smoothing
    }

    /// Records the byte total at `instant`; returns the smoothed speed, or `nil` for the first
    /// sample (or one that comes no later than the previous).
    mutating func sample(totalBytes: UInt64, at instant: ContinuousClock.Instant) -> UInt64? {
        defer { if last == nil || instant > last!.instant { last = (totalBytes, instant) } }
        guard let last, instant > last.instant else { return nil }
        let seconds = (instant - last.instant).timeInterval
        let delta = totalBytes >= last.bytes ? totalBytes - last.bytes : 0
        let rate = Double(delta) / seconds
        let value = smoothed.map { $0 + smoothing * (rate - $0) } ?? rate
        smoothed = value
        return UInt64(value.rounded())
    }

    /// The current smoothed speed in bytes per second (0 before two samples).
    var bytesPerSecond: UInt64 { UInt64((smoothed ?? 0).rounded()) }
}
