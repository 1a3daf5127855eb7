import AIBudsDigest
import AIBudsEmulator
import Foundation

/// `prepare --dir D --set NAME --count N --size S`: writes N files of pseudo-random bytes and
/// their manifest.
enum BenchPrepare {
    static func run(_ options: Options) throws {
        let directory = try options.require("--dir")
        let set = try options.require("--set")
        let count = try options.int("--count", default: 1)
        let size = try parseSize(try options.require("--size"))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var entries: [ManifestEntry] = []
        var generator = SeededRandom(seed: UInt64(bitPattern: Int64(set.hashValue)) ^ UInt64(count))
        for index in 0..<count {
            let name = "\(set)-\(String(format: "%05d", index)).bin"
            entries.append(ManifestEntry(name: name, size: size, sha256: try writeRandom("\(directory)/\(name)", size: size, generator: &generator)))
        }
        try Manifest.write(entries, directory: directory, set: set)
        say("prepared \(count) × \(size) bytes as set \(set) in \(directory)")
    }

    /// Writes `size` pseudo-random bytes and returns their SHA-256.
    static func writeRandom(_ path: String, size: Int64, generator: inout SeededRandom) throws -> [UInt8] {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { throw BenchFailure("cannot write \(path)") }
        defer { try? handle.close() }
        let hasher = SHA256()
        var remaining = size
        var block = [UInt64](repeating: 0, count: 1 << 17)
        while remaining > 0 {
            for index in block.indices { block[index] = generator.next() }
            let count = Int(min(remaining, Int64(block.count * 8)))
            let data = block.withUnsafeBytes { Data($0.prefix(count)) }
            hasher.update(data)
            try handle.write(contentsOf: data)
            remaining -= Int64(count)
        }
        return hasher.finalize()
    }
}
