import Foundation

/// The order in which a rolling-shutter sensor reads its rows (or columns).
public enum ReadoutDirection: String, Sendable, Equatable, CaseIterable {
    /// Row 0 first (the common case).
    case topToBottom = "TopToBottom"
    /// The last row first.
    case bottomToTop = "BottomToTop"
    /// Column 0 first.
    case leftToRight = "LeftToRight"
    /// The last column first.
    case rightToLeft = "RightToLeft"

    /// Reads Gyroflow's spelling, case-insensitively (`TopToBottom`, …), or its index 0–3; `nil` otherwise.
    public init?(gyroflowName text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let index = Int(trimmed), ReadoutDirection.allCases.indices.contains(index) {
            self = ReadoutDirection.allCases[index]
            return
        }
        guard let match = ReadoutDirection.allCases.first(where: { $0.rawValue.lowercased() == trimmed }) else { return nil }
        self = match
    }

    /// Where a pixel lies along the readout, 0 (read first) to 1 (read last), for an image of `width` × `height`.
    func fraction(x: Double, y: Double, width: Double, height: Double) -> Double {
        switch self {
        case .topToBottom: y / height
        case .bottomToTop: 1 - y / height
        case .leftToRight: x / width
        case .rightToLeft: 1 - x / width
        }
    }
}
