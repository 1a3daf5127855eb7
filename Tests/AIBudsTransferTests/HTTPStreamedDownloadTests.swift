import AIBudsDigest
import AIBudsEmulator
import AIBudsSync
import AIBudsTestKit
import AIBudsTransfer
import Foundation
import Testing

/// A sink that keeps bytes in memory as a store would: durable in whole 256 KiB "parts" (with
/// the digest's state after them), the bytes after the last part held only until a suspend.
private final class PartSink: DownloadSink, @unchecked Sendable {
    static let part = 256 * 1024
    private struct State {
        var durable: [UInt8] = []
        var durableMidstate: SHA256.Midstate?
        var etag: String?
        var size: Int64 = 0
        var pending: [UInt8] = []
        var hasher = SHA256()
        var calls: [String] = []
    }
    private let state = Locked(State())

    /// A sink holding what `earlier` kept durably (a later process finding it).
    init(continuing earlier: PartSink? = nil) {
        guard let earlier else { return }
        let kept = earlier.state.withLock { ($0.durable, $0.durableMidstate, $0.etag, $0.size) }
        state.withLock { state in
            (state.durable, state.durableMidstate, state.etag, state.size) = kept
            if let midstate = kept.1 { state.hasher = SHA256(resuming: midstate) }
        }
    }

    var bytes: [UInt8] { state.withLock { $0.durable + $0.pending } }
    var durableCount: Int { state.withLock { $0.durable.count } }
    var calls: [String] { state.withLock { $0.calls } }

    func resumePoint() throws -> DownloadSinkResume? {
        state.withLock { state in
            state.calls.append("resumePoint")
            guard !state.durable.isEmpty, let etag = state.etag else { return nil }
            return DownloadSinkResume(offset: Int64(state.durable.count), etag: etag, size: state.size)
        }
    }

    func begin(at offset: Int64, etag: String?, size: Int64) throws {
        state.withLock { state in
            state.calls.append("begin \(offset)")
            if offset == 0 { state = State(calls: state.calls) }
            state.etag = etag
            state.size = size
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        let incoming = [UInt8](bytes)
        state.withLock { state in
            var rest = incoming[...]
            while !rest.isEmpty {
                let piece = rest.prefix(Self.part - state.pending.count)
                rest = rest.dropFirst(piece.count)
                piece.withUnsafeBytes { state.hasher.update($0) }
                state.pending.append(contentsOf: piece)
                if state.pending.count == Self.part {
                    state.durable += state.pending
                    state.pending = []
                    state.durableMidstate = state.hasher.midstate
                }
            }
        }
    }

    func digest() -> [UInt8] { state.withLock { $0.hasher.finalize() } }

    func finish(sha256: [UInt8]) throws -> URL {
        state.withLock { $0.calls.append("finish") }
        return URL(string: "memory://sink/\(sha256.hexString)")!
    }

    func suspend() {
        state.withLock { state in
            state.calls.append("suspend")
            state.pending = []
        }
    }

    func discard() {
        state.withLock { state in
            state.calls.append("discard")
            state = State(calls: state.calls)
        }
    }
}

@Suite("HTTP download engine: downloads streamed into a sink")
struct HTTPStreamedDownloadTests {
    private func streamed(_ fixture: DownloadFixture, _ name: String, content: [UInt8], into sink: PartSink) -> DownloadRequest {
        var request = fixture.request(name, content: content)
        request.sink = sink
        return request
    }

