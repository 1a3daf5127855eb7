import AIBudsAIFoundation
import Foundation
import Testing

/// The offline intent grammar: the wiki's intent families from the ways people say them, with
/// their slots, and nothing guessed from what it does not know.
@Suite struct AIIntentGrammarTests {
    let grammar = AIIntentGrammar.standard

    @Test(arguments: [
        ("Take a photo.", AIIntent(.takePhoto)),
        ("Could you please snap a picture for me?", AIIntent(.takePhoto)),
        ("ok, record a video", AIIntent(.startVideo)),
        ("Start recording.", AIIntent(.startVideo)),
        ("Stop the recording now", AIIntent(.stopRecording)),
        ("record this meeting", AIIntent(.startAudioRecording)),
        ("Turn the volume up.", AIIntent(.volumeUp)),
        ("a little louder please", AIIntent(.volumeUp)),
        ("Lower the volume", AIIntent(.volumeDown)),
        ("set the volume to forty five percent", AIIntent(.setVolume, level: 45)),
        ("Volume 80", AIIntent(.setVolume, level: 80)),
        ("Next song!", AIIntent(.nextTrack)),
        ("go back to the previous track", AIIntent(.previousTrack)),
        ("pause the music", AIIntent(.pause)),
        ("Resume playback", AIIntent(.play)),
        ("Navigate to the central station, please.", AIIntent(.navigate, place: "the central station")),
        ("how do I get to 42 Baker Street", AIIntent(.navigate, place: "42 baker street")),
        ("Cancel the navigation", AIIntent(.stopNavigation)),
        ("Start translating into Spanish", AIIntent(.startTranslation, language: "spanish")),
        ("Stop translation.", AIIntent(.stopTranslation)),
        ("Translate good morning my friend to French", AIIntent(.translateText, language: "french", text: "good morning my friend")),
        ("How do you say thank you in Japanese?", AIIntent(.translateText, language: "japanese", text: "thank you")),
    ])
    func eachFamilyIsFoundWithItsSlots(utterance: String, expected: AIIntent) {
        #expect(grammar.intent(for: utterance) == expected)
        #expect(expected.kind == expected.action.kind)
    }

    @Test func questionsAreAskedAndTheRestIsNothing() {
        // "in London" is no language: the weather question is a question, not a translation.
        #expect(grammar.intent(for: "What is the weather in London?") == AIIntent(.ask, text: "What is the weather in London?"))
        #expect(grammar.intent(for: "who wrote this song") == AIIntent(.ask, text: "who wrote this song"))
        for other in ["", "   ", "the meeting moved to Thursday afternoon", "take", "stop", "volume", "navigate to"] {
            #expect(grammar.intent(for: other).action == .none, "\(other)")
        }
    }

    @Test func theSchemaOffersEveryActionAndIsJSON() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(AIIntent.jsonSchema.utf8)) as? [String: Any]
        let properties = schema?["properties"] as? [String: Any]
        let actions = (properties?["action"] as? [String: Any])?["enum"] as? [String]
        #expect(actions == AIIntentAction.allCases.map(\.rawValue))
        #expect(schema?["required"] as? [String] == ["action"])
        // An intent as a model writes it decodes as the app's type.
        let decoded = try JSONDecoder().decode(AIIntent.self, from: Data(#"{"action":"setVolume","level":30}"#.utf8))
        #expect(decoded == AIIntent(.setVolume, level: 30))
        #expect(decoded.description == "setVolume level=30")
    }

    @Test func anAppCanWriteItsOwnRules() {
        let custom = AIIntentGrammar(rules: [AIIntentGrammar.Rule(.navigate, ["(home|go home)"])])
        #expect(custom.intent(for: "Go home!") == AIIntent(.navigate))
        #expect(custom.intent(for: "take a photo").action == .none)
    }
}
