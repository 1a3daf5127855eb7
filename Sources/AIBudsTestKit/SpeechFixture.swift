import AIBudsAudio
import Foundation

/// Why a speech fixture could not be made.
public struct SpeechFixtureError: Error, CustomStringConvertible {
    /// What failed.
    public var description: String
}

/// Speaks `text` with espeak-ng (Debian's, installed by scripts/install-deps.sh) and returns it as
/// 16 kHz mono; `speed` in words per minute, `voice` an espeak-ng voice name. Fails with a clear
/// message when espeak-ng is missing.
public func synthesizeSpeech(_ text: String, voice: String = "en-us", speed: Int = 160) async throws -> PCMAudio {
    let folder = try makeTemporaryDirectory("speech")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("speech.wav")
    let espeak = URL(fileURLWithPath: "/usr/bin/espeak-ng")
    guard FileManager.default.isExecutableFile(atPath: espeak.path) else {
        throw SpeechFixtureError(description: "espeak-ng is not installed (run scripts/install-deps.sh)")
    }
    let result = try await runProgram(espeak, ["-v", voice, "-s", String(speed), "-w", file.path, text])
    guard result.status == 0 else {
        throw SpeechFixtureError(description: "espeak-ng failed (\(result.status)): \(result.err)")
    }
    return try WAVFile.read(from: file).speechFormat()
}

/// Speech made by the espeak-ng program (not the provider under test), as a 16 kHz mono WAV file
/// `NAME.wav` in `directory`, converted by sox; `speed` in words a minute (espeak-ng's 175 when nil).
public func spokenWAV(
    _ text: String, voice: String = "en-us", speed: Int? = nil, in directory: URL, name: String = "speech"
) async throws -> URL {
    let raw = directory.appendingPathComponent("\(name)-raw.wav")
    let wav = directory.appendingPathComponent("\(name).wav")
    let rate = speed.map { ["-s", String($0)] } ?? []
    let speak = try await runProgram(URL(fileURLWithPath: "/usr/bin/espeak-ng"), ["-v", voice] + rate + ["-w", raw.path, text])
    guard speak.status == 0 else { throw SpeechFixtureError(description: "espeak-ng failed: \(speak.err)") }
    // -R: sox seeds its dither the same way each time, so a test hears the same samples each run.
    let convert = try await runProgram(URL(fileURLWithPath: "/usr/bin/sox"), ["-R", raw.path, "-r", "16000", "-c", "1", wav.path])
    guard convert.status == 0 else { throw SpeechFixtureError(description: "sox failed: \(convert.err)") }
    return wav
}
