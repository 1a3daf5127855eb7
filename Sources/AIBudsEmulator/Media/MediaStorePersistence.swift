import AIBudsFoundation
import AIBudsWire
import Foundation

/// The on-disk form of a media store's changes (`<state>/media.json`): what was deleted from the
/// starting set and what was added (uploads, recordings), with the generation counter.
///
/// Names are stored as base64 of their UTF-8 bytes, so that any name (control characters, NUL,
/// either Unicode normalisation) round-trips exactly.
struct PersistedMediaState: Codable, Equatable {
    /// The format version.
    var version = 1
    /// The media list generation.
    var generation: UInt64
    /// The counter behind new ids and upload part files.
    var counter: UInt64
    /// Names of starting files that were deleted (or replaced), base64 of UTF-8.
    var deletedBase: [String]
    /// Files added since the start.
    var added: [PersistedRecord]

    /// One added file.
    struct PersistedRecord: Codable, Equatable {
        /// base64 of the name's UTF-8 bytes.
        var name: String
        var id: String
        var type: Int
        var size: UInt64
        var changedGeneration: UInt64
        /// The seed of generated content (a recording), or nil for a stored file.
        var seed: UInt64?
        /// The stored file's name under `files/` (an upload), or nil for generated content.
        var file: String?
        /// Whether the file has a generated six-axis sidecar (derived from `seed`).
        var sixaxis: Bool
    }

    static func encodeName(_ name: MediaFileName) -> String { Data(name.utf8).base64EncodedString() }

    static func decodeName(_ text: String) throws(EmulatorError) -> MediaFileName {
        guard let data = Data(base64Encoded: text), let name = String(bytes: data, encoding: .utf8) else {
            throw EmulatorError(.invalidState, "media.json holds a name that is not base64 of UTF-8")
        }
        return MediaFileName(name)
    }
}

/// The folders a media store writes: the state folder when there is one, else a private
/// temporary folder that is removed when the store closes.
struct MediaStoreFolders: Sendable {
    /// The root: the state folder or the temporary one.
    let root: URL
    /// Whether `root` is temporary (removed on close).
    let isTemporary: Bool

    /// Uploaded files, named by id.
    var files: URL { root.appendingPathComponent("files", isDirectory: true) }
    /// Uploads in progress.
    var uploads: URL { root.appendingPathComponent("uploads", isDirectory: true) }
    /// Generated files materialised for the data plane.
    var cache: URL { root.appendingPathComponent("cache", isDirectory: true) }
    /// The persisted media state.
    var stateFile: URL { root.appendingPathComponent("media.json") }

    init(stateDirectory: URL?) throws(EmulatorError) {
        if let stateDirectory {
            root = stateDirectory
            isTemporary = false
        } else {
            root = FileManager.default.temporaryDirectory
                .appendingPathComponent("aibuds-emulator-\(UUID().uuidString)", isDirectory: true)
            isTemporary = true
        }
        do {
            for folder in [files, uploads, cache] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            // Uploads that were in progress when the last run ended cannot be resumed.
            for leftover in try FileManager.default.contentsOfDirectory(atPath: uploads.path) {
                try? FileManager.default.removeItem(at: uploads.appendingPathComponent(leftover))
            }
        } catch {
            throw EmulatorError(.io, "cannot prepare the folder \(root.path)", underlying: error)
        }
    }

    func load() throws(EmulatorError) -> PersistedMediaState? {
        guard FileManager.default.fileExists(atPath: stateFile.path), !isTemporary else { return nil }
        do {
            return try JSONDecoder().decode(PersistedMediaState.self, from: Data(contentsOf: stateFile))
        } catch {
            throw EmulatorError(.invalidState, "cannot read \(stateFile.path)", underlying: error)
        }
    }

    func save(_ state: PersistedMediaState) throws(EmulatorError) {
        guard !isTemporary else { return }
        try AtomicFile.writeJSON(state, what: "the media state", to: stateFile)
    }

    func removeTemporary() {
        if isTemporary { try? FileManager.default.removeItem(at: root) }
    }
}
