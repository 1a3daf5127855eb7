import AIBudsTestKit
import Foundation
import Testing
@testable import TopStepComKit

@Suite struct TopStepDestinationTests {
    @Test(arguments: [
        ("rec.wav", "rec.wav"), ("a/b.wav", "a_b.wav"), ("../x.wav", "_._x.wav"), ("..", "recording__"),
        (".", "recording_"), ("", "recording"), (".hidden", "_hidden"), ("tab\tname", "tab_name"),
        ("nul\u{0}.wav", "nul_.wav"), ("back\\slash", "back_slash"), ("été 🎤.wav", "été 🎤.wav"),
    ])
    func deviceNamesBecomeOneSafeComponent(_ input: String, _ expected: String) {
        #expect(LocalDestination.safeName(input) == expected)
    }

    @Test func longNamesKeepTheirExtensionWithin255Bytes() {
        let name = LocalDestination.safeName(String(repeating: "é", count: 300) + ".wav")
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix(".wav"))
    }

    @Test func missingFolderIsCreatedAndExistingFilesAreNeverReplaced() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("a/b/c").path
        let destination = try LocalDestination(folderPath: folder, deviceName: "rec.wav")
        #expect(FileManager.default.fileExists(atPath: folder))

        var placed: [String] = []
        for content in ["one", "two", "three"] {
            let partial = destination.partialURL(device: "D", id: content, name: "rec.wav")
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: partial)
            let final = try destination.place(partial)
            placed.append(final.lastPathComponent)
            #expect(try String(contentsOf: final, encoding: .utf8) == content)
            #expect(!FileManager.default.fileExists(atPath: partial.path))
        }
        #expect(placed == ["rec.wav", "rec (1).wav", "rec (2).wav"])
        #expect(try String(contentsOfFile: folder + "/rec.wav", encoding: .utf8) == "one")
    }

    @Test func aFileInPlaceOfTheFolderIsAClearError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ts-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("x".utf8).write(to: file)
        #expect(throws: TSError.self) { try LocalDestination(folderPath: file.path, deviceName: "a.wav") }
        #expect(throws: TSError.self) { try LocalDestination(folderPath: "", deviceName: "a.wav") }
    }

    @Test func partialNamesDependOnDeviceIdAndName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ts-p-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let d = try LocalDestination(folderPath: folder.path, deviceName: "a.wav")
        let a = d.partialURL(device: "D", id: "1", name: "a.wav")
        #expect(a == d.partialURL(device: "D", id: "1", name: "a.wav"))
        #expect(a != d.partialURL(device: "E", id: "1", name: "a.wav"))
        #expect(a != d.partialURL(device: "D", id: "2", name: "a.wav"))
        #expect(a.deletingLastPathComponent().lastPathComponent == ".tspartial")
    }
}
