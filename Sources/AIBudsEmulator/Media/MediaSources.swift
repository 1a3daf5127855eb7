import AIBudsFiles
import AIBudsFoundation
import AIBudsWire
import Foundation

/// Builds a device's starting files from a host folder (`--media`) or a manifest (`--manifest`).
public enum MediaSources {
    /// The largest device file name accepted, in UTF-8 bytes.
    public static let maxNameBytes = 8192
    /// The largest generated file a manifest may declare (1 TiB).
    public static let maxGeneratedSize: UInt64 = 1 << 40
    /// The largest six-axis sidecar read into memory (64 MiB).
    static let maxSidecarSize = 64 << 20
    /// The largest manifest read (16 MiB: about 100,000 entries).
    static let maxManifestSize = 16 << 20

    /// Every regular file below `folder` with a media extension, named by its path relative to
    /// `folder` (components joined by `/`). A video with a sidecar `<name>.gcsv` (or
    /// `<name without extension>.gcsv`) beside it carries six-axis data. Symbolic links, other
    /// extensions and sidecars themselves are not device files.
    public static func scan(folder: URL) throws(EmulatorError) -> [MediaSeed] {
        let root = folder.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw EmulatorError(.invalidMediaFolder, "\(folder.path) is not a folder")
        }
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey, .fileSizeKey]
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else {
            throw EmulatorError(.invalidMediaFolder, "cannot list \(folder.path)")
        }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        // Keyed by exact name: two files whose names differ only by Unicode normalisation are
        // equal as Swift strings but are two files.
        var files: [MediaFileName: URL] = [:]
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                values.isSymbolicLink != true
            else { continue }
            let path = url.standardizedFileURL.path
            guard path.utf8.starts(with: prefix.utf8) else { continue }
            files[MediaFileName(String(decoding: path.utf8.dropFirst(prefix.utf8.count), as: UTF8.self))] = url
        }
        var seeds: [MediaSeed] = []
        for (name, url) in files.sorted(by: { $0.key < $1.key }) {
            guard let type = MediaFileType.emulatorType(ofFileNamed: name) else { continue }
            let size = try fileSize(url)
            var sidecar: Data?
            if type == .video {
                for candidate in [name.text + ".gcsv", stem(of: name) + ".gcsv"] {
                    if let sidecarURL = files[MediaFileName(candidate)] {
                        sidecar = try readSidecar(sidecarURL)
                        break
                    }
                }
            }
            seeds.append(MediaSeed(name: name, type: type, size: size, content: .file(url), sidecar: sidecar))
        }
        return seeds
    }

    /// The files a manifest describes.
    ///
    /// The manifest is JSON: either `{"files": [entry, ...]}` or an array of entries. An entry is
    /// `{"name": text, "type": "image"|"video"|"audio"|1|2|3}` and either `"source": path` (a host
    /// file, relative to the manifest's folder) or `"size": bytes` with an optional `"seed": uint`
    /// for generated content. A video may add `"sixaxis": true` (a generated sidecar) or
    /// `"sixaxis_source": path`. Names may be anything but empty or longer than
    /// ``maxNameBytes``: `../x`, `/etc/x`, control characters and NUL are all just names.
    public static func load(manifest url: URL) throws(EmulatorError) -> [MediaSeed] {
        let data: Data
        do { data = try InputFile.read(url, limit: maxManifestSize) } catch {
            throw EmulatorError(.invalidManifest, "cannot read the manifest \(error)", underlying: error)
        }
        return try load(manifestData: data, base: url.deletingLastPathComponent(), path: url.path)
    }

    /// The files a manifest's bytes describe, with `source` paths relative to `base`; `path`
    /// names the manifest in errors. What ``load(manifest:)`` does once it has read the file.
    static func load(manifestData data: Data, base: URL, path: String) throws(EmulatorError) -> [MediaSeed] {
        let document: ManifestDocument
        do { document = try JSONDecoder().decode(ManifestDocument.self, from: data) } catch {
            throw EmulatorError(.invalidManifest, "the manifest \(path) is not valid", underlying: error)
        }
        var seen = Set<MediaFileName>()
        var seeds: [MediaSeed] = []
        for (index, entry) in document.files.enumerated() {
            let seed = try entry.seed(relativeTo: base, index: index)
            guard seen.insert(seed.name).inserted else {
                throw EmulatorError(.invalidManifest, "manifest entry \(index): the name \(seed.name) appears twice")
            }
            seeds.append(seed)
        }
        return seeds
    }

    /// The name without the extension of its last path component.
    static func stem(of name: MediaFileName) -> String {
        let bytes = name.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), !bytes[dot...].contains(UInt8(ascii: "/")),
            dot > 0, bytes[dot - 1] != UInt8(ascii: "/")
        else { return name.text }
        return String(decoding: bytes[..<dot], as: UTF8.self)
    }

    static func fileSize(_ url: URL, code: EmulatorError.Code = .invalidMediaFolder) throws(EmulatorError) -> UInt64 {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = (attributes[.size] as? NSNumber)?.uint64Value
        else {
            throw EmulatorError(code, "cannot read the size of \(url.path)")
        }
        return size
    }

    static func readSidecar(_ url: URL, code: EmulatorError.Code = .invalidMediaFolder) throws(EmulatorError) -> Data {
        // Only a regular file: a device such as /dev/zero reports size 0 and never ends.
        do { return try InputFile.read(url, limit: maxSidecarSize) } catch {
            throw EmulatorError(code, "the six-axis sidecar \(error)", underlying: error)
        }
    }
}

