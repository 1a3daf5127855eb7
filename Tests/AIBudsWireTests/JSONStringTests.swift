import AIBudsWire
import Foundation
import Testing

@Suite("JSON string literals written into bytes")
struct JSONStringTests {
    @Test("escape exactly as JSONEncoder (without escaping slashes) does", arguments: [
        "", "plain.jpg", "quote \" and backslash \\", "slash / stays", "new\nline\r\ttab", "bell\u{07} nul\u{00} esc\u{1B} del\u{7F}",
        "back\u{08}space form\u{0C}feed", "café 日本 🎧", "\u{1F}\u{10}",
    ])
    func matchesJSONEncoder(_ text: String) throws {
        var bytes: [UInt8] = []
        JSONString.append(text, to: &bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let encoded = try encoder.encode(text)
        #expect(bytes == Array(encoded), "\(String(decoding: bytes, as: UTF8.self)) vs \(String(decoding: encoded, as: UTF8.self))")
        #expect(try JSONDecoder().decode(String.self, from: Data(bytes)) == text)
    }
}
