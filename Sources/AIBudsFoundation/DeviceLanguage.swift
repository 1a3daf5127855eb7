/// A device UI language, identified by its BCP 47 tag (for example `en` or `zh-CN`). It codes as the
/// bare tag (`RawRepresentable`'s standard coding).
public struct DeviceLanguage: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The BCP 47 tag as the device reports it.
    public var rawValue: String

    /// Creates a language from its tag.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a language from a string literal tag.
    public init(stringLiteral value: String) { self.rawValue = value }

    // docs: common device languages; each is named in English and its raw value is its BCP 47 tag
    public static let english: DeviceLanguage = "en"
    public static let simplifiedChinese: DeviceLanguage = "zh-CN"
    public static let traditionalChinese: DeviceLanguage = "zh-TW"
    public static let japanese: DeviceLanguage = "ja"
    public static let korean: DeviceLanguage = "ko"
    public static let german: DeviceLanguage = "de"
    public static let french: DeviceLanguage = "fr"
    public static let spanish: DeviceLanguage = "es"

    /// The tag.
    public var description: String { rawValue }
}