/// The JSON shape of a manifest.
private struct ManifestDocument: Decodable {
    var files: [ManifestEntry]

    init(from decoder: any Decoder) throws {
        if let array = try? [ManifestEntry](from: decoder) {
            files = array
        } else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            files = try container.decode([ManifestEntry].self, forKey: .files)
        }
    }

    enum CodingKeys: String, CodingKey { case files }
}

/// One manifest entry.
private struct ManifestEntry: Decodable {
    var name: String
    var type: String
    var source: String?
    var size: UInt64?
    var seed: UInt64?
    var sixaxis: Bool?
    var sixaxisSource: String?
    var listedSize: UInt64?

    enum CodingKeys: String, CodingKey {
        case name, type, source, size, seed, sixaxis
        case sixaxisSource = "sixaxis_source"
        case listedSize = "listed_size"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if let number = try? container.decode(Int.self, forKey: .type) {
            type = String(number)
        } else {
            type = try container.decode(String.self, forKey: .type)
        }
        source = try container.decodeIfPresent(String.self, forKey: .source)
        size = try container.decodeIfPresent(UInt64.self, forKey: .size)
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        sixaxis = try container.decodeIfPresent(Bool.self, forKey: .sixaxis)
        sixaxisSource = try container.decodeIfPresent(String.self, forKey: .sixaxisSource)
        listedSize = try container.decodeIfPresent(UInt64.self, forKey: .listedSize)
    }

    func seed(relativeTo base: URL, index: Int) throws(EmulatorError) -> MediaSeed {
        let fileName = MediaFileName(name)
        func fail(_ message: String) -> EmulatorError {
            EmulatorError(.invalidManifest, "manifest entry \(index) (\(fileName)): \(message)")
        }
        guard !fileName.utf8.isEmpty else { throw fail("the name is empty") }
        guard fileName.utf8.count <= MediaSources.maxNameBytes else {
            throw fail("the name is longer than \(MediaSources.maxNameBytes) bytes")
        }
        guard let mediaType = MediaFileType(manifestName: type) else {
            throw fail("unknown type \"\(type)\" (image, video or audio)")
        }
        var seed: MediaSeed
        switch (source, size) {
        case (let source?, nil):
            let url = URL(fileURLWithPath: source, relativeTo: base).standardizedFileURL
            seed = MediaSeed(name: fileName, type: mediaType, size: try MediaSources.fileSize(url, code: .invalidManifest), content: .file(url))
        case (nil, let size?):
            guard size <= MediaSources.maxGeneratedSize else { throw fail("size \(size) is larger than 1 TiB") }
            seed = .generated(name, type: mediaType, size: size, seed: self.seed)
        default:
            throw fail("give either source or size")
        }
        if let sixaxisSource {
            seed.sidecar = try MediaSources.readSidecar(URL(fileURLWithPath: sixaxisSource, relativeTo: base), code: .invalidManifest)
        } else if sixaxis == true {
            let contentSeed: UInt64
            if case .generated(let value) = seed.content { contentSeed = value } else { contentSeed = MediaSeed.defaultSeed(for: fileName) }
            seed.sidecar = SixAxisSidecar.generate(seed: contentSeed, videoSize: seed.size)
        }
        seed.listedSize = listedSize
        return seed
    }
}
