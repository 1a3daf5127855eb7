/// The empty map `{}`: the response of every command that answers with no fields.
///
/// Each such command names it under its own alias (for example ``OSResetResponse``).
public struct SMPEmptyResponse: Codable, Sendable, Equatable {
    /// Creates the answer with no fields, `{}` on the wire.
    public init() {}
}
