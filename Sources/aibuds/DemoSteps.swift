import AIBuds
import AIBudsImport
import AIBudsOfflineAI
import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsVoiceAssistant
import AIBudsDigest
import AIBudsEmulator
import AIBudsFoundation
import AIBudsSyntheticVideo
import AIBudsWire
import Foundation
import TopStepComKit

/// The demo's steps on the connected glasses: import (with stabilization), verify, compare, one AI
/// turn, a voice command to the offline voice assistant, the recordings through TopStep. Each step
/// adds to the summary; a failed step is reported there and the next one still runs.
struct DemoSteps {
    let emulator: Emulator
    var summary: DemoSummary

    /// Runs every step on `device`; `ok` is false when any step failed.
    func run(
        _ device: any MediaImportControlChannel & DeviceMediaFileImportAPI, folder: URL, records: URL, clock: ContinuousClock
    ) async throws -> (ok: Bool, summary: DemoSummary) {
        var summary = self.summary
        var ok = try await importAll(device, folder: folder, clock: clock, into: &summary)
        compare(into: &summary)
        guard let base = device as? any DeviceConvertible else { throw CommandFailure.failure("the glasses are not a device") }
        ok = await aiTurn(base, records: records, into: &summary) && ok
        ok = await voiceCommand(base, into: &summary) && ok
        return (ok, summary)
    }

    // MARK: Import

    private func importAll(
        _ device: any MediaImportControlChannel & DeviceMediaFileImportAPI, folder: URL, clock: ContinuousClock,
        into summary: inout DemoSummary
    ) async throws -> Bool {
        let engine = device.mediaImport
        let view = MediaImportProgressView(style: .detect(quiet: false))
        var models: [MediaFileInfoModel] = []
        do {
            for try await event in engine.fetchEvents() {
                view.show(event)
                if case .listed(let listed) = event { models = listed }
            }
        } catch {
            view.showFetchFailure(AIBudsError.from(error))
            return false
        }
        let started = clock.now
        view.begin(models, destination: folder)
        let interrupt = MediaInterrupt { Task { _ = try? await engine.cancel() } }
        var result: MediaImportResult?
        var stabilizing: ContinuousClock.Instant?
        for await event in engine.importEvents(models, options: MediaImportOptions(destination: folder)) {
            view.show(event)
            switch event {
            case .fileFinished: summary.importSeconds = (clock.now - started).seconds
            case .stabilizationBegan: stabilizing = clock.now
            case .stabilizationFinished: summary.stabilizationSeconds = stabilizing.map { (clock.now - $0).seconds } ?? 0
            case .completed(let done): result = done
            default: break
            }
        }
        interrupt.remove()
        try? await engine.endTransferSession()
        guard let result else { throw CommandFailure.failure("the import ended without a result") }
        summary.listed = models.count
        summary.imported = result.importedFiles
        summary.bytes = result.bytesFetched.values.saturatingSum { $0 }
        summary.importError = result.error?.message
        // Every file against the device's own digest, independently of the SDK's check.
        let store = emulator.device.store
        for file in result.importedFiles {
            guard let object = store.object(named: MediaFileName(file.metadata.fileName)),
                case .sha256(let expected) = try store.digest(.sha256, of: object).digest,
                try SHA256.hash(fileAt: file.localFileURL) == expected
            else {
                view.line("✗ \(TerminalText.safe(file.metadata.fileName)) does not match the device")
                continue
            }
            summary.verified += 1
        }
        return result.success && summary.verified == result.importedFiles.count
    }

    // MARK: Comparisons

    /// A side-by-side clip and a contact sheet beside each stabilized video.
    private func compare(into summary: inout DemoSummary) {
        for file in summary.imported {
            guard let stabilized = file.stabilizedFileURL else { continue }
            let original = file.localFileURL
            do {
                let written = try StabilizationComparison.write(
                    original: original, stabilized: stabilized, besideFolder: original.deletingLastPathComponent(),
                    stem: original.deletingPathExtension().lastPathComponent)
                summary.comparisons.append(written)
            } catch {
                summary.problems.append("no comparison for \(file.metadata.fileName): \(error)")
            }
        }
    }

    // MARK: AI

