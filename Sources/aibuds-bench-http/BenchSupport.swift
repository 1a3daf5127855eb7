import AIBudsDigest
import Foundation

/// Command-line options of the form `--name value`.
struct Options {
    let arguments: [String]

    func value(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func require(_ name: String) throws -> String {
        guard let value = value(name) else { throw BenchFailure("missing \(name)") }
        return value
    }

    func int(_ name: String, default fallback: Int) throws -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text) else { throw BenchFailure("\(name) needs a number") }
        return number
    }

    func flag(_ name: String) -> Bool { arguments.contains(name) }
}

/// A benchmark failure, reported on standard error with exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One file of a prepared set.
struct ManifestEntry: Sendable {
    var name: String
    var size: Int64
    var sha256: [UInt8]
}

/// The files of a prepared set: `<dir>/manifest-<set>.tsv` with name, size, SHA-256 per line.
enum Manifest {
    static func path(directory: String, set: String) -> String { "\(directory)/manifest-\(set).tsv" }

    static func read(directory: String, set: String) throws -> [ManifestEntry] {
        let text = try String(contentsOfFile: path(directory: directory, set: set), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let size = Int64(fields[1]), let sha256 = [UInt8](hexadecimal: fields[2]) else {
                throw BenchFailure("bad manifest line \(line)")
            }
            return ManifestEntry(name: String(fields[0]), size: size, sha256: sha256)
        }
    }

    static func write(_ entries: [ManifestEntry], directory: String, set: String) throws {
        let text = entries.map { "\($0.name)\t\($0.size)\t\($0.sha256.hexString)\n" }.joined()
        try text.write(toFile: path(directory: directory, set: set), atomically: true, encoding: .utf8)
    }
}

/// Writes standard output line by line.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Seconds elapsed since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Parses sizes such as `64K`, `256M`, `1G` (binary units).
func parseSize(_ text: String) throws -> Int64 {
    let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    if let last = text.last, let unit = units[last], let number = Int64(text.dropLast()) { return number * unit }
    guard let number = Int64(text) else { throw BenchFailure("bad size \(text)") }
    return number
}

/// Removes and recreates a folder.
func recreateDirectory(_ path: String) throws {
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

/// The 1-, 5- and 15-minute load averages.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}

/// Writes every dirty page of every file system back to disk (`sync(2)`); returns the seconds
/// that took. Every measured run starts after one: curl leaves its files in the page cache, and
/// the import's durability step (`syncfs` of the destination's file system) would otherwise pay
/// for writing back the previous curl run's files.
func settle() -> Double {
    let start = ContinuousClock.now
    sync()
    return seconds(since: start)
}
