import Foundation
import Testing
@testable import AIBudsLog

@Suite struct RedactionTests {
    let redactor = LogRedactor()

    @Test(arguments: [
        ("configure ssid=Glasses password=hunter22 channel=6", "configure ssid=Glasses password=<redacted> channel=6"),
        ("passphrase: correct-horse", "passphrase: <redacted>"),
        (#"{"ssid":"AB","password":"two words"}"#, #"{"ssid":"AB","password":"<redacted>"}"#),
        (#"state {token: "abc123", base_url: "http://127.0.0.1:80"}"#, #"state {token: "<redacted>", base_url: "http://127.0.0.1:80"}"#),
        ("GET /x?access_token=zzz&x=1", "GET /x?access_token=<redacted>&x=1"),
        ("Authorization: Bearer eyJhbGciOi.abc.def", "Authorization: Bearer <redacted>"),
        ("authorization: basic dXNlcjpwdw==", "authorization: <redacted>"),
        ("client_secret='s3cr3t'", "client_secret='<redacted>'"),
    ])
    func patternsAreRedacted(input: String, expected: String) {
        #expect(redactor.redact(input) == expected)
    }

    @Test func ordinaryTextIsKept() {
        let text = "tokens=5 maxTokenCount: 9 password reset requested; bearer of news"
        #expect(redactor.redact(text) == "tokens=5 maxTokenCount: 9 password reset requested; bearer <redacted> news")
        let plain = "connected to udp://127.0.0.1:1337 in 12 ms"
        #expect(redactor.redact(plain) == plain)
    }

    @Test func registeredSecretsAreRedactedAnywhere() {
        redactor.register("Zq9-hotspot-pass")
        redactor.register("abc") // short: redacted only where it stands whole
        #expect(redactor.redact("joined with Zq9-hotspot-pass twice: Zq9-hotspot-pass")
            == "joined with <redacted> twice: <redacted>")
        #expect(redactor.redact("abc") == "<redacted>")
        redactor.unregister("Zq9-hotspot-pass")
        #expect(redactor.redact("Zq9-hotspot-pass") == "Zq9-hotspot-pass")
    }

    @Test func shortSecretsAreMaskedWholeButNotInsideOtherWords() {
        redactor.register("k9")
        redactor.register("x")
        #expect(redactor.redact("session k9 opened; k9, again (k9)") == "session <redacted> opened; <redacted>, again (<redacted>)")
        #expect(redactor.redact("k99 ak9 k9b 12k9") == "k99 ak9 k9b 12k9")
        #expect(redactor.redact("x marks the spot at xyz") == "<redacted> marks the spot at xyz")
        redactor.register("")
        #expect(redactor.redact("nothing to hide") == "nothing to hide")
    }

    @Test func fanOutRedactsBeforeEveryDestination() {
        let first = RecordingLogService()
        let second = RecordingLogService()
        let service = FanOutLogService(minimumLevel: .debug, destinations: [first, second], redactor: redactor)
        redactor.register("tok-4711-secret")
        service.log(.info, "hotspot", "token tok-4711-secret password=pw12345")
        for destination in [first, second] {
            #expect(destination.messages == ["token <redacted> password=<redacted>"])
        }
    }
}

@Suite struct RedactionShortcutTests {
    @Test func triggerWordsAreFoundInAnyCaseAndNonASCIIAlwaysTakesThePatterns() {
        #expect(LogRedactor.mentionsTriggerWord("Authorization: Basic x"))
        #expect(LogRedactor.mentionsTriggerWord("the PASSWD is"))
        #expect(LogRedactor.mentionsTriggerWord("x-Token=1"))
        #expect(LogRedactor.mentionsTriggerWord("use bearer"))
        #expect(!LogRedactor.mentionsTriggerWord("chunk 4 of VID_0001.mp4 at offset 8192"))
        #expect(!LogRedactor.mentionsTriggerWord("pass word tok en"))
        #expect(LogRedactor.mentionsTriggerWord("café"))
        // The patterns' case folding: the Kelvin sign stands for k.
        #expect(LogRedactor().redact("to\u{212A}en=abc").contains("<redacted>"))
        #expect(LogRedactor().redact("chunk 4 written") == "chunk 4 written")
    }
}
