/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as SMP's File group `crc32` hash uses.
public struct CRC32: Sendable {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// Starts a new checksum.
    public init() {}

    /// Adds bytes to the checksum.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let table = Self.table
        for byte in bytes { state = table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8) }
    }

    /// The checksum of everything added so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
