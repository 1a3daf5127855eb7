import AIBudsAIFoundation
@testable import AIBudsVoiceAssistant
import Testing

/// The wake phrase and the listener's memory between utterances, deterministically: transcripts as
/// a recognizer writes them, near misses included.
@Suite struct WakePhraseTests {
    let wake = WakePhrase("Hey glasses")!

    @Test func theWakePhraseIsFoundAtTheStartDespiteARecognizersSpelling() {
        #expect(wake.command(in: "Hey glasses, take a photo.") == ["take", "a", "photo"])
        #expect(wake.command(in: "Hey, glasses!") == [])
        #expect(wake.command(in: "hey glass is take a photo") == ["take", "a", "photo"])
        #expect(wake.command(in: "Hay glasses volume up") == ["volume", "up"])
        #expect(wake.command(in: "Okay, hey glasses, next song") == ["next", "song"])
        // How espeak-ng's voices came out of Moonshine in the assistant's benchmark.
        #expect(wake.command(in: "K-glasses pause the music.") == ["pause", "the", "music"])
        #expect(wake.command(in: "Paying lashes, take a picture.") == ["take", "a", "picture"])
        #expect(wake.command(in: "Peglasses navigate to the train station.") == ["navigate", "to", "the", "train", "station"])
        #expect(wake.command(in: "Stay glasses next song") == ["next", "song"])
        for other in [
            "", "glasses", "They say glasses are expensive.", "I left my glasses at home, hey", "hello there take a photo",
            "The glasses case is too large.", "The new glasses shipped on Tuesday.", "Hey team, a quick reminder.",
        ] {
            #expect(wake.command(in: other) == nil, "\(other)")
        }
        #expect(WakePhrase("  ,, ") == nil)
        #expect(WakePhrase("computer")!.command(in: "Computer, stop recording.") == ["stop", "recording"])
    }

    @Test func aCommandFollowsTheWakePhraseInTheSameOrTheNextUtterance() {
        let configuration = VoiceCommandListener.Configuration(commandWindow: 3)
        var state = ListenState()
        func final(_ index: Int, _ start: Double, _ end: Double, _ text: String) -> [VoiceAssistantEvent] {
            state.handle(.transcript(AIUtteranceSpan(index: index, start: start, end: end), AITranscript(text: text)), configuration)
        }
        // Wake and command in one breath; the wake was announced from a partial already.
        #expect(state.handle(.speechStarted(at: 1), configuration).isEmpty)
        #expect(state.handle(.partialTranscript(utterance: 0, text: "Hey glasses"), configuration) == [.wake(at: 1)])
        #expect(state.handle(.partialTranscript(utterance: 0, text: "Hey glasses take"), configuration).isEmpty)
        #expect(final(0, 1, 2.5, "Hey glasses, take a photo.") == [
            .heard(text: "Hey glasses, take a photo.", at: 2.5), .command(AIIntent(.takePhoto), text: "take a photo"),
        ])
        // The wake alone, then the command 2 s later: taken.
        #expect(final(1, 5, 6, "Hey glasses.") == [.heard(text: "Hey glasses.", at: 6), .wake(at: 5)])
        #expect(final(2, 8, 9, "Volume up please") == [
            .heard(text: "Volume up please", at: 9), .command(AIIntent(.volumeUp), text: "volume up please"),
        ])
        // Without a wake, a command is only heard; after the window, too.
        #expect(final(3, 10, 11, "Take a photo") == [.heard(text: "Take a photo", at: 11)])
        _ = final(4, 12, 13, "hey glasses")
        #expect(final(5, 17, 18, "take a photo") == [.heard(text: "take a photo", at: 18)])
        // Audio faster than its transcription: the session reported later speech (a blip, then the
        // next utterance) before the partial; the wake is still placed at its own utterance.
        var ahead = ListenState()
        for event: AISessionEvent in [
            .speechStarted(at: 30), .speechEnded(AIUtteranceSpan(index: 7, start: 30, end: 31.5)), .speechStarted(at: 33),
            .speechStarted(at: 35),
        ] { #expect(ahead.handle(event, configuration).isEmpty) }
        #expect(ahead.handle(.partialTranscript(utterance: 7, text: "hey glasses"), configuration) == [.wake(at: 30)])
        #expect(ahead.handle(.partialTranscript(utterance: 8, text: "hey glasses"), configuration) == [.wake(at: 35)])
        // Speech after the wake that is no command.
        #expect(final(6, 20, 21, "hey glasses the weather moved to Thursday") == [
            .heard(text: "hey glasses the weather moved to Thursday", at: 21), .wake(at: 20),
            .notUnderstood(text: "the weather moved to thursday"),
        ])
    }
}
