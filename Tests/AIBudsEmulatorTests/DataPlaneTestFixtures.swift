import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import AIBudsHTTPWire
import Foundation

/// A running data plane over files in a fresh temporary folder, for one test.
final class DataPlaneFixture {
    let directory: URL
    let catalog = DictionaryDataPlaneCatalog()
    let server: DataPlaneServer
    let baseURL: String
    let address: SocketAddress
    private var counter = 0

    init(token: String = "tok3n", shaping: DataPlaneShaping = .unlimited) throws {
        directory = try makeTemporaryDirectory("dataplane")
        server = DataPlaneServer(catalog: catalog, token: token, shaping: shaping)
        baseURL = try server.start()
        address = try SocketAddress(parsing: String(baseURL.dropFirst("http://".count)))
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stores `content` on disk and serves it under the device name `name`.
    @discardableResult
    func add(_ name: String, _ content: [UInt8], generation: UInt64 = 1) throws -> DataPlaneFile {
        counter += 1
        let path = directory.appendingPathComponent("file-\(counter)").path
        try writeTestFile(content, to: URL(fileURLWithPath: path))
        let id = "id\(counter)"
        let file = DataPlaneFile(id: id, size: Int64(content.count), etag: DataPlaneFile.etag(id: id, size: Int64(content.count), generation: generation), path: path)
        catalog.set(file, named: name)
        return file
    }

    /// Pseudo-random bytes, the same for the same seed.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] { pseudoRandomBytes(count, seed: seed) }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A plain HTTP/1.1 client over one TCP connection, reading responses by `Content-Length`.
final class RawHTTPClient {
    let connection: TCPConnection
    private var buffer: [UInt8] = []

    init(_ address: SocketAddress) throws {
        connection = try TCPConnection.connect(to: address, timeout: .seconds(2))
    }

    deinit { connection.close() }

    func send(_ text: String) throws {
        try connection.write(Array(text.utf8), timeout: .seconds(2))
    }

    /// A GET (or other method) for a device name with the token, as one request string.
    static func request(_ method: String = "GET", name: String, token: String?, extra: [String] = []) -> String {
        var lines = ["\(method) \(HTTPMediaPath.target(forDeviceName: name)) HTTP/1.1", "Host: test"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        lines += extra
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// Reads one response; `bodyExpected` false for replies to HEAD.
    func readResponse(bodyExpected: Bool = true) throws -> (head: HTTPResponseHead, body: [UInt8]) {
        while true {
            if let length = try buffer.withUnsafeBytes({ try HTTPHeadParser.headLength(in: $0) }) {
                let head = try HTTPResponseHead(parsing: Array(buffer[0..<length]))
                buffer.removeFirst(length)
                let bodyLength = bodyExpected ? Int(try head.headers.contentLength() ?? 0) : 0
                try fill(bodyLength)
                let body = Array(buffer[0..<bodyLength])
                buffer.removeFirst(bodyLength)
                return (head, body)
            }
            guard try readMore() else { throw FixtureError("connection closed before a response head") }
        }
    }

    /// Reads until the peer closes; returns what was left.
    func readToEnd() throws -> [UInt8] {
        while try readMore() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try readMore() else { throw FixtureError("connection closed after \(buffer.count) of \(count) body bytes") }
        }
    }

    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = try chunk.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .seconds(5)) }
        buffer += chunk[0..<count]
        return count > 0
    }
}
