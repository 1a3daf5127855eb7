import AIBudsStabilization
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation
import Testing

/// The synthetic clips' ground truth, checked against an independent measure: frames rendered
/// with a known camera motion move by what the lens and the motion say, as
/// `GlobalMotionEstimator` measures it; the estimator finds a shift made by hand; clips and stills
/// survive FFmpeg's encoders and decoders.
@Suite("Synthetic video: rendered motion, its measure, its files")
struct SyntheticVideoTests {
    static let width = 320, height = 240, fps = 30
    /// A distortion-free lens (OpenCV's standard model, no coefficients): a yaw of θ moves the
    /// picture's centre by f·tan θ pixels.
    static let focal = 300.0
    static let lens = LensModel(
        model: .opencvStandard, focalLength: SIMD2(focal, focal), principalPoint: SIMD2(160, 120), coefficients: [0, 0, 0, 0])

    /// `count` frames of `motion` at 30 fps, global shutter, rendered on a thread of their own.
    static func render(_ motion: SyntheticMotion, count: Int) async throws -> [[UInt8]] {
        try await onOwnThread {
            let renderer = SyntheticRenderer(width: width, height: height, lens: lens, readoutTime: 0)
            return (0..<count).map { renderer.render(motion, at: Double($0) / Double(fps)) }
        }
    }

    /// The estimated shift between each frame and the next.
    static func shifts(_ frames: [[UInt8]]) -> [SIMD2<Double>] {
        let estimator = GlobalMotionEstimator(width: width, height: height)
        return zip(frames, frames.dropFirst()).map { estimator.shift(from: $0, to: $1) }
    }

    @Test("a steady pan moves each frame by f·tan(rate/fps) to the right, and has no jitter")
    func panMovesByWhatTheLensSays() async throws {
        let rate = 0.6
        let frames = try await Self.render(SyntheticMotion(panRate: rate, shake: 0), count: 8)
        // The camera turns left about the world's up axis (SyntheticMotion's pan), so the scene
        // moves right in the picture.
        let expected = Self.focal * tan(rate / Double(Self.fps))
        for shift in Self.shifts(frames) {
            #expect(abs(shift.x - expected) < 0.3, "measured \(shift.x) px, expected \(expected)")
            #expect(abs(shift.y) < 0.3, "no vertical motion: \(shift.y)")
        }
        #expect(GlobalMotionEstimator.jitter(Self.shifts(frames)) < 0.1)
    }

    @Test("shake is jitter: the same pan with shake measures jitter, without shake none")
    func shakeIsJitter() async throws {
        let steady = GlobalMotionEstimator.jitter(Self.shifts(try await Self.render(SyntheticMotion(panRate: 0.1, shake: 0), count: 16)))
        let shaky = GlobalMotionEstimator.jitter(Self.shifts(try await Self.render(SyntheticMotion(panRate: 0.1, shake: 1), count: 16)))
        #expect(steady < 0.1)
        #expect(shaky > 1, "1.5° shakes at 3–8 Hz move a 300 px lens by pixels: \(shaky)")
    }

    @Test("the estimator finds a shift made by hand", arguments: [(3, -2), (-5, 4), (0, 0)])
    func estimatorFindsAKnownShift(dx: Int, dy: Int) async throws {
        let frame = try await Self.render(SyntheticMotion(panRate: 0, shake: 0), count: 1)[0]
        // b(x, y) = a(x - dx, y - dy): a's content moved by (dx, dy); the border repeats the edge.
        var moved = [UInt8](repeating: 0, count: frame.count)
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let sx = min(max(x - dx, 0), Self.width - 1), sy = min(max(y - dy, 0), Self.height - 1)
                moved[y * Self.width + x] = frame[sy * Self.width + sx]
            }
        }
        let shift = GlobalMotionEstimator(width: Self.width, height: Self.height).shift(from: frame, to: moved)
        #expect(abs(shift.x - Double(dx)) < 0.1 && abs(shift.y - Double(dy)) < 0.1, "measured \(shift)")
    }

    @Test("an H.264 clip keeps every frame, its size and its motion through FFmpeg")
    func h264RoundTrip() async throws {
        let folder = try makeTemporaryDirectory("synthetic")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = try await Self.render(SyntheticMotion(panRate: 0.6, shake: 1), count: 10)
        let clip = folder.appendingPathComponent("clip.mp4")
        try await onOwnThread { try SyntheticVideoFiles.writeH264(frames, width: Self.width, height: Self.height, fps: Self.fps, to: clip) }
        let probed = try await probeVideo(clip, ["-show_entries", "stream=codec_name,width,height"])
        #expect(probed.split(separator: "\n") == ["h264", "320", "240"])
        let probedCount = try await probedFrameCount(of: clip)
        #expect(probedCount == 10)
        let decoded = try await onOwnThread { try SyntheticVideoFiles.decodeLuma(clip) }
        #expect(decoded.frames.count == 10, "decoded \(decoded.frames.count) frames")
        #expect(decoded.width == Self.width && decoded.height == Self.height)
        for (original, copy) in zip(Self.shifts(frames), Self.shifts(decoded.frames)) {
            #expect(abs(original.x - copy.x) < 0.3 && abs(original.y - copy.y) < 0.3, "\(original) became \(copy)")
        }
    }

    @Test("a still JPEG decodes to the picture it was made of")
    func stillJPEG() async throws {
        let folder = try makeTemporaryDirectory("still")
        defer { try? FileManager.default.removeItem(at: folder) }
        let frame = try await Self.render(SyntheticMotion(), count: 1)[0]
        let jpeg = try StillPictures.jpeg(luma: frame, width: Self.width, height: Self.height)
        #expect(jpeg.prefix(2) == Data([0xFF, 0xD8]) && jpeg.suffix(2) == Data([0xFF, 0xD9]))
        let file = folder.appendingPathComponent("still.jpg")
        try jpeg.write(to: file)
        let probed = try await probeVideo(file, ["-show_entries", "stream=codec_name,width,height"])
        #expect(probed.split(separator: "\n") == ["mjpeg", "320", "240"])
        let gray = folder.appendingPathComponent("still.gray")
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-v", "error", "-y", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "gray", gray.path])
        #expect(result.status == 0, "\(result.err)")
        let decoded = [UInt8](try Data(contentsOf: gray))
        #expect(decoded.count == frame.count)
        let meanError = zip(frame, decoded).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(meanError) / Double(frame.count) < 3, "mean error \(Double(meanError) / Double(frame.count))")
    }
}
