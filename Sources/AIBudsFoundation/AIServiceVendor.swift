/// The AI service provider selected for AI features.
///
/// The case spelling follows the vendor's API exactly: `starBurst` with an uppercase B, `mltcloud` in
/// lowercase.
public enum AIServiceVendor: Int, Sendable, Codable, CaseIterable {
    /// No provider selected.
    case none = 0
    /// StarBurst AI (ByteDance).
    case starBurst = 1
    /// MltCloud AI (Meilc).
    case mltcloud = 2
}
