@testable import AIBuds
@testable import AIBudsImport
import AIBudsDigest
import AIBudsEmulator
import AIBudsFoundation
import AIBudsTestKit
import Foundation
import Synchronization

import Testing

/// Imports that take each file's SHA-256 from the media list (docs/protocol.md §3) when the
/// device lists it, and ask the File group otherwise; either way every file is checked against it.
extension SDKTests {
    @Suite("Import with digests from the media list", .timeLimit(.minutes(2)))
    struct ImportListedDigestTests {
        private static let media: [ImportTestMedia] = (0..<12).map { .photo(String(format: "IMG_%04d.jpg", $0), 20_000 + UInt64($0)) }

        /// Imports every file of `fixture` through `channel`'s engine into a new folder.
        private func importAll(_ channel: any MediaImportControlChannel, into destination: URL) async throws -> ImportRun {
            let engine = MediaImportEngine(channel: channel, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let run = await ImportRun.collect(engine.importEvents(models, options: MediaImportOptions(destination: destination)))
            try? await engine.endTransferSession()
            return run
        }

        @Test func listedDigestsSpareTheHashRequests() async throws {
            let fixture = try ImportEmulatorFixture(Self.media)
            defer { fixture.stop() }
            try await waitUntilDigestsListed(fixture.emulator.device.store)
            let channel = ObservedChannel(device: try await fixture.connect())
            let run = try await importAll(channel, into: fixture.destination())
            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(channel.hashRequests == 0)
            for file in run.result.importedFiles {
                #expect(try SHA256.hash(fileAt: file.localFileURL) == fixture.sha256(of: file.metadata.fileName))
            }
            await fixture.shutdown()
        }

        @Test func anImportThatReportsNoProgressGivesOnlyItsResult() async throws {
            let fixture = try ImportEmulatorFixture(Self.media)
            defer { fixture.stop() }
            try await waitUntilDigestsListed(fixture.emulator.device.store)
            let engine = MediaImportEngine(channel: try await fixture.connect(), stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let options = MediaImportOptions(destination: fixture.destination(), reportsProgress: false)
            let run = await ImportRun.collect(engine.importEvents(models, options: options))
            try? await engine.endTransferSession()
            #expect(run.events.count == 1)
            guard case .completed? = run.events.first else { Issue.record("the only event is not the result"); return }
            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(run.result.importedFiles.count == Self.media.count)
            for file in run.result.importedFiles {
                #expect(try SHA256.hash(fileAt: file.localFileURL) == fixture.sha256(of: file.metadata.fileName))
                #expect(run.result.bytesFetched(for: file.metadata) == file.metadata.fileSize)
            }
            await fixture.shutdown()
        }

        @Test func aDeviceThatListsNoDigestsIsAskedForEachFile() async throws {
            let fixture = try ImportEmulatorFixture(Self.media) { $0.listsDigests = false }
            defer { fixture.stop() }
            let channel = ObservedChannel(device: try await fixture.connect())
            let run = try await importAll(channel, into: fixture.destination())
            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(run.result.importedFiles.count == Self.media.count)
            #expect(channel.hashRequests == Self.media.count)
            await fixture.shutdown()
        }

        @Test func aListedDigestThatDoesNotMatchTheBytesFailsTheFile() async throws {
            // A device file read from a host file, whose bytes change after the device hashed them.
            let sources = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: sources) }
            let source = sources.appendingPathComponent("clip.bin")
            try Data(repeating: 1, count: 50_000).write(to: source)
            let manifest = sources.appendingPathComponent("manifest.json")
            try JSONSerialization.data(withJSONObject: ["files": [
                ["name": "CLIP.mp4", "type": "video", "source": "clip.bin"], ["name": "IMG.jpg", "type": "image", "size": 3_000],
            ]]).write(to: manifest)
            let fixture = try ImportEmulatorFixture([]) { $0.manifest = manifest }
            defer { fixture.stop() }
            try await waitUntilDigestsListed(fixture.emulator.device.store)
            try Data(repeating: 2, count: 50_000).write(to: source)

            let destination = fixture.destination()
            let run = try await importAll(try await fixture.connect(), into: destination)
            #expect(run.result.importedFiles.map(\.metadata.fileName) == ["IMG.jpg"])
            #expect(run.result.failures.map(\.mediaFile.fileName) == ["CLIP.mp4"])
            #expect(run.result.failures.first?.error.code == .importFilesFailedDueToIntegrityMismatch)
            // Nothing of it under its name, and no partial file kept.
            #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent("CLIP.mp4").path))
            let partial = (try? FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent(".partial").path)) ?? []
            #expect(partial.isEmpty)
            await fixture.shutdown()
        }
    }
}
