/// A frame's output-to-source mapping sampled on a coarse grid of output pixels (every
/// ``spacing`` pixels plus the last row and column); pixels between nodes interpolate it
/// bilinearly. At the default 32 pixels that strays at most 0.09 px from the exact mapping at
/// 1080p through the glasses' fisheye with a strong rolling-shutter correction (0.02 px at 16,
/// which cost 2 more CPU-seconds per 10 s of 1080p video; `WarpMapAccuracyTests`).
public struct WarpMap: Sendable {
    /// Output pixels between grid nodes.
    public let spacing: Int
    /// Nodes per row.
    public let columns: Int
    /// Node rows.
    public let rows: Int
    /// Source x of each node (row-major); ``invalid`` where the ray misses the lens.
    var sourceX: [Float]
    /// Source y of each node.
    var sourceY: [Float]

    /// A coordinate that lies outside every frame.
    static let invalid: Float = -1e6

    /// Samples `correction` for a `width` × `height` output.
    public init(_ correction: FrameCorrection, width: Int, height: Int, spacing: Int = 32) {
        self.spacing = spacing
        columns = (width + spacing - 1) / spacing + 1
        rows = (height + spacing - 1) / spacing + 1
        sourceX = [Float](repeating: Self.invalid, count: columns * rows)
        sourceY = [Float](repeating: Self.invalid, count: columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let point = SIMD2(Double(column * spacing), Double(row * spacing))
                if let source = correction.sourcePixel(point) {
                    sourceX[row * columns + column] = Float(source.x)
                    sourceY[row * columns + column] = Float(source.y)
                }
            }
        }
    }

    /// The identity map (for tests and for frames outside the six-axis log).
    public init(identityWidth width: Int, height: Int, spacing: Int = 32) {
        self.spacing = spacing
        let columns = (width + spacing - 1) / spacing + 1
        let rows = (height + spacing - 1) / spacing + 1
        self.columns = columns
        self.rows = rows
        sourceX = (0..<rows * columns).map { Float(($0 % columns) * spacing) }
        sourceY = (0..<rows * columns).map { Float(($0 / columns) * spacing) }
    }
}
