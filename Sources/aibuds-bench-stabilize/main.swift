import AIBudsStabilization
import AIBudsSyntheticVideo
import Foundation

// The stabilization benchmark's helper (scripts/bench-stabilize.sh):
//   aibuds-bench-stabilize render DIR [SECONDS] [WIDTH] [HEIGHT] [FPS]
//       writes DIR/silent.mp4 (a rendered shaky clip), DIR/clip.mp4.gcsv and DIR/lens.json
//   aibuds-bench-stabilize jitter VIDEO
//       prints {"frames": N, "jitter": PX, "meanShiftX": PX, "meanShiftY": PX} from block matching
//   aibuds-bench-stabilize live-file VIDEO GCSV OUT [LOOKAHEAD_FRAMES]
//       runs the live model (LiveStabilizationModel) over VIDEO frame by frame, each frame corrected
//       once the log's readings reach its look-ahead (default 3 frames), with the glasses' lens:
//       the live path without the network's timing

let arguments = Array(CommandLine.arguments.dropFirst())
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("aibuds-bench-stabilize: \(message)\n".utf8))
    exit(64)
}

switch arguments.first {
case "render":
    guard arguments.count >= 2 else { fail("render DIR [SECONDS] [WIDTH] [HEIGHT] [FPS]") }
    let folder = URL(fileURLWithPath: arguments[1])
    let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 10 : 10
    let width = arguments.count > 3 ? Int(arguments[3]) ?? 1920 : 1920
    let height = arguments.count > 4 ? Int(arguments[4]) ?? 1080 : 1080
    let fps = arguments.count > 5 ? Int(arguments[5]) ?? 30 : 30
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let profile = LensProfile.aibudsGlasses
    let motion = SyntheticMotion()
    let renderer = SyntheticRenderer(
        width: width, height: height, lens: profile.lens(width: width, height: height), readoutTime: profile.frameReadoutTime ?? 0)
    try SyntheticVideoFiles.writeH264(
        frameCount: Int(seconds * Double(fps)), width: width, height: height, fps: fps, to: folder.appendingPathComponent("silent.mp4"),
        crf: 16, preset: "veryfast"
    ) { renderer.render(motion, at: Double($0) / Double(fps)) }
    let gcsv = SyntheticSidecars.gcsv(motion, seconds: seconds + 0.1, readoutMs: (profile.frameReadoutTime ?? 0) * 1000)
    try Data(gcsv.utf8).write(to: folder.appendingPathComponent("clip.mp4.gcsv"))
    try Data(SyntheticSidecars.lensProfileJSON(profile).utf8).write(to: folder.appendingPathComponent("lens.json"))
case "jitter":
    guard arguments.count == 2 else { fail("jitter VIDEO") }
    var previous: [UInt8]?
    var shifts: [SIMD2<Double>] = []
    var frames = 0
    try SyntheticVideoFiles.forEachLuma(URL(fileURLWithPath: arguments[1])) { plane, width, height in
        if let previous { shifts.append(GlobalMotionEstimator(width: width, height: height).shift(from: previous, to: plane)) }
        previous = plane
        frames += 1
    }
    let mean = shifts.reduce(SIMD2<Double>.zero, +) / Double(max(1, shifts.count))
    print(#"{"frames": \#(frames), "jitter": \#(GlobalMotionEstimator.jitter(shifts)), "meanShiftX": \#(mean.x), "meanShiftY": \#(mean.y)}"#)
case "live-file":
    guard arguments.count >= 4 else { fail("live-file VIDEO GCSV OUT [LOOKAHEAD_FRAMES]") }
    let input = URL(fileURLWithPath: arguments[1])
    let log = try GyroLogParser.parse(contentsOf: URL(fileURLWithPath: arguments[2]))
    let frames = arguments.count > 4 ? Double(arguments[4]) ?? 3 : 3
    let info = try VideoProbe.probe(input)
    var model = LiveStabilizationModel(
        profile: .aibudsGlasses, width: info.width, height: info.height, frameRate: info.frameRate,
        lookahead: max(0, frames - 0.5) / info.frameRate)
    var next = 0
    let warper = FrameWarper()
    try VideoTranscoder().run(input: input, output: URL(fileURLWithPath: arguments[3]), shouldStop: { false }, progress: { _ in }) { frame in
        while next < log.samples.count, log.samples[next].time <= frame.time + model.lookahead {
            model.add([log.samples[next]])
            next += 1
        }
        guard let correction = model.correction(forFrameAt: frame.time) else { return }
        warper.warp(WarpMap(correction, width: info.width, height: info.height), source: frame.source, destination: frame.destination)
    }
default:
    fail("render DIR … | jitter VIDEO | live-file VIDEO GCSV OUT [LOOKAHEAD_FRAMES]")
}
