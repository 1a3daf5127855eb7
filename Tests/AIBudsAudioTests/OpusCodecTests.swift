import AIBudsAudio
import AIBudsProcess
import AIBudsTestKit
import Foundation
import Testing

/// libopus through `OpusEncoder`/`OpusDecoder`, Ogg/Opus files against ffmpeg, and resampling.
@Suite(.timeLimit(.minutes(2))) struct OpusCodecTests {
    @Test func speechSurvivesEncodeAndDecode() async throws {
        let speech = try await synthesizeSpeech("The quick brown fox jumps over the lazy dog")
        let encoder = try OpusEncoder()
        let decoder = try OpusDecoder()
        let packets = try encoder.encodeFrames(speech)
        #expect(packets.count == (speech.frameCount + 319) / 320)
        let bytes = packets.reduce(0) { $0 + $1.count }
        #expect(Double(bytes * 8) / speech.duration < 32_000)  // about the 24 kbit/s asked for
        var decoded: [Int16] = []
        for packet in packets { decoded += try decoder.decode(packet) }
        #expect(decoded.count == packets.count * 320)
        let similarity = AudioSimilarity.envelopeCorrelation(
            speech, PCMAudio(sampleRate: 16_000, channels: 1, samples: decoded))
        #expect(similarity.correlation > 0.95)
        #expect(abs(similarity.lag) <= 1)
    }

    @Test func badInputIsATypedError() throws {
        let encoder = try OpusEncoder()
        #expect(throws: AudioError.self) { try encoder.encode([Int16](repeating: 0, count: 300)[...]) }
        #expect(throws: AudioError.self) { try OpusEncoder(sampleRate: 44_100) }
        #expect(throws: AudioError.self) { try OpusDecoder(channels: 3) }
        let decoder = try OpusDecoder()
        #expect(throws: AudioError.self) { try decoder.decode([]) }
        // Hostile packets: an error or samples, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let packet = (0..<Int.random(in: 1...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? decoder.decode(packet)
        }
    }

    @Test func lostFramesAreRebuiltFromFECOrConcealed() async throws {
        let speech = try await synthesizeSpeech("Loss concealment keeps the voice going")
        let packets = try OpusEncoder(expectedLossPercent: 20).encodeFrames(speech)
        let decoder = try OpusDecoder()
        var withLoss: [Int16] = []
        for (index, packet) in packets.enumerated() {
            if index % 10 == 5, index + 1 < packets.count {
                withLoss += try decoder.recover(lostFrameFrom: packets[index + 1], frameSize: 320)
            } else if index % 10 == 7 {
                withLoss += try decoder.conceal(frameSize: 320)
            } else {
                withLoss += try decoder.decode(packet)
            }
        }
        #expect(withLoss.count == packets.count * 320)
        let similarity = AudioSimilarity.envelopeCorrelation(speech, PCMAudio(sampleRate: 16_000, channels: 1, samples: withLoss))
        #expect(similarity.correlation > 0.85)
    }

    @Test func oggOpusFilesRoundTripAndMatchFFmpeg() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try await synthesizeSpeech("Ogg Opus files are read and written")
        let ours = folder.appendingPathComponent("ours.opus")
        try OggOpusFile.write(speech, to: ours)
        let back = try OggOpusFile.read(from: ours)
        #expect(back.sampleRate == 48_000)
        #expect(abs(back.duration - speech.duration) < 0.03)
        #expect(AudioSimilarity.envelopeCorrelation(speech, try back.speechFormat()).correlation > 0.95)
        #expect(try AudioFile.read(from: ours) == back)

        // ffmpeg decodes our file, and we decode ffmpeg's.
        let ffmpeg = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        try #require(FileManager.default.isExecutableFile(atPath: ffmpeg.path), "ffmpeg must be installed (scripts/install-deps.sh)")
        let decodedByFFmpeg = folder.appendingPathComponent("ffmpeg.wav")
        let decode = try await runProgram(ffmpeg, ["-v", "error", "-i", ours.path, "-ar", "16000", "-ac", "1", decodedByFFmpeg.path])
        try #require(decode.status == 0, "ffmpeg: \(decode.err)")
        #expect(AudioSimilarity.envelopeCorrelation(speech, try WAVFile.read(from: decodedByFFmpeg)).correlation > 0.95)
        let source = folder.appendingPathComponent("source.wav")
        try WAVFile.write(speech, to: source)
        let theirs = folder.appendingPathComponent("theirs.opus")
        let encode = try await runProgram(ffmpeg, ["-v", "error", "-i", source.path, "-c:a", "libopus", "-b:a", "32k", theirs.path])
        try #require(encode.status == 0, "ffmpeg: \(encode.err)")
        #expect(AudioSimilarity.envelopeCorrelation(speech, try AudioFile.read(from: theirs).speechFormat()).correlation > 0.95)
    }

    @Test func brokenOggFilesAreTypedErrors() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("bad.opus")
        try Data("OggS but not really an Ogg stream at all".utf8).write(to: url)
        #expect(throws: AudioError.self) { try OggOpusFile.read(from: url) }
        #expect(throws: AudioError.self) { try AudioFile.read(from: folder.appendingPathComponent("missing.opus")) }
        try Data("ID3 mp3".utf8).write(to: url)
        #expect(throws: AudioError.self) { try AudioFile.read(from: url) }
    }

    @Test func resamplingKeepsPitchAndLength() throws {
        let rate = 22_050
        let tone = (0..<rate).map { Int16(10_000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let audio = try PCMAudio(sampleRate: rate, channels: 1, samples: tone).resampled(to: 16_000)
        #expect(abs(audio.frameCount - 16_000) <= 2)
        let crossings = zip(audio.samples, audio.samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 440) <= 2)
        let stereo = PCMAudio(sampleRate: 48_000, channels: 2, samples: [Int16](repeating: 1_000, count: 9_600))
        let speech = try stereo.speechFormat()
        #expect(speech.channels == 1 && speech.sampleRate == 16_000 && abs(speech.frameCount - 1_600) <= 2)
    }

    @Test func playbackReachesARealPulseAudioServer() async throws {
        let pulseaudio = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        try #require(FileManager.default.isExecutableFile(atPath: pulseaudio.path),
                     "pulseaudio must be installed (scripts/install-deps.sh)")
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("native")
        let server = try ChildProcess(
            pulseaudio.path, ["-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
                              "-L", "module-null-sink sink_name=aibuds",
                              "-L", "module-native-protocol-unix socket=\(socket.path) auth-anonymous=1"],
            environment: ["HOME": folder.path, "XDG_RUNTIME_DIR": folder.path], output: .discard, errors: .discard)
        defer { server.kill() }
        try await eventually("the PulseAudio socket") { FileManager.default.fileExists(atPath: socket.path) }
        let audio = PCMAudio(sampleRate: 16_000, channels: 1,
                             samples: (0..<8_000).map { Int16(5_000 * sin(Double($0) * 0.1)) })
        let start = ContinuousClock.now
        try await onOwnThread { try AudioPlayer.play(audio, server: "unix:\(socket.path)") }
        // The null sink plays in real time, and play returns once the stream has drained.
        #expect(ContinuousClock.now - start >= .milliseconds(400))
    }

    @Test func playbackWithoutASoundServerSaysSo() throws {
        let audio = PCMAudio(sampleRate: 16_000, channels: 1, samples: [Int16](repeating: 0, count: 160))
        do {
            try AudioPlayer.play(audio, server: "unix:/nonexistent/aibuds-no-server")
            Issue.record("playback to a missing server succeeded")
        } catch AudioError.soundServerUnavailable(let reason) {
            #expect(reason.contains("PulseAudio"))
        }
    }
}
