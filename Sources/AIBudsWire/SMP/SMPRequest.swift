/// A request message of one (group, command, operation); the client sends it, the server decodes it.
///
/// Conforming types are Codable structs whose coding keys are the field names of docs/protocol.md;
/// they encode as one CBOR map with ``/AIBudsCBOR/CBOREncoder``.
public protocol SMPRequest: Codable, Sendable {
    /// The message answering this request.
    associatedtype Response: Codable & Sendable
    /// The SMP group id.
    static var group: UInt16 { get }
    /// The command id within the group.
    static var command: UInt8 { get }
    /// `.read` or `.write`.
    static var operation: SMPOperation { get }
}

extension SMPRequest {
    /// The operation of this request's response (`operation + 1`).
    public static var responseOperation: SMPOperation { operation.response }
}
