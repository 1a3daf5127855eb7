@testable import AIBudsStabilization
import AIBudsTestKit
import Foundation
import Testing

/// The transcoder's two threads (decode and transform on the caller's, encode and mux on
/// ``EncoderThread``'s): every frame and the audio arrive in order, and a failure on the caller's
/// side comes back as itself without leaving the encoder waiting.
@Suite("video transcoder")
struct VideoTranscoderTests {
    struct TransformFailed: Error, Equatable {}

    /// Copies the source planes to the destination (a transcode that changes nothing).
    static func copy(_ frame: VideoTranscoder.Frame) {
        for (source, destination) in zip(frame.source, frame.destination) {
            for row in 0..<source.height {
                (destination.base + row * destination.stride).update(from: source.base + row * source.stride, count: source.width)
            }
        }
    }

    @Test("a copying transcode writes every frame, in order, with the audio, and reports each frame once")
    func copiesEveryFrame() async throws {
        let clip = try await SyntheticClip.make(name: "transcode", seconds: 1.5, audio: true)
        defer { clip.remove() }
        let output = clip.folder.appendingPathComponent("copy.mp4")
        let reported = try await onOwnThread { () -> [Int] in
            var reported: [Int] = []
            try VideoTranscoder().run(
                input: clip.video, output: output, shouldStop: { false }, progress: { reported.append($0) }, transform: Self.copy)
            return reported
        }
        #expect(reported == Array(0..<clip.frames))
        var times: [Double] = []
        try VideoFrameReader.forEachFrame(output) { time, _ in times.append(time) }
        #expect(times.count == clip.frames)
        #expect(times == times.sorted())
        let probe = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/ffprobe"),
            ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", output.path])
        #expect(probe.status == 0)
        #expect(probe.out.split(separator: "\n").sorted() == ["audio", "video"])
    }

    @Test("a transform that throws mid-clip stops the run with its own error and leaves no thread waiting")
    func transformFailureComesBack() async throws {
        let clip = try await SyntheticClip.make(name: "transcode-fail", seconds: 1.5, audio: true)
        defer { clip.remove() }
        let output = clip.folder.appendingPathComponent("fail.mp4")
        let reported = try await onOwnThread { () -> [Int] in
            var reported: [Int] = []
            #expect(throws: TransformFailed.self) {
                try VideoTranscoder().run(
                    input: clip.video, output: output, shouldStop: { false }, progress: { reported.append($0) },
                    transform: { frame in
                        if frame.index == 10 { throw TransformFailed() }
                        Self.copy(frame)
                    })
            }
            return reported
        }
        #expect(reported == Array(0..<10))
    }
}
