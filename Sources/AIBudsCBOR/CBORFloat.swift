/// Conversions between `Double` and the IEEE 754 half- and single-precision forms CBOR can carry.
enum CBORFloat {
    /// The value of an IEEE 754 binary16 bit pattern (RFC 8949 Appendix D).
    static func double(fromHalf bits: UInt16) -> Double {
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = mantissa * 0x1p-24
        case 31: magnitude = mantissa == 0 ? .infinity : .nan
        default: magnitude = (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
        }
        return bits & 0x8000 != 0 ? -magnitude : magnitude
    }

    /// The binary16 bit pattern of `value` when it is exactly representable in half precision.
    /// Infinities qualify; NaN does not (callers encode NaN canonically).
    static func half(exactly value: Double) -> UInt16? {
        guard !value.isNaN else { return nil }
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        let magnitude = value.magnitude
        if magnitude == 0 { return sign }
        if magnitude.isInfinite { return sign | 0x7C00 }
        if magnitude >= 0x1p-14 {
            // Normal half: exponent -14...15, 10 fraction bits.
            let exponent = Int(magnitude.exponent)
            guard exponent <= 15 else { return nil }
            let fraction = magnitude.significandBitPattern
            guard fraction & ((1 << 42) - 1) == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(fraction >> 42)
        }
        // Subnormal half: a multiple of 2^-24 below 2^-14.
        let scaled = magnitude * 0x1p24
        guard scaled == scaled.rounded(.towardZero) else { return nil }
        return sign | UInt16(scaled)
    }

    /// The binary32 value of `value` when it is exactly representable in single precision.
    static func single(exactly value: Double) -> Float? {
        guard !value.isNaN else { return nil }
        let single = Float(value)
        return Double(single) == value ? single : nil
    }
}
