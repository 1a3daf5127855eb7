import AIBudsAIDashboard
import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsSync
import Foundation

/// Records every AI session of the process in the dashboard: an `AISessionObserver` that turns
/// the AI SDK's session updates into ``/AIBudsAIDashboard/AIRecorder`` calls.
///
/// A session's start becomes a record (chat → AI conversation, audio recording → AI recording,
/// simultaneous interpretation → interpretation) with its device, provider, vendor and
/// parameters; its events become timeline entries (transcripts, whole replies, translations and
/// summaries as replies, failures as errors; streamed reply tokens are left out, the whole reply
/// follows); the audio it takes from its source is stored, converted to 16 kHz mono; its end
/// finishes the record (failed when it ended with an error). Spoken output is not stored.
public final class AIDashboardSessionObserver: AISessionObserver {
    /// Where the records go.
    public let recorder: AIRecorder
    private let sessions = Locked<[UUID: AIRecordSession]>([:])

    /// An observer recording into `recorder`; register it with ``register()`` or
    /// `AIBudsAISDK.addSessionObserver(_:)`.
    public init(recorder: AIRecorder) {
        self.recorder = recorder
    }

    /// Adds this observer to the AI SDK, so every session started from now on is recorded.
    public func register() {
        AIBudsAISDK.addSessionObserver(self)
    }

    /// Stops recording new updates (records already made stay).
    public func unregister() {
        AIBudsAISDK.removeSessionObserver(self)
    }

    /// Records one update of session `id` (the AI SDK calls it).
    public func aiSession(_ id: UUID, didUpdate update: AISessionUpdate) {
        if case .started(let info) = update {
            start(id, info)
            return
        }
        guard let record = sessions.withLock({ $0[id] }) else { return }
        switch update {
        case .started: break
        case .event(let event): Self.record(event, in: record)
        case .inputAudio(let audio): record.audio(Self.speechSamples(audio))
        case .outputAudio: break
        case .ended(let result, let error):
            if let error { record.error(error.message, code: "\(error.code)") }
            record.event("ended", detail: String(format: "%.1f s of input", result.inputDuration))
            record.finish(error == nil ? .finished : .failed)
            _ = sessions.withLock { $0.removeValue(forKey: id) }
        }
    }

    private func start(_ id: UUID, _ info: AISessionInfo) {
        var details = ["provider": info.providerName, "vendor": info.vendor, "session": id.uuidString]
        if let mac = info.device.macAddress { details["mac"] = mac }
        if let product = info.device.product { details["product"] = product }
        let device = AIRecordDevice(identifier: info.device.macAddress ?? info.device.name, name: info.device.name, details: details)
        let parameters = info.parameters
        var values = [
            "language": parameters.language, "system prompt": parameters.systemPrompt,
            "max tokens": String(parameters.chatOptions.maxTokens), "temperature": String(parameters.chatOptions.temperature),
            "end of utterance silence (s)": String(parameters.endOfUtteranceSilence),
            "max utterance (s)": String(parameters.maxUtteranceDuration),
            "provider": info.providerName, "vendor": info.vendor,
        ]
        if let target = parameters.targetLanguage { values["target language"] = target }
        if let voice = parameters.voice { values["voice"] = voice }
        do {
            let record = try recorder.start(kind: Self.kind(info.kind), device: device, parameters: values, at: info.startedAt)
            sessions.withLock { $0[id] = record }
        } catch {
            recorder.logger.log(.error, "dashboard", "cannot record AI session \(id): \(error)")
        }
    }

    /// The record kind of a session kind.
    public static func kind(_ kind: AISessionKind) -> AIRecordKind {
        switch kind {
        case .chat: .aiConversation
        case .audioRecording: .aiRecording
        case .simultaneousInterpretation: .simultaneousInterpretation
        case .streamingASR: .transcription
        case .conversationTranslation: .conversationTranslation
        }
    }

    private static func record(_ event: AISessionEvent, in record: AIRecordSession) {
        switch event {
        case .started: record.event("started")
        case .speechStarted(let at): record.event("speech started", detail: String(format: "at %.2f s", at))
        case .speechEnded(let span):
            record.event("speech ended", detail: String(format: "utterance %d, %.2f–%.2f s", span.index, span.start, span.end))
        case .transcript(_, let transcript): record.transcript(transcript.text, language: transcript.language ?? "")
        case .replyToken, .partialTranscript: break
        case .reply(_, let text): record.reply(text)
        case .translatedSegment(_, let source, let translation): record.reply(translation, language: "from: \(source)")
        case .speaking(let utterance): record.event("speaking", detail: "utterance \(utterance)")
        case .summary(let summary): record.reply(summary, language: "summary")
        case .finished: record.event("finished")
        case .failed(let error): record.error(error.message, code: "\(error.code)")
        case .canceled: record.event("canceled")
        }
    }

    /// `audio` as 16 kHz mono samples (mixed down, then linearly resampled when its rate differs).
    static func speechSamples(_ audio: PCMAudio) -> [Int16] {
        let mono = audio.channels == 1 ? audio : audio.mixedToMono()
        let target = PCMAudio.speechSampleRate
        guard mono.sampleRate != target, mono.sampleRate > 0, !mono.samples.isEmpty else { return mono.samples }
        let count = Int((Double(mono.samples.count) * Double(target) / Double(mono.sampleRate)).rounded())
        let step = Double(mono.sampleRate) / Double(target)
        return (0..<count).map { index in
            let position = Double(index) * step
            let lower = min(Int(position), mono.samples.count - 1)
            let upper = min(lower + 1, mono.samples.count - 1)
            let fraction = position - Double(lower)
            return Int16((Double(mono.samples[lower]) * (1 - fraction) + Double(mono.samples[upper]) * fraction).rounded())
        }
    }
}
