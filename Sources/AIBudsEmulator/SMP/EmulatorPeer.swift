/// The sender of a request as the SMP handler sees it: an opaque key (for UDP, `HOST:PORT`) that
/// scopes the replay cache and addresses deferred responses.
public struct EmulatorPeer: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public var id: String

    /// Creates a peer key.
    public init(_ id: String) { self.id = id }

    /// The key.
    public var description: String { id }
}
