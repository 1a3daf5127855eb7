import AIBudsSyntheticVideo
import AIBudsWire
import Foundation

/// The moving scene the emulated camera films: a panorama of the synthetic texture
/// (`SyntheticRenderer.texture`) panning left a quarter frame per second, a coloured square
/// bouncing across it, and the frame's stamp burned in twice: as the machine-readable block pattern
/// (``LiveFrameStampPattern``) and as digits a person reads (`#frame HH:MM:SS.mmm`, UTC).
struct LiveScene: Sendable {
    let width: Int
    let height: Int
    private let panorama: [UInt8]
    private var panoramaWidth: Int { width * 3 }

    /// Renders the panorama once (three frame widths around the camera).
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let panoramaWidth = width * 3
        var panorama = [UInt8](repeating: 0, count: panoramaWidth * height)
        for x in 0..<panoramaWidth {
            let azimuth = 2 * Double.pi * Double(x) / Double(panoramaWidth)
            for y in 0..<height {
                let elevation = (Double(y) / Double(height) - 0.5) * 0.9
                let direction = SIMD3(sin(azimuth) * cos(elevation), sin(elevation), cos(azimuth) * cos(elevation))
                panorama[y * panoramaWidth + x] = SyntheticRenderer.texture(direction)
            }
        }
        self.panorama = panorama
    }

    /// Draws the frame of `stamp` at `seconds` since the stream started into a YUV 4:2:0 picture.
    func draw(_ stamp: LiveFrameStamp, seconds: Double, into picture: YUVPicture) {
        let shift = Int(seconds * Double(width) / 4) % panoramaWidth
        panorama.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = picture.luma + y * picture.lumaStride
                let start = source.baseAddress! + y * panoramaWidth
                let first = min(width, panoramaWidth - shift)
                (row).update(from: start + shift, count: first)
                if first < width { (row + first).update(from: start, count: width - first) }
            }
        }
        for y in 0..<(height / 2) {
            (picture.cb + y * picture.chromaStride).update(repeating: 128, count: width / 2)
            (picture.cr + y * picture.chromaStride).update(repeating: 128, count: width / 2)
        }
        drawSquare(seconds: seconds, into: picture)
        let block = LiveFrameStampPattern.blockSize(width: width)
        fillLuma(picture, x: 0, y: 0, width: block * (LiveFrameStampPattern.blocksPerRow + 2),
                 height: block * (LiveFrameStampPattern.rows + 2) + block * 4, value: 16)
        LiveFrameStampPattern.burn(stamp, into: picture.luma, stride: picture.lumaStride, width: width, height: height)
        let date = Date(timeIntervalSince1970: Double(stamp.captureMicroseconds) / 1_000_000)
        LiveDigits.draw(String(format: "#%06u ", stamp.frameNumber) + Self.clock(date), into: picture,
                        x: block, y: block * (LiveFrameStampPattern.rows + 2), scale: max(1, block / 2))
    }

    private func drawSquare(seconds: Double, into picture: YUVPicture) {
        let side = (height / 5) & ~1
        let travelX = Double(width - side), travelY = Double(height - side)
        func bounce(_ position: Double, _ travel: Double) -> Int {
            let phase = position.truncatingRemainder(dividingBy: 2 * travel)
            return Int(phase < travel ? phase : 2 * travel - phase) & ~1
        }
        let x = bounce(seconds * Double(width) / 3, travelX)
        let y = max(bounce(seconds * Double(height) / 2, travelY), height / 4) & ~1
        fillLuma(picture, x: x, y: min(y, height - side), width: side, height: side, value: 200)
        for row in (min(y, height - side) / 2)..<((min(y, height - side) + side) / 2) {
            (picture.cb + row * picture.chromaStride + x / 2).update(repeating: 60, count: side / 2)
            (picture.cr + row * picture.chromaStride + x / 2).update(repeating: 210, count: side / 2)
        }
    }

    private func fillLuma(_ picture: YUVPicture, x: Int, y: Int, width w: Int, height h: Int, value: UInt8) {
        for row in y..<min(height, y + h) {
            (picture.luma + row * picture.lumaStride + x).update(repeating: value, count: min(w, width - x))
        }
    }

    private static func clock(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970)
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        let day = seconds % 86_400
        return String(format: "%02d:%02d:%02d.%03d", day / 3600, day / 60 % 60, day % 60, millis)
    }
}

/// A YUV 4:2:0 picture's planes (an FFmpeg frame's buffers).
struct YUVPicture {
    var luma: UnsafeMutablePointer<UInt8>
    var lumaStride: Int
    var cb: UnsafeMutablePointer<UInt8>
    var cr: UnsafeMutablePointer<UInt8>
    var chromaStride: Int
}

/// Digits, `:`, `.`, `#` and space in a 3 × 5 pixel font, scaled, white on the picture.
enum LiveDigits {
    private static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        ":": [0, 2, 0, 2, 0], ".": [0, 0, 0, 0, 2], "#": [5, 7, 5, 7, 5], " ": [0, 0, 0, 0, 0],
    ]

    static func draw(_ text: String, into picture: YUVPicture, x: Int, y: Int, scale: Int) {
        var left = x
        for character in text {
            guard let rows = glyphs[character] else { continue }
            for (row, bits) in rows.enumerated() {
                for column in 0..<3 where bits & (4 >> UInt8(column)) != 0 {
                    for dy in 0..<scale {
                        let line = picture.luma + (y + row * scale + dy) * picture.lumaStride
                        (line + left + column * scale).update(repeating: 235, count: scale)
                    }
                }
            }
            left += 4 * scale
        }
    }
}
