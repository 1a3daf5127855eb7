import AIBudsNet
import AIBudsSync
import AIBudsWire
import Foundation

/// The player: a local web page that shows a pulled stream in any browser with low latency.
/// `GET /` is the page, `GET /stream.mjpeg` the frames as multipart JPEG (encoded from the newest
/// decoded frame only while a browser watches, so a slow browser skips frames instead of falling
/// behind), `GET /frame.jpg` the newest frame, `GET /status` counters as JSON. The page reports
/// the picture's size back (`GET /report?width=W&height=H`) once it shows a frame.
/// Multipart JPEG needs no script, no codec in the browser and no buffering, which is why it beats
/// fMP4/MSE here: a browser's video element buffers about a second before it plays.
///
/// The camera is private: every request needs the viewer's random ``token`` (`?token=`, which
/// ``url`` carries and the page passes on) and a `Host` header naming this viewer by a loopback name
/// or its own address, so neither another local user nor a web page that rebinds a host name to
/// 127.0.0.1 can watch. Refusals are answered 403 and never logged; at most
/// ``maximumConnections`` requests are served at once (more are answered 503 at once, with no
/// thread of their own).
public final class LiveViewer: Sendable {
    /// The page's URL with its token (`http://127.0.0.1:PORT/?token=...`).
    public let url: URL
    /// The secret every request must carry.
    public let token: String
    /// The most connections served at once.
    public static let maximumConnections = 64
    private let listener: TCPListener
    private let allowedHosts: Set<String>
    private let frames = LatestValue<LiveFrame>()
    private let pictures = LatestValue<[UInt8]>()
    private let state = Locked(State())

    private struct State {
        var watchers = 0
        var served = 0
        var reports: [String] = []
        var connections: [ObjectIdentifier: TCPConnection] = [:]
    }

    /// Counters of the viewer.
    public struct Statistics: Sendable, Equatable {
        /// Browsers watching now.
        public var watchers: Int
        /// JPEG frames written to browsers.
        public var framesServed: Int
        /// What pages reported (`width=640&height=360`), oldest first.
        public var reports: [String]
    }

    /// Serves `puller`'s frames on `host`:`port` (0: a free port), with a random token.
    public init(from puller: LiveStreamPuller, host: String = "127.0.0.1", port: UInt16 = 0) throws {
        listener = try TCPListener(binding: SocketAddress(host: host, port: port))
        var random = [UInt8](repeating: 0, count: 24)
        for index in random.indices { random[index] = UInt8.random(in: 0...255) }
        token = Data(random).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let bound = listener.localAddress.port
        allowedHosts = Set(["127.0.0.1", "localhost", "[::1]", host].map { "\($0):\(bound)" })
        url = URL(string: "http://\(listener.localAddress)/?token=\(token)")!
        puller.onFrame { [frames] frame in frames.publish(frame) }
        let encoderThread = Thread { [self] in encodeWhileWatched() }
        encoderThread.name = "aibuds.live.viewer.jpeg"
        encoderThread.start()
        let acceptThread = Thread { [self] in
            while let connection = try? listener.accept(timeout: nil) {
                guard state.withLock({ $0.connections.count < Self.maximumConnections }) else {
                    HTTPServing.respond(connection, 503, type: "text/plain", Array("busy\n".utf8))
                    connection.close()
                    continue
                }
                state.withLock { $0.connections[ObjectIdentifier(connection)] = connection }
                let thread = Thread { [self] in serve(connection) }
                thread.name = "aibuds.live.viewer.client"
                thread.start()
            }
        }
        acceptThread.name = "aibuds.live.viewer"
        acceptThread.start()
    }

    /// What the viewer served so far.
    public var statistics: Statistics {
        state.withLock { Statistics(watchers: $0.watchers, framesServed: $0.served, reports: $0.reports) }
    }

    /// Stops serving; browsers are disconnected.
    public func stop() {
        listener.close()
        frames.close()
        pictures.close()
        for connection in state.withLock({ Array($0.connections.values) }) { connection.shutdown() }
    }

    private func encodeWhileWatched() {
        let encoder = LiveJPEGEncoder()
        var last: UInt64 = 0
        while !frames.isClosed {
            guard let (number, frame) = frames.next(after: last) else { continue }
            last = number
            guard state.withLock({ $0.watchers > 0 }), let picture = try? encoder.encode(frame) else { continue }
            pictures.publish(picture)
        }
    }

    /// Whether `request` names this viewer in its `Host` and carries the token in its query.
    private func admits(_ request: HTTPRequestHead, query: String) -> Bool {
        guard let host = request.headers["Host"], allowedHosts.contains(host.lowercased()) else { return false }
        let presented = query.split(separator: "&").first { $0.hasPrefix("token=") }.map { String($0.dropFirst(6)) } ?? ""
        return HTTPAuthorization.matches(presented, token: token)
    }

