import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Slow and unauthenticated clients of a real data plane (docs/reliability.md, "Slowloris").
@Suite("Data plane against slow clients", .timeLimit(.minutes(2)))
struct DataPlaneSlowClientTests {
    /// What the trickling clients saw.
    private struct Outcome: Sendable {
        var status: Int
        var answeredAfter: Duration
        var closedAfter: [Duration]
    }

    @Test func tricklingHeadsNeitherLockOutAnAuthorizedClientNorStayOpen() async throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(1000)
        try fixture.add("a.jpg", content)
        let address = fixture.address
        let outcome = try await onOwnThread { () throws -> Outcome in
            let start = ContinuousClock.now
            // More slow connections than the server's 64 slots, each trickling a head that never ends.
            let slow = try (0..<80).map { _ in try TCPConnection.connect(to: address, timeout: .seconds(5)) }
            defer { for connection in slow { connection.close() } }
            let head = Array("GET /media/a.jpg HTTP/1.1\r\nHost: slow\r\nX-Pad: ".utf8)
            var closedAt = [Duration?](repeating: nil, count: slow.count)
            func trickle(_ step: Int) {
                for index in slow.indices where closedAt[index] == nil {
                    let connection = slow[index]
                    do {
                        if try connection.waitReadable(timeout: .zero) {
                            var scratch = [UInt8](repeating: 0, count: 1024)
                            if try scratch.withUnsafeMutableBytes({ try connection.read(into: $0, timeout: .zero) }) == 0 {
                                closedAt[index] = ContinuousClock.now - start
                                continue
                            }
                        }
                        try connection.write([head[min(step, head.count - 1)]], timeout: .seconds(1))
                    } catch {
                        closedAt[index] = ContinuousClock.now - start
                    }
                }
            }
            trickle(0)
            trickle(1)
            // A real client meanwhile: it must be served at once.
            let client = try RawHTTPClient(address)
            let asked = ContinuousClock.now
            try client.send(RawHTTPClient.request(name: "a.jpg", token: "tok3n"))
            let response = try client.readResponse()
            let answeredAfter = ContinuousClock.now - asked
            var step = 2
            while closedAt.contains(where: { $0 == nil }), ContinuousClock.now - start < .seconds(45) {
                trickle(step)
                step += 1
                usleep(500_000)  // a thread of its own (onOwnThread), not the cooperative pool
            }
            return Outcome(status: response.head.status, answeredAfter: answeredAfter,
                           closedAfter: closedAt.map { $0 ?? .seconds(9999) })
        }
        #expect(outcome.status == 200)
        #expect(outcome.answeredAfter < .seconds(5), "the authorized request waited \(outcome.answeredAfter)")
        // The head deadline is 10 s: every trickling connection is closed well before 45 s.
        let latest = outcome.closedAfter.max() ?? .zero
        #expect(latest < .seconds(30), "a trickling connection stayed open \(latest)")
    }
}
