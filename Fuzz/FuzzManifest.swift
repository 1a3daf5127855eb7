// libFuzzer target `manifest`: the emulator's media manifest (`aibuds emulator --manifest FILE`,
// docs/emulator.md), read by `MediaSources.load(manifestData:base:path:)`, what
// `MediaSources.load(manifest:)` does once it has read the file.
//
// Built by scripts/fuzz.sh with the AIBudsSync, AIBudsWire and AIBudsFoundation modules and the
// emulator's manifest sources. Invariants: no crash, hang or huge allocation; an accepted manifest
// gives non-empty names of at most 8,192 bytes, distinct by their exact bytes (NFC and NFD twins
// are two files, equal ones are refused); written back as a manifest (name, type, size, seed,
// listed size, six-axis flag) it loads to the same files.

@testable import AIBudsWire
import Foundation

/// A folder of this process for the manifest files (with a source file manifests may name).
private let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-manifest-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try? Data(repeating: 7, count: 100).write(to: url.appendingPathComponent("a.jpg"))
    try? Data(repeating: 1, count: 10).write(to: url.appendingPathComponent("s.gcsv"))
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard let seeds = try? MediaSources.load(manifestData: input, base: folder, path: "input") else { return 0 }
    var names = Set<MediaFileName>()
    for seed in seeds {
        precondition(!seed.name.utf8.isEmpty && seed.name.utf8.count <= MediaSources.maxNameBytes, "a name out of bounds: \(seed.name)")
        precondition(names.insert(seed.name).inserted, "a name appears twice: \(seed.name)")
        precondition(seed.type != .unknown, "a file of unknown type: \(seed.name)")
    }
    // Written back (generated content only: a source's bytes are whatever the file holds).
    let generated = seeds.filter { if case .generated = $0.content { true } else { false } }
    let entries = generated.map { seed in
        var seedValue: UInt64?
        if case .generated(let value) = seed.content { seedValue = value }
        return WrittenEntry(name: seed.name.text, type: seed.type.rawValue, size: seed.size, seed: seedValue, listed_size: seed.listedSize)
    }
    let again: Data
    do {
        // JSONEncoder, not JSONSerialization: the latter drops a U+FEFF inside a string.
        again = try JSONEncoder().encode(["files": entries])
    } catch {
        preconditionFailure("accepted files cannot be written back: \(error)")
    }
    let reloaded: [MediaSeed]
    do {
        reloaded = try MediaSources.load(manifestData: again, base: folder, path: "written back")
    } catch {
        preconditionFailure("a manifest of accepted files is refused: \(error)")
    }
    precondition(reloaded.count == generated.count, "files lost or added through a manifest")
    for (a, b) in zip(generated, reloaded) {
        precondition(a.name == b.name && a.type == b.type && a.size == b.size && a.listedSize == b.listedSize,
                     "a file changes through a manifest: \(a.name)")
        if case .generated(let x) = a.content, case .generated(let y) = b.content { precondition(x == y, "the seed changed") }
    }
    return 0
}

/// A manifest entry as written back.
private struct WrittenEntry: Encodable {
    var name: String
    var type: Int
    var size: UInt64
    var seed: UInt64?
    var listed_size: UInt64?
}
