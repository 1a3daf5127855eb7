import CDBus
import Foundation

/// A message received from the bus, copied out of libdbus: header fields and body values.
public struct DBusMessage: Sendable {
    /// The four D-Bus message types (call, return, error, signal).
    public enum Kind: Sendable, Equatable {
        /// A call of a method, expecting a reply unless flagged otherwise.
        case methodCall
        /// A successful reply.
        case methodReturn
        /// An error reply; ``DBusMessage/errorName`` names it.
        case error
        /// A broadcast or unicast signal.
        case signal
        /// A type this library does not know.
        case other
    }

    /// Whether this is a call, a reply, an error or a signal.
    public var kind: Kind
    /// The object path a call or signal concerns.
    public var path: String?
    /// The interface of the member.
    public var interface: String?
    /// The method or signal name.
    public var member: String?
    /// The unique bus name of the sender.
    public var sender: String?
    /// The error name of an error reply (`org.bluez.Error.Failed`).
    public var errorName: String?
    /// The serial number the sender gave the message.
    public var serial: UInt32
    /// For replies, the serial of the call answered.
    public var replySerial: UInt32
    /// The arguments, in order (descriptors among them owned by the reader).
    public var body: [DBusValue]

    /// Copies a libdbus message (descriptors in the body are duplicated for the reader, who owns them).
    init(_ raw: OpaquePointer) throws(DBusMarshalError) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: kind = .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: kind = .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: kind = .error
        case DBUS_MESSAGE_TYPE_SIGNAL: kind = .signal
        default: kind = .other
        }
        path = text(dbus_message_get_path(raw))
        interface = text(dbus_message_get_interface(raw))
        member = text(dbus_message_get_member(raw))
        sender = text(dbus_message_get_sender(raw))
        errorName = text(dbus_message_get_error_name(raw))
        serial = dbus_message_get_serial(raw)
        replySerial = dbus_message_get_reply_serial(raw)
        let iterator = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iterator.deallocate() }
        if dbus_message_iter_init(raw, iterator) != 0 {
            body = try DBusValue.readAll(iterator)
        } else {
            body = []
        }
    }

    /// The error text of an error reply (its first string argument).
    public var errorMessage: String? { body.first?.stringValue }
}

/// A failure of a D-Bus operation: an error reply from the peer (its D-Bus error name and text) or a
/// local failure (no bus, timeout, disconnected, unmarshallable).
public struct DBusError: Error, Sendable, CustomStringConvertible {
    /// The D-Bus error name, for example `org.bluez.Error.NotPermitted` or
    /// `org.freedesktop.DBus.Error.NoReply`.
    public var name: String
    /// The human-readable text.
    public var message: String

    /// Creates an error with a D-Bus error name and its text.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// `name: message`.
    public var description: String { "\(name): \(message)" }

    /// The call got no reply within its timeout (`org.freedesktop.DBus.Error.NoReply`).
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    /// The connection to the bus is gone (`org.freedesktop.DBus.Error.Disconnected`).
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
}

/// Builds libdbus messages from Swift values.
enum DBusMessageBuilder {
    /// Appends `values` to `message`.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusMarshalError) {
        let iterator = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { iterator.deallocate() }
        dbus_message_iter_init_append(message, iterator)
        for value in values { try value.append(to: iterator) }
    }
}
