import AIBudsStabilization
import Dispatch
import Foundation

/// Renders what a camera with a given lens sees of a textured sphere at infinity while it moves
/// along a ``SyntheticMotion``, each row at its own exposure time (rolling shutter).
public struct SyntheticRenderer: Sendable {
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// The lens the scene is seen through.
    public let lens: LensModel
    /// Readout time in seconds, top to bottom (0: global shutter).
    public let readoutTime: Double
    /// The unit ray of every pixel centre, row-major.
    private let rays: [SIMD3<Double>]

    /// Prepares the rays of every pixel of a `width` × `height` frame through `lens`.
    public init(width: Int, height: Int, lens: LensModel, readoutTime: Double) {
        self.width = width
        self.height = height
        self.lens = lens
        self.readoutTime = readoutTime
        var rays = [SIMD3<Double>]()
        rays.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let ray = lens.unproject(SIMD2(Double(x), Double(y))) ?? SIMD3(0, 0, 1)
                rays.append(ray / (ray * ray).sum().squareRoot())
            }
        }
        self.rays = rays
    }

    /// The luma of the frame presented at `time` (its middle row exposed then).
    public func render(_ motion: SyntheticMotion, at time: Double) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        let bands = max(1, min(height, ProcessInfo.processInfo.activeProcessorCount * 4))
        let rowsPerBand = (height + bands - 1) / bands
        pixels.withUnsafeMutableBufferPointer { buffer in
            let output = SendablePixels(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                for y in (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand) {
                    let rowTime = time + (Double(y) / Double(height) - 0.5) * readoutTime
                    let q = motion.orientation(at: rowTime)
                    for x in 0..<width {
                        output.base[y * width + x] = Self.texture(q.rotate(rays[y * width + x]))
                    }
                }
            }
        }
        return pixels
    }

    /// A band-limited, non-periodic pattern on the sphere of directions (luma 40–215).
    public static func texture(_ d: SIMD3<Double>) -> UInt8 {
        var value = 0.0
        value += sin(31 * d.x + 17 * d.y + 3)
        value += sin(-23 * d.x + 37 * d.z + 1)
        value += sin(29 * d.y - 19 * d.z + 5)
        value += 0.7 * sin(53 * d.x + 41 * d.y - 11 * d.z)
        value += 0.7 * sin(-47 * d.y + 59 * d.z + 13 * d.x + 2)
        return UInt8(128 + 87 * value / 4.4)
    }
}

/// A pixel buffer whose bands of rows are written by concurrent workers, each its own rows.
private struct SendablePixels: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
}
