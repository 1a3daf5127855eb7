import AIBudsHTTPServer
import AIBudsNet
import AIBudsSync
import Foundation

/// The camera's JPEG stream: `GET /live.mjpeg` answers one `multipart/x-mixed-replace` response
/// whose parts are the frames (`Content-Type: image/jpeg`, `Content-Length`, and the frame's
/// stamp as `X-Capture-Timestamp` in microseconds since 1970 and `X-Frame-Number`). A viewer
/// that falls behind gets the newest frame next (skipped frames are counted), as a camera's
/// MJPEG stream does. A handler on the project's one HTTP server (`AIBudsHTTPServer`), a thread
/// per viewer; viewers reach the device by its address on the hotspot, so the `Host` is not checked.
final class MJPEGStreamServer: @unchecked Sendable {
    static let boundary = "aibudsframe"
    private let host: String
    // Set in `start`/`resume`, cleared in `suspend`/`stop`, under the camera's lock.
    private var server: HTTPServer?
    private var port: UInt16 = 0
    private let frames = LatestValue<EncodedFrame>()

    init(host: String) { self.host = host }

    /// Listens on a free port; returns the stream's URL.
    func start() throws -> String {
        let address = try serve(port: 0)
        port = address.port
        return "http://\(address)/live.mjpeg"
    }

    /// Disconnects every viewer and stops listening (the hotspot went away).
    func suspend() {
        server?.stop()
        server = nil
    }

    /// Listens again on the same port after ``suspend()``.
    func resume() throws {
        _ = try serve(port: port)
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

    private func serve(port: UInt16) throws -> SocketAddress {
        let server = HTTPServer(HTTPServerConfiguration(
            address: SocketAddress(host: host, port: port), name: "camera-mjpeg", requiresOwnHost: false)
        ) { [weak self] connection in
            self?.view(connection)
        }
        let address = try server.start()
        self.server = server
        return address
    }

    private func view(_ served: HTTPServerConnection) {
        let connection = served.connection
        guard let request = served.firstRequest() else { return }
        guard request.method == "GET", request.target.split(separator: "?").first == "/live.mjpeg" else {
            served.respond(404, "not found")
            return
        }
        guard served.admit() else {
            served.respond(503, "busy: every viewer slot is taken")
            return
        }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=\(Self.boundary)\r\n"
            + "Cache-Control: no-cache, no-store\r\nConnection: close\r\n\r\n"
        do {
            try connection.write(Array(head.utf8), timeout: .seconds(5))
            var last: UInt64 = 0
            while !served.server.isStopping {
                guard let (sequence, frame) = frames.next(after: last, timeout: 1) else {
                    if frames.isClosed || served.peerHasGone() { return }
                    continue
                }
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
}
