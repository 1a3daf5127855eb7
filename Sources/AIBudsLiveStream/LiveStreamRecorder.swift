import AIBudsSync
import Foundation

/// Records a pulled H.264 stream to an MP4 file without re-encoding: fragmented MP4 (a fragment per
/// group of pictures), written on the puller's thread as packets arrive, so a recording that is
/// cut short keeps every finished fragment. After a reconnection the file goes on from the next
/// key frame, one frame time after the last one written.
public final class LiveStreamRecorder: Sendable {
    /// The file being written.
    public let file: URL
    private let state = Locked(State())

    private struct State {
        var output: LiveRemuxer?
        var failure: LiveStreamError?
        var closed = false
        var written = 0
    }

    private let interrupt = InterruptFlag()

    /// A recorder of `puller`'s packets into `file` (replaced if it exists); register it before
    /// the puller starts.
    public init(from puller: any LiveStreamSource, to file: URL) {
        self.file = file
        puller.onEvent { [weak self] event in
            guard let self, case .connected(let parameters) = event else { return }
            state.withLock { state in
                guard !state.closed, state.failure == nil else { return }
                if let output = state.output {
                    output.restart()
                    return
                }
                do {
                    state.output = try LiveRemuxer(target: file.path, format: "mp4", parameters: parameters, interrupt: interrupt)
                } catch {
                    state.failure = error as? LiveStreamError ?? LiveStreamError(.output, "\(error)")
                }
            }
        }
        puller.onPacket { [weak self] packet in
            self?.state.withLock { state in
                guard !state.closed, let output = state.output else { return }
                do { if try output.write(packet) { state.written += 1 } } catch {
                    state.failure = error as? LiveStreamError ?? LiveStreamError(.output, "\(error)")
                    output.close(finish: true)
                    state.output = nil
                }
            }
        }
    }

    /// Frames written so far.
    public var framesWritten: Int { state.withLock { $0.written } }

    /// Why the recording stopped early, if it did (a stream that is not H.264, a full disk).
    public var failure: LiveStreamError? { state.withLock { $0.failure } }

    /// Finishes the file (its last fragment and index).
    public func finish() {
        state.withLock { state in
            state.closed = true
            state.output?.close(finish: true)
            state.output = nil
        }
    }
}
