import AIBudsSync
import CGStreamer
import Foundation

/// The camera's RTSP server: GStreamer's gst-rtsp-server (Debian's libgstrtspserver-1.0) on its
/// own GLib main loop thread, serving `rtsp://HOST:PORT/live` over RTP on TCP (interleaved) and
/// UDP. Its one shared media is `appsrc ! h264parse ! rtph264pay`: the camera pushes H.264
/// access units into the appsrc while a viewer watches, and asks the encoder for a key frame
/// whenever a new media starts, so a viewer's first picture comes at once.
final class RTSPStreamServer: @unchecked Sendable {
    // The GLib objects are created in `start` and released in `stop`, both called by the camera
    // under its own lock; GStreamer's objects are thread-safe.
    private var context: OpaquePointer?
    private var loop: OpaquePointer?
    private var server: UnsafeMutablePointer<GstRTSPServer>?
    private var thread: Thread?
    private let loopEnded = DispatchSemaphore(value: 0)
    private let state = Locked(State())

    private struct State {
        var source: ElementPointer?
        var wantsKeyFrame = false
        var sourceID: guint = 0
        var clientsSeen = 0
    }

    /// A GStreamer element reference held across threads (the element is thread-safe).
    private struct ElementPointer: @unchecked Sendable {
        let element: UnsafeMutablePointer<GstElement>
    }

    private static let launch = "( appsrc name=src is-live=true format=time do-timestamp=true "
        + "caps=video/x-h264,stream-format=byte-stream,alignment=au ! h264parse config-interval=-1 ! "
        + "rtph264pay name=pay0 pt=96 config-interval=-1 )"

    private static let initialized: Bool = {
        cgst_init()
        return true
    }()

    /// Starts serving on `host` (a free port); returns the stream's URL.
    func start(host: String) throws -> String {
        _ = Self.initialized
        let context = g_main_context_new()
        let loop = g_main_loop_new(context, 0)
        guard let server = gst_rtsp_server_new(), let factory = gst_rtsp_media_factory_new() else {
            throw LiveCameraError("GStreamer cannot create an RTSP server")
        }
        gst_rtsp_server_set_address(server, host)
        gst_rtsp_server_set_service(server, "0")
        gst_rtsp_media_factory_set_launch(factory, Self.launch)
        gst_rtsp_media_factory_set_shared(factory, 1)
        // GStreamer may signal "unprepared" after `stop` (a media is finalized on its own
        // threads), so the signals hold a reference of their own: one small object per stream
        // is kept for the rest of the process.
        let me = Unmanaged.passRetained(self).toOpaque()
        _ = cgst_on_media_configure(factory, { _, media, data in
            guard let media, let data else { return }
            Unmanaged<RTSPStreamServer>.fromOpaque(data).takeUnretainedValue().configured(media)
        }, me)
        let mounts = gst_rtsp_server_get_mount_points(server)
        gst_rtsp_mount_points_add_factory(mounts, "/live", factory)
        g_object_unref(mounts)
        let id = gst_rtsp_server_attach(server, context)
        guard id != 0 else {
            g_object_unref(server)
            throw LiveCameraError("the RTSP server cannot listen on \(host)")
        }
        let port = gst_rtsp_server_get_bound_port(server)
        gst_rtsp_server_set_service(server, String(port))
        state.withLock { $0.sourceID = id }
        self.context = context
        self.loop = loop
        self.server = server
        let ended = loopEnded
        let glib = GLibLoop(context: context, loop: loop)
        let thread = Thread {
            g_main_context_push_thread_default(glib.context)
            g_main_loop_run(glib.loop)
            g_main_context_pop_thread_default(glib.context)
            ended.signal()
        }
        thread.name = "aibuds.live.rtsp"
        thread.start()
        self.thread = thread
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "rtsp://\(shownHost):\(port)/live"
    }

    /// Disconnects every viewer and stops listening (the hotspot went away); ``resume()`` listens
    /// again on the same port.
    func suspend() {
        guard let server, let context else { return }
        let id = state.withLock { state in
            defer { state.sourceID = 0 }
            return state.sourceID
        }
        if id != 0 { cgst_destroy_source(context, id) }
        cgst_remove_all_clients(server)
    }

    /// Listens again after ``suspend()``.
    func resume() {
        guard let server, let context else { return }
        let id = gst_rtsp_server_attach(server, context)
        state.withLock { $0.sourceID = id }
    }

    /// Stops the server: viewers are disconnected, the port is released, the loop thread ends.
    func stop() {
        guard let server, let loop, let context else { return }
        suspend()
        g_main_loop_quit(loop)
        loopEnded.wait()
        let source = state.withLock { state in
            defer { state.source = nil }
            return state.source
        }
        if let source { gst_object_unref(source.element) }
        g_object_unref(server)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
        self.server = nil
        self.loop = nil
        self.context = nil
        thread = nil
    }

    /// Whether a viewer's media asked for a key frame since the last call.
    func takeKeyFrameRequest() -> Bool {
        state.withLock { state in
            defer { state.wantsKeyFrame = false }
            return state.wantsKeyFrame
        }
    }

    /// How many media (viewer sessions of the shared stream) have started.
    var mediaStarted: Int { state.withLock { $0.clientsSeen } }

    /// Pushes one access unit to the viewers, if any; false when none watches.
    @discardableResult
    func push(_ accessUnit: [UInt8]) -> Bool {
        state.withLock { state in
            guard let source = state.source else { return false }
            let result = accessUnit.withUnsafeBytes { cgst_push_bytes(source.element, $0.baseAddress, gsize($0.count)) }
            return result == GST_FLOW_OK.rawValue
        }
    }

    private func configured(_ media: UnsafeMutablePointer<GstRTSPMedia>) {
        guard let element = cgst_media_element_named(media, "src") else { return }
        let old = state.withLock { state in
            defer {
                state.source = ElementPointer(element: element)
                state.wantsKeyFrame = true
                state.clientsSeen += 1
            }
            return state.source
        }
        if let old { gst_object_unref(old.element) }
        _ = cgst_on_media_unprepared(media, { _, data in
            guard let data else { return }
            Unmanaged<RTSPStreamServer>.fromOpaque(data).takeUnretainedValue().unprepared()
        }, Unmanaged.passUnretained(self).toOpaque())  // kept alive by the reference taken in `start`
    }

    private func unprepared() {
        let old = state.withLock { state in
            defer { state.source = nil }
            return state.source
        }
        if let old { gst_object_unref(old.element) }
    }
}

/// A GLib main context and its loop, handed to the thread that runs the loop.
private struct GLibLoop: @unchecked Sendable {
    let context: OpaquePointer?
    let loop: OpaquePointer?
}

/// A failure of the emulated camera (a library that cannot start, a port that cannot be bound).
public struct LiveCameraError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public var description: String

    init(_ description: String) { self.description = description }
}
