import AIBudsDigest
import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsWire
import Foundation

/// The hash and checksum types of the File group.
public enum MediaDigestKind: String, Sendable, CaseIterable {
    /// SHA-256, 32 bytes.
    case sha256
    /// IEEE CRC-32, a number.
    case crc32
}

/// A hash or checksum of (part of) a device file.
public enum MediaDigest: Sendable, Equatable {
    /// A SHA-256 digest.
    case sha256([UInt8])
    /// An IEEE CRC-32.
    case crc32(UInt32)
}

/// A change of the media list: its new generation and the media types whose lists changed.
public struct MediaChange: Sendable, Equatable {
    /// The generation after the change.
    public var generation: UInt64
    /// The types whose lists changed, in raw-value order.
    public var types: [MediaFileType]
}

/// The device's files: a map from exact device file name to file, with a generation number,
/// stable ids, cached digests, uploads, and persistence of every change in the state folder.
///
/// Names are only map keys (see ``/AIBudsWire/MediaFileName``): no name is ever turned into a host path, so no
/// request can reach outside the store. Thread-safe.
public final class MediaStore: Sendable {
    /// The device storage capacity in bytes.
    public let capacity: UInt64

    private struct PendingUpload {
        var type: MediaFileType
        var url: URL
        var total: UInt64
        var received: UInt64
    }

    private struct State {
        var records: [MediaFileName: MediaRecord] = [:]
        var sortedNames: [MediaFileName]?
        /// The sorted names of each type, computed when first asked for.
        var typedNames: [MediaFileType: [MediaFileName]] = [:]
        /// Exact whatever the sizes (a library user may seed files of any size, up to 2^64 − 1
        /// each); reported clamped to `UInt64`.
        var usedBytes: UInt128 = 0
        var generation: UInt64 = 1
        var counter: UInt64 = 0
        var deletedBase: Set<MediaFileName> = []
        var history: [MediaChange] = []
        var uploads: [MediaFileName: PendingUpload] = [:]
        var digests: [String: MediaDigest] = [:]
        /// Versions (`id-generation`) whose indexing failed (an unreadable source): not retried.
        var unindexable: Set<String> = []

        mutating func insert(_ record: MediaRecord) {
            if let old = records.updateValue(record, forKey: record.name) {
                usedBytes -= UInt128(old.size)
                if old.type != record.type { typedNames = [:] }
            } else {
                sortedNames = nil
                typedNames = [:]
            }
            usedBytes += UInt128(record.size)
        }

        /// The bytes left of `capacity` (0 when the files already exceed it).
        func freeBytes(capacity: UInt64) -> UInt64 {
            usedBytes >= UInt128(capacity) ? 0 : capacity - UInt64(usedBytes)
        }

        mutating func remove(_ name: MediaFileName) -> MediaRecord? {
            guard let old = records.removeValue(forKey: name) else { return nil }
            usedBytes -= UInt128(old.size)
            sortedNames = nil
            typedNames = [:]
            if old.isBase { deletedBase.insert(name) }
            return old
        }

        mutating func names() -> [MediaFileName] {
            if let sortedNames { return sortedNames }
            let names = records.keys.sorted()
            sortedNames = names
            return names
        }

        /// The sorted names of the files of `type` (all files when nil).
        mutating func names(of type: MediaFileType?) -> [MediaFileName] {
            guard let type else { return names() }
            if let cached = typedNames[type] { return cached }
            let names = names().filter { records[$0]?.type == type }
            typedNames[type] = names
            return names
        }

        mutating func bump(_ types: Set<MediaFileType>) -> MediaChange {
            generation += 1
            let change = MediaChange(generation: generation, types: types.sorted { $0.rawValue < $1.rawValue })
            history.append(change)
            if history.count > 256 { history.removeFirst(history.count - 256) }
            return change
        }

        mutating func nextID(for name: MediaFileName) -> String {
            counter += 1
            return MediaStore.hexID(Array("added-\(counter)-".utf8) + name.utf8)
        }

        var persisted: PersistedMediaState {
            let added = records.values.filter { !$0.isBase }.sorted { $0.name < $1.name }.map { record in
                var seed: UInt64?
                var file: String?
                switch record.content {
                case .generated(let value): seed = value
                case .stored(let url): file = url.lastPathComponent
                case .file, .inline: break
                }
                return PersistedMediaState.PersistedRecord(
                    name: PersistedMediaState.encodeName(record.name), id: record.id, type: record.type.rawValue,
                    size: record.size, changedGeneration: record.changedGeneration, seed: seed, file: file,
                    sixaxis: record.sidecar != nil)
            }
            return PersistedMediaState(generation: generation, counter: counter,
                                       deletedBase: deletedBase.sorted().map(PersistedMediaState.encodeName),
                                       added: added)
        }
    }

