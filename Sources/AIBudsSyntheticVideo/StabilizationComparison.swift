import AIBudsStabilization
import Foundation

/// Pictures that show what stabilization did to a video, for a person to look at: a side-by-side
/// clip (original left, stabilized right) and a contact sheet of motion trails (the mean of a
/// third of a second of frames at three moments: shake smears the original's trail, the
/// stabilized one stays sharp). Gray, from the videos' luma; the first `maxFrames` frames only,
/// so memory stays bounded whatever the videos' length.
public enum StabilizationComparison {
    /// The files written by ``write(original:stabilized:besideFolder:stem:maxFrames:)``.
    public struct Output: Sendable {
        /// The side-by-side H.264 clip.
        public var sideBySide: URL
        /// The contact sheet JPEG.
        public var contactSheet: URL
    }

    /// Writes `<stem>.side-by-side.mp4` and `<stem>.trails.jpg` into `folder`, comparing
    /// `original` with `stabilized` (same frame size) over their first `maxFrames` frames.
    ///
    /// - Throws: `FFmpegError` when a video cannot be read or the sizes differ.
    public static func write(
        original: URL, stabilized: URL, besideFolder folder: URL, stem: String, maxFrames: Int = 150, fps: Int = 30
    ) throws -> Output {
        let before = try frames(of: original, limit: maxFrames)
        let after = try frames(of: stabilized, limit: maxFrames)
        guard before.width == after.width, before.height == after.height, before.width > 0, before.height > 0 else {
            throw FFmpegError("comparison", reason: "the stabilized video is \(after.width)x\(after.height), the original \(before.width)x\(before.height)")
        }
        let (width, height) = (before.width, before.height)
        let count = min(before.frames.count, after.frames.count)
        let gap = 8
        let sideBySide = folder.appendingPathComponent("\(stem).side-by-side.mp4")
        try SyntheticVideoFiles.writeH264(
            frameCount: count, width: 2 * width + gap, height: height, fps: fps, to: sideBySide, crf: 20, preset: "veryfast"
        ) { index in
            joinRows([before.frames[index], after.frames[index]], width: width, height: height, gap: gap)
        }
        // Trails: three moments, each the mean of a third of a second; original | stabilized per row.
        let window = max(1, min(count, fps / 3))
        var rows: [[UInt8]] = []
        for moment in [0.2, 0.5, 0.8] {
            let start = min(max(0, Int(Double(count) * moment) - window / 2), max(0, count - window))
            let trails = [before.frames, after.frames].map { mean(Array($0[start..<(start + window)]), pixels: width * height) }
            rows.append(joinRows(trails, width: width, height: height, gap: gap))
        }
        let sheetWidth = 2 * width + gap
        var sheet: [UInt8] = []
        for (index, row) in rows.enumerated() {
            if index > 0 { sheet += [UInt8](repeating: 255, count: sheetWidth * gap) }
            sheet += row
        }
        let contactSheet = folder.appendingPathComponent("\(stem).trails.jpg")
        try StillPictures.jpeg(luma: sheet, width: sheetWidth, height: rows.count * height + (rows.count - 1) * gap)
            .write(to: contactSheet, options: .atomic)
        return Output(sideBySide: sideBySide, contactSheet: contactSheet)
    }

    private static func frames(of url: URL, limit: Int) throws -> (frames: [[UInt8]], width: Int, height: Int) {
        var frames: [[UInt8]] = []
        var size = (0, 0)
        do {
            try SyntheticVideoFiles.forEachLuma(url) { plane, width, height in
                guard frames.count < limit else { throw Enough() }
                size = (width, height)
                frames.append(plane)
            }
        } catch is Enough {}
        return (frames, size.0, size.1)
    }

    private struct Enough: Error {}

    /// Planes of `width` × `height` side by side with a white gap.
    private static func joinRows(_ planes: [[UInt8]], width: Int, height: Int, gap: Int) -> [UInt8] {
        let total = planes.count * width + (planes.count - 1) * gap
        var out = [UInt8](repeating: 255, count: total * height)
        for (column, plane) in planes.enumerated() {
            for row in 0..<height {
                let target = row * total + column * (width + gap)
                out.replaceSubrange(target..<(target + width), with: plane[(row * width)..<(row * width + width)])
            }
        }
        return out
    }

    /// The per-pixel mean of `planes`.
    private static func mean(_ planes: [[UInt8]], pixels: Int) -> [UInt8] {
        var sum = [UInt32](repeating: 0, count: pixels)
        for plane in planes { for index in 0..<pixels { sum[index] &+= UInt32(plane[index]) } }
        let count = UInt32(max(1, planes.count))
        return sum.map { UInt8(($0 + count / 2) / count) }
    }
}
