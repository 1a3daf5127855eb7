import AIBudsAIDashboard
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Records are private to their user, and one bad record never spoils an export.
struct RecordPrivacyTests {
    private func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func recordsAndAudioAreReadableByTheirUserOnly() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let folder = try makeTemporaryDirectory().appendingPathComponent("records")
        let store = try AIRecordStore(directory: folder)
        let session = try AIRecorder(store: store).start(kind: .aiConversation, device: AIRecordStoreTests().glasses)
        session.audio(tone(seconds: 0.1))
        session.finish()
        #expect(mode(folder.path) == 0o700)
        #expect(mode(folder.appendingPathComponent("audio").path) == 0o700)
        for name in ["records.sqlite", "records.sqlite-wal", "records.sqlite-shm"] where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            #expect(mode(folder.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("records.sqlite-wal").path), "the store runs in WAL mode")
        #expect(mode(store.audioURL(session.id).path) == 0o600)
        // An export is private too.
        let target = try makeTemporaryDirectory().appendingPathComponent("export")
        _ = try store.export(to: target)
        #expect(mode(target.appendingPathComponent("records.json").path) == 0o600)
        #expect(mode(target.appendingPathComponent("audio/\(session.id).wav").path) == 0o600)
    }

    @Test func aCorruptRecordIsLeftOutOfTheExportAndReported() async throws {
        let folder = try makeTemporaryDirectory().appendingPathComponent("records")
        let store = try AIRecordStore(directory: folder)
        let recorder = AIRecorder(store: store)
        let good = try recorder.start(kind: .aiRecording, device: AIRecordStoreTests().glasses)
        good.finish()
        let bad = try recorder.start(kind: .aiRecording, device: AIRecordStoreTests().glasses)
        bad.finish()
        // Another program (or a disk error) spoils one record's stored device JSON.
        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        let result = try await runProgram(sqlite, [folder.appendingPathComponent("records.sqlite").path,
            "UPDATE record SET device_json = '{{{not json' WHERE id = \(bad.id)"])
        #expect(result.status == 0, "\(result.err)")
        let target = try makeTemporaryDirectory().appendingPathComponent("export")
        let report = try store.export(to: target)
        #expect(report.exported == 1)
        #expect(report.skipped.map(\.id) == [bad.id])
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: target.appendingPathComponent("records.json"))) as? [[String: Any]]
        #expect(records?.count == 1)
    }

    @Test func anExportNeverReplacesALinkADeviceOrTheStoreItself() throws {
        let folder = try makeTemporaryDirectory().appendingPathComponent("records")
        let store = try AIRecordStore(directory: folder)
        let session = try AIRecorder(store: store).start(kind: .aiRecording, device: AIRecordStoreTests().glasses)
        session.finish()
        // records.json as a symbolic link to a file of the user's: refused, the file untouched.
        let target = try makeTemporaryDirectory()
        let precious = target.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: precious)
        try FileManager.default.createSymbolicLink(at: target.appendingPathComponent("records.json"), withDestinationURL: precious)
        #expect(throws: (any Error).self) { try store.export(to: target) }
        #expect(try String(contentsOf: precious, encoding: .utf8) == "keep me")
        // Exporting into the store's own folder would replace nothing of the store: records.json is
        // not the database; but a records.json hard-linked to the database is refused.
        let other = try makeTemporaryDirectory()
        #expect(link(folder.appendingPathComponent("records.sqlite").path, other.appendingPathComponent("records.json").path) == 0)
        #expect(throws: (any Error).self) { try store.export(to: other) }
        #expect(try store.records().count == 1, "the store still works")
    }
}
