import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsFoundation
import AIBudsOfflineAI
import AIBudsOpenAI
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

/// Records every observer call, as the dashboard would.
final class RecordingObserver: AISessionObserver {
    let updates = Locked<[(UUID, AISessionUpdate)]>([])

    func aiSession(_ id: UUID, didUpdate update: AISessionUpdate) {
        updates.withLock { $0.append((id, update)) }
    }

    func updates(of id: UUID) -> [AISessionUpdate] {
        updates.withLock { $0.filter { $0.0 == id }.map(\.1) }
    }
}

/// A plugin for the StarBurst vendor that does its work through another provider, the way a
/// vendor plugin wraps its vendor's engines; counts the calls routed to it.
final class VendorPlugin: AIConnectSDK {
    let inner: any AIConnectSDK
    let vendor: AIServiceVendor
    let calls = Locked(0)
    let authorizedUser = Locked<String?>(nil)

    init(vendor: AIServiceVendor, inner: any AIConnectSDK) {
        self.vendor = vendor
        self.inner = inner
    }

    var providerName: String { "vendor-\(vendor)" }
    var capabilities: AICapabilities { inner.capabilities }

    func authorize(userId: String?, params: AIAuthParams?) async throws {
        authorizedUser.withLock { $0 = userId }
    }

    func translate(_ text: String, from source: String, to target: String) async throws -> String {
        calls.withLock { $0 += 1 }
        return try await inner.translate(text, from: source, to: target)
    }
}

