import AIBudsSMPClient
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation

/// The device end of an in-memory pair, driven step by step by a test: it hands over each request
/// the client sends and answers exactly what the test says, in any order, any number of times.
final class ScriptedDevice: Sendable {
    let transport: InMemoryTransport
    private let iterator: Iterator

    private final class Iterator: @unchecked Sendable {
        // Used only by the one test task that drives the device.
        var base: AsyncStream<Data>.AsyncIterator
        init(_ stream: AsyncStream<Data>) { base = stream.makeAsyncIterator() }
    }

    init(_ transport: InMemoryTransport) throws {
        self.transport = transport
        self.iterator = Iterator(try transport.receivedDatagrams())
    }

    /// The next request the client sent, decoded.
    func nextRequest() async throws -> SMPPacket {
        guard let datagram = await iterator.base.next() else { throw ScriptError("the client end closed") }
        return try SMPPacket.decode(datagram)
    }

    /// The next `count` requests.
    func nextRequests(_ count: Int) async throws -> [SMPPacket] {
        var packets: [SMPPacket] = []
        for _ in 0..<count { packets.append(try await nextRequest()) }
        return packets
    }

    /// Answers `request` with `payload` (its header mirrored, `op + 1`), optionally as another version.
    func reply(to request: SMPPacket, _ payload: CBOR, version: SMPVersion? = nil) throws {
        try transport.send(request.answer(payload, version: version).encoded())
    }

    /// Sends raw bytes to the client.
    func sendRaw(_ bytes: Data) throws { try transport.send(bytes) }
}

struct ScriptError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// OS echo, defined here so that the client tests do not depend on the message catalogue.
struct TestEcho: SMPRequest {
    struct Response: Codable, Sendable, Equatable { var r: String }
    static let route = SMPRoute(0, 0, .write, "echo")
    var d: String
}

/// A client on one end of an in-memory pair and the scripted device on the other.
func makePair(
    _ configuration: SMPClientConfiguration = SMPClientConfiguration(), clock: ManualClock = ManualClock()
) throws -> (SMPClient, ScriptedDevice, ManualClock) {
    let (clientEnd, deviceEnd) = InMemoryTransport.pair()
    let client = try SMPClient(transport: clientEnd, configuration: configuration, clock: clock)
    return (client, try ScriptedDevice(deviceEnd), clock)
}

/// The `SMPError` that `body` throws, or nil when it succeeds (or throws something else).
func smpFailure<T>(_ body: () async throws -> T) async -> SMPError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? SMPError
    }
}

extension SMPPacket {
    /// The device's answer to this request carrying `payload`: its group, command and sequence
    /// number, in `version` when given (else the request's).
    func answer(_ payload: CBOR, version: SMPVersion? = nil) -> SMPPacket {
        var header = self.header.response(length: 0)
        if let version { header.version = version }
        return SMPPacket(operation: header.operation, version: header.version, group: header.group,
                         sequence: header.sequence, command: header.command, cbor: payload)
    }
}
