import AIBudsDigest
import AIBudsFoundation
import AIBudsTestKit
import AIBudsSMP
import AIBudsWire
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// The import engine's async API against a real emulator over real sockets.
extension SDKTests {
    @Suite("Import engine against the emulator", .timeLimit(.minutes(2)))
    struct ImportEngineTests {
        @Test func fetchReportsEveryStepAndImportsVerifiedFiles() async throws {
            let fixture = try ImportEmulatorFixture([
                .photo("IMG_0001.jpg", 300_000), .video("VID_0001.mp4", 2_500_000), .audio("AUD_0001.m4a", 40_000),
                .photo("..%2F evil\u{0007}/name ü.jpg", 1_000),
            ])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())

            let (events, models) = try await fetchAll(engine)
            guard case .joiningHotspot(let ssid) = events[5] else { Issue.record("no join step: \(events)"); return }
            #expect(ssid.hasPrefix("AIBuds-"))
            #expect(Array(events.dropLast()) == [
                .configuringHotspot, .hotspotConfigured, .enteringTransferMode, .transferModeEntered, .waitingForHotspot,
                .joiningHotspot(ssid: ssid), .hotspotJoined,
            ])
            #expect(Set(models.map(\.fileName)) == ["IMG_0001.jpg", "VID_0001.mp4", "AUD_0001.m4a", "..%2F evil\u{0007}/name ü.jpg"])
            for model in models {
                #expect(model.baseUrl.hasPrefix("http://127.0.0.1:"))
                #expect(model.generation != nil && model.fileId != nil && model.fileSize != nil)
                #expect(model.containsSixAxisDebounceInfo == (model.fileType == .video))
            }

            let destination = fixture.destination()
            let ledger = try ImportLedger(deviceID: device.mediaImportDeviceID, directory: fixture.folder.appendingPathComponent("ledger"))
            let run = await ImportRun.collect(engine.importEvents(models, options: MediaImportOptions(destination: destination, ledger: ledger)))
            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(run.result.importedFiles.count == 4)
            #expect(Set(run.started) == Set(models.map(\.fileName)))
            #expect(run.finished.allSatisfy { $0.error == nil })
            let batch = run.events.compactMap { if case .batchProgress(let index, let total) = $0 { return (index, total) } else { return nil } }
            // Once each, in index order, though files transfer side by side.
            #expect(batch.map(\.0) == [0, 1, 2, 3] && batch.allSatisfy { $0.1 == 4 })
            if case .completed = run.events.last {} else { Issue.record("the last event is not the completion") }

            // Chunks grow per file up to its size; every file matches the device's SHA-256.
            var transferred: [String: UInt64] = [:]
            for case .chunk(let chunk) in run.events {
                #expect(chunk.transferredSize >= transferred[chunk.taskID] ?? 0)
                #expect(chunk.fileSize == chunk.mediaFile.fileSize)
                transferred[chunk.taskID] = chunk.transferredSize
            }
            for file in run.result.importedFiles {
                let name = file.metadata.fileName
                #expect(FileManager.default.fileExists(atPath: file.localFileURL.path))
                #expect(file.localFileURL.deletingLastPathComponent().standardizedFileURL == destination.standardizedFileURL)
                #expect(try SHA256.hash(fileAt: file.localFileURL) == fixture.sha256(of: name))
                #expect(run.result.bytesFetched[MediaFileName(name)] == file.metadata.fileSize)
                #expect(ledger.entry(named: name)?.sha256 == (try fixture.sha256(of: name)).hexString)
                // No plugin in this engine's registry: six-axis videos say so, the rest are skipped.
                #expect(file.stabilizationStatus == (file.metadata.containsSixAxisDebounceInfo ? .pluginUnavailable : .skipped))
            }
            #expect(!run.events.contains { if case .stabilizationBegan = $0 { true } else { false } })

            // Importing again into the same folder finds identical files: nothing is fetched, nothing doubled.
            let again = await ImportRun.collect(engine.importEvents(models, options: MediaImportOptions(destination: destination)))
            #expect(again.result.success)
            #expect(again.result.bytesFetched.values.allSatisfy { $0 == 0 })
            let names = try FileManager.default.contentsOfDirectory(atPath: destination.path).filter { !$0.hasPrefix(".") }
            #expect(names.count == 4)
            await fixture.shutdown()
        }

        @Test func cancelKeepsPartialStateAndTheNextImportResumes() async throws {
            let size: UInt64 = 6_000_000
            let stallAt: UInt64 = 1 << 20
            let fixture = try ImportEmulatorFixture([.video("VID_big.mp4", size, sixaxis: false)], faults: ["http-stall=\(stallAt):20000"])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let destination = fixture.destination()
            let options = MediaImportOptions(destination: destination)

            let events = engine.importEvents(models, options: options)
            let progress = ByteProgress()
            let collector = Task { await ImportRun.collect(events, progress: progress) }
            try await eventually("progress.bytes == stallAt") { progress.bytes == stallAt }
            #expect(device.isBusy && device.deviceState == .busy)

            // While it runs: a second import and a fetch are refused with 6002.
            let second = await ImportRun.collect(engine.importEvents(models, options: options))
            #expect(second.result.error?.code == .fileImportAlreadyInProgress)
            await #expect(throws: AIBudsError.self) { _ = try await engine.fetchMediaFiles() }

            try await engine.cancel()
            let cancelled = await collector.value
            #expect(cancelled.result.error?.code == .importFilesCanceled)
            #expect(cancelled.result.importedFiles.isEmpty)
            #expect(cancelled.finished.map(\.error) == [.importFilesCanceled])
            #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent("VID_big.mp4").path))
            #expect(try partialSize(destination, "VID_big.mp4") == stallAt)
            #expect(!device.isBusy)
            await #expect(throws: AIBudsError.self) { try await engine.cancel() }

            // A new transfer session (the CLI's next run: a new data-plane port and token) resumes at
            // the partial file.
            try await engine.endTransferSession()
            let (_, fresh) = try await fetchAll(engine)
            #expect(fresh[0].baseUrl != models[0].baseUrl)
            let resumed = await ImportRun.collect(engine.importEvents(fresh, options: options))
            #expect(resumed.result.success, "\(String(describing: resumed.result.error))")
            #expect(resumed.result.bytesFetched[MediaFileName("VID_big.mp4")] == size - stallAt)
            #expect(try SHA256.hash(fileAt: destination.appendingPathComponent("VID_big.mp4")) == fixture.sha256(of: "VID_big.mp4"))
            await fixture.shutdown()
        }

        @Test func nothingToCancelOrImportIsReported() async throws {
            let fixture = try ImportEmulatorFixture([.photo("IMG_1.jpg", 1000)])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let error = await #expect(throws: AIBudsError.self) { try await engine.cancel() }
            #expect(error?.code == .fileImportNotInProgress)
            let model = MediaFileInfoModel(fileType: .image, fileName: "IMG_1.jpg", baseUrl: "http://127.0.0.1:1", fileSize: 1000, generation: 1)
            let run = await ImportRun.collect(engine.importEvents([model]))
            #expect(run.result.error?.code == .fileImportNotReady)
            #expect(run.events.count == 1)
            await fixture.shutdown()
        }

        @Test func deletionsMakeOlderModelsStaleAndReportTheDeviceStatus() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 1000), .photo("B.jpg", 2000), .audio("C.m4a", 3000)])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)

            try await engine.deleteMediaFile(named: "A.jpg")
            let stale = await ImportRun.collect(engine.importEvents(models.filter { $0.fileName == "B.jpg" }))
            #expect(stale.result.error?.code == .importFilesFailedDueToStaleMediaModel)
            #expect(stale.result.error?.message.contains("fetch the media list again") == true)

            let missing = await #expect(throws: AIBudsError.self) { try await engine.deleteMediaFile(named: "A.jpg") }
            #expect(missing?.deviceStatusCode == 2)

            let (_, fresh) = try await fetchAll(engine)
            #expect(fresh.map(\.fileName).sorted() == ["B.jpg", "C.m4a"])
            let run = await ImportRun.collect(engine.importEvents(fresh, options: MediaImportOptions(destination: fixture.destination())))
            #expect(run.result.success)

            #expect(try await engine.deleteAllMediaFiles() == 2)
            #expect(try await device.listMediaFiles(type: nil).files.isEmpty)

            // The vendor API's completion-handler forms, on the device itself.
            let deleted = CallRecorder()
            device.deleteMediaFile("B.jpg") { success, status, error in
                deleted.complete("delete(\(success), \(status.map { "\($0)" } ?? "nil"))", error)
            }
            let failure = try await deleted.waitForCompletion()
            // The device's own code reaches the app: 2, no such file.
            #expect(deleted.names == ["delete(false, 2)"])
            #expect((failure.userInfo[AIBudsError.deviceStatusCodeKey] as? NSNumber)?.intValue == 2)
            let all = CallRecorder()
            device.deleteAllMediaFiles { success, status, error in all.complete("deleteAll(\(success), \(status.map { "\($0)" } ?? "nil"))", error) }
            #expect(try await all.waitForAnyCompletion() == nil)
            #expect(all.names == ["deleteAll(true, 0)"])
            await fixture.shutdown()
        }

        /// Connects to `fixture`'s device, fetches and imports everything until the first 512 KiB
        /// (the fixture's `http-stall` holds the transfer there).
        private func importUntilTheStall(_ fixture: ImportEmulatorFixture) async throws -> (SMPGlassesDevice, MediaImportEngine, Task<ImportRun, Never>) {
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let progress = ByteProgress()
            let options = MediaImportOptions(destination: fixture.destination())
            let collector = Task { await ImportRun.collect(engine.importEvents(models, options: options), progress: progress) }
            try await eventually("progress.bytes >= 1 << 19") { progress.bytes >= 1 << 19 }
            return (device, engine, collector)
        }

        /// Cancels through the vendor's callback form; returns `cancel(success, status code)`.
        private func cancelThroughTheCallback(_ engine: MediaImportEngine) async throws -> String {
            let cancel = CallRecorder()
            engine.cancelMediaFileImport { success, status, error in
                cancel.complete("cancel(\(success), \(status.map { "\($0)" } ?? "nil"))", error)
            }
            #expect(try await cancel.waitForAnyCompletion() == nil)
            return cancel.names.joined()
        }

        @Test func theDevicesRefusalsReachTheAppWithTheirCodes() async throws {
            // The emulator refuses Media `delete` and `delete all` as busy (rc 5), and Hotspot
            // `cancel transfer` as bad state (rc 7).
            let fixture = try ImportEmulatorFixture(
                [.video("V.mp4", 4_000_000, sixaxis: false), .photo("P.jpg", 1000)],
                faults: ["refuse=65/1:5,refuse=65/2:5", "refuse=66/4:7", "http-stall=524288:20000"])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let deleted = CallRecorder()
            device.deleteMediaFile("P.jpg") { success, status, error in
                deleted.complete("delete(\(success), \(status.map { "\($0)" } ?? "nil"))", error)
            }
            let busy = try await deleted.waitForCompletion()
            #expect(deleted.names == ["delete(false, 5)"])
            #expect(busy.code == SdkErrorCode.deviceBusy.rawValue)
            let all = CallRecorder()
            device.deleteAllMediaFiles { success, status, error in all.complete("deleteAll(\(success), \(status.map { "\($0)" } ?? "nil"))", error) }
            _ = try await all.waitForCompletion()
            #expect(all.names == ["deleteAll(false, 5)"])
            #expect(try await device.listMediaFiles(type: nil).files.count == 2, "a refused deletion deletes nothing")

            // Cancelling in the transfer phase asks the device, which refuses here: the import
            // is cancelled all the same, and the app learns the device's code.
            let (_, engine, collector) = try await importUntilTheStall(fixture)
            #expect(try await cancelThroughTheCallback(engine) == "cancel(true, 7)")
            #expect((await collector.value).result.error?.code == .importFilesCanceled)
            await fixture.shutdown()
        }

        @Test func cancellingDuringTheTransferStopsTheDevicesTransfers() async throws {
            let fixture = try ImportEmulatorFixture([.video("V.mp4", 4_000_000, sixaxis: false)], faults: ["http-stall=524288:20000"])
            defer { fixture.stop() }
            let (device, engine, collector) = try await importUntilTheStall(fixture)
            let started = ContinuousClock.now
            // The device ended the stalled response at once (20 s of stall left), said 0, and
            // stays in transfer mode for the next import.
            #expect(try await cancelThroughTheCallback(engine) == "cancel(true, 0)")
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect((await collector.value).result.error?.code == .importFilesCanceled)
            #expect(try await device.requestQueryHotspotStatus().state == .hotspotOpen)
            await fixture.shutdown()
        }

        @Test func deleteAfterImportRemovesOnlyVerifiedFiles() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 10_000), .photo("B.jpg", 20_000), .photo("C.jpg", 30_000)])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let selection = models.filter { $0.fileName != "C.jpg" }
            let run = await ImportRun.collect(engine.importEvents(selection, options: MediaImportOptions(
                destination: fixture.destination(), deletesVerifiedFilesFromDevice: true)))
            #expect(run.result.success)
            #expect(try await device.listMediaFiles(type: nil).files.map(\.name) == ["C.jpg"])
            await fixture.shutdown()
        }

        @Test func aFileMovedToANumberedNameNeverTakesAnotherFilesOwnName() async throws {
            // "x.jpg" is taken on disk by another file, so the device's x.jpg needs a numbered name;
            // "x (2).jpg" is the device's other file's own name, so it gets "x (3).jpg".
            let fixture = try ImportEmulatorFixture([.photo("x.jpg", 10_000), .photo("x (2).jpg", 20_000)])
            defer { fixture.stop() }
            let destination = fixture.destination()
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            let mine = destination.appendingPathComponent("x.jpg")
            try Data("someone else's photo".utf8).write(to: mine)
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let run = await ImportRun.collect(engine.importEvents(models, options: MediaImportOptions(
                destination: destination, maximumConcurrentTransfers: 2)))
            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(try Data(contentsOf: mine) == Data("someone else's photo".utf8))
            #expect(try SHA256.hash(fileAt: destination.appendingPathComponent("x (3).jpg")) == fixture.sha256(of: "x.jpg"))
            #expect(try SHA256.hash(fileAt: destination.appendingPathComponent("x (2).jpg")) == fixture.sha256(of: "x (2).jpg"))
            await fixture.shutdown()
        }

        @Test func aDroppedConnectionResumesTransparently() async throws {
            let fixture = try ImportEmulatorFixture([.video("VID.mp4", 3_000_000, sixaxis: false)], faults: ["http-drop=1000000"])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let run = await ImportRun.collect(engine.importEvents(models, options: MediaImportOptions(destination: fixture.destination())))
            #expect(run.result.success, "\(String(describing: run.result.error))")
            #expect(try SHA256.hash(fileAt: run.result.importedFiles[0].localFileURL) == fixture.sha256(of: "VID.mp4"))
            await fixture.shutdown()
        }

        @Test func losingTheHotspotEndsTheBatchAndTheSession() async throws {
            let fixture = try ImportEmulatorFixture(
                [.video("V1.mp4", 4_000_000, sixaxis: false), .photo("P1.jpg", 1000), .photo("P2.jpg", 1000)],
                faults: ["http-stall=524288:20000"])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let (_, models) = try await fetchAll(engine)
            let destination = fixture.destination()
            let video = models.filter { $0.fileName == "V1.mp4" }
            let events = engine.importEvents(video + models.filter { $0.fileName != "V1.mp4" },
                                             options: MediaImportOptions(destination: destination, maximumConcurrentTransfers: 1))
            let progress = ByteProgress()
            let collector = Task { await ImportRun.collect(events, progress: progress) }
            try await eventually("progress.bytes == 1 << 19") { progress.bytes == 1 << 19 }
            fixture.emulator.device.leaveTransferMode()
            let run = await collector.value
            #expect(!run.result.success)
            #expect(run.result.error?.code == .importFilesFailedDueToDeviceHotspotConnectionLost
                || run.result.error?.code == .importFilesFailedDueToNetworkError)
            #expect(run.result.failures.count == 3)
            // The next import needs a new transfer session.
            if run.result.error?.code == .importFilesFailedDueToDeviceHotspotConnectionLost {
                let next = await ImportRun.collect(engine.importEvents(models))
                #expect(next.result.error?.code == .fileImportNotReady)
            }
            await fixture.shutdown()
        }
    }
}

/// The size of the partial download of `name` in `destination`.
func partialSize(_ destination: URL, _ name: String) throws -> UInt64 {
    let url = destination.appendingPathComponent(".partial/\(name).part")
    return (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value ?? 0
}
