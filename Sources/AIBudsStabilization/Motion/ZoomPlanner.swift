/// Chooses each frame's zoom: the least that keeps the frame free of borders, then raised and
/// smoothed over time so that it never dips below what any frame needs and never pumps.
public struct ZoomPlanner: Sendable {
    /// The largest zoom used; a frame that needs more shows a border.
    public var maximumZoom: Double
    /// Half the window, in seconds, over which the zoom is held and averaged.
    public var window: Double

    /// A planner that never zooms past `maximumZoom` and holds and averages the zoom over
    /// ±`window` seconds.
    public init(maximumZoom: Double = 2.5, window: Double = 1.0) {
        self.maximumZoom = maximumZoom
        self.window = window
    }

    /// The least zoom (within 0.002) at which `correction` covers its frame.
    public func requiredZoom(_ correction: FrameCorrection) -> Double {
        var low = 0.25, high = maximumZoom
        if !correction.withZoom(high).coversFrame() { return high }
        while high - low > 0.002 {
            let middle = (low + high) / 2
            if correction.withZoom(middle).coversFrame() { high = middle } else { low = middle }
        }
        return high
    }

    /// The zoom of every frame from the zooms they need, at `frameRate`: a moving maximum over
    /// ±`window`, then a moving average over the same window, which is never below the need.
    public func plan(required: [Double], frameRate: Double) -> [Double] {
        guard !required.isEmpty else { return [] }
        let half = max(1, Int((window * frameRate).rounded()))
        let count = required.count
        var held = [Double](repeating: 0, count: count)
        for index in 0..<count {
            held[index] = required[max(0, index - half)...min(count - 1, index + half)].max() ?? required[index]
        }
        var prefix = [Double](repeating: 0, count: count + 1)
        for index in 0..<count { prefix[index + 1] = prefix[index] + held[index] }
        return (0..<count).map { index in
            let low = max(0, index - half), high = min(count - 1, index + half)
            let mean = (prefix[high + 1] - prefix[low]) / Double(high - low + 1)
            return max(required[index], mean)
        }
    }
}