    /// Every byte reaches the sink once, in order, across a dropped connection; the result is the
    /// sink's URL, and nothing is written to the destination folder.
    @Test func streamsEveryByteOnceAcrossADropAndWritesNothingLocally() async throws {
        let (fixture, content) = try DownloadFixture.holding("v.mp4", bytes: 1_500_000, seed: 21)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 700_000))
        let sink = PartSink()
        let configuration = HTTPFileDownloader.Configuration(retry: RetryPolicy(initialBackoff: .milliseconds(5)))
        let result = try await HTTPFileDownloader(configuration: configuration).download(streamed(fixture, "v.mp4", content: content, into: sink))
        #expect(sink.bytes == content)
        #expect(result.fileURL.absoluteString == "memory://sink/" + SHA256.hash(content).hexString)
        #expect(result.sha256 == SHA256.hash(content) && result.size == 1_500_000 && result.attempts == 2)
        #expect(sink.calls.first == "resumePoint" && sink.calls.last == "finish")
        #expect(sink.calls.contains { $0.hasPrefix("begin ") && $0 != "begin 0" }, "the retry did not continue: \(sink.calls)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination.path).isEmpty)
    }

    /// A download that stopped leaves the sink's durable parts; a later download with a sink that
    /// holds them asks the device only for the rest and verifies the whole file.
    @Test func aLaterDownloadResumesFromWhatTheSinkKept() async throws {
        let (fixture, content) = try DownloadFixture.holding("v.mp4", bytes: 2_000_000, seed: 22)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 1_000_000))
        let first = PartSink()
        var noRetries = HTTPFileDownloader.Configuration(retry: RetryPolicy(maxRetriesWithoutProgress: 0, maxRetries: 0))
        noRetries.retry.initialBackoff = .milliseconds(5)
        await #expect { try await HTTPFileDownloader(configuration: noRetries).download(streamed(fixture, "v.mp4", content: content, into: first)) } throws: {
            ($0 as? TransferError)?.code == .connectionLost
        }
        #expect(first.calls.last == "suspend")
        let kept = first.durableCount
        #expect(kept == 3 * PartSink.part, "kept \(kept)")

        fixture.server.setFaults(.none)
        let second = PartSink(continuing: first)
        let sentBefore = fixture.server.statistics.bodyBytesSent
        let result = try await HTTPFileDownloader().download(streamed(fixture, "v.mp4", content: content, into: second))
        #expect(second.bytes == content)
        #expect(result.bytesResumed == Int64(kept) && result.sha256 == SHA256.hash(content))
        #expect(fixture.server.statistics.bodyBytesSent - sentBefore == Int64(content.count - kept))
    }

    /// A file that changed on the device since the sink's parts is sent whole and the sink starts
    /// over; bytes that do not hash to the device's SHA-256 are discarded, not stored.
    @Test func aChangedFileStartsOverAndWrongBytesAreDiscarded() async throws {
        let fixture = try DownloadFixture()
        let old = DownloadFixture.bytes(1_000_000, seed: 23)
        try fixture.add("v.mp4", old, generation: 1)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 600_000))
        let first = PartSink()
        let noRetries = HTTPFileDownloader.Configuration(retry: RetryPolicy(maxRetriesWithoutProgress: 0, maxRetries: 0))
        _ = try? await HTTPFileDownloader(configuration: noRetries).download(streamed(fixture, "v.mp4", content: old, into: first))
        #expect(first.durableCount == 2 * PartSink.part)

        fixture.server.setFaults(.none)
        let new = DownloadFixture.bytes(1_000_000, seed: 24)
        try fixture.add("v.mp4", new, generation: 2)
        let second = PartSink(continuing: first)
        let result = try await HTTPFileDownloader().download(streamed(fixture, "v.mp4", content: new, into: second))
        #expect(second.bytes == new && result.bytesReceived == 1_000_000)
        #expect(second.calls.contains("begin 0"))

        let third = PartSink()
        var wrong = fixture.request("v.mp4", content: new)
        wrong.expectedSHA256 = [UInt8](repeating: 9, count: 32)
        wrong.sink = third
        await #expect { try await HTTPFileDownloader().download(wrong) } throws: { ($0 as? TransferError)?.code == .checksumMismatch }
        #expect(third.calls.last == "discard" && !third.calls.contains("finish"))
    }
}