/// The SDK's process-wide state (plugins, selection, observers): its tests run one at a time.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AISDKTests {
    @Test func callsRouteToTheSelectedVendorsPluginOrSayWhyNot() async throws {
        AIBudsAISDK.reset()
        defer { AIBudsAISDK.reset() }
        let notInitialized = await #expect(throws: AIError.self) { try await AIBudsAISDK.translateText("hi", from: "en", to: "es") }
        #expect(notInitialized?.code == .notInitialized)

        try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider()])
        let none = await #expect(throws: AIError.self) { try await AIBudsAISDK.summary("Some text.") }
        #expect(none?.code == .noProviderSelected)
        AIBudsAISDK.setAIServiceVendor(.starBurst)
        let missing = await #expect(throws: AIError.self) { try await AIBudsAISDK.summary("Some text.") }
        #expect(missing?.code == .providerUnavailable)
        #expect(missing?.message.contains("starBurst") == true)

        let starBurst = VendorPlugin(vendor: .starBurst, inner: OfflineAIProvider())
        try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider(), starBurst])
        AIBudsAISDK.setAuth(userId: "wearer-7", params: AIAuthParams())
        let spanish = try await AIBudsAISDK.translateText("The dog is black.", from: "en", to: "es")
        #expect(spanish.lowercased().contains("perro"))
        #expect(starBurst.calls.withLock { $0 } == 1)
        #expect(starBurst.authorizedUser.withLock { $0 } == "wearer-7")
        // The plugin does not summarize: the capability check says so before any call.
        let unsupported = await #expect(throws: AIError.self) { try await AIBudsAISDK.setAndCallUnsupported() }
        #expect(unsupported?.code == .capabilityUnsupported)

        AIBudsAISDK.setAIServiceVendor(.mltcloud)
        await #expect(throws: AIError.self) { try await AIBudsAISDK.translateText("hi", from: "en", to: "es") }
        // The project's own provider, chosen by name; the vendor enum is untouched.
        AIBudsAISDK.setAIProvider(named: "offline")
        #expect(try AIBudsAISDK.selectedProvider().providerName == "offline")
        let noChat = await #expect(throws: AIError.self) {
            try await AIBudsAISDK.startAIChat(source: PCMAudioSource(PCMAudio(sampleRate: 16_000, channels: 1, samples: [])), sink: nil)
        }
        #expect(noChat?.code == .capabilityUnsupported)
        AIBudsAISDK.setAIProvider(named: "cloud9")
        await #expect(throws: AIError(.providerUnavailable, "no AI plugin named 'cloud9' is loaded (loaded: offline, vendor-starBurst)")) {
            try await AIBudsAISDK.summary("x")
        }
        #expect(throws: AIError.self) { try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider(), OfflineAIProvider()]) }
        let empty = await #expect(throws: AIError.self) { try await AIBudsAISDK.translateText("  ", from: "en", to: "es") }
        #expect(empty?.code == .invalidParameters)
    }

    @Test func interpretationTranslatesAndSpeaksEachUtteranceAndObserversSeeAll() async throws {
        AIBudsAISDK.reset()
        defer { AIBudsAISDK.reset() }
        try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider()])
        AIBudsAISDK.setAIProvider(named: "offline")
        let observer = RecordingObserver()
        AIBudsAISDK.addSessionObserver(observer)
        let directory = try makeTemporaryDirectory()
        let first = try await spokenWAV("one two three", in: directory, name: "a")
        let second = try await spokenWAV("four five six", in: directory, name: "b")
        let input = try joinWithSilence([first, second], seconds: 1.2, to: directory.appendingPathComponent("input.wav"))
        let output = directory.appendingPathComponent("spanish.wav")

        let session = try await AIBudsAISDK.startSimultaneousInterpretation(
            parameters: AISessionParameters(language: "en", targetLanguage: "es"),
            source: WAVFileAudioSource(url: input), sink: WAVFileAudioSink(url: output))
        var events: [AISessionEvent] = []
        for await event in session.events { events.append(event) }
        let result = try await session.result()

        #expect(result.translations.count == 2, "\(events)")
        #expect(events.first == .started && events.last == .finished)
        let segments = events.compactMap { if case .translatedSegment(let i, _, let t) = $0 { (i, t) } else { nil } }
        #expect(segments.map(\.0) == [0, 1])
        #expect(events.contains(.speaking(utterance: 0)) && events.contains(.speaking(utterance: 1)))
        let spoken = try WAVFile.read(from: output)
        #expect(spoken.duration > 1)

        let updates = observer.updates(of: session.id)
        guard case .started(let info) = updates.first else { Issue.record("first update is not .started"); return }
        #expect(info.kind == .simultaneousInterpretation && info.providerName == "offline")
        #expect(info.parameters.targetLanguage == "es" && info.device.name.hasPrefix("file:"))
        guard case .ended(let ended, nil) = updates.last else { Issue.record("last update is not a clean .ended"); return }
        #expect(ended == result)
        let heard = updates.reduce(0.0) { if case .inputAudio(let a) = $1 { $0 + a.duration } else { $0 } }
        #expect(abs(heard - (try WAVFile.read(from: input).duration + 1)) < 0.01)
        let said = updates.reduce(0.0) { if case .outputAudio(let a) = $1 { $0 + a.duration } else { $0 } }
        #expect(abs(said - spoken.duration) < 0.01)
        #expect(updates.filter { if case .event = $0 { true } else { false } }.count == events.count)
    }

    @Test func aRecordingGivesTranscriptSummaryAndAudioThroughTheCallbackForm() async throws {
        AIBudsAISDK.reset()
        defer { AIBudsAISDK.reset() }
        try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider()])
        AIBudsAISDK.setAIProvider(named: "offline")
        let directory = try makeTemporaryDirectory()
        let wav = try await spokenWAV("one two three four five", in: directory)
        let events = Locked<[AISessionEvent]>([])
        let outcome = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AISessionResult, any Error>) in
            AIBudsAISDK.startAIAudioRecording(
                source: WAVFileAudioSource(url: wav),
                eventHandler: { event in events.withLock { $0.append(event) } },
                completion: { result, error in
                    if let result { continuation.resume(returning: result) } else { continuation.resume(throwing: error!) }
                })
        }
        #expect(outcome.transcripts.count == 1)
        #expect(Set(outcome.transcripts.first?.words ?? []).intersection(["one", "two", "three", "four", "five"]).count >= 3)
        #expect(outcome.summary == outcome.transcriptText)
        let recorded = try #require(outcome.recordedAudio)
        #expect(abs(recorded.duration - (try WAVFile.read(from: wav).duration + 1)) < 0.01)
        #expect(events.withLock { $0.contains(.summary(outcome.summary ?? "")) })
    }

    @Test func stopFinishesWhatWasHeardAndCancelDropsIt() async throws {
        AIBudsAISDK.reset()
        defer { AIBudsAISDK.reset() }
        try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider()])
        AIBudsAISDK.setAIProvider(named: "offline")
        let directory = try makeTemporaryDirectory()
        let words = try await spokenWAV("one two three", in: directory)
        let long = try joinWithSilence(Array(repeating: words, count: 6), seconds: 1, to: directory.appendingPathComponent("long.wav"))

        // Stop once the first utterance has ended: it is still transcribed, the rest never heard.
        let stopped = try await AIBudsAISDK.startAIAudioRecording(source: WAVFileAudioSource(url: long, realTime: true))
        for await event in stopped.events {
            if case .speechEnded = event { stopped.stop() }
        }
        let result = try await stopped.result()
        #expect(result.transcripts.count == 1)
        #expect(result.inputDuration < 8)

        let canceled = try await AIBudsAISDK.startAIAudioRecording(source: WAVFileAudioSource(url: long, realTime: true))
        var last: AISessionEvent?
        for await event in canceled.events {
            if case .speechStarted = event { canceled.cancel() }
            last = event
        }
        #expect(last == .canceled)
        await #expect(throws: AIError(.canceled)) { try await canceled.result() }
    }

    @Test(localAIServersEnabled) func aChatFromAFileIsHeardAnsweredAndSpokenByTheLocalServers() async throws {
        let configuration = OpenAICompatibleConfiguration.fromEnvironment(try await LocalAIServers.environment())
        AIBudsAISDK.reset()
        defer { AIBudsAISDK.reset() }
        try AIBudsAISDK.initialize(aiSDKs: [OpenAICompatibleProvider(configuration: configuration), OfflineAIProvider()])
        AIBudsAISDK.setAIProvider(named: "openai")
        let directory = try makeTemporaryDirectory()
        let question = try await spokenWAV("What is the capital of France?", in: directory)
        let sink = WAVFileAudioSink(url: directory.appendingPathComponent("reply.wav"))
        let session = try await AIBudsAISDK.startAIChat(source: WAVFileAudioSource(url: question), sink: sink)
        var tokens = 0
        for await event in session.events { if case .replyToken = event { tokens += 1 } }
        let result = try await session.result()
        let transcript = Set(result.transcripts.first?.words ?? [])
        #expect(transcript.isSuperset(of: ["capital", "france"]), "heard '\(result.transcriptText)'")
        #expect(tokens > 1)
        let reply = try #require(result.replies.first)
        #expect(!reply.isEmpty)
        let spoken = try #require(sink.received)
        #expect(spoken.duration > 0.3)
        // The spoken reply says the reply's words: Whisper hears some of them back.
        let heardBack = try await OpenAICompatibleProvider(configuration: configuration)
            .transcribe(try spoken.speechFormat(), language: "en")
        let replyWords = Set(AITranscript(text: reply).words)
        #expect(!replyWords.intersection(heardBack.words).isEmpty, "reply '\(reply)', heard '\(heardBack.text)'")
    }
}

extension AIBudsAISDK {
    /// A summary through the selected plugin (the vendor plugin has no summary).
    fileprivate static func setAndCallUnsupported() async throws {
        _ = try await summary("A sentence to summarize.")
    }
}

/// WAV files joined with `seconds` of silence between them (all 16 kHz mono).
func joinWithSilence(_ files: [URL], seconds: Double, to url: URL) throws -> URL {
    var samples: [Int16] = []
    for (index, file) in files.enumerated() {
        if index > 0 { samples += [Int16](repeating: 0, count: Int(seconds * 16_000)) }
        samples += try WAVFile.read(from: file).samples
    }
    try WAVFile.write(PCMAudio(sampleRate: 16_000, channels: 1, samples: samples), to: url)
    return url
}
