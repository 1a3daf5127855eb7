import AIBudsAIFoundation
import AIBudsAudio
import AIBudsOfflineAI
import AIBudsProcess
import AIBudsTestKit
import Foundation
import Testing

/// Conversation translation end to end, as two people use it: the wearer speaks English into
/// emulated glasses, the other person Spanish (a file, in real time); each turn is transcribed
/// (Moonshine for English, the multilingual Whisper server for Spanish), translated by Apertium and
/// spoken by espeak-ng to the other side: on the glasses' speaker, and into a file.
@Suite(localAIServersEnabled, .timeLimit(.minutes(5))) struct ConversationTranslationTests {
    @Test(.enabled(if: DeviceAIRecordingTests.executable != nil, "the aibuds executable is not built"))
    func eachSideHearsTheOtherInItsOwnLanguage() async throws {
        let aibuds = try #require(DeviceAIRecordingTests.executable)
        let directory = try makeTemporaryDirectory("conversation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let servers = try await LocalAIServers.environment()
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = servers.merging(["XDG_RUNTIME_DIR": runtime.path, "XDG_DATA_HOME": runtime.path]) { $1 }

        let english = try await spokenWAV("The meeting starts at ten in the small room.", in: directory, name: "english")
        // espeak-ng's Spanish at its default speed is too fast for Whisper base ("cuemos días").
        let spanish = try await spokenWAV("Buenos días, ¿dónde está la estación de tren?", voice: "es", speed: 130, in: directory, name: "spanish")
        let glassesOut = directory.appendingPathComponent("glasses-speaker.wav")
        let otherOut = directory.appendingPathComponent("other-hears.wav")
        let (emulator, address) = try await RunningProgram.emulator(aibuds, [
            "--profile", "glasses", "--name", "Conversation Glasses",
            "--mic", english.path, "--speaker-out", glassesOut.path,
        ], environment: environment)
        defer { emulator.terminate() }

        let converse = try RunningProgram(aibuds, [
            "ai", "converse", "--device", address, "--other-input", spanish.path, "--other-output", otherOut.path,
            "--provider", "offline", "--json",
        ], environment: environment)
        defer { converse.kill() }
        var translations: [Int: String] = [:]
        var heard: [Int: String] = [:]
        while translations.count < 2 {
            guard let line = try await onOwnThread({ converse.readLine() }) else { break }
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let side = event["side"] as? Int, let text = event["text"] as? String
            else { continue }
            if event["event"] as? String == "transcript" { heard[side] = text }
            if event["event"] as? String == "translatedSegment" { translations[side] = text }
        }
        converse.interrupt()
        let ended = try await onOwnThread { converse.finish() }
        #expect(ended.status == 0, "\(ended.err)")

        // What each side said, and what the other was told (the words every run heard; robotic
        // speech through two recognizers and Apertium loses some of the others).
        func words(_ text: String?) -> Set<String> {
            Set(AITranscript(text: (text ?? "").folding(options: .diacriticInsensitive, locale: nil)).words)
        }
        #expect(words(heard[0]).isSuperset(of: ["small", "room"]), "\(heard)")
        #expect(words(heard[1]).isSuperset(of: ["donde", "esta", "estacion"]), "\(heard)")
        #expect(words(translations[0]).isSuperset(of: ["sala", "pequena"]), "\(translations)")
        #expect(words(translations[1]).isSuperset(of: ["where", "station"]) || words(translations[1]).isSuperset(of: ["where", "season"]), "\(translations)")

        // The glasses' speaker said the English translation: Moonshine hears it there.
        let played = try WAVFile.read(from: glassesOut)
        #expect(played.duration > 1)
        let check = directory.appendingPathComponent("played.wav")
        try WAVFile.write(played, to: check)
        let transcribed = try await runProgram(aibuds, ["ai", "transcribe", check.path, "--provider", "offline"], environment: environment)
        #expect(words(transcribed.out).contains("where"), "the glasses played '\(transcribed.out)'")
        // The other person heard the Spanish translation.
        let told = try WAVFile.read(from: otherOut)
        #expect(told.duration > 1, "\(told.duration) s")
    }
}

/// Conversation translation with the other person listening to this machine (no
/// `--other-output`): what the wearer says reaches a real PulseAudio server, recorded from its
/// sink's monitor; with no sound server the command says so before it starts.
@Suite(.timeLimit(.minutes(3))) struct ConversationLocalSpeakerTests {
    @Test(.enabled(if: DeviceAIRecordingTests.executable != nil, "the aibuds executable is not built"))
    func theWearersTurnPlaysOnThisMachine() async throws {
        try #require(MoonshineRecognizer.isInstalled, "scripts/asr-model.sh installs the Moonshine model")
        let aibuds = try #require(DeviceAIRecordingTests.executable)
        let directory = try makeTemporaryDirectory("conversation-speaker")
        defer { try? FileManager.default.removeItem(at: directory) }
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("pulse")
        let pulse = try ChildProcess("/usr/bin/pulseaudio", [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
            "-L", "module-null-sink sink_name=aibuds", "-L", "module-native-protocol-unix socket=\(socket.path) auth-anonymous=1",
        ], environment: ["HOME": directory.path, "XDG_RUNTIME_DIR": runtime.path], output: .discard, errors: .discard)
        defer { pulse.kill() }
        try await eventually("the PulseAudio socket") { FileManager.default.fileExists(atPath: socket.path) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "XDG_DATA_HOME": runtime.path, "PULSE_SERVER": "unix:\(socket.path)"]

        let english = try await spokenWAV("The meeting starts at ten in the small room.", in: directory, name: "english")
        let silence = directory.appendingPathComponent("silence.wav")
        try WAVFile.write(PCMAudio(sampleRate: 16_000, channels: 1, samples: [Int16](repeating: 0, count: 16_000)), to: silence)
        let heard = directory.appendingPathComponent("heard.wav")
        let recorder = try ChildProcess("/usr/bin/parec", [
            "--server", "unix:\(socket.path)", "-d", "aibuds.monitor", "--rate", "16000", "--channels", "1",
            "--format", "s16le", "--file-format=wav", heard.path,
        ], environment: ["HOME": directory.path], output: .discard, errors: .discard)
        let (emulator, address) = try await RunningProgram.emulator(aibuds, [
            "--profile", "glasses", "--name", "Speaker Glasses", "--mic", english.path,
        ], environment: environment)
        defer { emulator.terminate() }

        let converse = try RunningProgram(aibuds, [
            "ai", "converse", "--device", address, "--other-input", silence.path, "--provider", "offline", "--json",
        ], environment: environment)
        defer { converse.kill() }
        var spoken = false
        while !spoken, let line = try await onOwnThread({ converse.readLine() }) {
            let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            // The wearer's turn (side 0) began playing, translated, to the other person; a stop
            // lets what is being spoken end.
            spoken = event?["side"] as? Int == 0 && event?["event"] as? String == "speaking"
        }
        converse.interrupt()
        let ended = try await onOwnThread { converse.finish() }
        #expect(spoken && ended.status == 0, "\(ended.out)\(ended.err)")
        recorder.interrupt()
        _ = await recorder.ended()

        // The null sink's monitor heard the Spanish translation: over half a second of loud samples.
        let played = try WAVFile.read(from: heard)
        let loud = played.samples.filter { abs(Int($0)) > 1_000 }.count
        #expect(Double(loud) / 16_000 > 0.5, "\(loud) loud samples in \(played.duration) s")
    }

    @Test(.enabled(if: DeviceAIRecordingTests.executable != nil, "the aibuds executable is not built"))
    func withoutASoundServerItSaysSoBeforeItStarts() async throws {
        let aibuds = try #require(DeviceAIRecordingTests.executable)
        let directory = try makeTemporaryDirectory("conversation-no-speaker")
        defer { try? FileManager.default.removeItem(at: directory) }
        let silence = directory.appendingPathComponent("silence.wav")
        try WAVFile.write(PCMAudio(sampleRate: 16_000, channels: 1, samples: [Int16](repeating: 0, count: 1_600)), to: silence)
        let run = try await runProgram(aibuds, [
            "ai", "converse", "--device", "udp://127.0.0.1:9", "--other-input", silence.path, "--provider", "offline",
        ], environment: ["XDG_RUNTIME_DIR": directory.path, "PULSE_SERVER": "unix:\(directory.path)/no-such-server"])
        #expect(run.status == 1)
        #expect(run.err.contains("cannot hear this machine") && run.err.contains("--other-output"), "\(run.err)")
    }
}
