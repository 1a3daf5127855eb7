import Foundation

/// The numbers a `.gcsv` accepts: optional sign, digits, an optional fraction and exponent. No
/// `nan`, `inf`, hexadecimal or blanks inside; the result must be finite.
enum GyroLogNumber {
    /// The value of `text`, or `nil` when it is not such a number.
    static func parse(_ text: Substring) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { return nil }
        var sawDigit = false
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return nil
            }
        }
        guard sawDigit, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }
}