    private let folders: MediaStoreFolders
    private let state: Locked<State>
    private let observer = Locked<(@Sendable (MediaChange) -> Void)?>(nil)
    private let materializing = Locked(())
    private let indexer = Locked<MediaDigestIndexer?>(nil)
    private let logger: any LogService

    /// Opens a store holding `seeds`, minus the deletions and plus the additions persisted in
    /// `stateDirectory` (nil keeps changes in memory and uploads in a temporary folder).
    public init(seeds: [MediaSeed], capacity: UInt64, stateDirectory: URL? = nil,
                logger: any LogService = NullLogService()) throws(EmulatorError) {
        self.capacity = capacity
        self.logger = logger
        folders = try MediaStoreFolders(stateDirectory: stateDirectory)
        var initial = State()
        for seed in seeds {
            guard !seed.name.utf8.isEmpty else { throw EmulatorError(.invalidManifest, "a device file name is empty") }
            guard initial.records[seed.name] == nil else {
                throw EmulatorError(.invalidManifest, "the device file name \(seed.name) appears twice")
            }
            initial.insert(MediaRecord(id: Self.hexID(seed.name.utf8), name: seed.name, type: seed.type, size: seed.size,
                                       changedGeneration: 1, content: seed.content, sidecar: seed.sidecar, isBase: true,
                                       listedSize: seed.listedSize))
        }
        if let persisted = try folders.load() {
            try Self.apply(persisted, to: &initial, folders: folders, logger: logger)
        }
        state = Locked(initial)
    }

    deinit {
        indexer.withLock { $0 }?.stop()
        folders.removeTemporary()
    }

