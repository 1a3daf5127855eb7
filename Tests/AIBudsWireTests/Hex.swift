import Foundation

/// The bytes of a hexadecimal string ("a1 61 62" or "a16162"); traps on bad test input.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex string in a test")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

extension Collection<UInt8> {
    /// Lower-case hex of these bytes, for readable test failures.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
