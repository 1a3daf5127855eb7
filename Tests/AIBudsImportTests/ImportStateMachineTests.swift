import AIBudsFoundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

@Suite("Import state machine")
struct ImportStateMachineTests {
    private let session = TransferSession(baseURL: "http://127.0.0.1:9000", token: "t0k3n", ssid: "AIBuds-1", listGeneration: 5)

    private func model(_ name: String, generation: UInt64 = 5, baseUrl: String = "http://127.0.0.1:9000") -> MediaFileInfoModel {
        MediaFileInfoModel(fileType: .video, fileName: name, baseUrl: baseUrl, fileSize: 10, fileId: name, generation: generation)
    }

    private func fetched() -> MediaImportStateMachine {
        var machine = MediaImportStateMachine()
        guard case .start(let id) = machine.startFetch() else { Issue.record("fetch refused"); return machine }
        machine.fetchEnded(id: id, session: session)
        return machine
    }

    @Test func importBeforeAnyFetchIsNotReady() {
        var machine = MediaImportStateMachine()
        guard case .reject(let error) = machine.startImport([model("a.mp4")]) else { Issue.record("import started"); return }
        #expect(error.code == .fileImportNotReady)
        #expect(machine.state == .idle)
    }

    @Test func secondOperationWhileOneRunsIs6002() {
        var machine = fetched()
        guard case .start(let id, _, _) = machine.startImport([model("a.mp4")]) else { Issue.record("refused"); return }
        guard case .reject(let error) = machine.startImport([model("b.mp4")]) else { Issue.record("second import started"); return }
        #expect(error.code == .fileImportAlreadyInProgress)
        guard case .reject(let fetchError) = machine.startFetch() else { Issue.record("fetch started"); return }
        #expect(fetchError.code == .fileImportAlreadyInProgress)
        machine.importEnded(id: id)
        guard case .start = machine.startImport([model("b.mp4")]) else { Issue.record("refused after end"); return }
    }

    @Test func cancelNamesTheRunningOperationOrIs6003() {
        var machine = MediaImportStateMachine()
        #expect(machine.cancel() == .rejectNothingRunning)
        guard case .start(let fetchID) = machine.startFetch() else { Issue.record("refused"); return }
        #expect(machine.cancel() == .cancel(id: fetchID))
        machine.fetchEnded(id: fetchID, session: session)
        #expect(machine.cancel() == .rejectNothingRunning)
        guard case .start(let importID, _, _) = machine.startImport([model("a.mp4")]) else { Issue.record("refused"); return }
        #expect(importID != fetchID)
        #expect(machine.cancel() == .cancel(id: importID))
    }

    @Test func failedFetchLeavesNoSession() {
        var machine = fetched()
        guard case .start(let id) = machine.startFetch() else { Issue.record("refused"); return }
        machine.fetchEnded(id: id, session: nil)
        guard case .reject(let error) = machine.startImport([model("a.mp4")]) else { Issue.record("started"); return }
        #expect(error.code == .fileImportNotReady)
    }

    @Test func modelsFromBeforeADeletionAreStale() {
        var machine = fetched()
        machine.deleted(newGeneration: 6)
        guard case .reject(let error) = machine.startImport([model("a.mp4"), model("b.mp4")]) else {
            Issue.record("stale import started")
            return
        }
        #expect(error.code == .importFilesFailedDueToStaleMediaModel)
        #expect(error.message.contains("fetch the media list again"))
        #expect(error.message.contains("'a.mp4'"))
        // A new list (generation 6 or later) is fresh again.
        guard case .start = machine.startImport([model("a.mp4", generation: 6)]) else { Issue.record("fresh refused"); return }
    }

    @Test func endedFetchOrImportIsIgnoredWhenTheIDIsNotCurrent() {
        var machine = fetched()
        guard case .start(let id, _, _) = machine.startImport([model("a.mp4")]) else { Issue.record("refused"); return }
        machine.importEnded(id: id + 100)
        #expect(machine.state == .importing(id: id))
        machine.fetchEnded(id: id, session: nil)
        #expect(machine.state == .importing(id: id))
        #expect(machine.session == session)
    }

    @Test func duplicatesAreDroppedAndOldSessionModelsMoveToTheCurrentOne() {
        var machine = fetched()
        let old = model("a.mp4", baseUrl: "http://127.0.0.1:8000")
        guard case .start(_, let files, let current) = machine.startImport([old, model("b.mp4"), old]) else {
            Issue.record("refused")
            return
        }
        #expect(files.map(\.fileName) == ["a.mp4", "b.mp4"])
        #expect(files.allSatisfy { $0.baseUrl == session.baseURL })
        #expect(current == session)
    }

    @Test func lostHotspotEndsTheSession() {
        var machine = fetched()
        guard case .start(let id, _, _) = machine.startImport([model("a.mp4")]) else { Issue.record("refused"); return }
        machine.importEnded(id: id, hotspotLost: true)
        #expect(machine.session == nil)
        guard case .reject(let error) = machine.startImport([model("a.mp4")]) else { Issue.record("started"); return }
        #expect(error.code == .fileImportNotReady)
    }
}
