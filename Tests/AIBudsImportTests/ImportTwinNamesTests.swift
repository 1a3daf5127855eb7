@testable import AIBuds
@testable import AIBudsImport
import AIBudsDigest
import AIBudsEmulator
import AIBudsFoundation
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// `café.jpg` in NFC and in NFD are two device files (docs/protocol.md: names compare as exact
/// Unicode scalars), though Swift's `String` calls them equal: both must import, verified, as two
/// local files.
extension SDKTests {
    @Suite("Import of names equal but for Unicode normalisation", .timeLimit(.minutes(2)))
    struct ImportTwinNamesTests {
        static let nfc = "caf\u{E9}.jpg"
        static let nfd = "cafe\u{301}.jpg"
        static let media: [ImportTestMedia] = [
            ImportTestMedia(name: nfc, type: "image", size: 30_000, seed: 1),
            ImportTestMedia(name: nfd, type: "image", size: 40_000, seed: 2),
            .photo("plain.jpg", 1_000),
        ]

        @Test(arguments: [true, false])
        func bothTwinsImportVerifiedAsTwoLocalFiles(listsDigests: Bool) async throws {
            #expect(Self.nfc == Self.nfd, "the test needs names Swift's String takes for equal")
            let fixture = try ImportEmulatorFixture(Self.media, configure: { $0.listsDigests = listsDigests })
            defer { fixture.stop() }
            if listsDigests { try await waitUntilDigestsListed(fixture.emulator.device.store) }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            #expect(models.count == 3)
            let ledger = try ImportLedger(deviceID: device.mediaImportDeviceID, directory: fixture.folder.appendingPathComponent("ledger"))
            let destination = fixture.destination()
            let run = await ImportRun.collect(engine.importEvents(models, options: MediaImportOptions(destination: destination, ledger: ledger)))
            try? await engine.endTransferSession()

            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(run.result.failures.isEmpty)
            let imported = run.result.importedFiles
            #expect(imported.count == 3)
            #expect(Set(imported.map { MediaFileName($0.metadata.fileName) }) == Set(Self.media.map { MediaFileName($0.name) }))
            #expect(Set(imported.map { Array($0.localFileURL.lastPathComponent.utf8) }).count == 3, "three distinct local files")
            for file in imported {
                let name = file.metadata.fileName
                #expect(file.localFileURL.deletingLastPathComponent().standardizedFileURL == destination.standardizedFileURL)
                #expect(try SHA256.hash(fileAt: file.localFileURL) == fixture.sha256(of: name), "\(name.unicodeScalars.map(\.value))")
                #expect(run.result.bytesFetched(for: file.metadata) == file.metadata.fileSize)
                #expect(ledger.entry(named: name)?.sha256 == (try fixture.sha256(of: name)).hexString)
                #expect(ledger.entry(named: name)?.size == file.metadata.fileSize)
            }
            #expect(ledger.entries.count == 3)
            #expect(try fixture.sha256(of: Self.nfc) != fixture.sha256(of: Self.nfd))
            // Reloaded from its file, the ledger still holds both twins.
            let reloaded = try ImportLedger(deviceID: device.mediaImportDeviceID, directory: fixture.folder.appendingPathComponent("ledger"))
            #expect(reloaded.contains(name: Self.nfc, size: 30_000))
            #expect(reloaded.contains(name: Self.nfd, size: 40_000))
            #expect(!reloaded.contains(name: Self.nfd, size: 30_000))
            await fixture.shutdown()
        }

        @Test func theStateMachineKeepsBothTwinsOfARequest() throws {
            var machine = MediaImportStateMachine()
            guard case .start(let id) = machine.startFetch() else { Issue.record("no fetch"); return }
            machine.fetchEnded(id: id, session: TransferSession(baseURL: "http://127.0.0.1:1", token: "t", ssid: "s", listGeneration: 1))
            let models = [Self.nfc, Self.nfd, Self.nfc].map {
                MediaFileInfoModel(fileType: .image, fileName: $0, baseUrl: "http://127.0.0.1:1", fileSize: 1, generation: 1)
            }
            guard case .start(_, let files, _) = machine.startImport(models) else { Issue.record("not started"); return }
            #expect(files.map { Array($0.fileName.utf8) } == [Array(Self.nfc.utf8), Array(Self.nfd.utf8)])
        }

        @Test func localNameReservationsKeepTwinsApart() {
            let reservations = LocalNameReservations(names: [Self.nfc, Self.nfd])
            #expect(reservations.isAvailable(Self.nfd, for: 1))
            #expect(!reservations.isAvailable(Self.nfd, for: 0))
            #expect(reservations.take(Self.nfc, for: 0))
            #expect(!reservations.take(Self.nfc, for: 1))
        }
    }
}
