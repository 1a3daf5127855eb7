import AIBudsAIDashboard
import AIBudsAIDashboardBridge
import AIBudsAIFoundation
import AIBudsAudio
import AIBudsTestKit
import Foundation
import Testing

/// The observer is fed the updates the AI SDK sends a session's observers, in its order.
@Suite(.timeLimit(.minutes(2))) struct AIDashboardSessionObserverTests {
    func info(_ kind: AISessionKind, device: AISessionDeviceInfo) -> AISessionInfo {
        AISessionInfo(
            id: UUID(), kind: kind, parameters: AISessionParameters(language: "en", targetLanguage: kind == .simultaneousInterpretation ? "es" : nil),
            device: device, providerName: "offline", vendor: "starBurst", startedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func anInterpretationSessionBecomesARecord() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory())
        let observer = AIDashboardSessionObserver(recorder: AIRecorder(store: store))
        let started = info(.simultaneousInterpretation, device: AISessionDeviceInfo(name: "udp://127.0.0.1:7000", macAddress: "AA:BB:CC:00:11:22", product: "glasses"))
        let id = started.id
        let span = AIUtteranceSpan(index: 0, start: 0.4, end: 1.9)
        let updates: [AISessionUpdate] = [
            .started(started),
            .event(.started),
            // 48 kHz stereo in: stored as 16 kHz mono.
            .inputAudio(PCMAudio(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: 1000, count: 96_000))),
            .event(.speechStarted(at: 0.4)),
            .event(.speechEnded(span)),
            .event(.transcript(span, AITranscript(text: "where is the station", language: "en"))),
            .event(.translatedSegment(utterance: 0, source: "where is the station", translation: "dónde está la estación")),
            .outputAudio(PCMAudio(sampleRate: 22_050, channels: 1, samples: [1, 2, 3])),
            .event(.speaking(utterance: 0)),
            .event(.finished),
            .ended(AISessionResult(kind: .simultaneousInterpretation, inputDuration: 1), nil),
        ]
        for update in updates { observer.aiSession(id, didUpdate: update) }
        // Updates of a session the observer never saw start are ignored.
        observer.aiSession(UUID(), didUpdate: .event(.started))

        let summary = try #require(try store.records().first)
        #expect(try store.records().count == 1)
        #expect(summary.kind == .simultaneousInterpretation)
        #expect(summary.status == .finished)
        #expect(summary.deviceIdentifier == "AA:BB:CC:00:11:22")
        #expect(summary.audioSeconds == 1)
        #expect(summary.startedAt == Date(timeIntervalSince1970: 1_800_000_000))
        let detail = try #require(try store.record(summary.id))
        #expect(detail.device.details["provider"] == "offline")
        #expect(detail.device.details["product"] == "glasses")
        #expect(detail.parameters["target language"] == "es")
        #expect(detail.parameters["language"] == "en")
        #expect(detail.timeline.map(\.kind) == [.event, .event, .event, .transcript, .reply, .event, .event, .event])
        #expect(detail.timeline[3].text == "where is the station")
        #expect(detail.timeline[4].text == "dónde está la estación")
        #expect(detail.timeline[2].detail == "utterance 0, 0.40–1.90 s")
    }

    @Test func aFailedChatIsRecordedAsFailedWithItsError() throws {
        let store = try AIRecordStore(directory: try makeTemporaryDirectory())
        let observer = AIDashboardSessionObserver(recorder: AIRecorder(store: store))
        let started = info(.chat, device: AISessionDeviceInfo(name: "file:/tmp/in.wav"))
        let error = AIError(.serverUnreachable, "the provider hung up")
        for update: AISessionUpdate in [
            .started(started), .event(.started),
            .inputAudio(PCMAudio(sampleRate: 16_000, channels: 1, samples: [0, 100, -100, 0])),
            .event(.replyToken(utterance: 0, text: "Hel")), .event(.reply(utterance: 0, text: "Hello.")),
            .event(.failed(error)), .ended(AISessionResult(kind: .chat), error),
        ] {
            observer.aiSession(started.id, didUpdate: update)
        }
        let summary = try #require(try store.records().first)
        #expect(summary.kind == .aiConversation)
        #expect(summary.status == .failed)
        #expect(summary.errorCount == 2)
        #expect(summary.deviceIdentifier == "file:/tmp/in.wav")
        let detail = try #require(try store.record(summary.id))
        #expect(detail.timeline.filter { $0.kind == .reply }.map(\.text) == ["Hello."])
        #expect(detail.timeline.first { $0.kind == .error }?.text == "the provider hung up")
        let wav = try Data(contentsOf: store.audioURL(summary.id))
        #expect(wav.count == 44 + 8)
    }

    @Test func kindsMapOneToOne() {
        #expect(Set(AISessionKind.allCases.map(AIDashboardSessionObserver.kind)) == Set(AIRecordKind.allCases))
    }
}
