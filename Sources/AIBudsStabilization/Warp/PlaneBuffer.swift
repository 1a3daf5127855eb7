/// One 8-bit image plane in memory someone else owns (a decoded or encoder frame's plane).
///
/// `@unchecked Sendable`: the warper's bands write disjoint rows of the destination and only read
/// the source, and the frame outlives the warp.
public struct PlaneBuffer: @unchecked Sendable {
    /// The first byte of the top row.
    public let base: UnsafeMutablePointer<UInt8>
    /// Bytes from one row to the next.
    public let stride: Int
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int

    /// Wraps a plane.
    public init(base: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        self.base = base
        self.stride = stride
        self.width = width
        self.height = height
    }
}
