import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsSMP
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// `SMPMediaChannel`, the media channel of the SMP device classes, over an in-memory link to the
/// emulator's request handler: SDK models in, `AIBudsError`s out.
@Suite(.timeLimit(.minutes(1))) struct SMPMediaChannelTests {
    /// An emulated watch, its link and a channel to it; `connected` is what the channel reports.
    private struct Rig {
        let emulated: InMemoryDevice
        let link: InMemoryTransport
        let channel: SMPMediaChannel

        init(connected: Bool = true) throws {
            emulated = try InMemoryDevice(profile: .watch, files: DeviceProfile.watch.defaultMedia)
            link = emulated.connect()
            let client = try SMPClient(transport: link)
            channel = SMPMediaChannel(
                client: client, uuid: UUID(), capabilities: [.mediaFile], isConnected: { connected })
        }

        func close() {
            channel.client.close()
            emulated.close()
        }
    }

    @Test func listsDeletesAndReportsTheChange() async throws {
        let rig = try Rig()
        defer { rig.close() }
        let listing = try await rig.channel.listMediaFiles(type: .audio)
        #expect(listing.files.map(\.name) == rig.emulated.device.store.list().map(\.name.text))
        #expect(listing.files.allSatisfy { $0.type == .audio } && !listing.files.isEmpty)
        let unchanged = try await rig.channel.mediaListChange(since: listing.generation, waitMilliseconds: 0)
        #expect(unchanged.generation == listing.generation)

        let name = try #require(listing.files.first?.name)
        let generation = try await rig.channel.deleteMediaFile(named: name, generation: listing.generation)
        #expect(generation > listing.generation)
        let change = try await rig.channel.mediaListChange(since: listing.generation, waitMilliseconds: 0)
        #expect(change.generation == generation && change.types == [.audio])
    }

    @Test func aDeviceRefusalIsAnSDKErrorWithTheDevicesCodeAndTheSMPCause() async throws {
        let rig = try Rig()
        defer { rig.close() }
        let listing = try await rig.channel.listMediaFiles(type: nil)
        let name = try #require(listing.files.first?.name)
        _ = try await rig.channel.deleteMediaFile(named: name, generation: listing.generation)
        // The list moved on: a deletion at the old generation is refused.
        let error = try await #require(throws: AIBudsError.self) {
            try await rig.channel.deleteMediaFile(named: try #require(listing.files.last?.name), generation: listing.generation)
        }
        #expect(error.deviceStatusCode != nil && (error.underlying as? SMPError)?.deviceError != nil)
    }

    @Test func downloadsAWholeFileAndVerifiesIt() async throws {
        let rig = try Rig()
        defer { rig.close() }
        let entry = try #require(try await rig.channel.listMediaFiles(type: nil).files.first)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smp-media-channel-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forUpdating: url)
        let result = try await rig.channel.downloadMediaFile(named: entry.name, into: handle, from: 0) { _, _ in }
        try handle.close()
        #expect(result == MediaFileDownload(size: entry.size, verifiedWhole: true))
        let store = rig.emulated.device.store
        let object = try #require(store.object(named: MediaFileName(entry.name)))
        #expect(try Data(contentsOf: url) == store.read(object, offset: 0, count: Int(object.size)))
    }

    @Test func aDisconnectedDeviceFailsWithoutARequest() async throws {
        let rig = try Rig(connected: false)
        defer { rig.close() }
        let error = try await #require(throws: AIBudsError.self) { try await rig.channel.listMediaFiles(type: nil) }
        #expect(error.code == .deviceNotConnected && rig.link.sentDatagrams.isEmpty)
    }
}
