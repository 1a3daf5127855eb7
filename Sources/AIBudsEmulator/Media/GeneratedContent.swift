import Foundation

/// Deterministic pseudo-random file content with random access: byte `i` of the content for `seed`
/// is always the same, so a generated file of any size needs no storage, and every run (and every
/// emulator) serves identical bytes for the same seed.
///
/// The content is the SplitMix64 stream of `seed`, each 64-bit word stored little-endian.
public enum GeneratedContent {
    private static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Computes `count` bytes of the content for `seed` from byte `offset` on, without generating
    /// what comes before.
    public static func bytes(seed: UInt64, offset: UInt64, count: Int) -> Data {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            fill(buffer, seed: seed, offset: offset)
        }
        return data
    }

    /// Fills `buffer` with the content starting at `offset`.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, seed: UInt64, offset: UInt64) {
        var position = 0
        var word = offset / 8
        var skip = Int(offset % 8)
        while position < buffer.count {
            var value = SeededRandom.mix(seed &+ (word &+ 1) &* golden).littleEndian
            withUnsafeBytes(of: &value) { bytes in
                let take = min(8 - skip, buffer.count - position)
                for index in 0..<take { buffer[position + index] = bytes[skip + index] }
                position += take
            }
            skip = 0
            word &+= 1
        }
    }

    /// Writes the first `size` bytes of the content for `seed` to a new file at `url`.
    static func write(seed: UInt64, size: UInt64, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw EmulatorError(.io, "cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let block = 1 << 20
        var buffer = Data(count: block)
        var offset: UInt64 = 0
        while offset < size {
            let count = Int(min(UInt64(block), size - offset))
            if count < block { buffer = Data(count: count) }
            buffer.withUnsafeMutableBytes { fill($0, seed: seed, offset: offset) }
            try handle.write(contentsOf: buffer)
            offset += UInt64(count)
        }
    }
}

/// Generated six-axis data in Gyroflow's `.gcsv` text format: a header, then one row per sample
/// of time, gyroscope (x, y, z) and accelerometer (x, y, z), at 100 Hz for the video's duration.
enum SixAxisSidecar {
    /// The sidecar text for a generated video of `videoSize` bytes (about 1.5 MB per second of
    /// video, between 1 and 120 seconds), derived from the video's seed.
    static func generate(seed: UInt64, videoSize: UInt64) -> Data {
        let seconds = min(120, max(1, videoSize / 1_500_000))
        let rate: UInt64 = 100
        var random = SeededRandom(seed: seed ^ 0x5158_4953_4958_4158)
        var text = """
            GYROFLOW IMU LOG
            version,1.3
            id,aibuds_emulator
            orientation,XYZ
            tscale,0.001
            gscale,0.00122173
            ascale,0.00048828
            t,gx,gy,gz,ax,ay,az

            """
        var gyro = [0, 0, 0]
        for sample in 0..<(seconds * rate) {
            for axis in 0..<3 {
                gyro[axis] = max(-2000, min(2000, gyro[axis] + Int(random.next() % 41) - 20))
            }
            let ax = Int(random.next() % 21) - 10
            let ay = 2048 + Int(random.next() % 21) - 10
            let az = Int(random.next() % 21) - 10
            text += "\(sample * 1000 / rate),\(gyro[0]),\(gyro[1]),\(gyro[2]),\(ax),\(ay),\(az)\n"
        }
        return Data(text.utf8)
    }
}
