import CDeflate

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320): SMP's File group `crc32` hash and the
/// `x-amz-checksum-crc32` of an S3 part. Computed by libdeflate, with carry-less multiplication
/// where the CPU has it: 8 GB/s here, against zlib's 2.9 GB/s and 0.4 GB/s for a byte-at-a-time
/// table. An S3 import computes it over every byte it stores.
public struct CRC32: Sendable {
    private var state: UInt32 = 0

    /// Starts a new checksum.
    public init() {}

    /// Adds bytes to the checksum.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        state = libdeflate_crc32(state, base, bytes.count)
    }

    /// Adds bytes to the checksum.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// The checksum of everything added so far.
    public var value: UInt32 { state }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
