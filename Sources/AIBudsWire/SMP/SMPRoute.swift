/// Where a request goes on the wire: its SMP group, its command within the group and its
/// operation, with the command's name in docs/protocol.md's tables.
/// ``SMPMessageCatalog/routes`` holds every request's route: the one place the protocol's numbers
/// are written.
public struct SMPRoute: Hashable, Sendable, CustomStringConvertible {
    /// The SMP group id (``SMPGroupID``).
    public let group: UInt16
    /// The command id within the group.
    public let command: UInt8
    /// `.read` or `.write` (the response's is one more).
    public let operation: SMPOperation
    /// The command's name in docs/protocol.md (`info`, `events`, `upload`, ...).
    public let name: String

    /// The route of command `command` of group `group`, a `operation`, named `name`.
    public init(_ group: UInt16, _ command: UInt8, _ operation: SMPOperation, _ name: String) {
        self.group = group
        self.command = command
        self.operation = operation
        self.name = name
    }

    /// `group 64 command 7 (events), read`.
    public var description: String { "group \(group) command \(command) (\(name)), \(operation)" }
}
