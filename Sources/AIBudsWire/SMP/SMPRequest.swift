/// A request message of one (group, command, operation); the client sends it, the server decodes it.
///
/// Conforming types are Codable structs whose coding keys are the field names of docs/protocol.md;
/// they encode as one CBOR map with ``/AIBudsCBOR/CBOREncoder``. Where a request goes is data, not
/// code: its ``route`` is its entry in ``SMPMessageCatalog/routes``.
public protocol SMPRequest: Codable, Sendable {
    /// The message answering this request.
    associatedtype Response: Codable & Sendable
    /// The group, command and operation this request is sent as (by default its entry in
    /// ``SMPMessageCatalog/routes``).
    static var route: SMPRoute { get }
}

extension SMPRequest {
    /// This request's entry in ``SMPMessageCatalog/routes``.
    public static var route: SMPRoute { SMPMessageCatalog.route(of: Self.self) }
    /// The SMP group id of ``route``.
    public static var group: UInt16 { route.group }
    /// The command id of ``route`` within its group.
    public static var command: UInt8 { route.command }
    /// `.read` or `.write`, as ``route`` says.
    public static var operation: SMPOperation { route.operation }
    /// The operation of this request's response (`operation + 1`).
    public static var responseOperation: SMPOperation { operation.response }
}
