import Foundation

/// The device's battery: charge level and whether it is charging.
public final class BatteryStatusInfoModel: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Charge in percent, 0–100.
    public let level: NSNumber
    /// Whether the battery is charging.
    public let isCharging: Bool

    /// Creates a model; `level` is clamped to 0–100.
    public init(level: Int, isCharging: Bool) {
        self.level = NSNumber(value: min(max(level, 0), 100))
        self.isCharging = isCharging
    }

    private enum CodingKeys: String, CodingKey { case level, isCharging }

    /// Decodes the level and the charging flag.
    public convenience init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(level: try c.decode(Int.self, forKey: .level), isCharging: try c.decode(Bool.self, forKey: .isCharging))
    }

    /// Encodes the level and the charging flag.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(level.intValue, forKey: .level)
        try c.encode(isCharging, forKey: .isCharging)
    }

    /// Models are equal when level and charging flag are.
    public static func == (lhs: BatteryStatusInfoModel, rhs: BatteryStatusInfoModel) -> Bool {
        lhs.level == rhs.level && lhs.isCharging == rhs.isCharging
    }

    /// `N%` plus `, charging` when it is.
    public var description: String { "\(level)%" + (isCharging ? ", charging" : "") }
}
