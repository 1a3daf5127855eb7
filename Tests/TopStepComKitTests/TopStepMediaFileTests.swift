import AIBudsEmulator
import AIBudsFoundation
import AIBudsWire
import Foundation
import Testing
@testable import TopStepComKit

/// The facade against the emulator's watch over an in-memory link.
@Suite struct TopStepMediaFileTests {
    // MARK: Binding and mask

    @Test func withoutADeviceEveryCallFailsAsNotConnectedOnceOnMain() async throws {
        let media = TopStepComKit().mediaFile
        #expect(media.supportedOperations(for: .audioRecording) == .none)
        let model = TSMediaFileModel(identifier: "x", fileName: "a.opus", type: .audioRecording, fileSize: nil)
        let list = await media.fetch()
        #expect(list.value == nil && list.error?.code == 2003 && list.error?.domain == TSErrorDomain && list.calls == 1)
        let (download, progress) = await media.download(model, to: NSTemporaryDirectory())
        #expect(download.value == nil && download.error?.code == 2003 && download.calls == 1)
        #expect(progress == [-1])
        for outcome in [await media.delete(model), await media.deleteAll()] {
            #expect(outcome.value == false && outcome.error?.code == 2003 && outcome.calls == 1)
        }
    }

    @Test func aDisconnectedDeviceFailsAsNotConnectedWithoutARequest() async throws {
        let rig = try WatchRig()
        rig.connectivity.isConnected = false
        #expect(rig.media.supportedOperations(for: .audioRecording) == .none)
        let list = await rig.media.fetch()
        #expect(list.error?.code == 2003 && list.calls == 1)
        #expect(rig.sentCount == 0)
    }

    @Test func theWatchMaskHasNoDeleteAll() throws {
        let rig = try WatchRig()
        #expect(rig.media.supportedOperations(for: .audioRecording) == [.list, .download, .delete, .observeChanges])
        #expect(rig.media.supportedOperations(for: .unknown) == .none)
    }

    @Test func aMissingOperationFailsAsNotSupportedWithoutTouchingTheDevice() async throws {
        let rig = try WatchRig()
        let deleteAll = await rig.media.deleteAll()
        #expect(deleteAll.value == false && deleteAll.error?.code == 2004 && deleteAll.calls == 1)
        let unknown = await rig.media.fetch(.unknown)
        #expect(unknown.value == nil && unknown.error?.code == 2004)
        #expect(rig.sentCount == 0)
        #expect(rig.device.store.list().count == 3)
    }

    @Test func deleteAllWorksWhereTheDeviceReportsIt() async throws {
        let rig = try WatchRig(profile: .earbuds)  // earbuds announce mediaFile.deleteAll
        #expect(rig.media.supportedOperations(for: .audioRecording).contains(.deleteAll))
        let outcome = await rig.media.deleteAll()
        #expect(outcome.value == true && outcome.error == nil && outcome.calls == 1)
        #expect(rig.device.store.list(type: .audio).isEmpty)
    }

    // MARK: List

    @Test func listsTheRecordingsWithSizes() async throws {
        let rig = try WatchRig()
        let list = await rig.media.fetch()
        let files = try #require(list.value)
        #expect(list.error == nil && list.calls == 1)
        #expect(files.map(\.fileName) == ["REC_20260301_071500.opus", "REC_20260301_120000.opus", "REC_20260301_183000.opus"])
        #expect(files.map { $0.fileSize?.intValue } == [120_000, 64_000, 180_000])
        #expect(files.allSatisfy { $0.type == .audioRecording && $0.identifier.hasPrefix("ts1.") })
    }

    @Test func noFilesIsAnEmptyArrayNotNil() async throws {
        let rig = try WatchRig(seeds: [])
        let list = await rig.media.fetch()
        #expect(list.value == [] && list.error == nil && list.calls == 1)
    }

    @Test func listingPagesThroughMoreThanOnePage() async throws {
        let seeds = (0..<300).map { MediaSeed.generated(String(format: "R%04d.opus", $0), type: .audio, size: 10) }
        let rig = try WatchRig(seeds: seeds)
        let files = try #require(await rig.media.fetch().value)
        #expect(files.count == 300)
        #expect(Set(files.map(\.identifier)).count == 300)
    }

    // MARK: Download

    @Test func downloadsIntoAMissingFolderWithRisingProgressAndVerifiedBytes() async throws {
        let rig = try WatchRig()
        let file = try #require(await rig.media.fetch().value?.last)
        let folder = rig.scratch("not/yet/there")
        let (outcome, progress) = await rig.media.download(file, to: folder)
        let path = try #require(outcome.value)
        #expect(outcome.error == nil && outcome.calls == 1)
        #expect(path == folder + "/REC_20260301_183000.opus")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == rig.deviceBytes(file.fileName))
        // Progress: percentages within 0...100, rising, 100 last, all before the completion.
        #expect(progress.last == -1)
        let values = progress.dropLast()
        #expect(values.count > 2)
        #expect(values.allSatisfy { (0...100).contains($0) })
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
        #expect(values.last == 100)
        // No partial file (or folder) is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["REC_20260301_183000.opus"])
    }

