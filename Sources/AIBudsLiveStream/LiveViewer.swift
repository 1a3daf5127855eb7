import AIBudsHTTPServer
import AIBudsNet
import AIBudsSync
import AIBudsHTTPWire
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
/// 127.0.0.1 can watch. It is a handler on the project's one HTTP server (`AIBudsHTTPServer`):
/// requests without the token wait in its bounded pool and are answered 403; at most
/// ``maximumConnections`` are served at once (more are answered 503); refusals are logged at most
/// once in 10 s.
public final class LiveViewer: Sendable {
    /// The page's URL with its token (`http://127.0.0.1:PORT/?token=...`).
    public let url: URL
    /// The secret every request must carry.
    public let token: String
    /// The most connections served at once.
    public static let maximumConnections = 64
    private let server: HTTPServer
    private let frames = LatestValue<LiveFrame>()
    private let pictures = LatestValue<[UInt8]>()
    private let state = Locked(State())

    private struct State {
        var watchers = 0
        var served = 0
        var reports: [String] = []
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

    /// Serves `puller`'s frames on `host`:`port` (0: a free port), with a random token; throws a
    /// `NetError` when the address cannot be bound.
    public init(from puller: any LiveStreamSource, host: String = "127.0.0.1", port: UInt16 = 0) throws {
        var random = [UInt8](repeating: 0, count: 24)
        for index in random.indices { random[index] = UInt8.random(in: 0...255) }
        token = Data(random).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let owner = WeakOwner()
        server = HTTPServer(
            HTTPServerConfiguration(address: SocketAddress(host: host, port: port), name: "live-viewer", maxConnections: Self.maximumConnections)
        ) { connection in
            owner.value?.serve(connection)
        }
        let address = try server.start()
        url = URL(string: "http://\(address)/?token=\(token)")!
        owner.value = self
        puller.onFrame { [frames] frame in frames.publish(frame) }
        let encoderThread = Thread { [self] in encodeWhileWatched() }
        encoderThread.name = "aibuds.live.viewer.jpeg"
        encoderThread.start()
    }

    private final class WeakOwner: @unchecked Sendable {
        // Set once, in the initializer; a request before that is answered by no one and closed.
        weak var value: LiveViewer?
    }

    /// What the viewer served so far.
    public var statistics: Statistics {
        state.withLock { Statistics(watchers: $0.watchers, framesServed: $0.served, reports: $0.reports) }
    }

    /// Stops serving; browsers are disconnected.
    public func stop() {
        frames.close()
        pictures.close()
        server.stop()
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

    /// Whether `query` carries the token.
    private func authorized(_ query: String) -> Bool {
        let presented = query.split(separator: "&").first { $0.hasPrefix("token=") }.map { String($0.dropFirst(6)) } ?? ""
        return HTTPAuthorization.matches(presented, token: token)
    }

    private func serve(_ served: HTTPServerConnection) {
        guard let request = served.firstRequest() else { return }
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        guard authorized(query) else {
            served.server.refusals.log(.info, "live-viewer", "refused a request without the token from \(served.peer)")
            served.respond(403, "forbidden: this viewer needs its token")
            return
        }
        guard served.admit() else {
            served.respond(503, "busy: every connection is taken")
            return
        }
        switch (request.method, path) {
        case ("GET", "/"), ("GET", "/index.html"):
            let page = Self.page.replacingOccurrences(of: "TOKEN", with: token)
            served.respond(200, type: "text/html; charset=utf-8", Array(page.utf8))
        case ("GET", "/stream.mjpeg"):
            stream(to: served)
        case ("GET", "/frame.jpg"):
            state.withLock { $0.watchers += 1 }
            let picture = pictures.next(after: 0, timeout: 5)
            state.withLock { $0.watchers -= 1 }
            if let (_, bytes) = picture {
                served.respond(200, type: "image/jpeg", bytes)
            } else {
                served.respond(503, type: "text/plain", Array("no frame yet\n".utf8))
            }
        case ("GET", "/report"):
            let report = query.split(separator: "&").filter { !$0.hasPrefix("token=") }.joined(separator: "&")
            state.withLock { $0.reports.append(String(report.prefix(200))) }
            served.respond(204, type: "text/plain", [])
        case ("GET", "/status"):
            let stats = statistics
            let json = "{\"watchers\":\(stats.watchers),\"frames_served\":\(stats.framesServed)}"
            served.respond(200, type: "application/json", Array(json.utf8))
        default:
            served.respond(404, type: "text/plain", Array("not found\n".utf8))
        }
    }

    private func stream(to served: HTTPServerConnection) {
        let connection = served.connection
        state.withLock { $0.watchers += 1 }
        defer { state.withLock { $0.watchers -= 1 } }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n"
            + "Cache-Control: no-cache, no-store\r\nConnection: close\r\n\r\n"
        guard (try? connection.write(Array(head.utf8), timeout: .seconds(5))) != nil else { return }
        var last: UInt64 = 0
        while !pictures.isClosed {
            guard let (number, picture) = pictures.next(after: last) else {
                if served.peerHasGone() { return }
                continue
            }
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
