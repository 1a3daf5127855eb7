/// Where each output pixel of one frame comes from in the decoded frame: the virtual camera's
/// rectilinear view (focal length × zoom, centred) rotated into the real camera at the moment its
/// row was exposed, then projected through the lens.
public struct FrameCorrection: Sendable {
    /// The lens at the video's size.
    public let lens: LensModel
    /// The frame's size in pixels.
    public let size: SIMD2<Double>
    /// The output camera's focal lengths in pixels.
    public let outputFocal: SIMD2<Double>
    /// The correction rotations (virtual camera to real camera) at evenly spaced points of the
    /// readout, first to last; one entry for a global shutter.
    let corrections: [Quaternion]
    /// The readout order.
    let direction: ReadoutDirection

    /// The number of readout points a rolling shutter is sampled at.
    static let readoutSteps = 16

    /// The correction for the frame shown at `time`: `raw` gives the real camera, `virtual` the
    /// stabilized one; `readoutTime` > 0 spreads the real camera over the rows (the frame's time
    /// is its middle row's exposure).
    public init(
        lens: LensModel, width: Int, height: Int, zoom: Double, time: Double, raw: OrientationTrack, virtual: Quaternion,
        readoutTime: Double, direction: ReadoutDirection
    ) {
        self.lens = lens
        size = SIMD2(Double(width), Double(height))
        outputFocal = lens.focalLength * zoom
        self.direction = direction
        if readoutTime > 0 {
            corrections = (0...Self.readoutSteps).map { step in
                let fraction = Double(step) / Double(Self.readoutSteps)
                return raw.orientation(at: time + (fraction - 0.5) * readoutTime).conjugate * virtual
            }
        } else {
            corrections = [raw.orientation(at: time).conjugate * virtual]
        }
    }

    /// The same frame seen with another zoom.
    public func withZoom(_ zoom: Double) -> FrameCorrection {
        var copy = self
        copy.outputFocalOverride = lens.focalLength * zoom
        return copy
    }
    private var outputFocalOverride: SIMD2<Double>?

    /// The source pixel for output pixel `point`, or `nil` when the ray misses the lens's field.
    public func sourcePixel(_ point: SIMD2<Double>) -> SIMD2<Double>? {
        let focal = outputFocalOverride ?? outputFocal
        let centre = size / 2
        let d = (point - centre) / focal
        let ray = SIMD3(d.x, d.y, 1)
        guard var source = lens.project(corrections[0].rotate(ray)) else { return nil }
        guard corrections.count > 1 else { return source }
        // The row a point lands on decides when it was exposed: two fixed-point steps suffice.
        for _ in 0..<2 {
            let fraction = min(1, max(0, direction.fraction(x: source.x, y: source.y, width: size.x, height: size.y)))
            let position = fraction * Double(corrections.count - 1)
            let index = min(corrections.count - 2, Int(position))
            let rotation = Quaternion.slerp(corrections[index], corrections[index + 1], position - Double(index))
            guard let next = lens.project(rotation.rotate(ray)) else { return nil }
            source = next
        }
        return source
    }

    /// Whether every point of the output's border (`samplesPerSide` per side) lands inside the
    /// decoded frame.
    public func coversFrame(samplesPerSide: Int = 12) -> Bool {
        for index in 0...samplesPerSide {
            let f = Double(index) / Double(samplesPerSide)
            let points = [
                SIMD2(f * size.x, 0), SIMD2(f * size.x, size.y), SIMD2(0, f * size.y), SIMD2(size.x, f * size.y),
            ]
            for point in points {
                guard let source = sourcePixel(point) else { return false }
                if source.x < 0 || source.y < 0 || source.x > size.x - 1 || source.y > size.y - 1 { return false }
            }
        }
        return true
    }
}
