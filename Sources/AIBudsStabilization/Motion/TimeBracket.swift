extension Array where Element == Double {
    /// The samples around `time` in these ascending sample times: the last one at or before it
    /// (`low`), the next (`high`), and how far `time` lies between them (0 at `low`, 1 at `high`).
    /// `time` must lie within the first and last time (both indices are the same with one time).
    func bracket(_ time: Double) -> (low: Int, high: Int, fraction: Double) {
        var low = 0, high = count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if self[middle] <= time { low = middle } else { high = middle }
        }
        let span = self[high] - self[low]
        return (low, high, span > 0 ? (time - self[low]) / span : 0)
    }
}
