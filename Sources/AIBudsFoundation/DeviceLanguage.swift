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

    /// English.
    public static let english: DeviceLanguage = "en"
    /// Simplified Chinese.
    public static let simplifiedChinese: DeviceLanguage = "zh-CN"
    /// Traditional Chinese.
    public static let traditionalChinese: DeviceLanguage = "zh-TW"
    /// Japanese.
    public static let japanese: DeviceLanguage = "ja"
    /// Korean.
    public static let korean: DeviceLanguage = "ko"
    /// German.
    public static let german: DeviceLanguage = "de"
    /// French.
    public static let french: DeviceLanguage = "fr"
    /// Spanish.
    public static let spanish: DeviceLanguage = "es"

    /// The tag.
    public var description: String { rawValue }
}
