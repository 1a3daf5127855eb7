import AIBudsDBus
import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// A `DBusConnection` that its owners drop without `close()` goes away: the dispatch thread does
/// not keep it (and its socket) alive, and the bus sees the client leave.
@Suite(.timeLimit(.minutes(2))) struct DBusConnectionLifetimeTests {
    private final class Weak: @unchecked Sendable {
        weak var connection: DBusConnection?
    }

    @Test func aConnectionDroppedWithoutCloseIsFreedAndLeavesTheBus() async throws {
        let bus = try await onOwnThread { try PrivateBus() }
        let address = bus.address
        let observer = try await onOwnThread { try DBusConnection(address: address) }
        let weak = Weak()
        let name: String = try await onOwnThread {
            let dropped = try DBusConnection(address: address)
            weak.connection = dropped
            return dropped.uniqueName
        }
        #expect(name.hasPrefix(":"))
        try await eventually("the dropped connection to be freed") { weak.connection == nil }
        try await eventually("the bus to see the dropped client leave") {
            let reply = try? await observer.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameHasOwner", [.string(name)])
            return reply?.first?.boolValue == false
        }
        // The observer, in use all along, still works.
        #expect(observer.isConnected)
        observer.close()
        try await onOwnThread { bus.stop() }
    }
}
