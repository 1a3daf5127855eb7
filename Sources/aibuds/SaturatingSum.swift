extension Sequence {
    /// The sum of `value` over the elements, stopping at `UInt64.max` instead of trapping: sizes a
    /// device lists may add up past 2^64 (docs/reliability.md).
    func saturatingSum(_ value: (Element) -> UInt64) -> UInt64 {
        var total: UInt64 = 0
        for element in self {
            let (sum, overflow) = total.addingReportingOverflow(value(element))
            if overflow { return .max }
            total = sum
        }
        return total
    }
}

extension UInt64 {
    /// `value` rounded down, 0 for negatives and NaN, `UInt64.max` past it (a rate from a lying
    /// size, or over a tiny interval, must not trap).
    init(saturating value: Double) {
        if !(value > 0) {
            self = 0
        } else if value >= 18_446_744_073_709_551_615.0 {
            self = .max
        } else {
            self = UInt64(value)
        }
    }
}
