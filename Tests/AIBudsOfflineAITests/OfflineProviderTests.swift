import AIBudsAIFoundation
import AIBudsAudio
import AIBudsOfflineAI
import AIBudsTestKit
import Foundation
import Testing

/// The offline provider's real engines: libespeak-ng, Apertium, PocketSphinx.
@Suite(.timeLimit(.minutes(3))) struct OfflineProviderTests {
    let provider = OfflineAIProvider()

    @Test func espeakSpeaksInTheLanguageAsked() async throws {
        let english = try await provider.synthesize("Good morning, the meeting starts at ten.", language: "en", voice: nil)
        #expect(english.channels == 1 && english.sampleRate == 22_050)
        #expect(english.duration > 1.5 && english.duration < 6)
        let loud = english.samples.filter { abs(Int($0)) > 2_000 }.count
        #expect(loud > english.samples.count / 10)
        let spanish = try await provider.synthesize("Buenos días", language: "es", voice: nil)
        #expect(spanish.duration > 0.5)
        await #expect(throws: AIError.self) { try await provider.synthesize("x", language: "zz-nope", voice: nil) }
    }

    @Test func apertiumTranslatesEnglishToSpanish() async throws {
        let spanish = try await provider.translate("The house is big and the dog is black.", from: "en", to: "es")
        let words = Set(AITranscript(text: spanish).words)
        #expect(words.isSuperset(of: ["casa", "perro", "negro"]), "got '\(spanish)'")
        let error = await #expect(throws: AIError.self) { try await provider.translate("hello", from: "en", to: "ja") }
        #expect(error?.code == .invalidParameters)
    }

    @Test func pocketSphinxTranscribesClearSpeech() async throws {
        let directory = try makeTemporaryDirectory()
        let wav = try await spokenWAV("one two three four five six seven", in: directory)
        // PocketSphinx itself, whether or not Moonshine (the automatic choice) is installed.
        let transcript = try await OfflineAIProvider(recognizer: .pocketSphinx).transcribe(try WAVFile.read(from: wav), language: "en")
        // PocketSphinx is weak on espeak's voice; digits read as words are within its reach.
        let heard = Set(transcript.words).intersection(["one", "two", "three", "four", "five", "six", "seven"])
        #expect(heard.count >= 4, "got '\(transcript.text)'")
        await #expect(throws: AIError.self) { try await provider.transcribe(try WAVFile.read(from: wav), language: "de") }
    }
}
