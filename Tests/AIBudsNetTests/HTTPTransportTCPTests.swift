import AIBudsNet
import Foundation
import Testing

@Suite("TCP sockets: listen, connect, timeouts, shutdown, sendfile")
struct HTTPTransportTCPTests {
    @Test func addressesParse() throws {
        #expect(try SocketAddress(parsing: "127.0.0.1:80") == SocketAddress(host: "127.0.0.1", port: 80))
        #expect(try SocketAddress(parsing: "[::1]:8080") == SocketAddress(host: "::1", port: 8080))
        #expect(SocketAddress(host: "::1", port: 1).description == "[::1]:1")
        for bad in ["127.0.0.1", "127.0.0.1:", "127.0.0.1:70000", "localhost:80", "[::1]80", "1.2.3.4:-1", "::1:80"] {
            #expect { try SocketAddress(parsing: bad) } throws: { ($0 as? NetError)?.code == .invalidAddress }
        }
    }

    @Test func listenerReportsItsPortAndConnectionsCarryBytes() throws {
        let listener = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        #expect(listener.localAddress.port != 0)
        let client = try TCPConnection.connect(to: listener.localAddress, timeout: .seconds(2))
        defer { client.close() }
        let server = try #require(try listener.accept(timeout: .seconds(2)))
        defer { server.close() }
        #expect(server.remoteAddress == client.localAddress)
        try client.write(Array("hello".utf8), timeout: .seconds(1))
        client.shutdown(.write)
        #expect(try readAll(server) == Array("hello".utf8))
    }

    @Test func acceptAndReadTimeOut() throws {
        let listener = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        #expect(try listener.accept(timeout: .milliseconds(20)) == nil)
        let client = try TCPConnection.connect(to: listener.localAddress, timeout: .seconds(2))
        defer { client.close() }
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect {
            try buffer.withUnsafeMutableBytes { try client.read(into: $0, timeout: .milliseconds(30)) }
        } throws: { ($0 as? NetError)?.code == .timedOut }
    }

    @Test func connectToAClosedPortFails() throws {
        let listener = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
        let address = listener.localAddress
        listener.close()
        #expect { try TCPConnection.connect(to: address, timeout: .seconds(1)) } throws: { ($0 as? NetError)?.code == .connectFailed }
    }

    @Test func shutdownWakesABlockedReadAndAccept() throws {
        let listener = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        let client = try TCPConnection.connect(to: listener.localAddress, timeout: .seconds(2))
        defer { client.close() }
        let server = try #require(try listener.accept(timeout: .seconds(2)))
        defer { server.close() }
        let start = ContinuousClock.now
        Thread.detachNewThread {
            usleep(50_000)
            client.shutdown()
            listener.shutdown()
        }
        var buffer = [UInt8](repeating: 0, count: 4)
        let count = try buffer.withUnsafeMutableBytes { try client.read(into: $0, timeout: .seconds(5)) }
        #expect(count == 0)
        #expect { try listener.accept(timeout: .seconds(5)) } throws: { ($0 as? NetError)?.code == .closed }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func sendFileSendsARangeOfAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-sendfile-\(UUID().uuidString)").path
        let content = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        defer { unlink(path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let listener = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
        defer { listener.close() }
        let client = try TCPConnection.connect(to: listener.localAddress, timeout: .seconds(2))
        defer { client.close() }
        let server = try #require(try listener.accept(timeout: .seconds(2)))
        #expect(try server.sendFile(fd, offset: 1000, count: 50_000, timeout: .seconds(2)) == 50_000)
        #expect(try server.sendFile(fd, offset: 99_990, count: 100, timeout: .seconds(2)) == 10)
        server.close()
        #expect(try readAll(client) == Array(content[1000..<51_000]) + Array(content[99_990...]))
    }

    private func readAll(_ connection: TCPConnection) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .seconds(2)) }
            if count == 0 { return received }
            received += buffer[0..<count]
        }
    }
}
