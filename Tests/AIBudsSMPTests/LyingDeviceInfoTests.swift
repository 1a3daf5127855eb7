import AIBudsNet
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// A device whose Device `info` claims an MTU of 2^64 − 1 (docs/reliability.md §1, the audit):
/// the real `aibuds info` reads it without trapping.
@Suite(.timeLimit(.minutes(2))) struct LyingDeviceInfoTests {
    /// The error every other request gets: ENOTSUP.
    private struct NotSupported: Encodable { var rc = 8 }

    /// A UDP "device" answering Device `info` with `info` and anything else with ENOTSUP.
    private static func answer(_ datagram: Data, info: DeviceInfoResponse) -> Data? {
        guard let request = try? SMPPacket.decode(datagram) else { return nil }
        let header = request.header.response(length: 0)
        let isInfo = request.header.group == 64 && request.header.command == 0
        guard let payload = try? (isInfo ? CBOREncoder().encode(info) : CBOREncoder().encode(NotSupported())) else { return nil }
        return SMPPacket(operation: header.operation, version: header.version, group: header.group,
                         sequence: header.sequence, command: header.command, payload: payload).encoded()
    }

    @Test func anMTUOf2To64Minus1IsClampedNotTrapped() async throws {
        let socket = try UDPSocket(local: SocketAddress(host: "127.0.0.1", port: 0))
        defer { socket.close() }
        let info = DeviceInfoResponse(name: "Liar", product: 4, model: "Liar 1", serial: "L1", firmware: "1.0",
                                      mac: "AA:BB:CC:DD:EE:01", capabilities: ["info"], mtu: .max)
        try socket.startReceiving { [socket] datagram, sender in
            if let response = Self.answer(datagram, info: info) { try? socket.send(response, to: sender) }
        }
        let folder = try makeTemporaryDirectory("lying-info")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, errors) = try await runAIBuds(
            ["info", "--device", "udp://\(socket.localAddress)"],
            environment: ["XDG_DATA_HOME": folder.path, "XDG_RUNTIME_DIR": folder.path])
        // 0, or 1 when a later query fails; a trap is signal 4 (SIGILL) or 5 (SIGTRAP).
        #expect(status == 0 || status == 1, "exit \(status)\n\(output)\n\(errors)")
        #expect(!errors.contains("Fatal error") && !errors.contains("Swift runtime failure"))
    }
}
