/// A track extended past both ends by its point reflection (the motion after the end is the
/// motion before it, reversed and inverted), so that a smoother sees a steady turn continue at
/// the clip's edges instead of stopping there, and keeps it.
struct ReflectedTrack {
    /// The extended track.
    let track: OrientationTrack
    /// How many samples were added before the original first one.
    let leading: Int
    /// The original sample count.
    let count: Int

    /// Extends `original` by up to `padding` seconds (at most its own length) at each end.
    init(_ original: OrientationTrack, padding: Double) {
        let times = original.times, orientations = original.orientations
        count = times.count
        guard count > 2, let first = times.first, let last = times.last else {
            track = original
            leading = 0
            return
        }
        let span = min(padding, last - first)
        var headTimes: [Double] = [], head: [Quaternion] = []
        var index = 1
        while index < count, times[index] - first <= span {
            // q(t0 - s) = q0 · q(t0 + s)⁻¹ · q0
            headTimes.append(2 * first - times[index])
            head.append((orientations[0] * orientations[index].conjugate * orientations[0]).normalized)
            index += 1
        }
        var tailTimes: [Double] = [], tail: [Quaternion] = []
        index = count - 2
        let end = orientations[count - 1]
        while index >= 0, last - times[index] <= span {
            tailTimes.append(2 * last - times[index])
            tail.append((end * orientations[index].conjugate * end).normalized)
            index -= 1
        }
        leading = head.count
        track = OrientationTrack(
            times: headTimes.reversed() + times + tailTimes, orientations: head.reversed() + orientations + tail)
    }

    /// The samples of `smoothed` (a track at the extended times) that belong to the original.
    func unpadded(_ smoothed: OrientationTrack) -> OrientationTrack {
        OrientationTrack(
            times: Array(smoothed.times[leading..<(leading + count)]),
            orientations: Array(smoothed.orientations[leading..<(leading + count)]))
    }
}
