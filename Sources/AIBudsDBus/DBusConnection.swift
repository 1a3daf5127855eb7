import AIBudsSync
import CDBus
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private connection to one D-Bus message bus (libdbus-1), usable from any thread.
///
/// One thread of the connection's own waits for the bus socket with `poll` and dispatches what
/// arrives: replies complete the calls that await them (matched by serial), signals go to the signal
/// handlers, method calls to the method handler (a service exported on the bus). libdbus runs with
/// its thread support on; a sender writes and flushes its message itself, so nothing waits for the
/// dispatch thread's poll. When the bus goes away every call in flight fails with `Disconnected` and
/// the disconnect handlers run once. The dispatch thread holds the connection only while it
/// dispatches, so a connection dropped without ``close()`` is closed by its `deinit` and its thread
/// ends within one poll (100 ms).
public final class DBusConnection: @unchecked Sendable {
    /// The `dbus_connection` pointer; libdbus is thread-safe once `dbus_threads_init_default` ran.
    private let raw: OpaquePointer
    /// The address connected to.
    public let address: String
    /// This connection's unique bus name (`:1.42`).
    public let uniqueName: String

    private struct State {
        var pending: [UInt32: Pending] = [:]
        var signalHandlers: [UInt64: @Sendable (DBusMessage) -> Void] = [:]
        var disconnectHandlers: [@Sendable () -> Void] = []
        var methodHandler: (@Sendable (DBusIncomingCall) -> Void)?
        var nextToken: UInt64 = 0
        var closed = false
        var disconnected = false
    }

    private struct Pending {
        var continuation: CheckedContinuation<Result<[DBusValue], DBusError>, Never>
        var timer: Task<Void, Never>?
    }

    private let state = Locked(State())
    /// The bus socket the dispatch thread polls.
    private let socket: Int32

    private static let threadsReady: Bool = { dbus_threads_init_default() != 0 }()

    /// The bus a BlueZ client uses: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the system bus socket.
    public static func systemBusAddress(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let address = environment["DBUS_SYSTEM_BUS_ADDRESS"], !address.isEmpty { return address }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// Connects to the bus at `address` (`unix:path=…`) and registers with it (`Hello`).
    ///
    /// Blocking (the connection and authentication are synchronous in libdbus): call it from a
    /// thread that may block, or accept a short wait on a local socket.
    public init(address: String) throws(DBusError) {
        _ = Self.threadsReady
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw Self.take(&error, fallback: "cannot connect to the D-Bus bus at \(address)")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw Self.take(&error, fallback: "cannot register with the D-Bus bus at \(address)")
        }
        raw = connection
        var fd: Int32 = -1
        _ = dbus_connection_get_unix_fd(connection, &fd)
        socket = fd
        self.address = address
        uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        let box = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(connection, { _, message, userData in
            guard let message, let userData else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let connection = Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue()
            return connection.filter(message)
        }, box, nil)
        // Weakly: between two dispatches nothing but its owners keeps the connection alive.
        let thread = Thread { [weak self] in
            while let connection = self, connection.dispatchOnce() {}
        }
        thread.name = "aibuds-dbus"
        thread.start()
    }

