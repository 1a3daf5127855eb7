import AIBudsHTTPServer
import AIBudsLog
import AIBudsNet
import AIBudsSync
import Foundation
import Testing

/// The one HTTP server against real sockets: slow and silent peers cannot starve a legitimate
/// request, the waiting pool and its threads stay bounded, the `Host` is checked, and stop ends
/// every connection.
@Suite(.timeLimit(.minutes(2))) struct HTTPServerTests {
    /// A server whose handler answers `200 ok` to a request carrying `secret`, and 401 otherwise.
    private func server(_ configuration: HTTPServerConfiguration, logger: any LogService = NullLogService()) -> HTTPServer {
        HTTPServer(configuration, logger: logger) { connection in
            guard let head = connection.firstRequest() else { return }
            guard head.headers["Authorization"] == "Bearer secret" else { return connection.respond(401, "no") }
            guard connection.admit() else { return connection.respond(503, "busy") }
            connection.respond(200, "ok")
        }
    }

    private func get(_ address: SocketAddress, host: String? = nil, token: String = "secret") throws -> String {
        let connection = try TCPConnection.connect(to: address, timeout: .seconds(5))
        defer { connection.close() }
        let head = "GET / HTTP/1.1\r\nHost: \(host ?? "\(address)")\r\nAuthorization: Bearer \(token)\r\n\r\n"
        try connection.write(Array(head.utf8), timeout: .seconds(5))
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .seconds(5)) }
            if count == 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    // Blocking sockets run on a thread of their own (`runOnOwnThread`), never on one of Swift
    // concurrency's few threads, which every other test of the process shares; the expectations
    // are checked back in the test's task.

    @Test func twoHundredSilentPeersDoNotStarveALegitimateRequest() async throws {
        let (answer, elapsed, closed) = try await runOnOwnThread(name: "aibuds-test-http") { _ in
            let server = server(HTTPServerConfiguration(name: "test", maxConnections: 8))
            let address = try server.start()
            defer { server.stop() }
            // 200 connections that never send a byte (the waiting pool keeps at most 64 of one peer).
            var silent: [TCPConnection] = []
            for _ in 0..<200 { silent.append(try TCPConnection.connect(to: address, timeout: .seconds(5))) }
            defer { silent.forEach { $0.close() } }
            let clock = ContinuousClock()
            let started = clock.now
            let answer = try get(address)
            let elapsed = clock.now - started
            // The oldest silent peers were closed by the server: at most 64 of one peer wait.
            var closed = 0
            for connection in silent {
                var byte = [UInt8](repeating: 0, count: 1)
                if (try? byte.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .milliseconds(20)) }) == 0 { closed += 1 }
            }
            return (answer, elapsed, closed)
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(elapsed < .seconds(2), "served within 2 s beside 200 silent peers")
        #expect(closed >= 200 - 64, "\(closed) closed")
    }

    @Test func aSilentPeerIsAnswered408AtTheHeadDeadline() async throws {
        let answer = try await runOnOwnThread(name: "aibuds-test-http") { _ in
            let server = server(HTTPServerConfiguration(name: "test", headTimeout: .milliseconds(300)))
            let address = try server.start()
            defer { server.stop() }
            let connection = try TCPConnection.connect(to: address, timeout: .seconds(5))
            defer { connection.close() }
            try connection.write(Array("GET / HTTP/1.1\r\n".utf8), timeout: .seconds(1))
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .seconds(5)) }
            return String(decoding: buffer[0..<count], as: UTF8.self)
        }
        #expect(answer.hasPrefix("HTTP/1.1 408"))
    }

    @Test func theHostMustNameTheServer() async throws {
        let answers = try await runOnOwnThread(name: "aibuds-test-http") { _ in
            let server = server(HTTPServerConfiguration(name: "test"))
            let address = try server.start()
            defer { server.stop() }
            return [
                try get(address, host: "evil.example"), try get(address, host: "evil.example:\(address.port)"),
                try get(address, host: "localhost:\(address.port)"), try get(address, token: "wrong"),
            ]
        }
        #expect(answers[0].hasPrefix("HTTP/1.1 421") && answers[1].hasPrefix("HTTP/1.1 421"))
        #expect(answers[2].hasPrefix("HTTP/1.1 200"))
        #expect(answers[3].hasPrefix("HTTP/1.1 401"))
    }

    @Test func aFloodOfRefusalsLogsOneLine() async throws {
        let recorder = RecordingLogService(minimumLevel: .trace)
        try await runOnOwnThread(name: "aibuds-test-http") { _ in
            let server = server(HTTPServerConfiguration(name: "test"), logger: recorder)
            let address = try server.start()
            defer { server.stop() }
            for _ in 0..<100 { _ = try get(address, host: "evil.example") }
        }
        #expect(recorder.records.filter { $0.message.contains("another host") }.count == 1)
    }
}
