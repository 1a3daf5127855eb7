/// The map of a command that answers with no fields of its own: `{}`, or `{rc: 0}` from a device that
/// states its success code.
///
/// Each such command names it under its own alias (for example ``OSResetResponse``).
public struct SMPEmptyResponse: Codable, Sendable, Equatable {
    /// The status code the device stated in a successful answer (0), nil when it left `rc` out;
    /// a non-zero `rc` never decodes here, the client reports it as the device's error.
    public var rc: Int?

    /// Creates the answer `{}` (or `{rc}` with a code) on the wire.
    public init(rc: Int? = nil) { self.rc = rc }
}
