/// An `Int`-backed enum with a case that stands for values it does not know.
///
/// Devices may report raw values newer than this SDK; ``init(lenientRawValue:)`` maps them to the
/// enum's ``unknownCase`` instead of failing.
public protocol LenientIntEnum: RawRepresentable, Sendable where RawValue == Int {
    /// The case used for raw values the enum does not define.
    static var unknownCase: Self { get }
}

extension LenientIntEnum {
    /// Creates the case with `rawValue`, or ``unknownCase`` when there is none.
    public init(lenientRawValue rawValue: Int) {
        self = Self(rawValue: rawValue) ?? Self.unknownCase
    }
}
