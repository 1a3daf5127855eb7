import AIBudsNet
import Foundation

/// A response as a plain HTTP/1.1 client saw it.
struct PlainResponse {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
}

/// A blocking HTTP/1.1 client over the project's TCP sockets: one request per connection. Call it
/// off Swift concurrency's threads (``onOwnThread``).
enum PlainHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func request(
        _ method: String, _ address: SocketAddress, _ target: String, headers: [String: String] = [:], body: Data? = nil,
        timeout: Duration = .seconds(60)
    ) throws -> PlainResponse {
        let connection = try TCPConnection.connect(to: address, timeout: timeout)
        defer { connection.close() }
        var head = "\(method) \(target) HTTP/1.1\r\n" + (headers["Host"] == nil ? "Host: \(address)\r\n" : "") + "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\nContent-Type: application/json\r\n" }
        head += "\r\n"
        try connection.write(Array(head.utf8) + Array(body ?? Data()), timeout: timeout)
        var received: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        // To the end of the body its Content-Length gives (a server may keep the connection), else to EOF.
        while true {
            if let end = findHeadEnd(received), let length = contentLength(received[0..<end]), received.count >= end + 4 + length {
                received.removeLast(received.count - (end + 4 + length))
                break
            }
            let count = try connection.read(into: buffer, timeout: timeout)
            if count == 0 { break }
            received += buffer[0..<count]
        }
        return try parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> PlainResponse {
        guard let end = findHeadEnd(bytes) else { throw Failure(description: "no complete response head") }
        let head = String(decoding: bytes[0..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = try dechunk(body) }
        return PlainResponse(status: status, headers: headers, body: Data(body))
    }

    static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
        for line in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    static func findHeadEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw Failure(description: "bad chunk") }
            if size == 0 { break }
            output += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return output
    }
}
