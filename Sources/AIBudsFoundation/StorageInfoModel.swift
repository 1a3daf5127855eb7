import Foundation

/// The device's storage use, in megabytes.
public final class StorageInfoModel: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Megabytes in use.
    public let usedSpaceInMB: NSNumber
    /// Megabytes free.
    public let freeSpaceInMB: NSNumber

    /// Creates the model from the used and free storage, in megabytes, the device reported.
    public init(usedSpaceInMB: Int, freeSpaceInMB: Int) {
        self.usedSpaceInMB = NSNumber(value: usedSpaceInMB)
        self.freeSpaceInMB = NSNumber(value: freeSpaceInMB)
    }

    private enum CodingKeys: String, CodingKey { case usedSpaceInMB, freeSpaceInMB }

    /// Decodes both figures.
    public convenience init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            usedSpaceInMB: try c.decode(Int.self, forKey: .usedSpaceInMB),
            freeSpaceInMB: try c.decode(Int.self, forKey: .freeSpaceInMB))
    }

    /// Encodes both figures as integers.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(usedSpaceInMB.intValue, forKey: .usedSpaceInMB)
        try c.encode(freeSpaceInMB.intValue, forKey: .freeSpaceInMB)
    }

    /// Models are equal when both figures are.
    public static func == (lhs: StorageInfoModel, rhs: StorageInfoModel) -> Bool {
        lhs.usedSpaceInMB == rhs.usedSpaceInMB && lhs.freeSpaceInMB == rhs.freeSpaceInMB
    }

    /// `used N MB, free N MB`.
    public var description: String { "used \(usedSpaceInMB) MB, free \(freeSpaceInMB) MB" }
}
