/// Why a lens profile (Gyroflow's lens-profile JSON) was refused.
public struct LensProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending field (`fisheye_params.camera_matrix`), or empty for the document.
    public var field: String
    /// A sentence for people.
    public var message: String

    /// A lens-profile fault in JSON field `field` (a dotted path), with a sentence for people.
    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    /// `lens profile: field: message`.
    public var description: String { field.isEmpty ? "lens profile: \(message)" : "lens profile: \(field): \(message)" }
}
