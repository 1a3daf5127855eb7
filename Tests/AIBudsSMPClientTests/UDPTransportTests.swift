import AIBudsNet
import AIBudsSMPClient
import AIBudsSync
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Synchronization
import Testing

/// A UDP responder on loopback: answers each SMP request with what `respond` returns.
final class UDPResponder: Sendable {
    /// Every datagram received, in order.
    final class Log: Sendable {
        let datagrams = Locked<[Data]>([])
    }

    let socket: UDPSocket
    let log = Log()

    init(respond: @escaping @Sendable (_ index: Int, _ request: SMPPacket) -> CBOR?) throws {
        let socket = try UDPSocket(local: SocketAddress(host: "127.0.0.1", port: 0))
        self.socket = socket
        let log = self.log
        try socket.startReceiving { datagram, sender in
            let index = log.datagrams.withLock { list in
                list.append(datagram)
                return list.count - 1
            }
            guard let request = try? SMPPacket.decode(datagram), let payload = respond(index, request) else { return }
            try? socket.send(request.answer(payload).encoded(), to: sender)
        }
    }

    var address: SocketAddress { socket.localAddress }
    var received: [Data] { log.datagrams.withLock { $0 } }
}

@Suite(.timeLimit(.minutes(1))) struct UDPTransportTests {
    @Test func echoOverRealUDP() async throws {
        let responder = try UDPResponder { _, request in ["r": (try? request.payloadMap())?["d"] ?? .null] }
        defer { responder.socket.close() }
        let client = try SMPClient(transport: UDPTransport(address: responder.address))
        defer { client.close() }
        #expect(try await client.send(TestEcho(d: "over udp")).r == "over udp")
        // Several at once, answered over the same socket.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let response = try await client.send(TestEcho(d: "\(index)"))
                    #expect(response.r == "\(index)")
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aLostDatagramIsRetransmittedOverUDP() async throws {
        let responder = try UDPResponder { index, request in
            index == 0 ? nil : ["r": (try? request.payloadMap())?["d"] ?? .null]
        }
        defer { responder.socket.close() }
        let config = SMPClientConfiguration(retransmitInterval: .milliseconds(50), retransmissions: 3)
        let client = try SMPClient(transport: UDPTransport(address: responder.address), configuration: config)
        defer { client.close() }
        #expect(try await client.send(TestEcho(d: "second try")).r == "second try")
        let received = responder.received
        #expect(received.count == 2)
        #expect(received.first == received.last, "the retransmission is the same datagram, same sequence")
    }

    @Test func noDeviceMeansATimeoutNotAHang() async throws {
        // A port that was just free: nothing listens there.
        let probe = try UDPSocket(local: SocketAddress(host: "127.0.0.1", port: 0))
        let address = probe.localAddress
        probe.close()
        let config = SMPClientConfiguration(retransmitInterval: .milliseconds(20), retransmissions: 2)
        let client = try SMPClient(transport: UDPTransport(address: address), configuration: config)
        defer { client.close() }
        let code = await smpFailure { try await client.send(TestEcho(d: "anyone?")) }?.code
        #expect(code == .timeout || code == .transport)
    }

    @Test func udpURLsParse() throws {
        #expect(try UDPTransport.address(parsing: "udp://127.0.0.1:1400") == SocketAddress(host: "127.0.0.1", port: 1400))
        #expect(try UDPTransport.address(parsing: "127.0.0.5:9") == SocketAddress(host: "127.0.0.5", port: 9))
        #expect(try UDPTransport.address(parsing: "udp://127.0.0.1") == SocketAddress(host: "127.0.0.1", port: 1337))
        #expect(try UDPTransport.address(parsing: "udp://[::1]:1400") == SocketAddress(host: "::1", port: 1400))
        #expect(try UDPTransport.address(parsing: "udp://[::1]") == SocketAddress(host: "::1", port: 1337))
        for bad in ["udp://", "udp://device.local:1337", "udp://127.0.0.1:99999", "udp://127.0.0.1:x"] {
            #expect(throws: SMPError.self) { try UDPTransport.address(parsing: bad) }
        }
    }

    @Test func closingStopsDeliveryAndFailsSends() async throws {
        let responder = try UDPResponder { _, _ in ["r": "late"] }
        let socket = try UDPSocket(remote: responder.address)
        let delivered = Atomic(0)
        try socket.startReceiving { _, _ in delivered.add(1, ordering: .relaxed) }
        try socket.send(SMPPacket(operation: .write, group: 0, sequence: 0, command: 0, cbor: ["d": "x"]).encoded())
        try await eventually("the response to be delivered") { delivered.load(ordering: .relaxed) > 0 }
        #expect(delivered.load(ordering: .relaxed) == 1)
        socket.close()
        socket.close()
        #expect(throws: NetError.self) { try socket.send(Data([1])) }
        responder.socket.close()
        #expect(throws: NetError.self) { try responder.socket.send(Data([1]), to: socket.localAddress) }
    }
}
