import AIBudsDBus
import AIBudsFoundation
import AIBudsSync
import Foundation

/// One client connection to BlueZ on a bus: the object tree, property reads and calls, and the
/// signals of `org.bluez` delivered to a handler.
final class BlueZBus: Sendable {
    /// One object of BlueZ's tree: its interfaces and their properties.
    typealias Interfaces = [String: [String: DBusValue]]

    let connection: DBusConnection

    private init(connection: DBusConnection) {
        self.connection = connection
    }

    /// Connects to the bus at `address` on a thread of its own (libdbus connects and
    /// authenticates synchronously) and subscribes to BlueZ's signals.
    static func open(address: String) async throws -> BlueZBus {
        let opened = await runOnOwnThread(name: "aibuds-bluez-connect") { () -> Result<DBusConnection, DBusError> in
            do throws(DBusError) {
                return .success(try DBusConnection(address: address))
            } catch {
                return .failure(error)
            }
        }
        let connection: DBusConnection
        switch opened {
        case .success(let opened): connection = opened
        case .failure(let error):
            throw BlueZ.sdkError(
                DBusError(name: "org.freedesktop.DBus.Error.NoServer", message: error.message), "no D-Bus bus at \(address)")
        }
        let bus = BlueZBus(connection: connection)
        do throws(DBusError) {
            try await connection.addMatch("type='signal',sender='\(BlueZ.service)'")
            try await connection.addMatch(
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(BlueZ.service)'")
        } catch {
            connection.close()
            throw BlueZ.sdkError(error, "cannot subscribe to BlueZ's signals")
        }
        return bus
    }

    /// Closes the connection.
    func close() { connection.close() }

    /// Calls a BlueZ method, mapping an error reply with `what`.
    func call(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(25), what: String
    ) async throws -> [DBusValue] {
        do {
            return try await connection.call(
                destination: BlueZ.service, path: path, interface: interface, member: member, arguments, timeout: timeout)
        } catch {
            throw BlueZ.sdkError(error, what)
        }
    }

    /// BlueZ's whole object tree (`GetManagedObjects` at `/`).
    func managedObjects() async throws -> [String: Interfaces] {
        let reply = try await call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", what: "cannot read BlueZ's objects")
        guard let entries = reply.first?.dictEntries else { return [:] }
        var objects: [String: Interfaces] = [:]
        for entry in entries {
            guard let path = entry.key.stringValue else { continue }
            objects[path] = Self.interfaces(entry.value)
        }
        return objects
    }

    /// An `a{sa{sv}}` as interfaces and properties.
    static func interfaces(_ value: DBusValue) -> Interfaces {
        var interfaces: Interfaces = [:]
        for entry in value.dictEntries ?? [] {
            guard let name = entry.key.stringValue else { continue }
            interfaces[name] = entry.value.propertyMap ?? [:]
        }
        return interfaces
    }

    /// The adapter to use: `name` (`hci0`) or the first adapter, by path order.
    static func adapter(in objects: [String: Interfaces], named name: String?) -> (path: String, properties: [String: DBusValue])? {
        let adapters = objects.filter { $0.value["org.bluez.Adapter1"] != nil }.sorted { $0.key < $1.key }
        let chosen = name.map { wanted in adapters.first { $0.key.hasSuffix("/" + wanted) } } ?? adapters.first
        guard let chosen, let properties = chosen.value["org.bluez.Adapter1"] else { return nil }
        return (chosen.key, properties)
    }

    /// The adapter `name` (or the first), checked to be present and powered.
    func poweredAdapter(named name: String?) async throws -> (path: String, objects: [String: Interfaces]) {
        let objects = try await managedObjects()
        guard let adapter = Self.adapter(in: objects, named: name) else {
            throw AIBudsError(.scanningFailedDueToBluetoothUnsupported,
                              "no Bluetooth adapter\(name.map { " named \($0)" } ?? "") (BlueZ lists none)")
        }
        guard adapter.properties["Powered"]?.boolValue == true else {
            throw AIBudsError(.scanningFailedDueToBluetoothPoweredOff,
                              "the Bluetooth adapter \(adapter.path) is off (bluetoothctl power on)")
        }
        return (adapter.path, objects)
    }
}
