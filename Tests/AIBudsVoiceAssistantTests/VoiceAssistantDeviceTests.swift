import AIBudsOfflineAI
import AIBudsTestKit
import Foundation
import Testing

/// The voice assistant as a wearer uses it: "hey glasses, take a photo" said into the emulated
/// glasses' microphone (espeak-ng speech, over the control link as Opus), heard by `aibuds
/// assistant` with the offline recognizer, and carried out on the glasses only when their voice
/// assistant service is authorized.
@Suite(.timeLimit(.minutes(3))) struct VoiceAssistantDeviceTests {
    /// The built `aibuds` beside the test bundle.
    static let executable: URL? = builtProduct("aibuds")

    @Test(.enabled(if: executable != nil, "the aibuds executable is not built"))
    func heyGlassesTakeAPhotoTakesOneOnlyWhenTheServiceIsAuthorized() async throws {
        try #require(MoonshineRecognizer.isInstalled, "scripts/asr-model.sh installs the Moonshine model")
        let aibuds = try #require(Self.executable)
        let directory = try makeTemporaryDirectory("voice-assistant")
        defer { try? FileManager.default.removeItem(at: directory) }
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "XDG_DATA_HOME": runtime.path]
        let mic = try await spokenWAV("Hey glasses, take a photo.", in: directory, name: "hey")

        for authorized in [true, false] {
            let (emulator, address) = try await RunningProgram.emulator(aibuds, [
                "--profile", "glasses", "--name", "Assistant Glasses", "--mic", mic.path,
            ], environment: environment)
            defer { emulator.terminate() }
            if authorized {
                let report = try await runProgram(aibuds, ["control", "--device", address, "auth", "report", "ok"], environment: environment)
                #expect(report.status == 0 && report.out.contains("authorized"), "\(report.out)\(report.err)")
            }
            let before = try await mediaNames(aibuds, address, environment)

            let assistant = try RunningProgram(aibuds, ["assistant", "--device", address, "--json"], environment: environment)
            defer { assistant.kill() }
            var events: [[String: Any]] = []
            while !events.contains(where: { ["executed", "refused", "failed"].contains($0["event"] as? String) }) {
                guard let line = try await onOwnThread({ assistant.readLine() }) else { break }
                if let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] { events.append(event) }
            }
            assistant.interrupt()
            let ended = try await onOwnThread { assistant.finish() }
            #expect(ended.status == 0, "\(ended.err)")

            let kinds = events.compactMap { $0["event"] as? String }
            #expect(kinds.first == "listening" && kinds.contains("wake"), "\(events)")
            let command = events.first { $0["event"] as? String == "command" }
            #expect((command?["intent"] as? [String: Any])?["action"] as? String == "takePhoto", "\(events)")
            let after = try await mediaNames(aibuds, address, environment)
            if authorized {
                let executed = try #require(events.first { $0["event"] as? String == "executed" }, "\(events)")
                let detail = try #require(executed["detail"] as? String)
                let photo = try #require(after.subtracting(before).first, "no new file on the glasses")
                #expect(after.count == before.count + 1 && photo.hasSuffix(".jpg"))
                #expect(detail == "photo \(photo)")
            } else {
                let refused = try #require(events.first { $0["event"] as? String == "refused" }, "\(events)")
                #expect((refused["detail"] as? String)?.contains("not authorized") == true, "\(refused)")
                #expect(after == before, "the glasses took a photo without authorization")
            }
        }
    }

    /// The names of the files on the device at `address`.
    private func mediaNames(_ aibuds: URL, _ address: String, _ environment: [String: String]) async throws -> Set<String> {
        let list = try await runProgram(aibuds, ["media", "list", "--device", address, "--json"], environment: environment)
        try #require(list.status == 0, "\(list.err)")
        let object = try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any]
        let files = object?["files"] as? [[String: Any]] ?? []
        return Set(files.compactMap { $0["name"] as? String })
    }
}
