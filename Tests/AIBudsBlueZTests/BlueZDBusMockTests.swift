import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// The BLE discovery against python-dbusmock's `bluez5` template (Debian's python3-dbusmock), a
/// BlueZ stand-in nobody here wrote: adapter and devices come from its `org.bluez.Mock` methods.
@Suite(.timeLimit(.minutes(2))) struct BlueZDBusMockTests {
    private static let python = URL(fileURLWithPath: "/usr/bin/python3")
    private static let gdbus = URL(fileURLWithPath: "/usr/bin/gdbus")

    /// Calls a method of the mock with `gdbus` (arguments in GVariant text).
    private func mock(_ bus: String, _ path: String, _ method: String, _ arguments: [String]) async throws -> ProgramResult {
        try await runProgram(Self.gdbus, ["call", "--address", bus, "--dest", "org.bluez", "--object-path", path,
                                          "--method", method] + arguments)
    }

    @Test func scanFindsSMPDevicesOfTheMockAndSkipsOthers() async throws {
        let bus = try await onOwnThread { try PrivateBus() }
        let daemon = try RunningProgram(Self.python, ["-m", "dbusmock", "--template", "bluez5", "--system"],
                                        environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        do {
            try await check(bus)
        } catch {
            Issue.record(error)
        }
        daemon.terminate()
        try await onOwnThread { bus.stop() }
    }

    private func check(_ bus: PrivateBus) async throws {
        var ready = false
        for _ in 0..<100 where !ready {
            let probe = try await mock(bus.address, "/", "org.freedesktop.DBus.ObjectManager.GetManagedObjects", [])
            ready = probe.status == 0
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(ready, "python-dbusmock's bluez5 template did not come up")
        let adapter = try await mock(bus.address, "/", "org.bluez.Mock.AddAdapter", ["hci0", "aibuds-test"])
        #expect(adapter.status == 0, "\(adapter.err)")
        let smp = try await mock(bus.address, "/", "org.bluez.Mock.AddDevice", ["hci0", "C0:FF:EE:00:00:01", "Mock Ring"])
        #expect(smp.status == 0, "\(smp.err)")
        let other = try await mock(bus.address, "/", "org.bluez.Mock.AddDevice", ["hci0", "C0:FF:EE:00:00:02", "Some Mouse"])
        #expect(other.status == 0, "\(other.err)")
        let uuids = try await mock(
            bus.address, "/org/bluez/hci0/dev_C0_FF_EE_00_00_01", "org.freedesktop.DBus.Mock.UpdateProperties",
            ["org.bluez.Device1", "{'UUIDs': <['8d53dc1d-1db7-4cd3-868b-8a527460aa84']>, 'RSSI': <int16 -61>}"])
        #expect(uuids.status == 0, "\(uuids.err)")

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
        let off = try await mock(bus.address, "/org/bluez/hci0", "org.freedesktop.DBus.Mock.UpdateProperties",
                                 ["org.bluez.Adapter1", "{'Powered': <false>}"])
        #expect(off.status == 0, "\(off.err)")
        let offScan = try await runProgram(aibudsBinary, ["scan", "--timeout", "0.5"],
                                           environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(offScan.err.contains("is off"), "\(offScan.err)")
    }
}
