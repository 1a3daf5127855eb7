import AIBudsEmulator
import AIBudsFoundation
import AIBudsSMP
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing
@testable import TopStepComKit

/// Waits until `condition` holds, checking every 10 ms, for at most `limit` (long: it costs
/// nothing when the condition comes true, and a loaded machine can take seconds).
func eventually(within limit: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

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

    /// Waits until the observer has a long-poll held on the device.
    func waitForPoll(_ rig: WatchRig, count: Int = 2) async {
        #expect(await eventually { changedRequests(rig) >= count }, "the observer never held a long-poll")
    }

    @Test func aNewRecordingFiresOnceForAudio() async throws {
        let rig = try WatchRig()
        _ = await rig.media.fetch()
        let seen = observe(rig)
        await waitForPoll(rig, count: 1)
        try rig.device.startRecording(video: false)
        _ = try rig.device.stopRecording(video: false)
        #expect(await eventually { seen.values.count == 1 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.values == [.audioRecording])
    }

    @Test func aDeletionOnTheDeviceFiresOnce() async throws {
        let rig = try WatchRig()
        let seen = observe(rig)
        await waitForPoll(rig)
        _ = try rig.device.store.delete(MediaFileName("REC_20260301_071500.opus"))
        #expect(await eventually { seen.values.count == 1 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.values == [.audioRecording])
    }

    @Test func aDeletionByAnotherClientFiresOnce() async throws {
        let rig = try WatchRig()
        let seen = observe(rig)
        await waitForPoll(rig)
        // A second client of the same device (its own link to the same SMP handler) deletes a file.
        let other = InMemoryTransport(mtu: 1024) { [handler = rig.handler] datagram in
            handler.handle(datagram, from: EmulatorPeer("other"))
        }
        let client = try SMPClient(transport: other)
        defer { client.close() }
        _ = try await client.send(MediaDeleteRequest(name: "REC_20260301_120000.opus"))
        #expect(await eventually { seen.values.count == 1 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.values == [.audioRecording])
        // Each further invalidation fires once more.
        try rig.device.store.addGenerated(stem: "REC_X", extension: "opus", type: .audio, size: 100)
        #expect(await eventually { seen.values.count == 2 })
    }

    @Test func ownDeletionInvalidatesTheListToo() async throws {
        let rig = try WatchRig()
        let files = try #require(await rig.media.fetch().value)
        let seen = observe(rig)
        await waitForPoll(rig, count: 1)
        #expect(await rig.media.delete(files[0]).value == true)
        #expect(await eventually { seen.values.count == 1 })
    }

    @Test func aListThatIsAlreadyStaleIsReportedAtOnce() async throws {
        let rig = try WatchRig()
        _ = await rig.media.fetch()
        try rig.device.store.addGenerated(stem: "REC_Y", extension: "opus", type: .audio, size: 100)
        let seen = observe(rig)
        #expect(await eventually { seen.values == [.audioRecording] })
    }

    @Test func itLongPollsInsteadOfPolling() async throws {
        let rig = try WatchRig()
        _ = observe(rig)
        await waitForPoll(rig)
        let before = changedRequests(rig)
        try await Task.sleep(for: .seconds(1))
        // One request is held on the device the whole second (no retransmission on a lossless link).
        #expect(changedRequests(rig) == before)
        #expect(before <= 2)
    }

    @Test func nilUnregistersAndNothingFiresAfterwards() async throws {
        let rig = try WatchRig()
        let seen = observe(rig)
        await waitForPoll(rig)
        rig.media.registerMediaFileListDidChangedBlock(nil)
        try rig.device.store.addGenerated(stem: "REC_Z", extension: "opus", type: .audio, size: 100)
        try await Task.sleep(for: .milliseconds(300))
        await drainMainQueue()
        #expect(seen.values.isEmpty)
        // And a new registration sees later changes.
        let again = observe(rig)
        await waitForPoll(rig, count: changedRequests(rig) + 1)
        try rig.device.store.addGenerated(stem: "REC_W", extension: "opus", type: .audio, size: 100)
        #expect(await eventually { again.values.count >= 1 })
        #expect(seen.values.isEmpty)
    }

    @Test func withoutObserveChangesInTheMaskNothingIsPolled() async throws {
        var profile = DeviceProfile.glasses
        profile.capabilities.removeAll { $0 == "mediaFile" }
        let rig = try WatchRig(profile: profile)
        _ = observe(rig)
        try await Task.sleep(for: .milliseconds(200))
        #expect(rig.sentCount == 0)
    }
}
