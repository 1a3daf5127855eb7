/// SplitMix64: a small, fast, seedable generator whose sequence is the same on every run, used for
/// generated media content and fault decisions.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed always gives the same sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// SplitMix64's output function: a bijective scramble of `value`.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A probability draw: true with probability `p` (0...1).
    public mutating func chance(_ p: Double) -> Bool {
        guard p > 0 else { return false }
        guard p < 1 else { return true }
        return Double(next() >> 11) / Double(1 << 53) < p
    }
}
