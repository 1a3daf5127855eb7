import AIBudsDigest
import AIBudsEmulator
@testable import AIBudsSMPClient
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Synchronization
import Testing

/// Runs `body` while moving `clock` forward in small steps, so that link delays and
/// retransmission timers fire while the client works; returns what `body` returns.
func drive<T: Sendable>(
    _ clock: ManualClock, step: Duration = .milliseconds(1), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let finished = Atomic(false)
    let task = Task {
        defer { finished.store(true, ordering: .releasing) }
        return try await body()
    }
    while !finished.load(ordering: .acquiring) {
        await Task.yield()
        clock.advance(by: step)
    }
    return try await task.value
}

/// The bytes of a device file, read straight from the emulator's store.
func content(of name: String, on device: InMemoryDevice) throws -> Data {
    let object = try #require(device.device.store.object(named: MediaFileName(name)))
    return try device.device.store.read(object, offset: 0, count: Int(object.size))
}

/// Collects downloaded chunks.
final class Collector: @unchecked Sendable {
    // Used by one download at a time, from its calling task.
    var data = Data()
    var progress: [SMPTransferProgress] = []
}

@Suite(.timeLimit(.minutes(1))) struct SMPFileTransferTests {
    static let clip = MediaSeed.generated("clip.mp4", type: .video, size: 150_000)

    @Test(arguments: [1, 8]) func downloadsAFileAndVerifiesIt(window: Int) async throws {
        let device = try InMemoryDevice(files: [Self.clip])
        defer { device.close() }
        let client = try SMPClient(transport: device.connect(), clock: device.clock)
        let out = Collector()
        let result = try await client.downloadFile(path: "/media/clip.mp4", window: window,
                                                   progress: { out.progress.append($0) }) { out.data.append($0) }
        let expected = try content(of: "clip.mp4", on: device)
        #expect(out.data == expected)
        #expect(result.size == 150_000 && result.startOffset == 0)
        #expect(result.sha256 == SHA256.hash(expected))
        #expect(result.verified)
        // About one request per MTU-sized chunk, a few more where the chunk size changes.
        #expect(result.requests >= 150_000 / 1024 && result.requests <= 150_000 / 990 + window + 2)
        #expect(out.progress.last == SMPTransferProgress(completed: 150_000, total: 150_000))
        #expect(out.progress.map(\.completed) == out.progress.map(\.completed).sorted())
        #expect(client.requestsInFlight == 0)
    }

    @Test func downloadsOverALossyDuplicatingReorderingLink() async throws {
        let device = try InMemoryDevice(files: [Self.clip], mtu: 976)
        defer { device.close() }
        // Requests lose their first transmission (every 7th) or their first two (every 13th),
        // responses their first copy (every 5th); datagrams are duplicated and reordered.
        let link = InMemoryLink.losingSMP(
            duplicate: { _, index, _ in index % 11 == 0 },
            delay: { _, index, _ in .milliseconds(2 + index % 4 * 3) }  // 2–11 ms: reorders
        ) { direction, sequence, copy in
            direction == .outbound
                ? (sequence % 7 == 3 && copy == 0) || (sequence % 13 == 5 && copy < 2)
                : sequence % 5 == 3 && copy == 0
        }
        let config = SMPClientConfiguration(retransmitInterval: .milliseconds(100), retransmissions: 5, window: 8)
        let client = try SMPClient(transport: device.connect(link: link), configuration: config, clock: device.clock)
        let out = Collector()
        let result = try await drive(device.clock) {
            try await client.downloadFile(path: "/media/clip.mp4") { out.data.append($0) }
        }
        #expect(out.data == (try content(of: "clip.mp4", on: device)))
        #expect(result.verified)
    }

    @Test func resumesFromAnOffset() async throws {
        let device = try InMemoryDevice(files: [Self.clip])
        defer { device.close() }
        let client = try SMPClient(transport: device.connect(), clock: device.clock)
        let out = Collector()
        let result = try await client.downloadFile(path: "/media/clip.mp4", from: 100_001, window: 4) { out.data.append($0) }
        let expected = try content(of: "clip.mp4", on: device)
        #expect(out.data == expected.suffix(from: 100_001))
        #expect(result.startOffset == 100_001)
        #expect(result.verified, "the device's hash of the resumed range matches")

        let atEnd = try await client.downloadFile(path: "/media/clip.mp4", from: 150_000) { _ in Issue.record("no bytes expected") }
        #expect(atEnd.requests == 0 && atEnd.verified)
        #expect(await smpFailure { try await client.downloadFile(path: "/media/clip.mp4", from: 150_001) { _ in } }?.code == .invalidRequest)
    }

    @Test func downloadsIntoAFileHandle() async throws {
        let device = try InMemoryDevice(files: [Self.clip])
        defer { device.close() }
        let client = try SMPClient(transport: device.connect(), clock: device.clock)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smp-download-\(UUID()).part")
        defer { try? FileManager.default.removeItem(at: url) }
        let expected = try content(of: "clip.mp4", on: device)
        try expected.prefix(40_000).write(to: url)  // a partial earlier download
        let handle = try FileHandle(forWritingTo: url)
        try await client.downloadFile(path: "/media/clip.mp4", to: handle, from: 40_000)
        try handle.close()
        #expect(try Data(contentsOf: url) == expected)
    }

    @Test func aMissingFileIsADeviceError() async throws {
        let device = try InMemoryDevice(files: [Self.clip])
        defer { device.close() }
        let client = try SMPClient(transport: device.connect(), clock: device.clock)
        let error = await smpFailure { try await client.downloadFile(path: "/media/nope.mp4") { _ in } }
        #expect(error?.deviceError != nil)
    }

    @Test func aFailingSinkEndsTheDownloadWithLocalIO() async throws {
        let device = try InMemoryDevice(files: [Self.clip])
        defer { device.close() }
        let client = try SMPClient(transport: device.connect(), clock: device.clock)
        struct DiskFull: Error {}
        let error = await smpFailure {
            try await client.downloadFile(path: "/media/clip.mp4", window: 8) { _ in throw DiskFull() }
        }
        #expect(error?.code == .localIO)
        #expect(error?.underlying is DiskFull)
        #expect(client.requestsInFlight == 0, "the requests still in flight were cancelled")
    }

    @Test func cancellingADownloadCancelsItsRequests() async throws {
        let device = try InMemoryDevice(files: [Self.clip])
        defer { device.close() }
        // Responses take 5 ms of manual time, which never passes: the download stalls in flight.
        let client = try SMPClient(transport: device.connect(link: InMemoryLink(delay: .milliseconds(5))),
                                   clock: device.clock)
        let firstDone = Atomic(false)
        let task = Task {
            try await client.downloadFile(path: "/media/clip.mp4", window: 8) { _ in firstDone.store(true, ordering: .relaxed) }
        }
        while !firstDone.load(ordering: .relaxed) {
            device.clock.advance(by: .milliseconds(5))
            await Task.yield()
        }
        while client.requestsInFlight < 8 { await Task.yield() }
        task.cancel()
        #expect(await smpFailure { try await task.value }?.code == .cancelled)
        #expect(client.requestsInFlight == 0)
    }

    @Test(arguments: [1, 4]) func uploadsAFileAndVerifiesIt(window: Int) async throws {
        let device = try InMemoryDevice(files: [], mtu: 976)
        defer { device.close() }
        let client = try SMPClient(transport: device.connect(), clock: device.clock)
        #expect(client.mtu == 1024 && !client.isMTUKnown)
        let bytes = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 8) })
        let result = try await client.uploadFile(path: "/media/upload.jpg", data: bytes, window: window)
        #expect(client.mtu == 976 && client.isMTUKnown, "the upload asked the device for its MTU first")
        #expect(result.verified)
        #expect((32...34).contains(result.requests), "≈ 30,000 / 930 data bytes per 976-byte packet")
        #expect(try content(of: "upload.jpg", on: device) == bytes)
    }

    @Test func uploadsOverALossyReorderingLink() async throws {
        let device = try InMemoryDevice(files: [])
        defer { device.close() }
        // Every 6th response is lost the first time; requests are reordered.
        let link = InMemoryLink.losingSMP(
            delay: { direction, index, _ in direction == .outbound ? .milliseconds(1 + index % 3 * 4) : .milliseconds(1) }
        ) { direction, sequence, copy in direction == .inbound && sequence % 6 == 4 && copy == 0 }
        let config = SMPClientConfiguration(retransmitInterval: .milliseconds(100), retransmissions: 5)
        let client = try SMPClient(transport: device.connect(link: link), configuration: config, clock: device.clock)
        let bytes = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let result = try await drive(device.clock) {
            try await client.uploadFile(path: "/media/reordered.jpg", data: bytes, window: 6)
        }
        #expect(result.verified)
        #expect(try content(of: "reordered.jpg", on: device) == bytes)
    }

    @Test func uploadChunksFillTheMTUExactly() throws {
        for (offset, total) in [(UInt64(0), UInt64(100_000)), (1_000, 100_000), (70_000, 100_000), (5_000_000_000, 6_000_000_000)] {
            let empty = FileUploadRequest(off: offset, data: Data(), name: "/media/x.jpg", len: offset == 0 ? total : nil)
            let length = try SMPClient.uploadChunkLength(empty, label: "/media/x.jpg", remaining: total - offset, mtu: 976)
            let request = FileUploadRequest(off: offset, data: Data(count: length), name: "/media/x.jpg",
                                            len: offset == 0 ? total : nil)
            let size = SMPHeader.size + (try CBOREncoder().encode(request).count)
            #expect(size <= 976 && size >= 975, "offset \(offset): \(length) data bytes make a \(size)-byte packet")
        }
    }
}
