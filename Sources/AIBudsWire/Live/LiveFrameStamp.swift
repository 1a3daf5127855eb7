/// When and in what order the camera captured a live frame: the stamp every frame of the device's
/// live stream carries twice, in the H.264 stream as an SEI message (user data unregistered, under
/// ``seiUUID``) and burned into the picture as a row of blocks (``LiveFrameStampPattern``), so a
/// receiver with no access to the bit stream (a player writing raw frames) reads it too.
public struct LiveFrameStamp: Sendable, Hashable {
    /// The capture time in microseconds since 1970-01-01 UTC (the device's clock).
    public var captureMicroseconds: UInt64
    /// The frame's number since the stream started (the first frame is 0).
    public var frameNumber: UInt32

    /// A stamp as the camera writes it: the wall-clock capture time and the frame's number.
    public init(captureMicroseconds: UInt64, frameNumber: UInt32) {
        self.captureMicroseconds = captureMicroseconds
        self.frameNumber = frameNumber
    }

    /// The 16-byte UUID that marks this project's stamp among SEI user data.
    public static let seiUUID: [UInt8] = [
        0x41, 0x49, 0x42, 0x75, 0x64, 0x73, 0x4C, 0x69, 0x76, 0x65, 0x53, 0x74, 0x61, 0x6D, 0x70, 0x31,
    ]

    /// The SEI user-data-unregistered payload: the UUID, then the time (8 bytes) and the frame
    /// number (4 bytes), big-endian.
    public var seiPayload: [UInt8] {
        Self.seiUUID + bigEndianBytes(captureMicroseconds, count: 8) + bigEndianBytes(UInt64(frameNumber), count: 4)
    }

    /// Reads a stamp from an SEI user-data-unregistered payload; nil when it is not this project's
    /// (another UUID, another length).
    public init?(seiPayload bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count == 28, Array(bytes[0..<16]) == Self.seiUUID else { return nil }
        captureMicroseconds = bytes[16..<24].reduce(0) { $0 << 8 | UInt64($1) }
        frameNumber = UInt32(bytes[24..<28].reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The 12 bytes the picture pattern carries, followed by their Fletcher-16 check.
    var patternBytes: [UInt8] {
        let body = bigEndianBytes(captureMicroseconds, count: 8) + bigEndianBytes(UInt64(frameNumber), count: 4)
        let check = Self.fletcher16(body)
        return body + [UInt8(check >> 8), UInt8(check & 0xFF)]
    }

    init?(patternBytes bytes: [UInt8]) {
        guard bytes.count == 14 else { return nil }
        let body = Array(bytes[0..<12])
        guard Self.fletcher16(body) == UInt16(bytes[12]) << 8 | UInt16(bytes[13]) else { return nil }
        captureMicroseconds = body[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        frameNumber = UInt32(body[8..<12].reduce(0) { $0 << 8 | UInt64($1) })
    }

    static func fletcher16(_ bytes: [UInt8]) -> UInt16 {
        var a: UInt16 = 0
        var b: UInt16 = 0
        for byte in bytes {
            a = (a + UInt16(byte)) % 255
            b = (b + a) % 255
        }
        return b << 8 | a
    }
}

private func bigEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
}

/// The stamp burned into a frame's luma: 112 blocks (the stamp's 12 bytes and a Fletcher-16 check,
/// most significant bit first) in two rows of 56, each block black (16) for 0 or white (235) for
/// 1, square blocks of `max(4, width / 80)` pixels starting one block in from the top-left
/// corner. Blocks that large survive H.264 and JPEG at any sensible quality; a frame whose
/// blocks do not read back with a valid check gives no stamp, never a wrong one.
public enum LiveFrameStampPattern {
    /// Blocks in each row of the pattern (56 bits of the 112).
    public static let blocksPerRow = 56
    /// Rows of blocks.
    public static let rows = 2

    /// The block size for frames `width` pixels wide.
    public static func blockSize(width: Int) -> Int { max(4, width / 80) }

    /// Whether a `width` × `height` frame has room for the pattern.
    public static func fits(width: Int, height: Int) -> Bool {
        let block = blockSize(width: width)
        return block * (blocksPerRow + 2) <= width && block * (rows + 2) <= height
    }

    /// Burns `stamp` into the luma plane at `luma` (rows `stride` bytes apart) of a `width` ×
    /// `height` frame that ``fits(width:height:)``.
    public static func burn(_ stamp: LiveFrameStamp, into luma: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        guard fits(width: width, height: height) else { return }
        let block = blockSize(width: width)
        let bits = bitArray(stamp.patternBytes)
        for (index, bit) in bits.enumerated() {
            let x0 = block * (1 + index % blocksPerRow)
            let y0 = block * (1 + index / blocksPerRow)
            let value: UInt8 = bit ? 235 : 16
            for y in y0..<(y0 + block) {
                (luma + y * stride + x0).update(repeating: value, count: block)
            }
        }
    }

    /// Reads the stamp from the luma plane of a `width` × `height` frame; nil when the frame has no
    /// valid pattern.
    public static func read(luma: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> LiveFrameStamp? {
        guard fits(width: width, height: height) else { return nil }
        let block = blockSize(width: width)
        let inset = block / 4
        var bits = [Bool]()
        bits.reserveCapacity(blocksPerRow * rows)
        for index in 0..<(blocksPerRow * rows) {
            let x0 = block * (1 + index % blocksPerRow) + inset
            let y0 = block * (1 + index / blocksPerRow) + inset
            var sum = 0
            let side = block - 2 * inset
            for y in y0..<(y0 + side) {
                for x in x0..<(x0 + side) { sum += Int(luma[y * stride + x]) }
            }
            bits.append(sum / (side * side) >= 126)
        }
        var bytes = [UInt8](repeating: 0, count: bits.count / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 0x80 >> UInt8(index % 8) }
        return LiveFrameStamp(patternBytes: bytes)
    }

    private static func bitArray(_ bytes: [UInt8]) -> [Bool] {
        bytes.flatMap { byte in (0..<8).map { byte & (0x80 >> UInt8($0)) != 0 } }
    }
}