    private static func apply(_ persisted: PersistedMediaState, to state: inout State, folders: MediaStoreFolders,
                              logger: any LogService) throws(EmulatorError) {
        state.generation = max(1, persisted.generation)
        state.counter = persisted.counter
        for encoded in persisted.deletedBase {
            let name = try PersistedMediaState.decodeName(encoded)
            _ = state.remove(name)
            state.deletedBase.insert(name)
        }
        for added in persisted.added {
            let name = try PersistedMediaState.decodeName(added.name)
            guard let type = MediaFileType(rawValue: added.type), type != .unknown else {
                throw EmulatorError(.invalidState, "media.json gives \(name) the unknown type \(added.type)")
            }
            let content: MediaContent
            var sidecar: Data?
            if let seed = added.seed {
                content = .generated(seed: seed)
                if added.sixaxis { sidecar = SixAxisSidecar.generate(seed: seed, videoSize: added.size) }
            } else if let file = added.file, !file.contains("/"), file != "..", file != "." {
                let url = folders.files.appendingPathComponent(file)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    logger.log(.warning, "emulator", "the uploaded file \(name) is missing from \(folders.files.path); dropped")
                    continue
                }
                content = .stored(url)
            } else {
                throw EmulatorError(.invalidState, "media.json gives \(name) neither a seed nor a stored file")
            }
            _ = state.remove(name)
            state.insert(MediaRecord(id: added.id, name: name, type: type, size: added.size,
                                     changedGeneration: added.changedGeneration, content: content, sidecar: sidecar,
                                     isBase: false))
        }
    }

    /// Stops indexing and removes the temporary folder of a store without a state folder (also
    /// done on deinit).
    public func close() {
        stopIndexingDigests()
        folders.removeTemporary()
    }

    /// Sets the function called after every change of the list (outside the store's lock).
    public func setChangeObserver(_ observer: (@Sendable (MediaChange) -> Void)?) {
        self.observer.withLock { $0 = observer }
    }

    // MARK: - Reading the list

    /// The current media list generation.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// The files of `type` (all files when nil), ordered by name (Unicode scalar order).
    public func list(type: MediaFileType? = nil) -> [MediaRecord] {
        state.withLock { state in
            state.names().compactMap { name in
                guard let record = state.records[name], type == nil || record.type == type else { return nil }
                return record
            }
        }
    }

    /// One page of the list of `type` (all files when nil), read together with the generation and
    /// the number of files in that list: the files at `offset..<offset + limit`, in name order.
    /// Costs the page, not the list.
    public func page(type: MediaFileType? = nil, offset: Int, limit: Int) -> (generation: UInt64, total: Int, files: [MediaRecord]) {
        state.withLock { state in
            let names = state.names(of: type)
            let start = min(max(0, offset), names.count)
            let end = start + min(max(0, limit), names.count - start)
            return (state.generation, names.count, names[start..<end].compactMap { state.records[$0] })
        }
    }

    /// The listed file with exactly this name.
    public func record(named name: MediaFileName) -> MediaRecord? {
        state.withLock { $0.records[name] }
    }

    /// The readable object with exactly this name: a listed file, or a video's six-axis sidecar
    /// `<video name>.gcsv` (not listed).
    public func object(named name: MediaFileName) -> MediaObject? {
        state.withLock { state in
            if let record = state.records[name] { return record.object }
            let suffix = Array(".\(sixAxisSidecarExtension)".utf8)
            guard name.utf8.count > suffix.count, name.utf8.suffix(suffix.count).elementsEqual(suffix) else { return nil }
            let video = MediaFileName(String(decoding: name.utf8.dropLast(suffix.count), as: UTF8.self))
            guard video.utf8.count == name.utf8.count - suffix.count else { return nil }
            return state.records[video]?.sidecarObject
        }
    }

    /// The number of files of each type.
    public func counts() -> (photos: Int, videos: Int, audios: Int) {
        state.withLock { state in
            var counts = (photos: 0, videos: 0, audios: 0)
            for record in state.records.values {
                switch record.type {
                case .image: counts.photos += 1
                case .video: counts.videos += 1
                case .audio: counts.audios += 1
                case .unknown: break
                }
            }
            return counts
        }
    }

    /// Bytes used by the listed files.
    public var usedBytes: UInt64 { state.withLock { UInt64(clamping: $0.usedBytes) } }

    /// Bytes still free (0 when the starting set already exceeds the capacity).
    public var freeBytes: UInt64 {
        state.withLock { $0.freeBytes(capacity: capacity) }
    }

    /// The change since generation `since`, or nil when `since` is current.
    ///
    /// The types are those whose lists changed after `since` when the store still remembers that
    /// far back (the last 256 changes of this run), else every type.
    public func change(since: UInt64) -> MediaChange? {
        state.withLock { state in
            guard since != state.generation else { return nil }
            let all: [MediaFileType] = [.image, .audio, .video]
            guard since < state.generation, let first = state.history.first, first.generation <= since + 1 else {
                return MediaChange(generation: state.generation, types: all)
            }
            var types = Set<MediaFileType>()
            for change in state.history where change.generation > since { types.formUnion(change.types) }
            return MediaChange(generation: state.generation, types: types.sorted { $0.rawValue < $1.rawValue })
        }
    }

    // MARK: - Reading content

    /// Up to `count` bytes of `object` from `offset` (fewer at the end; none at the end).
    public func read(_ object: MediaObject, offset: UInt64, count: Int) throws(EmulatorError) -> Data {
        guard offset <= object.size else {
            throw EmulatorError(.invalidArgument, "offset \(offset) is past the end of \(object.name) (\(object.size) bytes)")
        }
        let length = Int(min(UInt64(max(0, count)), object.size - offset))
        guard length > 0 else { return Data() }
        switch object.content {
        case .generated(let seed):
            return GeneratedContent.bytes(seed: seed, offset: offset, count: length)
        case .inline(let data):
            let start = data.startIndex + Int(offset)
            return Data(data[start..<start + length])
        case .file(let url), .stored(let url):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: offset)
                let data = try handle.read(upToCount: length) ?? Data()
                guard data.count == length else {
                    throw EmulatorError(.io, "\(url.path) is shorter than the \(object.size) bytes it had")
                }
                return data
            } catch let error as EmulatorError {
                throw error
            } catch {
                throw EmulatorError(.notFound, "cannot read \(object.name)", underlying: error)
            }
        }
    }

    /// The digest of `length` bytes (to the end when nil) of `object` from `offset`, and the
    /// number of bytes it covers. Whole-file digests are cached per file version.
    public func digest(_ kind: MediaDigestKind, of object: MediaObject, offset: UInt64 = 0,
                       length: UInt64? = nil) throws(EmulatorError) -> (digest: MediaDigest, length: UInt64) {
        guard offset <= object.size else {
            throw EmulatorError(.invalidArgument, "offset \(offset) is past the end of \(object.name) (\(object.size) bytes)")
        }
        let covered = min(length ?? UInt64.max, object.size - offset)
        let whole = offset == 0 && covered == object.size
        let key = "\(kind.rawValue)-\(object.id)-\(object.changedGeneration)-\(object.size)"
        if whole, let cached = state.withLock({ state -> MediaDigest? in
            let listed = state.records[object.name].map { Self.isVersion($0, of: object) } ?? false
            if kind == .sha256, listed, let known = state.records[object.name]?.sha256 { return .sha256(known) }
            // Hashed before it was listed (or relisted): the digest joins its record now.
            if listed, case .sha256(let bytes)? = state.digests[key] { state.records[object.name]?.sha256 = bytes }
            return state.digests[key]
        }) {
            return (cached, covered)
        }
        let sha = kind == .sha256 ? SHA256() : nil
        var crc = CRC32()
        var position = offset
        let end = offset + covered
        while position < end {
            let block = try read(object, offset: position, count: Int(min(1 << 20, end - position)))
            if let sha { sha.update(block) } else { crc.update(block) }
            position += UInt64(block.count)
        }
        let digest: MediaDigest = sha.map { .sha256($0.finalize()) } ?? .crc32(crc.value)
        if whole {
            state.withLock { state in
                if case .sha256(let bytes) = digest, let record = state.records[object.name], Self.isVersion(record, of: object) {
                    // A listed file's digest stays with its record (the Media list carries it).
                    state.records[object.name]?.sha256 = bytes
                    return
                }
                if state.digests.count > 4096 { state.digests.removeAll() }
                state.digests[key] = digest
            }
        }
        return (digest, covered)
    }

    /// Whether `object` reads exactly this version of the listed file `record`.
    private static func isVersion(_ record: MediaRecord, of object: MediaObject) -> Bool {
        record.id == object.id && record.changedGeneration == object.changedGeneration && record.size == object.size
    }

    // MARK: - Indexing digests

    /// Starts computing, on a background thread, the SHA-256 of every listed file of at most
    /// `maximumSize` bytes whose digest is not known yet, and of every such file added later, so
    /// that the Media list carries them (as a device that hashes what it records). Files larger
    /// than that are hashed only when a client asks (File `hash`). Idempotent; `close()` stops it.
    public func startIndexingDigests(maximumSize: UInt64 = MediaDigestIndexer.defaultMaximumSize) {
        let started = indexer.withLock { indexer -> MediaDigestIndexer? in
            guard indexer == nil else { return nil }
            indexer = MediaDigestIndexer(store: self, maximumSize: maximumSize, logger: logger)
            return indexer
        }
        started?.start()
    }

    /// Stops indexing (the file being hashed is finished first, in the background).
    public func stopIndexingDigests() {
        indexer.withLock { indexer in
            defer { indexer = nil }
            return indexer
        }?.stop()
    }

    /// The listed files of at most `maximumSize` bytes whose SHA-256 is not known (nor failed).
    func recordsToIndex(maximumSize: UInt64) -> [MediaRecord] {
        state.withLock { state in
            state.names().compactMap { name in
                guard let record = state.records[name], record.sha256 == nil, record.size <= maximumSize,
                    !state.unindexable.contains("\(record.id)-\(record.changedGeneration)")
                else { return nil }
                return record
            }
        }
    }

    /// Computes and records the SHA-256 of `record` (if it is still listed); an unreadable file is
    /// not tried again.
    func index(_ record: MediaRecord) {
        do {
            _ = try digest(.sha256, of: record.object)
        } catch {
            logger.log(.warning, "emulator", "cannot hash \(record.name) for the media list: \(error)")
            _ = state.withLock { $0.unindexable.insert("\(record.id)-\(record.changedGeneration)") }
        }
    }

    /// A host file holding exactly the bytes of `object`, for the data plane: the source file
    /// itself, or generated content written once to the cache folder.
    public func materialize(_ object: MediaObject) throws(EmulatorError) -> URL {
        switch object.content {
        case .file(let url), .stored(let url):
            return url
        case .generated, .inline:
            return try materializing.withLock { _ throws(EmulatorError) -> URL in
                let url = folders.cache.appendingPathComponent("\(object.id)-\(object.changedGeneration)")
                if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? UInt64,
                    size == object.size
                {
                    return url
                }
                let free = (try? FileManager.default.attributesOfFileSystem(forPath: folders.cache.path))?[.systemFreeSize]
                    as? NSNumber
                if let free, object.size > free.uint64Value / 2 {
                    throw EmulatorError(.noSpace, "materialising \(object.name) (\(object.size) bytes) would fill the host disk")
                }
                try AtomicFile.write(to: url) { temporary in
                    switch object.content {
                    case .generated(let seed): try GeneratedContent.write(seed: seed, size: object.size, to: temporary)
                    case .inline(let data): try data.write(to: temporary)
                    case .file, .stored: break
                    }
                }
                return url
            }
        }
    }

    // MARK: - Changing the list

    /// Deletes the file named `name`; with `generation`, only when that is the current generation.
    /// Returns the new generation.
    @discardableResult
    public func delete(_ name: MediaFileName, ifGeneration generation: UInt64? = nil) throws(EmulatorError) -> UInt64 {
        let (change, removed) = try mutate { state throws(EmulatorError) -> (MediaChange?, MediaRecord?) in
            if let generation, generation != state.generation {
                throw EmulatorError(.staleGeneration, "generation \(generation) is not the current \(state.generation)")
            }
            guard let removed = state.remove(name) else {
                throw EmulatorError(.notFound, "no device file is named \(name)")
            }
            return (state.bump([removed.type]), removed)
        }
        finish(change, removing: removed.map { [$0] } ?? [])
        return change?.generation ?? self.generation
    }

    /// Deletes every file of `type` (every file when nil); returns the new generation and how
    /// many files were deleted.
    @discardableResult
    public func deleteAll(type: MediaFileType? = nil) -> (generation: UInt64, deleted: Int) {
        let result = try? mutate { state throws(EmulatorError) -> (MediaChange?, [MediaRecord]) in
            let doomed = state.records.values.filter { type == nil || $0.type == type }.map(\.name)
            let removed = doomed.compactMap { state.remove($0) }
            guard !removed.isEmpty else { return (nil, []) }
            return (state.bump(Set(removed.map(\.type))), removed)
        }
        guard let (change, removed) = result else { return (generation, 0) }
        finish(change, removing: removed)
        return (change?.generation ?? generation, removed.count)
    }

    /// Adds a new file with generated content (a recording or photo) named `stem.ext`, or
    /// `stem_2.ext`, ... when that name is taken. Returns the new record.
    @discardableResult
    public func addGenerated(stem: String, extension ext: String, type: MediaFileType, size: UInt64,
                             sixaxis: Bool = false) throws(EmulatorError) -> MediaRecord {
        let (change, record) = try mutate { state throws(EmulatorError) -> (MediaChange?, MediaRecord) in
            guard size <= state.freeBytes(capacity: capacity) else {
                throw EmulatorError(.noSpace, "\(size) bytes do not fit the free storage")
            }
            var name = MediaFileName("\(stem).\(ext)")
            var suffix = 2
            while state.records[name] != nil {
                name = MediaFileName("\(stem)_\(suffix).\(ext)")
                suffix += 1
            }
            let id = state.nextID(for: name)
            let seed = MediaSeed.defaultSeed(for: MediaFileName(id))
            let change = state.bump([type])
            let record = MediaRecord(
                id: id, name: name, type: type, size: size, changedGeneration: change.generation,
                content: .generated(seed: seed),
                sidecar: sixaxis ? SixAxisSidecar.generate(seed: seed, videoSize: size) : nil, isBase: false)
            state.insert(record)
            return (change, record)
        }
        finish(change, removing: [])
        return record
    }

    /// Writes one chunk of an upload and returns the next offset the store expects.
    ///
    /// A chunk at offset 0 needs `total` and starts (or restarts) the upload of `name`; later
    /// chunks must come at the expected offset, else nothing is written and the expected offset is
    /// returned. When all `total` bytes have arrived the file replaces any file of that name and
    /// appears in the list.
    public func upload(_ name: MediaFileName, offset: UInt64, data: Data, total: UInt64?) throws(EmulatorError) -> UInt64 {
        guard let type = MediaFileType.emulatorType(ofFileNamed: name) else {
            throw EmulatorError(.invalidArgument, "\(name) has no media file extension (jpg, png, mp4, mov, wav, opus, m4a, mp3)")
        }
        let (change, next, replaced) = try mutate { state throws(EmulatorError) -> (MediaChange?, UInt64, [MediaRecord]) in
            var upload: PendingUpload
            if offset == 0 {
                guard let total else { throw EmulatorError(.invalidArgument, "the first chunk of an upload needs len") }
                guard UInt64(data.count) <= total else {
                    throw EmulatorError(.invalidArgument, "the chunk is longer than the \(total)-byte file")
                }
                let reclaimed = state.records[name]?.size ?? 0
                let free = state.freeBytes(capacity: capacity)
                let room = free > UInt64.max - reclaimed ? UInt64.max : free + reclaimed
                guard total <= room else {
                    throw EmulatorError(.noSpace, "\(total) bytes do not fit the \(room) bytes free")
                }
                if let old = state.uploads.removeValue(forKey: name) { try? FileManager.default.removeItem(at: old.url) }
                state.counter += 1
                let url = folders.uploads.appendingPathComponent("\(state.counter).part")
                do { try data.write(to: url) } catch {
                    throw EmulatorError(.io, "cannot write \(url.path)", underlying: error)
                }
                upload = PendingUpload(type: type, url: url, total: total, received: UInt64(data.count))
            } else {
                guard let pending = state.uploads[name], pending.received == offset else {
                    return (nil, state.uploads[name]?.received ?? 0, [])
                }
                guard pending.received + UInt64(data.count) <= pending.total else {
                    throw EmulatorError(.invalidArgument, "the chunk goes past the \(pending.total)-byte file")
                }
                upload = pending
                do {
                    let handle = try FileHandle(forWritingTo: upload.url)
                    defer { try? handle.close() }
                    try handle.seekToEnd()
                    try handle.write(contentsOf: data)
                } catch {
                    throw EmulatorError(.io, "cannot append to \(upload.url.path)", underlying: error)
                }
                upload.received += UInt64(data.count)
            }
            guard upload.received == upload.total else {
                state.uploads[name] = upload
                return (nil, upload.received, [])
            }
            state.uploads[name] = nil
            let id = state.nextID(for: name)
            let stored = folders.files.appendingPathComponent(id)
            guard rename(upload.url.path, stored.path) == 0 else {
                throw EmulatorError(.io, "cannot move the upload to \(stored.path) (errno \(errno))")
            }
            let old = state.remove(name)
            let change = state.bump(Set([type] + (old.map { [$0.type] } ?? [])))
            state.insert(MediaRecord(id: id, name: name, type: type, size: upload.total,
                                     changedGeneration: change.generation, content: .stored(stored), sidecar: nil,
                                     isBase: false))
            return (change, upload.total, old.map { [$0] } ?? [])
        }
        finish(change, removing: replaced)
        return next
    }

    /// Abandons every upload in progress (a session reset).
    public func cancelUploads() {
        let urls = state.withLock { state in
            defer { state.uploads.removeAll() }
            return state.uploads.values.map(\.url)
        }
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }

    // MARK: - Internals

    /// Runs `body` under the lock and persists the state when it reports a change.
    private func mutate<R>(_ body: (inout State) throws(EmulatorError) -> (MediaChange?, R)) throws(EmulatorError) -> (MediaChange?, R) {
        try state.withLock { state throws(EmulatorError) -> (MediaChange?, R) in
            let result = try body(&state)
            if result.0 != nil {
                do { try folders.save(state.persisted) } catch {
                    logger.log(.error, "emulator", "cannot persist the media state: \(error)")
                }
            }
            return result
        }
    }

    private func mutate<A, B>(_ body: (inout State) throws(EmulatorError) -> (MediaChange?, A, B)) throws(EmulatorError) -> (MediaChange?, A, B) {
        let result = try mutate { state throws(EmulatorError) -> (MediaChange?, (A, B)) in
            let (change, a, b) = try body(&state)
            return (change, (a, b))
        }
        return (result.0, result.1.0, result.1.1)
    }

    /// After a change: removes the files the store owned for `removed`, then tells the observer.
    private func finish(_ change: MediaChange?, removing removed: [MediaRecord]) {
        for record in removed {
            if case .stored(let url) = record.content { try? FileManager.default.removeItem(at: url) }
            for id in [record.id, record.id + "s"] {
                try? FileManager.default.removeItem(at: folders.cache.appendingPathComponent("\(id)-\(record.changedGeneration)"))
            }
        }
        guard let change else { return }
        indexer.withLock { $0 }?.wake()
        logger.log(.debug, "emulator", "media generation \(change.generation)")
        observer.withLock { $0 }?(change)
    }

    /// 16 hexadecimal digits of the SHA-256 of `bytes`: an opaque id that is safe in a file name.
    static func hexID(_ bytes: [UInt8]) -> String {
        SHA256.hash(Data(bytes)).prefix(8).hexString
    }
}
