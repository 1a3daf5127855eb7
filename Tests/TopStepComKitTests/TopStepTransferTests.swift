import AIBudsEmulator
import AIBudsFoundation
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing
@testable import TopStepComKit

/// Downloads over a link that loses, breaks or corrupts: resumption, verification, and
/// exactly-once completion when the device goes away.
@Suite struct TopStepTransferTests {
    static let size: UInt64 = 200_000

    @Test func lostDatagramsAreRetransmittedAndTheFileIsIntact() async throws {
        // Every 7th exchange loses its request's first transmission and its first response.
        let lossy = InMemoryLink.losingSMP { _, sequence, copy in sequence % 7 == 3 && copy == 0 }
        let rig = try WatchRig(seeds: [.generated("lossy.opus", type: .audio, size: Self.size)], link: lossy)
        let file = try #require(await rig.media.fetch().value?.first)
        let (outcome, _) = await rig.media.download(file, to: rig.scratch("l"))
        let path = try #require(outcome.value)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == rig.deviceBytes("lossy.opus"))
    }

    @Test func aLinkDropMidTransferResumesFromThePartialFile() async throws {
        // At the 60th response the link drops until the request in flight has timed out, then it
        // is back and the download resumes where the partial file ends.
        let drop = InMemoryLink.dropping(response: 60)
        let rig = try WatchRig(seeds: [.generated("drop.opus", type: .audio, size: Self.size)], link: drop)
        let file = try #require(await rig.media.fetch().value?.first)
        let (outcome, progress) = await rig.media.download(file, to: rig.scratch("d"))
        let path = try #require(outcome.value, "\(String(describing: outcome.error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == rig.deviceBytes("drop.opus"))
        // Offset 0 was asked once per retransmission of the first request only: never restarted.
        let offsets = rig.downloadOffsets
        #expect(offsets.filter { $0 == 0 }.count == 1)
        #expect(offsets.count > Int(Self.size) / 1000)
        // The resumed attempt asked for the file's size (File status) instead of starting over.
        #expect(rig.sentPackets.contains { $0.header.group == SMPGroupID.file && $0.header.command == 1 })
        let values = progress.dropLast()
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 } && values.last == 100)
    }

    @Test func aFailedDownloadLeavesAPartialThatTheNextDownloadResumes() async throws {
        let seeds: [MediaSeed] = [.generated("big.opus", type: .audio, size: Self.size)]
        let identity = UUID().uuidString
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ts-resume-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The first link dies for good after 80 responses.
        let dead = InMemoryLink.losingResponses { $0 >= 80 }
        let first = try WatchRig(seeds: seeds, identity: identity, link: dead)
        let file = try #require(await first.media.fetch().value?.first)
        let (failed, _) = await first.media.download(file, to: folder)
        #expect(failed.value == nil && failed.calls == 1)
        #expect(failed.error?.code == 6001)
        #expect(!FileManager.default.fileExists(atPath: folder + "/big.opus"))

        // Same device, a healthy link: the download continues from the partial file.
        let second = try WatchRig(seeds: seeds, identity: identity, kit: first.kit)
        let again = try #require(await second.media.fetch().value?.first)
        let (outcome, _) = await second.media.download(again, to: folder)
        let path = try #require(outcome.value)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == second.deviceBytes("big.opus"))
        let offsets = second.downloadOffsets
        #expect(!offsets.contains(0))
        #expect(try #require(offsets.min()) > 50_000)
    }

    @Test func corruptedBytesAreCaughtByTheHashAndDownloadedAgain() async throws {
        // The 10th datagram the SDK receives has one byte flipped in the middle (inside the data).
        let rig = try WatchRig(seeds: [.generated("c.opus", type: .audio, size: Self.size)], rewrite: { index, datagram in
            guard index == 10, datagram.count > 600 else { return datagram }
            var copy = datagram
            copy[copy.startIndex + 500] ^= 0xFF
            return copy
        })
        let file = try #require(await rig.media.fetch().value?.first)
        let (outcome, _) = await rig.media.download(file, to: rig.scratch("c"))
        let path = try #require(outcome.value, "\(String(describing: outcome.error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == rig.deviceBytes("c.opus"))
        #expect(rig.downloadOffsets.filter { $0 == 0 }.count == 2)
    }

    @Test func persistentCorruptionFailsAndNothingAppearsAtTheFinalPath() async throws {
        let rig = try WatchRig(seeds: [.generated("bad.opus", type: .audio, size: 50_000)], rewrite: { _, datagram in
            guard datagram.count > 900 else { return datagram }
            var copy = datagram
            copy[copy.startIndex + 700] ^= 0x01
            return copy
        })
        let file = try #require(await rig.media.fetch().value?.first)
        let folder = rig.scratch("bad")
        let (outcome, _) = await rig.media.download(file, to: folder)
        #expect(outcome.value == nil && outcome.error?.code == 4003 && outcome.calls == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad.opus"))
    }

    @Test func aDisconnectMidDownloadCompletesOnceWithNotConnected() async throws {
        // Responses stop after the 30th; the device then disconnects while requests wait.
        let stall = InMemoryLink.losingResponses { $0 >= 30 }
        let rig = try WatchRig(seeds: [.generated("m.opus", type: .audio, size: Self.size)], link: stall,
                               configuration: .init(retransmitInterval: .seconds(10), retransmissions: 3, window: 8))
        let file = try #require(await rig.media.fetch().value?.first)
        let started = ContinuousClock.now
        Task {
            try await Task.sleep(for: .milliseconds(200))
            rig.disconnect()
        }
        let (outcome, _) = await rig.media.download(file, to: rig.scratch("m"))
        #expect(outcome.value == nil && outcome.error?.code == 2003 && outcome.calls == 1)
        // Ended by the disconnect, before the first retransmission (10 s) was even due.
        #expect(ContinuousClock.now - started < .seconds(8))
        // Later calls fail at once, without a request.
        let before = rig.sentCount
        let list = await rig.media.fetch()
        #expect(list.error?.code == 2003 && rig.sentCount == before)
    }

    @Test func aDisconnectDuringAListCompletesOnce() async throws {
        let silent = InMemoryLink.losingResponses { _ in true }
        let rig = try WatchRig(link: silent, configuration: .init(retransmitInterval: .seconds(5), retransmissions: 3))
        Task {
            try await Task.sleep(for: .milliseconds(100))
            rig.disconnect()
        }
        let list = await rig.media.fetch()
        #expect(list.value == nil && list.error?.code == 2003 && list.calls == 1)
    }
}