    private func serve(_ connection: TCPConnection) {
        let key = ObjectIdentifier(connection)
        defer {
            state.withLock { $0.connections[key] = nil }
            connection.close()
        }
        guard let request = try? HTTPServing.readRequest(connection) else { return }
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        guard admits(request, query: query) else {
            HTTPServing.respond(connection, 403, type: "text/plain", Array("forbidden: this viewer needs its token and a loopback Host\n".utf8))
            return
        }
        switch (request.method, path) {
        case ("GET", "/"), ("GET", "/index.html"):
            let page = Self.page.replacingOccurrences(of: "TOKEN", with: token)
            HTTPServing.respond(connection, 200, type: "text/html; charset=utf-8", Array(page.utf8))
        case ("GET", "/stream.mjpeg"):
            stream(to: connection)
        case ("GET", "/frame.jpg"):
            state.withLock { $0.watchers += 1 }
            let picture = pictures.next(after: 0, timeout: 5)
            state.withLock { $0.watchers -= 1 }
            if let (_, bytes) = picture {
                HTTPServing.respond(connection, 200, type: "image/jpeg", bytes)
            } else {
                HTTPServing.respond(connection, 503, type: "text/plain", Array("no frame yet\n".utf8))
            }
        case ("GET", "/report"):
            let report = query.split(separator: "&").filter { !$0.hasPrefix("token=") }.joined(separator: "&")
            state.withLock { $0.reports.append(String(report.prefix(200))) }
            HTTPServing.respond(connection, 204, type: "text/plain", [])
        case ("GET", "/status"):
            let stats = statistics
            let json = "{\"watchers\":\(stats.watchers),\"frames_served\":\(stats.framesServed)}"
            HTTPServing.respond(connection, 200, type: "application/json", Array(json.utf8))
        default:
            HTTPServing.respond(connection, 404, type: "text/plain", Array("not found\n".utf8))
        }
    }

    private func stream(to connection: TCPConnection) {
        state.withLock { $0.watchers += 1 }
        defer { state.withLock { $0.watchers -= 1 } }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n"
            + "Cache-Control: no-cache, no-store\r\nConnection: close\r\n\r\n"
        guard (try? connection.write(Array(head.utf8), timeout: .seconds(5))) != nil else { return }
        var last: UInt64 = 0
        while !pictures.isClosed {
            guard let (number, picture) = pictures.next(after: last) else { continue }
            last = number
            let part = "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: \(picture.count)\r\n\r\n"
            do {
                try connection.write(Array(part.utf8), timeout: .seconds(5), moreComing: true)
                try connection.write(picture + [13, 10], timeout: .seconds(5))
            } catch {
                return
            }
            state.withLock { $0.served += 1 }
        }
    }

    private static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>AIBuds live</title>
        <style>body{margin:0;background:#111;color:#ccc;font:14px sans-serif}img{display:block;max-width:100vw;max-height:95vh;margin:auto}</style>
        </head><body>
        <img id="live" src="/stream.mjpeg?token=TOKEN" alt="live stream">
        <p id="info">connecting…</p>
        <script>
        const image = document.getElementById('live');
        let reported = false;
        function report() {
          if (reported || image.naturalWidth === 0) return;
          reported = true;
          document.getElementById('info').textContent = image.naturalWidth + '×' + image.naturalHeight;
          fetch('/report?token=TOKEN&width=' + image.naturalWidth + '&height=' + image.naturalHeight);
        }
        image.addEventListener('load', report);
        setInterval(report, 100);
        </script>
        </body></html>
        """
}

/// The few HTTP/1.1 server steps the viewer needs, on AIBudsNet's blocking sockets.
enum HTTPServing {
    /// Reads one request head (at most 16 KiB, 10 s).
    static func readRequest(_ connection: TCPConnection) throws -> HTTPRequestHead? {
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 16_384 {
            let count = try buffer.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .seconds(10)) }
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            if let length = try bytes.withUnsafeBytes({ try HTTPHeadParser.headLength(in: $0) }) {
                return try bytes.withUnsafeBytes { try HTTPRequestHead(parsing: UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
            }
        }
        return nil
    }

    /// Writes a whole response and nothing more (the connection closes after it).
    static func respond(_ connection: TCPConnection, _ status: Int, type: String, _ body: [UInt8]) {
        let head = "HTTP/1.1 \(status) \(HTTPResponseHead.standardReason(status))\r\nContent-Type: \(type)\r\n"
            + "Content-Length: \(body.count)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
        try? connection.write(Array(head.utf8) + body, timeout: .seconds(5))
    }
}
