/// Camera orientations over time (camera-to-world rotations at increasing times), interpolated
/// along the shortest arc between samples and held constant outside them.
public struct OrientationTrack: Sendable {
    /// Sample times in seconds, increasing.
    public let times: [Double]
    /// The orientation at each time.
    public let orientations: [Quaternion]

    /// Creates a track; `times` and `orientations` have the same count, at least one.
    public init(times: [Double], orientations: [Quaternion]) {
        precondition(times.count == orientations.count && !times.isEmpty, "a track needs matching, non-empty samples")
        self.times = times
        self.orientations = orientations
    }

    /// The orientation at `time`.
    public func orientation(at time: Double) -> Quaternion {
        guard time > times[0] else { return orientations[0] }
        guard time < times[times.count - 1] else { return orientations[orientations.count - 1] }
        let (low, high, fraction) = times.bracket(time)
        return Quaternion.slerp(orientations[low], orientations[high], fraction)
    }

    /// The track with `transform` applied to every orientation.
    public func map(_ transform: (Quaternion) -> Quaternion) -> OrientationTrack {
        OrientationTrack(times: times, orientations: orientations.map(transform))
    }
}
