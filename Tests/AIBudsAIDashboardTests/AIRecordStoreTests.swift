import AIBudsAIDashboard
import AIBudsTestKit
import Foundation
import Testing

/// One second of a 440 Hz tone at 16 kHz, at half scale.
func tone(seconds: Double = 1, amplitude: Double = 16000) -> [Int16] {
    (0..<Int(16000 * seconds)).map { Int16(amplitude * sin(2 * Double.pi * 440 * Double($0) / 16000)) }
}

@Suite(.timeLimit(.minutes(2))) struct AIRecordStoreTests {
    let glasses = AIRecordDevice(identifier: "glasses-1", name: "Office glasses", details: ["firmware": "2.1.0", "battery": "80%"])

    @Test func recordsASessionWithEverythingItReports() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory())
        let recorder = AIRecorder(store: store)
        let session = try recorder.start(kind: .aiConversation, device: glasses, parameters: ["language": "en-US", "provider": "starburst"])
        session.event("listening")
        session.audio(tone())
        session.transcript("what is the weather", language: "en")
        session.reply("Sunny, 21 degrees.")
        session.error("provider timed out", code: "504")
        session.finish(.failed)
        session.event("after the end is still kept")

        let detail = try #require(try store.record(session.id))
        #expect(detail.summary.kind == .aiConversation)
        #expect(detail.summary.status == .failed)
        #expect(detail.summary.errorCount == 1)
        #expect(detail.summary.audioSeconds == 1)
        #expect(detail.summary.endedAt != nil)
        #expect(detail.device == glasses)
        #expect(detail.parameters == ["language": "en-US", "provider": "starburst"])
        #expect(detail.timeline.map(\.kind) == [.event, .transcript, .reply, .error, .event])
        #expect(detail.timeline[3].detail == "504")

        // The audio is a valid 16 kHz mono 16-bit WAV file holding exactly the samples.
        let wav = try Data(contentsOf: store.audioURL(session.id))
        #expect(wav.count == 44 + 32000)
        #expect(String(decoding: wav[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: wav[8..<16], as: UTF8.self) == "WAVEfmt ")
        let rate = wav[24..<28].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let dataSize = wav[40..<44].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        #expect(rate == 16000)
        #expect(dataSize == 32000)
    }

    @Test func filtersByKindDeviceTimeAndErrors() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory())
        let recorder = AIRecorder(store: store)
        let base = Date(timeIntervalSinceNow: -3600)
        let first = try recorder.start(kind: .aiRecording, device: glasses, at: base)
        let second = try recorder.start(kind: .simultaneousInterpretation, device: AIRecordDevice(identifier: "buds-2", name: "Buds"), at: base + 60)
        second.error("lost the link")
        let third = try recorder.start(kind: .aiRecording, device: AIRecordDevice(identifier: "buds-2", name: "Buds"), at: base + 120)
        #expect(try store.records().map(\.id) == [third.id, second.id, first.id])
        #expect(try store.records(matching: AIRecordFilter(kind: .aiRecording)).map(\.id) == [third.id, first.id])
        #expect(try store.records(matching: AIRecordFilter(device: "OFFICE")).map(\.id) == [first.id])
        #expect(try store.records(matching: AIRecordFilter(device: "buds-2")).count == 2)
        #expect(try store.records(matching: AIRecordFilter(since: base + 30)).map(\.id) == [third.id, second.id])
        #expect(try store.records(matching: AIRecordFilter(errorsOnly: true)).map(\.id) == [second.id])
    }

    @Test func retentionKeepsTheNewestAndRemovesTheirAudio() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory(), maximumRecords: 2)
        let recorder = AIRecorder(store: store)
        let oldest = try recorder.start(kind: .aiRecording, device: glasses, at: Date() - 30)
        oldest.audio(tone(seconds: 0.1))
        #expect(FileManager.default.fileExists(atPath: store.audioURL(oldest.id).path))
        _ = try recorder.start(kind: .aiRecording, device: glasses, at: Date() - 20)
        let newest = try recorder.start(kind: .aiRecording, device: glasses, at: Date() - 10)
        #expect(try store.records().count == 2)
        #expect(try store.record(oldest.id) == nil)
        #expect(!FileManager.default.fileExists(atPath: store.audioURL(oldest.id).path))
        #expect(try store.records().first?.id == newest.id)

        let aged = try AIRecordStore(directory: try makeTemporaryDirectory(), maximumAge: 60)
        _ = try AIRecorder(store: aged).start(kind: .aiRecording, device: glasses, at: Date() - 120)
        #expect(try aged.records().isEmpty)
    }

    @Test func recordsSurviveARestartAndUnfinishedOnesOfEndedProcessesCountAsFailed() async throws {
        let directory = try makeTemporaryDirectory()
        let id: Int64
        do {
            let store = try AIRecordStore(directory: directory)
            let session = try AIRecorder(store: store).start(kind: .aiRecording, device: glasses, parameters: ["mode": "meeting"])
            session.transcript("kept across restarts")
            session.audio(tone(seconds: 0.5))
            id = session.id
        }
        // This process is alive: its running record stays running for another opener (a viewer).
        let viewer = try AIRecordStore(directory: directory)
        #expect(try viewer.record(id)?.summary.status == .running)
        // The process that recorded it is gone (a pid no process has): it did not finish.
        let sqlite = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [directory.appendingPathComponent("records.sqlite").path, "UPDATE record SET owner_pid = 2147483646"])
        #expect(sqlite.status == 0, "\(sqlite.err)")
        let reopened = try AIRecordStore(directory: directory)
        let detail = try #require(try reopened.record(id))
        #expect(detail.summary.status == .failed)
        #expect(detail.timeline.map(\.text) == ["kept across restarts"])
        #expect(detail.summary.audioSeconds == 0.5)
    }

    @Test func exportsJSONAndAudioFiles() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory())
        let recorder = AIRecorder(store: store)
        let withAudio = try recorder.start(kind: .aiConversation, device: glasses)
        withAudio.audio(tone(seconds: 0.25))
        withAudio.finish()
        let without = try recorder.start(kind: .aiRecording, device: glasses)
        without.finish()
        let target = try makeTemporaryDirectory().appendingPathComponent("export")
        #expect(try store.export(to: target).exported == 2)
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: target.appendingPathComponent("records.json"))) as? [[String: Any]]
        #expect(records?.count == 2)
        let exported = try Data(contentsOf: target.appendingPathComponent("audio/\(withAudio.id).wav"))
        #expect(exported == (try Data(contentsOf: store.audioURL(withAudio.id))))
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("audio/\(without.id).wav").path))
    }

    @Test func observersHearEveryChange() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory())
        let heard = LockedChanges()
        let token = store.addObserver { heard.append($0) }
        let session = try AIRecorder(store: store).start(kind: .aiRecording, device: glasses)
        session.event("e")
        session.audio([1, 2, 3])
        session.finish()
        store.removeObserver(token)
        session.event("unheard")
        #expect(heard.all.map(\.change) == ["created", "entry", "updated", "updated"])
        #expect(heard.all.allSatisfy { $0.id == session.id })
    }
}

final class LockedChanges: @unchecked Sendable {
    private var changes: [AIRecordStore.Change] = []
    private let lock = NSLock()
    func append(_ change: AIRecordStore.Change) { lock.withLock { changes.append(change) } }
    var all: [AIRecordStore.Change] { lock.withLock { changes } }
}