    deinit {
        // Dropped without close(): the dispatch thread sees `closed` at its next turn. Calls in
        // flight hold the connection, so none is pending here.
        let handlers = state.withLock { state in
            defer {
                state.closed = true
                state.disconnectHandlers = []
            }
            return state.closed || state.disconnected ? [] : state.disconnectHandlers
        }
        for handler in handlers { handler() }
        // libdbus requires a private connection to be closed before its last reference goes.
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    private static func take(_ error: inout CDBus.DBusError, fallback: String) -> DBusError {
        defer { dbus_error_free(&error) }
        guard dbus_error_is_set(&error) != 0 else { return DBusError(name: "org.freedesktop.DBus.Error.Failed", message: fallback) }
        return DBusError(
            name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
            message: error.message.map { String(cString: $0) } ?? fallback)
    }

    // MARK: Calls

    /// Calls a method and returns the reply's body, or throws the error reply as a ``DBusError``.
    public func call(
        destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(25)
    ) async throws(DBusError) -> [DBusValue] {
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "invalid call \(interface).\(member) on \(path)")
        }
        defer { dbus_message_unref(message) }
        do {
            try DBusMessageBuilder.append(arguments, to: message)
        } catch {
            throw DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: error.description)
        }
        let label = "\(interface).\(member) on \(path)"
        let result: Result<[DBusValue], DBusError> = await withCheckedContinuation { continuation in
            let sent: DBusError? = state.withLock { state in
                guard !state.closed, !state.disconnected else {
                    return DBusError(name: DBusError.disconnectedName, message: "the bus connection is closed")
                }
                var serial: UInt32 = 0
                guard dbus_connection_send(raw, message, &serial) != 0 else {
                    return DBusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "cannot send \(label)")
                }
                let timer = makeTimer(serial: serial, label: label, timeout: timeout)
                state.pending[serial] = Pending(continuation: continuation, timer: timer)
                return nil
            }
            if let sent {
                continuation.resume(returning: .failure(sent))
            } else {
                dbus_connection_flush(raw)
            }
        }
        return try result.get()
    }

    /// Sends a message that expects no reply (a signal or a reply built elsewhere).
    func send(_ message: OpaquePointer) {
        let open = state.withLock { !$0.closed && !$0.disconnected }
        guard open else { return }
        dbus_connection_send(raw, message, nil)
        dbus_connection_flush(raw)
    }

    private func makeTimer(serial: UInt32, label: String, timeout: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self?.resolve(serial, .failure(DBusError(name: DBusError.noReplyName, message: "no reply to \(label) within \(timeout)")))
        }
    }

    private func resolve(_ serial: UInt32, _ result: Result<[DBusValue], DBusError>) {
        let pending = state.withLock { $0.pending.removeValue(forKey: serial) }
        pending?.timer?.cancel()
        pending?.continuation.resume(returning: result)
    }

    // MARK: Signals

    /// Broadcasts signal `interface.member` from the object at `path` to every subscriber.
    public func emitSignal(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws(DBusMarshalError) {
        guard let message = dbus_message_new_signal(path, interface, member) else {
            throw DBusMarshalError(description: "invalid signal \(interface).\(member) on \(path)")
        }
        defer { dbus_message_unref(message) }
        try DBusMessageBuilder.append(arguments, to: message)
        send(message)
    }

    /// Asks the bus to route signals matching `rule` (`type='signal',sender='org.bluez'`) here.
    public func addMatch(_ rule: String) async throws(DBusError) {
        _ = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "AddMatch", [.string(rule)])
    }

    /// Calls `handler` for every signal received until the token is removed; returns the token.
    @discardableResult
    public func onSignal(_ handler: @escaping @Sendable (DBusMessage) -> Void) -> UInt64 {
        state.withLock { state in
            state.nextToken += 1
            state.signalHandlers[state.nextToken] = handler
            return state.nextToken
        }
    }

    /// Stops calling the signal handler registered under `token`.
    public func removeSignalHandler(_ token: UInt64) {
        _ = state.withLock { $0.signalHandlers.removeValue(forKey: token) }
    }

    /// Runs `handler` once when the bus connection ends (the daemon went away or ``close()``).
    public func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.disconnected || state.closed { return true }
            state.disconnectHandlers.append(handler)
            return false
        }
        if now { handler() }
    }

    /// Whether the connection still talks to its bus.
    public var isConnected: Bool { state.withLock { !$0.closed && !$0.disconnected } }

    // MARK: Exporting

    /// Owns `name` on the bus (`RequestName` with do-not-queue); throws when another owns it.
    public func requestName(_ name: String) async throws(DBusError) {
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "RequestName", [.string(name), .uint32(4)])
        guard reply.first?.intValue == 1 else {
            throw DBusError(name: "org.freedesktop.DBus.Error.Failed", message: "the bus name \(name) is taken (reply \(reply))")
        }
    }

    /// Hands every method call addressed to this connection to `handler` (on the dispatch thread;
    /// it must not block and must answer each call once, now or later).
    public func setMethodHandler(_ handler: (@Sendable (DBusIncomingCall) -> Void)?) {
        state.withLock { $0.methodHandler = handler }
    }

    // MARK: Closing

    /// Closes the connection: calls in flight fail with `Disconnected`, the dispatch thread ends.
    public func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        dbus_connection_close(raw)
        finishDisconnect(DBusError(name: DBusError.disconnectedName, message: "the bus connection was closed"))
    }

    private func finishDisconnect(_ error: DBusError) {
        let (pending, handlers) = state.withLock { state in
            defer {
                state.pending = [:]
                state.disconnectHandlers = []
                state.disconnected = true
            }
            return (Array(state.pending.values), state.disconnectHandlers)
        }
        for entry in pending {
            entry.timer?.cancel()
            entry.continuation.resume(returning: .failure(error))
        }
        for handler in handlers { handler() }
    }

    // MARK: The dispatch thread

    /// One turn of the dispatch thread: waits up to 100 ms for the socket, reads and dispatches what
    /// arrived. False when the connection was closed or the bus went away (the thread ends).
    private func dispatchOnce() -> Bool {
        guard state.withLock({ !$0.closed }) else { return false }
        if dbus_connection_get_dispatch_status(raw) != DBUS_DISPATCH_DATA_REMAINS {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if dbus_connection_has_messages_to_send(raw) != 0 { poller.events |= Int16(POLLOUT) }
            _ = poll(&poller, 1, 100)
            guard state.withLock({ !$0.closed }) else { return false }
            if dbus_connection_read_write(raw, 0) == 0 { return busWentAway() }
        }
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        if dbus_connection_get_is_connected(raw) == 0 { return busWentAway() }
        return true
    }

    private func busWentAway() -> Bool {
        if !state.withLock({ $0.closed }) {
            finishDisconnect(DBusError(name: DBusError.disconnectedName, message: "the bus at \(address) went away"))
        }
        return false
    }

    private func filter(_ raw: OpaquePointer) -> DBusHandlerResult {
        let kind = dbus_message_get_type(raw)
        if kind == DBUS_MESSAGE_TYPE_METHOD_RETURN || kind == DBUS_MESSAGE_TYPE_ERROR {
            let serial = dbus_message_get_reply_serial(raw)
            guard state.withLock({ $0.pending[serial] != nil }) else { return DBUS_HANDLER_RESULT_HANDLED }
            let result: Result<[DBusValue], DBusError>
            do {
                let message = try DBusMessage(raw)
                if message.kind == .error {
                    result = .failure(DBusError(name: message.errorName ?? "org.freedesktop.DBus.Error.Failed",
                                                message: message.errorMessage ?? ""))
                } else {
                    result = .success(message.body)
                }
            } catch {
                result = .failure(DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: error.description))
            }
            resolve(serial, result)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if kind == DBUS_MESSAGE_TYPE_SIGNAL {
            if dbus_message_is_signal(raw, "org.freedesktop.DBus.Local", "Disconnected") != 0 {
                return DBUS_HANDLER_RESULT_HANDLED
            }
            guard let message = try? DBusMessage(raw) else { return DBUS_HANDLER_RESULT_HANDLED }
            let handlers = state.withLock { Array($0.signalHandlers.values) }
            for handler in handlers { handler(message) }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if kind == DBUS_MESSAGE_TYPE_METHOD_CALL {
            guard let handler = state.withLock({ $0.methodHandler }) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let call: DBusIncomingCall
            do {
                call = DBusIncomingCall(connection: self, raw: raw, message: try DBusMessage(raw))
            } catch {
                let reply = dbus_message_new_error(raw, "org.freedesktop.DBus.Error.InvalidArgs", error.description)
                if let reply {
                    send(reply)
                    dbus_message_unref(reply)
                }
                return DBUS_HANDLER_RESULT_HANDLED
            }
            handler(call)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

/// A method call received by an exported service; answer it once with ``reply(_:)`` or
/// ``fail(_:_:)``, at once or later from any thread.
public final class DBusIncomingCall: @unchecked Sendable {
    /// The call's header and arguments.
    public let message: DBusMessage
    private let connection: DBusConnection
    /// The libdbus message, referenced until answered (a reply is built from it).
    private let raw: Locked<MessageReference?>

    init(connection: DBusConnection, raw: OpaquePointer, message: DBusMessage) {
        self.connection = connection
        self.message = message
        self.raw = Locked(MessageReference(pointer: dbus_message_ref(raw)))
    }

    deinit {
        if let raw = raw.withLock({ $0 }) { dbus_message_unref(raw.pointer) }
    }

    private func take() -> OpaquePointer? {
        raw.withLock { raw in
            defer { raw = nil }
            return raw?.pointer
        }
    }

    /// Answers with a successful reply carrying `values`.
    public func reply(_ values: [DBusValue] = []) {
        guard let call = take() else { return }
        defer { dbus_message_unref(call) }
        guard dbus_message_get_no_reply(call) == 0, let reply = dbus_message_new_method_return(call) else { return }
        defer { dbus_message_unref(reply) }
        do {
            try DBusMessageBuilder.append(values, to: reply)
        } catch {
            if let failure = dbus_message_new_error(call, "org.freedesktop.DBus.Error.Failed", error.description) {
                connection.send(failure)
                dbus_message_unref(failure)
            }
            return
        }
        connection.send(reply)
    }

    /// Answers with the error `name` (`org.bluez.Error.NotPermitted`) and its text.
    public func fail(_ name: String, _ text: String) {
        guard let call = take() else { return }
        defer { dbus_message_unref(call) }
        guard dbus_message_get_no_reply(call) == 0, let reply = dbus_message_new_error(call, name, text) else { return }
        defer { dbus_message_unref(reply) }
        connection.send(reply)
    }
}

/// A referenced libdbus message, handed between threads (libdbus messages are thread-safe to
/// reference and unreference).
struct MessageReference: @unchecked Sendable {
    let pointer: OpaquePointer
}
