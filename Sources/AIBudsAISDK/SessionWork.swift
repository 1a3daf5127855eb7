import AIBudsAIFoundation
import AIBudsAudio
import AIBudsSync
import Foundation

/// The work of one session: listen, cut utterances, process each, speak, summarize.
final class SessionWork: Sendable {
    private struct Spoken: Sendable {
        var utterance: Int
        var text: String
        var language: String
    }

    private let session: AISession
    private let provider: any AIConnectSDK
    private let sink: (any AIAudioSink)?
    private let params: AISessionParameters
    private let kind: AISessionKind
    private let collected: Locked<AISessionResult>
    private let history = Locked<[AIChatMessage]>([])
    /// Whether a partial transcription waits in the queue (the listener queues at most one).
    private let partialQueued = Locked(false)
    /// How many utterances the listener has finished: a queued partial of one of them is stale.
    private let finishedUtterances = Locked(0)

    /// What the listener hands the processing loop, in the order it heard them.
    private enum Heard: Sendable {
        /// The utterance being spoken, so far: transcribe it for a partial.
        case partial(index: Int, audio: PCMAudio)
        /// A finished utterance.
        case utterance(Utterance)
    }

    init(session: AISession, provider: any AIConnectSDK, sink: (any AIAudioSink)?) {
        self.session = session
        self.provider = provider
        self.sink = sink
        params = session.info.parameters
        kind = session.info.kind
        collected = Locked(AISessionResult(kind: session.info.kind))
    }

    /// What the session had produced when it stopped early.
    var partialResult: AISessionResult { collected.withLock { $0 } }

    func run(source: any AIAudioSource) async throws -> AISessionResult {
        // `.started` comes first: the listener below may hear speech at once.
        session.emit(.started)
        let (utterances, utteranceInput) = AsyncThrowingStream.makeStream(of: Heard.self, throwing: (any Error).self)
        let listener = Task { await self.listen(source, into: utteranceInput) }
        if !session.setListener(listener) { listener.cancel() }
        let (speech, speechInput) = AsyncStream.makeStream(of: Spoken.self)
        let speaker = Task { try await self.speak(speech) }
        do {
            try await withTaskCancellationHandler {
                // The engines load while the listener already hears; a failure shows in the first call.
                try? await provider.prepare()
                var lastPartial: (index: Int, text: String)?
                for try await heard in utterances {
                    try Task.checkCancellation()
                    switch heard {
                    case .partial(let index, let audio):
                        partialQueued.withLock { $0 = false }
                        // Its utterance ended meanwhile: the final text comes next, sooner without it.
                        guard index >= finishedUtterances.withLock({ $0 }) else { continue }
                        let text: String
                        do {
                            text = try await provider.transcribe(audio, language: params.language).text
                        } catch where !Task.isCancelled {
                            // A partial is a preview: its utterance's final text reports a failure that lasts.
                            continue
                        }
                        guard !text.isEmpty, lastPartial.map({ $0.index != index || $0.text != text }) ?? true else { continue }
                        lastPartial = (index, text)
                        session.emit(.partialTranscript(utterance: index, text: text))
                    case .utterance(let utterance):
                        try await process(utterance, speech: speechInput)
                    }
                }
                try Task.checkCancellation()
                speechInput.finish()
                try await speaker.value
                try Task.checkCancellation()
                do {
                    try await sink?.finish()
                } catch {
                    throw error as? AIError ?? AIError(.audioSinkFailed, "the audio sink failed to finish: \(error)", underlying: error)
                }
                if kind == .audioRecording { try await summarize() }
            } onCancel: {
                listener.cancel()
                speaker.cancel()
            }
        } catch {
            listener.cancel()
            speechInput.finish()
            speaker.cancel()
            throw error
        }
        return partialResult
    }

    // MARK: Listening

    private func listen(_ source: any AIAudioSource, into output: AsyncThrowingStream<Heard, any Error>.Continuation) async {
        let detector: ([Int16]) -> Bool
        do {
            detector = try SpeechDetector.make()
        } catch {
            output.finish(throwing: error)
            return
        }
        var segmenter = UtteranceSegmenter(
            endSilence: params.endOfUtteranceSilence, maxDuration: params.maxUtteranceDuration, isSpeech: detector)
        let keepAudio = kind == .audioRecording
        let partialFrames = params.partialResultInterval.map { max(1, Int($0 * UtteranceSegmenter.rate) / UtteranceSegmenter.frameLength) }
        var nextPartialAt = partialFrames ?? 0
        var recorded: [Int16] = []
        var heard = 0
        func report(_ outputs: [UtteranceSegmenter.Output]) {
            for out in outputs {
                switch out {
                case .speechStarted(let at):
                    session.emit(.speechStarted(at: at))
                    nextPartialAt = partialFrames ?? 0
                case .utterance(let span): session.emit(.speechEnded(span))
                }
            }
            for utterance in segmenter.takeFinished() {
                finishedUtterances.withLock { $0 = utterance.span.index + 1 }
                output.yield(.utterance(utterance))
            }
            // A partial of the open utterance once each interval of its speech, unless one waits.
            if let partialFrames, segmenter.openSpeechFrames >= nextPartialAt, let open = segmenter.openUtterance {
                nextPartialAt = segmenter.openSpeechFrames + partialFrames
                let queue = partialQueued.withLock { queued in
                    defer { queued = true }
                    return !queued
                }
                if queue { output.yield(.partial(index: open.index, audio: open.audio)) }
            }
        }
        do {
            for try await chunk in source.audioChunks() {
                session.notify(.inputAudio(chunk))
                let speech = try SpeechFormat.convert(chunk)
                heard += speech.samples.count
                if keepAudio { recorded += speech.samples }
                report(segmenter.feed(speech.samples))
            }
        } catch {
            if !Task.isCancelled && !(error is CancellationError) {
                let failure = error as? AIError ?? AIError(.audioSourceFailed, "the audio source failed: \(error)", underlying: error)
                output.finish(throwing: failure)
                return
            }
        }
        report(segmenter.flush())
        collected.withLock {
            $0.inputDuration = Double(heard) / Double(PCMAudio.speechSampleRate)
            if keepAudio { $0.recordedAudio = PCMAudio(sampleRate: PCMAudio.speechSampleRate, channels: 1, samples: recorded) }
        }
        output.finish()
    }