    /// One turn from the glasses' microphone: what was heard, its translation spoken on the
    /// glasses' speaker (the offline provider has no chat model; it interprets).
    private func aiTurn(_ device: any DeviceConvertible, records: URL, into summary: inout DemoSummary) async -> Bool {
        guard let audio = device as? any DeviceAIAudioAPI else {
            summary.problems.append("the glasses have no AI audio path")
            return false
        }
        CLI.say("")
        CLI.say("AI turn: the wearer asks \"\(DemoContent.questionText)\" into the glasses' microphone (offline provider)…")
        AISessionRecords(directory: records).start()
        let source = DeviceMicrophoneSource(device: audio, deviceInfo: AISessionDeviceInfo(
            name: device.name, macAddress: device.macAddress, product: "\(device.product)"))
        do {
            let session = try await AIBudsAISDK.startSimultaneousInterpretation(
                parameters: AISessionParameters(language: "en", targetLanguage: "es"), source: source,
                sink: DeviceSpeakerSink(device: audio))
            // The microphone plays the question, then a pause: its first utterance is the turn.
            let deadline = Task {
                try? await Task.sleep(for: .seconds(30))
                session.stop()
            }
            for await event in session.events {
                switch event {
                case .transcript(_, let transcript) where summary.heard == nil:
                    summary.heard = transcript.text
                    CLI.say("  heard      \(transcript.text)")
                case .translatedSegment(_, _, let translation) where summary.answer == nil:
                    summary.answer = translation
                    CLI.say("  answered   \(translation)  (spoken on the glasses' speaker)")
                    session.stop()
                case .failed(let error):
                    summary.problems.append("the AI turn failed: \(error.message)")
                default: break
                }
            }
            deadline.cancel()
            _ = try await session.result()
        } catch {
            summary.problems.append("the AI turn failed: \(AIError.from(error).message)")
            return false
        }
        return summary.heard != nil && summary.answer != nil
    }

    // MARK: Voice assistant

    /// The wearer's voice command, heard offline on the glasses' microphone and carried out on the
    /// glasses: the service is authorized through the app's bridge plugin first.
    private func voiceCommand(_ device: any DeviceConvertible, into summary: inout DemoSummary) async -> Bool {
        CLI.say("")
        CLI.say("Voice assistant: the wearer says \"\(DemoContent.commandText)\" (offline; the app's bridge authorizes the service)…")
        AIBudsSDK.setOnDeviceVoiceAssistantPlugin(DemoAssistantBridge())
        defer { AIBudsSDK.setOnDeviceVoiceAssistantPlugin(nil) }
        let assistant = VoiceAssistant(device: device)
        let outcome = Task { () -> Result<String, any Error> in
            do {
                for try await event in assistant.run() {
                    switch event {
                    case .wake: CLI.say("  woke       on \"hey glasses\"")
                    case .command(_, let text): CLI.say("  command    \(text)")
                    case .executed(let intent, let detail) where intent.action == .takePhoto:
                        CLI.say("  done       \(detail) (taken on the glasses)")
                        return .success(detail)
                    case .executed(let intent, let detail):
                        return .failure(CommandFailure.failure("heard \(intent.action) (\(detail)), not the photo asked for"))
                    case .refused(_, let reason), .failed(_, message: let reason): return .failure(CommandFailure.failure(reason))
                    default: break
                    }
                }
                return .failure(CommandFailure.failure(
                    Task.isCancelled ? "no command was heard in 60 s" : "the microphone ended before a command was heard"))
            } catch {
                return .failure(error)
            }
        }
        let deadline = Task {
            // The microphone plays the question and a pause (8 s in real time) before the command.
            try await Task.sleep(for: .seconds(60))
            outcome.cancel()
        }
        defer { deadline.cancel() }
        switch await outcome.value {
        case .success(let detail):
            summary.voiceCommand = detail
            return true
        case .failure(let error):
            let hint = MoonshineRecognizer.isInstalled ? "" : " (heard with PocketSphinx: scripts/asr-model.sh installs the offline recognizer's model)"
            summary.problems.append("the voice command failed: \((error as? CommandFailure)?.message ?? AIBudsError.from(error).message)" + hint)
            return false
        }
    }

    // MARK: TopStep

    /// Connects to the watch, lists its voice notes through TopStep's `TSMediaFile` API and
    /// downloads each into `folder` through the same API.
    static func watchRecordings(_ found: any FoundDeviceConvertible, to folder: URL, into summary: inout DemoSummary) async -> Bool {
        CLI.say("")
        CLI.say("TopStep: the wearer's watch, through TSMediaFile…")
        let kit = TopStepComKit.sharedInstance
        do {
            kit.device = try await DeviceCommandSupport.connect(found, naming: "the emulated watch")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in try await Recordings.fetch(kit.mediaFile) {
                let path = try await Recordings.download(kit.mediaFile, file, to: folder.path)
                summary.recordings.append((file.fileName, file.fileSize?.uint64Value ?? 0, URL(fileURLWithPath: path)))
                CLI.say("  downloaded \(TerminalText.safe(file.fileName))")
            }
            await Recordings.disconnect(kit)
            return true
        } catch {
            summary.problems.append("TopStep: \((error as? CommandFailure)?.message ?? "\(error)")")
            await Recordings.disconnect(kit)
            return false
        }
    }
}

/// The app's side of the voice assistant's authorization in the demo: it grants the service (an
/// app would ask its voice assistant vendor here).
private final class DemoAssistantBridge: OnDeviceVoiceAssistantBridgePlugin {
    func authorizeVoiceAssistant(device: any DeviceConvertible) async throws -> Data { Data("demo".utf8) }
}
