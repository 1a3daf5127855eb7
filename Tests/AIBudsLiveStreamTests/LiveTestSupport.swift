import AIBudsEmulator
import AIBudsLiveCamera
import AIBudsLiveStream
import AIBudsNet
import AIBudsSync
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An in-process glasses emulator with the live camera, on a free loopback port.
struct LiveEmulator {
    let emulator: Emulator
    let camera: LiveCamera

    init(link: LinkProfile = .unlimited, clip: LiveCameraClip? = nil) throws {
        var configuration = EmulatorConfiguration()
        configuration.profile = .glasses
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.mediaSeeds = []
        configuration.link = link
        configuration.announce = false
        camera = LiveCamera(host: "127.0.0.1", link: link, clip: clip)
        emulator = try Emulator(configuration: configuration, liveStream: camera)
        _ = try emulator.start()
    }

    var device: EmulatedDevice { emulator.device }

    /// Starts a stream the way Live `start` does; returns its URL.
    func start(_ format: String, width: UInt64 = 320, height: UInt64 = 240, fps: UInt64 = 30) throws -> URL {
        let state = try device.startLiveStream(LiveStartRequest(format: format, width: width, height: height, fps: fps))
        return URL(string: state.url!)!
    }

    func stop() { emulator.stop() }
}

/// Collects a puller's frames and events for assertions.
final class FrameLog: Sendable {
    private let state = Locked(State())

    struct State {
        var frames: [LiveFrame] = []
        var events: [String] = []
        var ended: LiveStreamError??
    }

    init(_ puller: LiveStreamPuller, keepPixels: Bool = false) {
        puller.onFrame { [state] frame in
            var kept = frame
            if !keepPixels {
                // Keep what the tests read: the stamps (burned in: read now), not the planes.
                kept = LiveFrame(width: frame.width, height: frame.height, luma: [], cb: [], cr: [], stamp: frame.stamp,
                                 decodedMicroseconds: frame.decodedMicroseconds, sequence: frame.sequence)
                let burned = frame.burnedInStamp
                state.withLock {
                    $0.frames.append(kept)
                    $0.events.append("burned \(burned.map { "\($0.frameNumber)" } ?? "none") sei \(frame.stamp.map { "\($0.frameNumber)" } ?? "none")")
                }
                return
            }
            state.withLock { $0.frames.append(kept) }
        }
        puller.onEvent { [state] event in
            state.withLock { state in
                switch event {
                case .connected: state.events.append("connected")
                case .disconnected(let error): state.events.append("disconnected \(error.kind)")
                case .ended(let error): state.ended = .some(error)
                }
            }
        }
    }

    var frames: [LiveFrame] { state.withLock { $0.frames } }
    var events: [String] { state.withLock { $0.events } }
    var connections: Int { state.withLock { $0.events.filter { $0 == "connected" }.count } }
    var ended: LiveStreamError?? { state.withLock { $0.ended } }
}

/// A free TCP port on the loopback (bound, then released for a server that binds it itself).
func freeLoopbackPort() throws -> UInt16 {
    let listener = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
    defer { listener.close() }
    return listener.localAddress.port
}

/// nginx with Debian's RTMP module on a loopback port, recording every published stream to a
/// folder (`record all`, one file per publish), started by the test, in the foreground of its own
/// process so that stopping it is a signal.
final class RTMPServer: @unchecked Sendable {
    let folder: URL
    let port: UInt16
    // Replaced by `restart`, read by the test's task only.
    private var program: RunningProgram?
    /// Where this start's lines begin in nginx's log.
    private var logStart = 0

    static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"

    init() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx"),
            FileManager.default.fileExists(atPath: Self.module)
        else {
            throw LiveTestFailure("nginx with the RTMP module is not installed (scripts/install-deps.sh installs nginx-light and libnginx-mod-rtmp)")
        }
        folder = try makeTemporaryDirectory("rtmp")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("rec"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        let configuration = """
            load_module \(Self.module);
            daemon off;
            master_process off;
            user root;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/logs/error.log info;
            events { worker_connections 64; }
            rtmp {
                server {
                    listen 127.0.0.1:\(port);
                    application live {
                        live on;
                        record all;
                        record_path \(folder.path)/rec;
                        record_unique on;
                    }
                }
            }
            """
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        try await start()
    }

    var url: URL { URL(string: "rtmp://127.0.0.1:\(port)/live/cam")! }

    func start() async throws {
        logStart = (try? Data(contentsOf: logURL).count) ?? 0
        let program = try RunningProgram(
            URL(fileURLWithPath: "/usr/sbin/nginx"), ["-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path])
        self.program = program
        let port = self.port
        try await eventually("nginx to listen on 127.0.0.1:\(port)", timeout: .seconds(30)) {
            guard program.isRunning else {
                let log = (try? String(contentsOf: self.folder.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
                throw LiveTestFailure("nginx exited: \(log.suffix(500))")
            }
            return (try? TCPConnection.connect(to: SocketAddress(host: "127.0.0.1", port: port), timeout: .seconds(1)))
                .map { $0.close(); return true } ?? false
        }
    }

    private var logURL: URL { folder.appendingPathComponent("logs/error.log") }

    /// Stops nginx (SIGKILL: nginx without a master process takes SIGTERM as "finish the
    /// connections first", which a live publisher never does) and waits for it to exit. nginx
    /// writes its recordings frame by frame; unless `publishing`, it is first given up to 10 s to
    /// log every client of this start disconnected, which it does once it has read (and recorded)
    /// the connection to its end: a loaded machine may leave frames in the socket after the
    /// pusher has sent them all.
    func stop(publishing: Bool = false) async {
        guard let program else { return }
        if !publishing {
            let logURL = self.logURL, logStart = self.logStart
            do {
                try await eventually("nginx to log every client of this start gone", timeout: .seconds(10)) {
                    let log = String(decoding: ((try? Data(contentsOf: logURL)) ?? Data()).dropFirst(logStart), as: UTF8.self)
                    let lines = log.split(separator: "\n")
                    return lines.filter { $0.contains("client connected") }.count == lines.filter { $0.contains(" disconnect, client") }.count
                }
            } catch {
                Issue.record("stopping nginx with a client still connected (its recording may be short): \(error)")
            }
        }
        kill(program.pid, SIGKILL)
        _ = try? await onOwnThread { program.finish() }
        self.program = nil
    }

    /// The recordings nginx wrote, oldest first.
    func recordings() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder.appendingPathComponent("rec"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "flv" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

/// A test precondition that failed (a tool missing, a server that would not start).
struct LiveTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

