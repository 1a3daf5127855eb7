import AIBudsNet
import AIBudsHTTPWire
import AIBudsWire
import CFFmpeg
import Foundation

/// Reads a multipart JPEG stream (`multipart/x-mixed-replace`) over HTTP/1.1 on AIBudsNet's
/// sockets: one part per frame, each with `Content-Length`, and the camera's stamp from
/// `X-Capture-Timestamp` / `X-Frame-Number` when present. Anything malformed is `invalidData`.
final class MJPEGReader: LivePacketReader {
    private let connection: TCPConnection
    private var buffer = [UInt8]()
    private var start = 0
    private let interrupt: InterruptFlag
    let parameters: LiveCodecParameters
    private var count: Int64 = 0
    private static let maxPart = 16 * 1024 * 1024

    init(url: URL, interrupt: InterruptFlag) throws {
        guard let host = url.host, let port = url.port ?? 80 as Int?, let portNumber = UInt16(exactly: port) else {
            throw LiveStreamError(.invalidURL, "\(url) has no host and port")
        }
        self.interrupt = interrupt
        do {
            connection = try TCPConnection.connect(to: SocketAddress(host: host, port: portNumber), timeout: .seconds(3))
        } catch {
            throw LiveStreamError(.unreachable, "cannot connect to \(host):\(port): \(error)")
        }
        let path = url.path.isEmpty ? "/" : url.path + (url.query.map { "?\($0)" } ?? "")
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: multipart/x-mixed-replace\r\n\r\n"
        guard let parameters = LiveCodecParameters(codec: AV_CODEC_ID_MJPEG, width: 0, height: 0) else {
            throw LiveStreamError(.invalidData, "avcodec_parameters_alloc failed")
        }
        self.parameters = parameters
        do {
            try connection.write(Array(request.utf8), timeout: .seconds(3))
            let head = try readHead()
            let response = try head.withUnsafeBytes { try HTTPResponseHead(parsing: $0) }
            guard response.status == 200 else {
                throw LiveStreamError(.unreachable, "\(url) answered \(response.status)")
            }
            guard let type = response.headers["Content-Type"], type.lowercased().hasPrefix("multipart/"),
                let range = type.range(of: "boundary=")
            else { throw LiveStreamError(.invalidData, "\(url) is not a multipart stream") }
            let name = type[range.upperBound...].split(separator: ";").first.map(String.init) ?? ""
            let trimmed = name.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
            guard !trimmed.isEmpty else { throw LiveStreamError(.invalidData, "\(url) names no boundary") }
            boundaryStorage = Array(("--" + (trimmed.hasPrefix("--") ? String(trimmed.dropFirst(2)) : trimmed)).utf8)
        } catch {
            connection.close()
            throw error
        }
    }

    private var boundaryStorage: [UInt8] = []

    deinit { connection.close() }

    func read() throws -> LivePacket {
        // Skip to the boundary line, then read the part's headers.
        let marker = boundaryStorage
        while true {
            let line = try readLine()
            if line.starts(with: marker) { break }
            guard line.isEmpty || line.count < 1024 else { throw LiveStreamError(.invalidData, "junk between parts") }
        }
        var length: Int?
        var capture: UInt64?
        var number: UInt32?
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { throw LiveStreamError(.invalidData, "bad part header") }
            let name = text[..<colon].lowercased()
            let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length": length = Int(value)
            case "x-capture-timestamp": capture = UInt64(value)
            case "x-frame-number": number = UInt32(value)
            default: break
            }
        }
        guard let length, length > 0, length <= Self.maxPart else {
            throw LiveStreamError(.invalidData, "a part without a valid Content-Length")
        }
        let bytes = try readBytes(length)
        defer { count += 1 }
        return LivePacket(
            bytes: bytes, pts: count, dts: count, timeBase: (1, 1000), isKeyFrame: true,
            stamp: capture.map { LiveFrameStamp(captureMicroseconds: $0, frameNumber: number ?? 0) })
    }

    // MARK: - Buffered reading

    private func fill() throws {
        if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if interrupt.isSet { throw LiveStreamError(.unreachable, "stopped") }
            do {
                let count = try chunk.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .milliseconds(250)) }
                guard count > 0 else { throw LiveStreamError(.unreachable, "the stream ended") }
                buffer += chunk[0..<count]
                return
            } catch let error as NetError where error.code == .timedOut {
                if waitedTooLong() { throw LiveStreamError(.unreachable, "no data for 3 s") }
            } catch let error as NetError {
                throw LiveStreamError(.unreachable, "read: \(error)")
            }
        }
    }

    private var idleSince: ContinuousClock.Instant?

    private func waitedTooLong() -> Bool {
        let now = ContinuousClock.now
        guard let since = idleSince else {
            idleSince = now
            return false
        }
        return now - since > .seconds(3)
    }

    private func readLine() throws -> [UInt8] {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                var line = Array(buffer[start..<newline])
                if line.last == 13 { line.removeLast() }
                start = newline + 1
                idleSince = nil
                return line
            }
            guard buffer.count - start < 8192 else { throw LiveStreamError(.invalidData, "a header line over 8 KiB") }
            try fill()
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count - start < count { try fill() }
        defer { start += count }
        idleSince = nil
        return Array(buffer[start..<(start + count)])
    }

    private func readHead() throws -> [UInt8] {
        while true {
            let length = try buffer[start...].withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) }
            if let length {
                defer { start += length }
                return Array(buffer[start..<(start + length)])
            }
            try fill()
        }
    }
}
