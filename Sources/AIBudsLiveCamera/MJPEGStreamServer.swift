import AIBudsNet
import AIBudsSync
import AIBudsWire
import Foundation

/// The camera's JPEG stream: `GET /live.mjpeg` answers one `multipart/x-mixed-replace` response
/// whose parts are the frames (`Content-Type: image/jpeg`, `Content-Length`, and the frame's
/// stamp as `X-Capture-Timestamp` in microseconds since 1970 and `X-Frame-Number`). A viewer
/// that falls behind gets the newest frame next (skipped frames are counted), as a camera's
/// MJPEG stream does. A thread per viewer on AIBudsNet's blocking sockets.
final class MJPEGStreamServer: @unchecked Sendable {
    static let boundary = "aibudsframe"
    private let host: String
    // Set in `start`/`resume`, cleared in `suspend`/`stop`, under the camera's lock.
    private var listener: TCPListener?
    private var port: UInt16 = 0
    private let frames = LatestValue<EncodedFrame>()
    private let viewers = Locked<[ObjectIdentifier: TCPConnection]>([:])

    init(host: String) { self.host = host }

    /// Listens on a free port; returns the stream's URL.
    func start() throws -> String {
        let listener = try TCPListener(binding: SocketAddress(host: host, port: 0))
        port = listener.localAddress.port
        serve(listener)
        return "http://\(listener.localAddress)/live.mjpeg"
    }

    /// Disconnects every viewer and stops listening (the hotspot went away).
    func suspend() {
        listener?.close()
        listener = nil
        for connection in viewers.withLock({ Array($0.values) }) { connection.shutdown() }
    }

    /// Listens again on the same port after ``suspend()``.
    func resume() throws {
        serve(try TCPListener(binding: SocketAddress(host: host, port: port)))
    }

    /// Stops serving; every viewer is disconnected.
    func stop() {
        suspend()
        frames.close()
    }

    /// Offers a frame to every viewer.
    func publish(_ frame: EncodedFrame) { frames.publish(frame) }

    /// Frames viewers skipped because they were behind.
    var skippedFrames: Int { frames.skipped }

    private func serve(_ listener: TCPListener) {
        self.listener = listener
        let thread = Thread { [self] in
            while let connection = try? listener.accept(timeout: nil) {
                let viewer = Thread { [self] in self.view(connection) }
                viewer.name = "aibuds.live.mjpeg.viewer"
                viewer.start()
            }
        }
        thread.name = "aibuds.live.mjpeg"
        thread.start()
    }

    private func view(_ connection: TCPConnection) {
        let key = ObjectIdentifier(connection)
        viewers.withLock { $0[key] = connection }
        defer {
            viewers.withLock { $0[key] = nil }
            connection.close()
        }
        guard let request = try? Self.readRequest(connection) else { return }
        guard request.method == "GET", request.target.split(separator: "?").first == "/live.mjpeg" else {
            try? connection.write(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8),
                                  timeout: .seconds(5))
            return
        }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=\(Self.boundary)\r\n"
            + "Cache-Control: no-cache, no-store\r\nConnection: close\r\n\r\n"
        do {
            try connection.write(Array(head.utf8), timeout: .seconds(5))
            var last: UInt64 = 0
            while let (sequence, frame) = frames.next(after: last, timeout: nil) {
                last = sequence
                let part = "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(frame.bytes.count)\r\n"
                    + "X-Capture-Timestamp: \(frame.stamp.captureMicroseconds)\r\nX-Frame-Number: \(frame.stamp.frameNumber)\r\n\r\n"
                try connection.write(Array(part.utf8), timeout: .seconds(5), moreComing: true)
                try connection.write(frame.bytes + [13, 10], timeout: .seconds(5))
            }
        } catch {
            return
        }
    }

    private static func readRequest(_ connection: TCPConnection) throws -> HTTPRequestHead? {
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 16_384 {
            let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .seconds(10)) }
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            let length = try bytes.withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) }
            if let length { return try bytes.withUnsafeBytes { try HTTPRequestHead(parsing: UnsafeRawBufferPointer(rebasing: $0[0..<length])) } }
        }
        return nil
    }
}
