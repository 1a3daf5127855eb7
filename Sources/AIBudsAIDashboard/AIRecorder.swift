import AIBudsLog
import AIBudsSync
import Foundation

/// The ingestion side of the dashboard: AI sessions report what happens to them here, and the
/// dashboard shows it (live while they run).
///
/// An AI provider, the SDK's session observer or a test starts a record with ``start(kind:device:parameters:at:)``
/// and reports through the returned ``AIRecordSession``. Failures to store are logged (category
/// `dashboard`) and never thrown into the session being recorded.
public final class AIRecorder: Sendable {
    /// The store records go to.
    public let store: AIRecordStore
    /// Where storage failures are logged (category `dashboard`).
    public let logger: any LogService

    /// A recorder writing into `store`, logging storage failures to `logger`.
    public init(store: AIRecordStore, logger: any LogService = NullLogService()) {
        self.store = store
        self.logger = logger
    }

    /// Starts a record of a `kind` session on `device`, started with `parameters`.
    public func start(
        kind: AIRecordKind, device: AIRecordDevice, parameters: [String: String] = [:], at time: Date = Date()
    ) throws -> AIRecordSession {
        let id = try store.create(kind: kind, device: device, parameters: parameters, at: time)
        return AIRecordSession(id: id, recorder: self)
    }
}

/// One running record: what its session reports goes into the store at once.
public final class AIRecordSession: Sendable {
    /// The record's number in the store.
    public let id: Int64
    private let recorder: AIRecorder
    private let ended = Locked(false)

    init(id: Int64, recorder: AIRecorder) {
        self.id = id
        self.recorder = recorder
    }

    private func store(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            recorder.logger.log(.error, "dashboard", "record \(id): cannot store \(what): \(error)")
        }
    }

    /// Adds a session event (`connected`, `listening`, ...) with optional detail.
    public func event(_ name: String, detail: String = "", at time: Date = Date()) {
        add(AIRecordEntry(time: time, kind: .event, text: name, detail: detail))
    }

    /// Adds a key error (highlighted on the page; the record counts as having errors).
    public func error(_ message: String, code: String = "", at time: Date = Date()) {
        add(AIRecordEntry(time: time, kind: .error, text: message, detail: code))
    }

    /// Adds recognised speech.
    public func transcript(_ text: String, language: String = "", at time: Date = Date()) {
        add(AIRecordEntry(time: time, kind: .transcript, text: text, detail: language))
    }

    /// Adds the AI's reply (or an interpretation).
    public func reply(_ text: String, language: String = "", at time: Date = Date()) {
        add(AIRecordEntry(time: time, kind: .reply, text: text, detail: language))
    }

    /// Adds one timeline entry as given.
    public func add(_ entry: AIRecordEntry) {
        store("an entry") { try recorder.store.add(entry, to: id) }
    }

    /// Appends 16 kHz mono 16-bit samples to the record's audio.
    public func audio(_ samples: [Int16]) {
        guard !samples.isEmpty else { return }
        store("audio") { try recorder.store.appendAudio(samples, to: id) }
    }

    /// Appends 16 kHz mono 16-bit little-endian PCM bytes (an odd last byte is ignored).
    public func audio(pcm: Data) {
        let samples = pcm.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - 1, by: 2).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: Int16.self)) }
        }
        audio(samples)
    }

    /// Ends the record as finished, or failed; later calls do nothing.
    public func finish(_ status: AIRecordStatus = .finished, at time: Date = Date()) {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        store("the end") { try recorder.store.finish(id, status: status == .running ? .finished : status, at: time) }
    }
}
