import CFFmpeg
import Foundation

/// The encoding half of a transcode, on a thread of its own: while it encodes and writes frame N,
/// the caller decodes and warps frame N + 1 into another of its few encoder frames. Copied (audio)
/// packets go through the same queue, so the output's interleaving is the input's.
///
/// `@unchecked Sendable`: the queue, the free frames and the outcome are guarded by `condition`;
/// the muxer and each queued frame or packet are used by one thread at a time (the caller until it
/// submits them, this thread after).
final class EncoderThread: @unchecked Sendable {
    private enum Item {
        case video(UnsafeMutablePointer<AVFrame>)
        case copied(UnsafeMutablePointer<AVPacket>, AVRational)
        case end
    }

    private let muxer: MuxedOutput
    private let frames: [UnsafeMutablePointer<AVFrame>]
    private let condition = NSCondition()
    private var free: [UnsafeMutablePointer<AVFrame>]
    private var queue: [Item] = []
    private var failure: (any Error)?
    private var stopping = false
    private var done = false

    /// Encodes into `muxer` with `count` frames of `width` × `height` YUV 4:2:0 for the caller to
    /// fill (two: one being encoded, one being warped); the thread starts here.
    init(muxer: MuxedOutput, width: Int, height: Int, count: Int = 2) throws(FFmpegError) {
        self.muxer = muxer
        var frames: [UnsafeMutablePointer<AVFrame>] = []
        for _ in 0..<count {
            guard let frame = av_frame_alloc() else {
                Self.release(frames)
                throw FFmpegError("av_frame_alloc", reason: "out of memory")
            }
            frames.append(frame)
            frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            frame.pointee.width = Int32(width)
            frame.pointee.height = Int32(height)
            let result = av_frame_get_buffer(frame, 0)
            if result < 0 {
                Self.release(frames)
                try FFmpegError.check(result, "av_frame_get_buffer")
            }
        }
        self.frames = frames
        free = frames
        let thread = Thread { [self] in run() }
        thread.name = "aibuds.encode"
        thread.start()
    }

    /// A frame to fill, writable (a fresh buffer if the encoder still holds the last one's); waits
    /// while both are queued or encoding. Throws what made the encoder fail.
    func writableFrame() throws -> UnsafeMutablePointer<AVFrame> {
        condition.lock()
        while free.isEmpty && failure == nil { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        let frame = free.removeLast()
        condition.unlock()
        do {
            try FFmpegError.check(av_frame_make_writable(frame), "av_frame_make_writable")
        } catch {
            recycle(frame)
            throw error
        }
        return frame
    }

    /// Queues a frame from ``writableFrame()``, filled, for encoding.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>) { enqueue(.video(frame)) }

    /// Queues a packet of a copied stream (its timestamps in `timeBase`); takes the packet's data.
    func writeCopied(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) throws(FFmpegError) {
        guard let copy = av_packet_alloc() else { throw FFmpegError("av_packet_alloc", reason: "out of memory") }
        av_packet_move_ref(copy, packet)
        enqueue(.copied(copy, timeBase))
    }

    /// Drains the encoder, writes the trailer and waits for the thread; throws what failed on it.
    func finish() throws {
        enqueue(.end)
        try waitUntilDone()
    }

    /// Stops the thread without writing what is still queued (for a failure or a cancel on the
    /// caller's side) and waits for it; the output is left unfinished.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        try? waitUntilDone()
    }

    deinit {
        for item in queue {
            if case .copied(let packet, _) = item { Self.release(packet) }
        }
        Self.release(frames)
    }

    private func enqueue(_ item: Item) {
        condition.lock()
        queue.append(item)
        condition.broadcast()
        condition.unlock()
    }

    private func recycle(_ frame: UnsafeMutablePointer<AVFrame>) {
        condition.lock()
        free.append(frame)
        condition.broadcast()
        condition.unlock()
    }

    private func waitUntilDone() throws {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        if let failure { throw failure }
    }

    /// The thread: takes items in order until the end (or a stop, or a failure).
    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if stopping {
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let item = queue.removeFirst()
            condition.unlock()
            do {
                switch item {
                case .video(let frame):
                    defer { recycle(frame) }
                    try muxer.encode(frame)
                case .copied(let packet, let timeBase):
                    defer { Self.release(packet) }
                    try muxer.writeCopied(packet, timeBase: timeBase)
                case .end:
                    try muxer.finish()
                    condition.lock()
                    done = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
            } catch {
                condition.lock()
                failure = error
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }

    private static func release(_ packet: UnsafeMutablePointer<AVPacket>) {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    private static func release(_ frames: [UnsafeMutablePointer<AVFrame>]) {
        for frame in frames {
            var owned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&owned)
        }
    }
}