    // MARK: Processing

    private func process(_ utterance: Utterance, speech: AsyncStream<Spoken>.Continuation) async throws {
        let transcript = try await provider.transcribe(utterance.audio, language: params.language)
        collected.withLock {
            $0.transcripts.append(transcript)
            $0.utterances.append(utterance.span)
        }
        session.emit(.transcript(utterance.span, transcript))
        guard !transcript.text.isEmpty else { return }
        switch kind {
        case .audioRecording, .streamingASR:
            return
        case .simultaneousInterpretation, .conversationTranslation:
            let target = params.targetLanguage ?? params.language
            let translation = try await provider.translate(transcript.text, from: params.language, to: target)
            collected.withLock { $0.translations.append(translation) }
            session.emit(.translatedSegment(utterance: utterance.span.index, source: transcript.text, translation: translation))
            speech.yield(Spoken(utterance: utterance.span.index, text: translation, language: target))
        case .chat:
            try await reply(to: transcript.text, utterance: utterance.span.index, speech: speech)
        }
    }

    private func reply(to text: String, utterance: Int, speech: AsyncStream<Spoken>.Continuation) async throws {
        let messages = history.withLock { history -> [AIChatMessage] in
            history.append(AIChatMessage(role: .user, content: text))
            return [AIChatMessage(role: .system, content: params.systemPrompt)] + history.suffix(7)
        }
        var whole = ""
        var sentences = SentenceSplitter()
        for try await token in provider.streamChat(messages, options: params.chatOptions) {
            try Task.checkCancellation()
            whole += token
            session.emit(.replyToken(utterance: utterance, text: token))
            for sentence in sentences.feed(token) {
                speech.yield(Spoken(utterance: utterance, text: sentence, language: params.language))
            }
        }
        if let rest = sentences.flush() {
            speech.yield(Spoken(utterance: utterance, text: rest, language: params.language))
        }
        let reply = whole.trimmingCharacters(in: .whitespacesAndNewlines)
        history.withLock { $0.append(AIChatMessage(role: .assistant, content: reply)) }
        collected.withLock { $0.replies.append(reply) }
        session.emit(.reply(utterance: utterance, text: reply))
    }

    private func speak(_ queue: AsyncStream<Spoken>) async throws {
        guard let sink else {
            for await _ in queue {}
            return
        }
        var announced = Set<Int>()
        for await item in queue {
            try Task.checkCancellation()
            let audio = try await provider.synthesize(item.text, language: item.language, voice: params.voice)
            if announced.insert(item.utterance).inserted { session.emit(.speaking(utterance: item.utterance)) }
            session.notify(.outputAudio(audio))
            do {
                try await sink.play(audio)
            } catch {
                throw error as? AIError ?? AIError(.audioSinkFailed, "the audio sink failed: \(error)", underlying: error)
            }
        }
    }

    private func summarize() async throws {
        let text = collected.withLock { $0.transcriptText }
        guard !text.isEmpty else { return }
        let summary = try await provider.summarize(text, language: params.language)
        collected.withLock { $0.summary = summary }
        session.emit(.summary(summary))
    }
}

/// Cuts streamed reply text into sentences, so speech can start before the reply is complete.
struct SentenceSplitter {
    private var buffer = ""

    /// Adds text; returns the sentences it completed (ending in `.`, `!`, `?` or a newline).
    mutating func feed(_ text: String) -> [String] {
        buffer += text
        var sentences: [String] = []
        while let end = boundary() {
            let sentence = String(buffer[..<end]).trimmingCharacters(in: .whitespacesAndNewlines)
            buffer = String(buffer[end...])
            if sentence.contains(where: { $0.isLetter || $0.isNumber }) { sentences.append(sentence) }
        }
        return sentences
    }

    /// The text left after the last sentence, if it has any words.
    mutating func flush() -> String? {
        defer { buffer = "" }
        let rest = buffer.trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.contains(where: { $0.isLetter || $0.isNumber }) ? rest : nil
    }

    private func boundary() -> String.Index? {
        var index = buffer.startIndex
        while index < buffer.endIndex {
            let c = buffer[index]
            let next = buffer.index(after: index)
            if c == "\n" { return next }
            if ".!?".contains(c), next < buffer.endIndex, buffer[next].isWhitespace { return next }
            index = next
        }
        return nil
    }
}
