extension Duration {
    /// This duration in seconds, for rate arithmetic and `DispatchTime` offsets.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
