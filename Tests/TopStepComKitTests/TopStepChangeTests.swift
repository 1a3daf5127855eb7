import AIBudsEmulator
import AIBudsFoundation
import AIBudsSMP
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing
@testable import TopStepComKit

/// The list-change block, driven by the Media group's `changed` long-poll.
@Suite struct TopStepChangeTests {
    /// Registers a block that records the reported types (checking the main queue).
    func observe(_ rig: WatchRig) -> Recorder<TSMediaFileType> {
        let seen = Recorder<TSMediaFileType>()
        rig.media.registerMediaFileListDidChangedBlock { type in
            dispatchPrecondition(condition: .onQueue(.main))
            seen.append(type)
        }
        return seen
    }

    /// The number of Media `changed` requests the SDK sent (retransmissions included).
    func changedRequests(_ rig: WatchRig) -> Int {
        rig.sentPackets.filter { $0.header.group == SMPGroupID.media && $0.header.command == 3 }.count
    }

    /// The Media `changed` requests the SDK sent, with their sequence numbers (a retransmission
    /// repeats its request's).
    func changedPolls(_ rig: WatchRig) -> [(sequence: UInt8, request: MediaChangedRequest)] {
        rig.sentPackets.filter { $0.header.group == SMPGroupID.media && $0.header.command == 3 }.compactMap { packet in
            (try? CBORDecoder().decode(MediaChangedRequest.self, from: packet.payload)).map { (packet.header.sequence, $0) }
        }
    }

    /// Waits until the observer has sent `count` Media `changed` requests (the last one is held).
    func waitForPoll(_ rig: WatchRig, count: Int = 2) async throws {
        try await eventually("the observer to send \(count) long-polls") { changedRequests(rig) >= count }
    }

    /// Waits until the observer long-polls for the device's current list generation, then drains
    /// the main queue. The observer queues its deliveries for a change on the main queue before it
    /// sends the next poll, so every delivery for a change made before this call has then run: a
    /// test can assert that no other came.
    func waitUntilCaughtUp(_ rig: WatchRig) async throws {
        let generation = rig.device.store.generation
        try await eventually("a long-poll since generation \(generation)") {
            changedPolls(rig).contains { $0.request.since == generation && $0.request.waitMs > 0 }
        }
        await drainMainQueue()
    }

    @Test func aNewRecordingFiresOnceForAudio() async throws {
        let rig = try WatchRig()
        _ = await rig.media.fetch()
        let seen = observe(rig)
        try await waitForPoll(rig, count: 1)
        try rig.device.startRecording(video: false)
        _ = try rig.device.stopRecording(video: false)
        try await eventually("the change to be reported") { !seen.values.isEmpty }
        try await waitUntilCaughtUp(rig)
        #expect(seen.values == [.audioRecording])
    }

    @Test func aDeletionOnTheDeviceFiresOnce() async throws {
        let rig = try WatchRig()
        let seen = observe(rig)
        try await waitForPoll(rig)
        _ = try rig.device.store.delete(MediaFileName("REC_20260301_071500.opus"))
        try await eventually("the change to be reported") { !seen.values.isEmpty }
        try await waitUntilCaughtUp(rig)
        #expect(seen.values == [.audioRecording])
    }

    @Test func aDeletionByAnotherClientFiresOnce() async throws {
        let rig = try WatchRig()
        let seen = observe(rig)
        try await waitForPoll(rig)
        // A second client of the same device (its own link to the same SMP handler) deletes a file.
        let other = InMemoryTransport(mtu: 1024) { [handler = rig.handler] datagram in
            handler.handle(datagram, from: EmulatorPeer("other"))
        }
        let client = try SMPClient(transport: other)
        defer { client.close() }
        _ = try await client.send(MediaDeleteRequest(name: "REC_20260301_120000.opus"))
        try await eventually("the change to be reported") { !seen.values.isEmpty }
        try await waitUntilCaughtUp(rig)
        #expect(seen.values == [.audioRecording])
        // Each further invalidation fires once more.
        try rig.device.store.addGenerated(stem: "REC_X", extension: "opus", type: .audio, size: 100)
        try await eventually("seen.values.count == 2") { seen.values.count == 2 }
    }

    @Test func ownDeletionInvalidatesTheListToo() async throws {
        let rig = try WatchRig()
        let files = try #require(await rig.media.fetch().value)
        let seen = observe(rig)
        try await waitForPoll(rig, count: 1)
        #expect(await rig.media.delete(files[0]).value == true)
        try await eventually("seen.values.count == 1") { seen.values.count == 1 }
    }

    @Test func aListThatIsAlreadyStaleIsReportedAtOnce() async throws {
        let rig = try WatchRig()
        _ = await rig.media.fetch()
        try rig.device.store.addGenerated(stem: "REC_Y", extension: "opus", type: .audio, size: 100)
        let seen = observe(rig)
        try await eventually("seen.values == [.audioRecording]") { seen.values == [.audioRecording] }
    }

    @Test func itLongPollsInsteadOfPolling() async throws {
        let rig = try WatchRig()
        _ = observe(rig)
        try await waitForPoll(rig)
        // The first request reads the generation (no list was fetched); the second asks the device to
        // hold it until the list changes.
        let polls = changedPolls(rig)
        #expect(polls.count == 2)
        #expect(polls.last?.request.waitMs == UInt64(ChangeObserver.waitMilliseconds))
        // The device answers it on a change; only then does the observer send its next poll.
        try rig.device.store.addGenerated(stem: "REC_L", extension: "opus", type: .audio, size: 100)
        try await waitUntilCaughtUp(rig)
        let all = changedPolls(rig)
        #expect(Set(all.map(\.sequence)).count == 3, "one request per generation: \(all.map(\.request))")
        #expect(all.dropFirst().allSatisfy { $0.request.waitMs == UInt64(ChangeObserver.waitMilliseconds) })
    }

    @Test func nilUnregistersAndNothingFiresAfterwards() async throws {
        // The client's timers stand still: its held poll leaves only when the observer cancels it.
        let rig = try WatchRig(clock: ManualClock())
        let seen = observe(rig)
        try await waitForPoll(rig)
        rig.media.registerMediaFileListDidChangedBlock(nil)
        // The observation stops: its held poll is cancelled, so no answer can reach it.
        try await eventually("the held poll to be cancelled") { rig.client.requestsInFlight == 0 }
        try rig.device.store.addGenerated(stem: "REC_Z", extension: "opus", type: .audio, size: 100)
        await drainMainQueue()
        #expect(seen.values.isEmpty)
        // And a new registration sees later changes.
        let again = observe(rig)
        try await waitForPoll(rig, count: changedRequests(rig) + 1)
        try rig.device.store.addGenerated(stem: "REC_W", extension: "opus", type: .audio, size: 100)
        try await eventually("again.values.count >= 1") { again.values.count >= 1 }
        #expect(seen.values.isEmpty)
    }

    @Test func withoutObserveChangesInTheMaskNothingIsPolled() async throws {
        var profile = DeviceProfile.glasses
        profile.capabilities.removeAll { $0 == "mediaFile" }
        let rig = try WatchRig(profile: profile)
        _ = observe(rig)
        // The observer reads the link state, then the mask, before each poll, and waits its retry
        // delay after deciding not to poll. A poll reads the link state twice more (facade and
        // channel) and is sent before the observer's next read: by the fourth read, any poll of the
        // first decision has been sent (three retry delays when there is none).
        try await eventually("the observer to check the link four times") { rig.connectivity.reads >= 4 }
        #expect(rig.sentCount == 0)
    }
}