    @Test func anExistingFileIsNeverOverwritten() async throws {
        let rig = try WatchRig()
        let file = try #require(await rig.media.fetch().value?.first)
        let folder = rig.scratch("dest")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let mine = folder + "/" + file.fileName
        try Data("precious".utf8).write(to: URL(fileURLWithPath: mine))
        let (first, _) = await rig.media.download(file, to: folder)
        let (second, _) = await rig.media.download(file, to: folder)
        #expect(first.value == folder + "/REC_20260301_071500 (1).opus")
        #expect(second.value == folder + "/REC_20260301_071500 (2).opus")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "precious")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(second.value))) == rig.deviceBytes(file.fileName))
    }

    @Test func hostileDeviceNamesStayInsideTheFolder() async throws {
        let rig = try WatchRig(seeds: [.generated("../../escape.opus", type: .audio, size: 3000)])
        let file = try #require(await rig.media.fetch().value?.first)
        #expect(file.fileName == "../../escape.opus")
        let folder = rig.scratch("inside")
        let (outcome, _) = await rig.media.download(file, to: folder)
        #expect(outcome.value == folder + "/_._.._escape.opus")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(outcome.value))) == rig.deviceBytes(file.fileName))
    }

    @Test func anEmptyRecordingDownloadsAsAnEmptyFile() async throws {
        let rig = try WatchRig(seeds: [.generated("empty.opus", type: .audio, size: 0)])
        let file = try #require(await rig.media.fetch().value?.first)
        let (outcome, progress) = await rig.media.download(file, to: rig.scratch("e"))
        let path = try #require(outcome.value)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        #expect(progress == [100, -1])
    }

    // MARK: Identifiers

    @Test func aMadeUpIdentifierIsRejectedWithoutTouchingTheDevice() async throws {
        let rig = try WatchRig()
        let fake = TSMediaFileModel(identifier: "REC_20260301_071500.opus", fileName: "REC_20260301_071500.opus",
                                    type: .audioRecording, fileSize: 120_000)
        let (download, _) = await rig.media.download(fake, to: rig.scratch("x"))
        #expect(download.value == nil && download.error?.code == 3001 && download.calls == 1)
        let delete = await rig.media.delete(fake)
        #expect(delete.value == false && delete.error?.code == 3001)
        #expect(rig.sentCount == 0)
        #expect(rig.device.store.list().count == 3)
    }

    @Test func anIdentifierFromAnotherDeviceIsRejected() async throws {
        let other = try WatchRig()
        let foreign = try #require(await other.media.fetch().value?.first)
        let rig = try WatchRig()
        let before = rig.sentCount
        let delete = await rig.media.delete(foreign)
        #expect(delete.error?.code == 3001)
        #expect(rig.sentCount == before)
        #expect(rig.device.store.list().count == 3)
    }

    @Test func aTamperedModelIsRejected() async throws {
        let rig = try WatchRig()
        let files = try #require(await rig.media.fetch().value)
        let tampered = TSMediaFileModel(identifier: files[0].identifier, fileName: files[1].fileName,
                                        type: .audioRecording, fileSize: files[1].fileSize)
        let delete = await rig.media.delete(tampered)
        #expect(delete.error?.code == 3001)
        #expect(rig.device.store.list().count == 3)
    }

    @Test func modelsFromAListInvalidatedByADeletionAreStale() async throws {
        let rig = try WatchRig()
        let files = try #require(await rig.media.fetch().value)
        #expect(await rig.media.delete(files[0]).value == true)
        let delete = await rig.media.delete(files[1])
        #expect(delete.value == false && delete.error?.code == 3002 && delete.calls == 1)
        let (download, _) = await rig.media.download(files[2], to: rig.scratch("stale"))
        #expect(download.value == nil && download.error?.code == 3002)
        #expect(rig.device.store.list().map(\.name.text) == ["REC_20260301_120000.opus", "REC_20260301_183000.opus"])
        // A fresh list works again.
        let fresh = try #require(await rig.media.fetch().value)
        #expect(await rig.media.delete(fresh[0]).value == true)
    }

    @Test func modelsFromAListInvalidatedByANewRecordingAreStale() async throws {
        let rig = try WatchRig()
        let files = try #require(await rig.media.fetch().value)
        try rig.device.store.addGenerated(stem: "REC_NEW", extension: "opus", type: .audio, size: 5000)
        let delete = await rig.media.delete(files[0])
        #expect(delete.error?.code == 3002)
        let (download, _) = await rig.media.download(files[0], to: rig.scratch("stale"))
        #expect(download.error?.code == 3002)
        #expect(rig.device.store.list().count == 4)
    }

    @Test func aFileReplacedUnderTheSameNameIsNeverDownloadedForTheOldModel() async throws {
        let rig = try WatchRig(seeds: [.generated("a.opus", type: .audio, size: 4000, seed: 1)])
        let old = try #require(await rig.media.fetch().value?.first)
        _ = try rig.device.store.delete(MediaFileName("a.opus"))
        try rig.device.store.addGenerated(stem: "a", extension: "opus", type: .audio, size: 4000)
        let (download, _) = await rig.media.download(old, to: rig.scratch("r"))
        #expect(download.value == nil && download.error?.code == 3002)
        #expect(!FileManager.default.fileExists(atPath: rig.scratch("r/a.opus")))
    }

    // MARK: Delete

    @Test func deletesAListedFile() async throws {
        let rig = try WatchRig()
        let file = try #require(await rig.media.fetch().value?.first)
        let outcome = await rig.media.delete(file)
        #expect(outcome.value == true && outcome.error == nil && outcome.calls == 1)
        let after = try #require(await rig.media.fetch().value)
        #expect(!after.map(\.fileName).contains(file.fileName))
        #expect(after.count == 2)
    }
}
