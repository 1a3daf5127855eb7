import AIBudsAudio
import AIBudsTestKit
import Foundation
import Testing

/// WAV round trips, sox interop, and the strict parser's typed errors on broken files.
@Suite(.timeLimit(.minutes(2))) struct WAVFileTests {
    private func tempURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("aibuds-audio-\(UUID().uuidString)-\(name)")
    }

    private func malformedOffset(_ bytes: [UInt8]) -> Int? {
        do {
            _ = try WAVFile.decode(Data(bytes))
            return nil
        } catch AudioError.malformedFile(_, let offset, _) {
            return offset
        } catch {
            return -1
        }
    }

    @Test func roundTripsMonoAndStereo() throws {
        for channels in [1, 2] {
            let samples = (0..<(1_000 * channels)).map { Int16(truncatingIfNeeded: $0 * 37 - 16_000) }
            let audio = PCMAudio(sampleRate: 16_000, channels: channels, samples: samples)
            let url = tempURL("rt.wav")
            defer { try? FileManager.default.removeItem(at: url) }
            try WAVFile.write(audio, to: url)
            #expect(try WAVFile.read(from: url) == audio)
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
            #expect(size == 44 + samples.count * 2)
        }
    }

    @Test func readsWhatSoxWritesWithExtraChunks() async throws {
        let url = tempURL("sox.wav")
        defer { try? FileManager.default.removeItem(at: url) }
        // sox writes WAVE_FORMAT_EXTENSIBLE for stereo and a LIST chunk with a comment.
        let sox = try await runProgram(URL(fileURLWithPath: "/usr/bin/sox"), [
            "-n", "--comment", "odd", "-r", "22050", "-c", "2", "-b", "16", url.path, "synth", "0.1", "sine", "440",
        ])
        try #require(sox.status == 0, "sox must be installed (scripts/install-deps.sh)")
        let audio = try WAVFile.read(from: url)
        #expect(audio.sampleRate == 22_050)
        #expect(audio.channels == 2)
        #expect(audio.frameCount == 2_205)
        #expect(audio.samples.map { abs(Int($0)) }.max()! > 20_000)
    }

    @Test func rejectsBrokenFilesWithTheirOffset() throws {
        let good = [UInt8](try WAVFile.encode(PCMAudio(sampleRate: 8_000, channels: 1, samples: [1, 2, 3, 4])))
        #expect(malformedOffset(good) == nil)
        #expect(malformedOffset([]) == 0)
        #expect(malformedOffset(Array("RIFX".utf8) + good[4...]) == 0)
        #expect(malformedOffset(Array(good[0..<8]) + Array("AVI ".utf8) + good[12...]) == 8)
        #expect(malformedOffset(Array(good.dropLast(2))) == 4)  // RIFF size past the end
        var oddData = good
        oddData[40] = 7  // data size 7: not whole frames, and past the RIFF end
        #expect(malformedOffset(oddData) == 40)
        var badAlign = good
        badAlign[32] = 4  // block align 4 for one 16-bit channel
        #expect(malformedOffset(badAlign) == 32)
        // A data chunk before any fmt chunk.
        let dataFirst = Array(good[0..<12]) + Array(good[36...])
        var fixed = dataFirst
        let riff = UInt32(dataFirst.count - 8)
        fixed[4] = UInt8(riff & 0xFF); fixed[5] = UInt8(riff >> 8)
        #expect(malformedOffset(fixed) == 12)
        // Only a header: no fmt chunk.
        #expect(malformedOffset(Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WAVE".utf8)) == 12)
    }

    @Test func rejectsUnsupportedVariantsByName() throws {
        var float = [UInt8](try WAVFile.encode(PCMAudio(sampleRate: 8_000, channels: 1, samples: [0, 0])))
        float[20] = 3  // IEEE float
        #expect(throws: AudioError.unsupportedFile(kind: "WAV", reason: "format tag 3 (only PCM, 1)")) {
            try WAVFile.decode(Data(float))
        }
        #expect(throws: AudioError.self) { try WAVFile.read(from: tempURL("missing.wav")) }
        #expect(throws: AudioError.self) {
            try WAVFile.encode(PCMAudio(sampleRate: 16_000, channels: 2, samples: [1, 2, 3]))
        }
    }

    @Test func hostileChunkSizesNeverCrash() throws {
        let good = [UInt8](try WAVFile.encode(PCMAudio(sampleRate: 8_000, channels: 1, samples: [5, 6])))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var bytes = good
            for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator) }
            if Bool.random(using: &generator) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
            _ = try? WAVFile.decode(Data(bytes))
        }
    }

    /// A growing file is a whole WAV file after every append (strict reader and sox agree), 0600,
    /// and its peaks follow its samples.
    @Test func appendedFilesAreWholeAfterEveryAppend() async throws {
        let folder = try makeTemporaryDirectory()
        let url = folder.appendingPathComponent("growing.wav")
        var expected: [Int16] = []
        for round in 0..<3 {
            let piece = (0..<1_600).map { Int16(truncatingIfNeeded: ($0 &* 37 &+ round * 1000) % 20_000) }
            try WAVFile.append(piece, sampleRate: 16_000, to: url)
            expected += piece
            let read = try WAVFile.read(from: url)
            #expect(read.sampleRate == 16_000 && read.channels == 1 && read.samples == expected)
        }
        let soxi = try await runProgram(URL(fileURLWithPath: "/usr/bin/soxi"), ["-s", url.path])
        #expect(soxi.out.trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected.count)", "\(soxi.err)")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let peaks = try WAVFile.peaks(of: url, buckets: 3)
        #expect(peaks.count == 3 && peaks.allSatisfy { $0 > 0.5 && $0 <= 1 })
    }
}
