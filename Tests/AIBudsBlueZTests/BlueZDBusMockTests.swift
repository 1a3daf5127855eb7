import AIBudsBlueZ
import AIBudsDBus
import AIBudsFoundation
import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// The BLE discovery against python-dbusmock's `bluez5` template (Debian's python3-dbusmock), a
/// BlueZ stand-in nobody here wrote: adapter and devices come from its `org.bluez.Mock` methods,
/// called in process over D-Bus (no program per call, so the suite's program slots stay free).
@Suite(.timeLimit(.minutes(2))) struct BlueZDBusMockTests {
    private static let python = URL(fileURLWithPath: "/usr/bin/python3")

    @Test func scanFindsSMPDevicesOfTheMockAndSkipsOthers() async throws {
        try await withMock { bus, connection in try await check(bus, connection) }
    }

    @Test func pairingThroughTheMocksDevice1Pair() async throws {
        try await withMock { bus, connection in
            try await waitForTheMock(connection)
            _ = try await mock(connection, "/", "org.bluez.Mock", "AddAdapter", [.string("hci0"), .string("aibuds-test")])
            _ = try await mock(connection, "/", "org.bluez.Mock", "AddDevice",
                               [.string("hci0"), .string("C0:FF:EE:00:00:07"), .string("Bond Ring")])
            let plugin = BlueZConnectSDK(busAddress: bus.address)
            try await plugin.pair(address: "C0:FF:EE:00:00:07")
            let objects = try await mock(connection, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [])
            let device = objects.first?.dictEntries?.first { $0.key.stringValue == "/org/bluez/hci0/dev_C0_FF_EE_00_00_07" }
            let properties = device?.value.dictEntries?.first { $0.key.stringValue == "org.bluez.Device1" }?.value.propertyMap
            #expect(properties?["Paired"]?.boolValue == true)
            // Paired already: the mock answers AlreadyExists, which is success.
            try await plugin.pair(address: "C0:FF:EE:00:00:07")
            // A device BlueZ does not know.
            let unknown = await #expect(throws: AIBudsError.self) { try await plugin.pair(address: "C0:FF:EE:00:00:99") }
            #expect(unknown?.code == .peripheralUnavailable)
        }
    }

    /// Runs `body` against python-dbusmock's BlueZ template on a private bus, recording what it
    /// throws; stops the mock and the bus after.
    private func withMock(_ body: (PrivateBus, DBusConnection) async throws -> Void) async throws {
        let bus = try await onOwnThread { try PrivateBus() }
        let daemon = try RunningProgram(Self.python, ["-m", "dbusmock", "--template", "bluez5", "--system"],
                                        environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        let address = bus.address
        let connection = try await onOwnThread { try DBusConnection(address: address) }
        do {
            try await body(bus, connection)
        } catch {
            Issue.record(error)
        }
        connection.close()
        daemon.terminate()
        try await onOwnThread { bus.stop() }
    }

    private func waitForTheMock(_ connection: DBusConnection) async throws {
        try await eventually("python-dbusmock's bluez5 template to come up") {
            (try? await mock(connection, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [])) != nil
        }
    }

    /// Calls a method of the mock.
    private func mock(_ connection: DBusConnection, _ path: String, _ interface: String, _ member: String,
                      _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(destination: "org.bluez", path: path, interface: interface, member: member, arguments,
                                  timeout: .seconds(10))
    }

    private func check(_ bus: PrivateBus, _ connection: DBusConnection) async throws {
        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? await mock(connection, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", [])) != nil
            if !ready { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(ready, "python-dbusmock's bluez5 template did not come up")
        _ = try await mock(connection, "/", "org.bluez.Mock", "AddAdapter", [.string("hci0"), .string("aibuds-test")])
        _ = try await mock(connection, "/", "org.bluez.Mock", "AddDevice",
                           [.string("hci0"), .string("C0:FF:EE:00:00:01"), .string("Mock Ring")])
        _ = try await mock(connection, "/", "org.bluez.Mock", "AddDevice",
                           [.string("hci0"), .string("C0:FF:EE:00:00:02"), .string("Some Mouse")])
        _ = try await mock(connection, "/org/bluez/hci0/dev_C0_FF_EE_00_00_01", "org.freedesktop.DBus.Mock", "UpdateProperties",
                           [.string("org.bluez.Device1"),
                            .properties([("UUIDs", .strings(["8d53dc1d-1db7-4cd3-868b-8a527460aa84"])), ("RSSI", .int16(-61))])])

        let scan = try await runProgram(aibudsBinary, ["scan", "--timeout", "1.5", "--json"],
                                        environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(scan.status == 0, "\(scan.err)")
        let entries = try JSONSerialization.jsonObject(with: scan.output) as? [[String: Any]] ?? []
        let found = entries.filter { $0["transport"] as? String == "ble" }
        #expect(found.count == 1)
        #expect(found.first?["address"] as? String == "ble://C0:FF:EE:00:00:01")
        #expect(found.first?["name"] as? String == "Mock Ring")
        #expect(found.first?["rssi"] as? Int == -61)
        #expect(found.first?["mac"] as? String == "C0:FF:EE:00:00:01")

        // The adapter switched off: the scan says so.
        _ = try await mock(connection, "/org/bluez/hci0", "org.freedesktop.DBus.Mock", "UpdateProperties",
                           [.string("org.bluez.Adapter1"), .properties([("Powered", .bool(false))])])
        let offScan = try await runProgram(aibudsBinary, ["scan", "--timeout", "0.5"],
                                           environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(offScan.err.contains("is off"), "\(offScan.err)")
    }
}
