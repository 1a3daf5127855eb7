import AIBudsStabilization
import Foundation

/// A folder of real H.264 videos with known head-worn-like motion and their matching `.gcsv`,
/// seen through the AIBuds glasses' lens: what `aibuds emulator --rendered-videos` serves.
public enum RenderedVideoLibrary {
    /// Renders `count` clips of `seconds` at `width` × `height`, 30 fps, into `folder` as
    /// `VID_rendered_N.mp4` with `VID_rendered_N.mp4.gcsv`; each clip pans and shakes differently.
    public static func render(into folder: URL, count: Int, seconds: Double = 4, width: Int = 640, height: Int = 360) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let profile = LensProfile.aibudsGlasses
        let renderer = SyntheticRenderer(
            width: width, height: height, lens: profile.lens(width: width, height: height), readoutTime: profile.frameReadoutTime ?? 0)
        let fps = 30
        for index in 0..<count {
            let motion = SyntheticMotion(panRate: 0.05 + 0.05 * Double(index % 4), shake: 0.8 + 0.4 * Double(index % 3))
            let video = folder.appendingPathComponent("VID_rendered_\(index + 1).mp4")
            try SyntheticVideoFiles.writeH264(
                frameCount: Int(seconds * Double(fps)), width: width, height: height, fps: fps, to: video, crf: 18, preset: "veryfast"
            ) { renderer.render(motion, at: Double($0) / Double(fps)) }
            let log = SyntheticSidecars.gcsv(motion, seconds: seconds + 0.1, readoutMs: (profile.frameReadoutTime ?? 0) * 1000)
            try Data(log.utf8).write(to: video.appendingPathExtension("gcsv"))
        }
    }
}
