import AIBudsFoundation
import AIBudsWire
import Foundation

/// The data-plane session that a successful fetch opened: where the device serves its files, the
/// bearer token, and the list generation the app's models came from.
struct TransferSession: Sendable, Equatable {
    /// The device's HTTP data plane, `http://HOST:PORT`.
    var baseURL: String
    /// The bearer token of this session.
    var token: String
    /// The hotspot SSID.
    var ssid: String
    /// The media-list generation of the models handed out by the fetch.
    var listGeneration: UInt64
    /// The SHA-256 the device listed, by device file name (files it did not list one for are
    /// absent: their digest is asked for before their download). Keyed by exact name: NFC and NFD
    /// twins are two files with two digests.
    var listedSHA256: [MediaFileName: [UInt8]] = [:]
}

/// The rules of one device's media import: one operation (fetch or import) at a time, imports only
/// after a fetch, models from before a deletion are stale, cancel only when something runs.
///
/// A value type with an `enum State`; each event returns the action the engine performs. It does
/// no I/O, so every rule is tested deterministically.
struct MediaImportStateMachine: Sendable {
    /// What the device's import engine is doing.
    enum State: Sendable, Equatable {
        /// Nothing runs.
        case idle
        /// `fetchMediaFiles` runs as operation `id`.
        case fetching(id: Int)
        /// `importMediaFiles` runs as operation `id`.
        case importing(id: Int)
    }

    /// What the engine should do after `startFetch`.
    enum FetchAction: Sendable {
        /// Run the fetch as operation `id`.
        case start(id: Int)
        /// Refuse with this error.
        case reject(AIBudsError)
    }

    /// What the engine should do after `startImport`.
    enum ImportAction: Sendable {
        /// Run operation `id`: download `files` (the request without duplicates, moved onto the
        /// current session) over `session`.
        case start(id: Int, files: [MediaFileInfoModel], session: TransferSession)
        /// Refuse with this error.
        case reject(AIBudsError)
    }

    /// What the engine should do after `cancel`.
    enum CancelAction: Sendable, Equatable {
        /// Cancel the running operation `id`.
        case cancel(id: Int)
        /// Nothing runs: report 6003.
        case rejectNothingRunning
    }

    /// The current state.
    private(set) var state: State = .idle
    /// The session of the last successful fetch, while it is valid.
    private(set) var session: TransferSession?
    /// Models from a list older than this generation are stale (a deletion happened after them).
    private(set) var staleBelowGeneration: UInt64?
    private var nextID = 1

    // MARK: Fetch

    /// The app asked to fetch the media list.
    mutating func startFetch() -> FetchAction {
        guard state == .idle else { return .reject(busyError) }
        let id = takeID()
        state = .fetching(id: id)
        return .start(id: id)
    }

    /// Fetch `id` ended; `session` is the new session, or `nil` when the fetch failed.
    mutating func fetchEnded(id: Int, session: TransferSession?) {
        guard state == .fetching(id: id) else { return }
        state = .idle
        self.session = session
    }

    // MARK: Import

    /// The app asked to import `files`.
    mutating func startImport(_ files: [MediaFileInfoModel]) -> ImportAction {
        guard state == .idle else { return .reject(busyError) }
        guard let session else {
            return .reject(AIBudsError(
                .fileImportNotReady,
                "no media list has been fetched in this transfer session; call fetchMediaFilesInfo first"))
        }
        if let staleBelowGeneration {
            let stale = files.filter { ($0.generation ?? 0) < staleBelowGeneration }
            if let first = stale.first {
                return .reject(AIBudsError(
                    .importFilesFailedDueToStaleMediaModel,
                    "\(stale.count) of the \(files.count) media models (first '\(first.fileName)', list generation "
                        + "\(first.generation.map(String.init) ?? "unknown")) were listed before a deletion on the "
                        + "device (now generation \(staleBelowGeneration)); fetch the media list again"))
            }
        }
        // Duplicates are the same exact name: canonically equivalent names are different files.
        var seen = Set<MediaFileName>()
        var unique: [MediaFileInfoModel] = []
        for file in files where seen.insert(MediaFileName(file.fileName)).inserted {
            unique.append(file.baseUrl == session.baseURL ? file : file.withBaseUrl(session.baseURL))
        }
        let id = takeID()
        state = .importing(id: id)
        return .start(id: id, files: unique, session: session)
    }

    /// Import `id` ended. `hotspotLost` drops the session (the next import needs a new fetch).
    mutating func importEnded(id: Int, hotspotLost: Bool = false) {
        guard state == .importing(id: id) else { return }
        state = .idle
        if hotspotLost { session = nil }
    }

    // MARK: Cancel, deletion, session end

    /// The app asked to cancel whatever runs.
    func cancel() -> CancelAction {
        switch state {
        case .idle: .rejectNothingRunning
        case .fetching(let id), .importing(let id): .cancel(id: id)
        }
    }

    /// A deletion succeeded and the device's list is now at `generation`: every model listed
    /// before it is stale.
    mutating func deleted(newGeneration generation: UInt64) {
        staleBelowGeneration = max(staleBelowGeneration ?? 0, generation)
    }

    /// The device left transfer mode or disconnected: the session is gone.
    mutating func sessionEnded() {
        session = nil
    }

    private var busyError: AIBudsError {
        let what = if case .fetching = state { "fetching the media list" } else { "importing media files" }
        return AIBudsError(.fileImportAlreadyInProgress, "this device is already \(what); wait for it or cancel it")
    }

    private mutating func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}
