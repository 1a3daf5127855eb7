import AIBuds
import AIBudsLog
import AIBudsSync
import Dispatch

/// Watches the bound device's media list with the media group's `changed` long-poll and calls the
/// registered block once per invalidation, for each reported type, on the main queue.
final class ChangeObserver: Sendable {
    private struct State {
        /// The registered block.
        var block: TSMediaFileListDidChangedBlock?
        /// Grows with every registration and restart; deliveries of an older one are dropped.
        var registration: UInt64 = 0
        /// The running long-poll loop.
        var task: Task<Void, Never>?
    }

    /// How long one long-poll request waits on the device (the protocol allows up to 30 s).
    static let waitMilliseconds: UInt32 = 10_000
    /// The pause after a failed poll before the next one; polling never spins faster than this.
    static let retryDelay: Duration = .seconds(1)

    private let state = Locked(State())
    private let channelSource: @Sendable () -> TSMediaChannel?
    private let logService: @Sendable () -> any LogService
    /// The generations of the app's last fetched lists: where an observation starts, so that a
    /// list that is already stale is reported at once.
    private let baselines: FetchedGenerations

    /// Creates an observer of the channels that `channelSource` returns.
    init(
        channelSource: @escaping @Sendable () -> TSMediaChannel?,
        baselines: FetchedGenerations,
        logService: @escaping @Sendable () -> any LogService
    ) {
        self.channelSource = channelSource
        self.baselines = baselines
        self.logService = logService
    }

    /// Sets or clears (nil) the block and restarts the observation.
    func register(_ block: TSMediaFileListDidChangedBlock?) {
        state.withLock { $0.block = block }
        restart()
    }

    /// Restarts the loop (after a new block or a new device binding); stops it without a block.
    func restart() {
        let previous = state.withLock { state -> Task<Void, Never>? in
            state.registration += 1
            let previous = state.task
            state.task = nil
            if state.block != nil {
                let registration = state.registration
                state.task = Task { [self] in await poll(registration) }
            }
            return previous
        }
        previous?.cancel()
    }

    /// Stops observing and forgets the block.
    func stop() { register(nil) }

    /// The long-poll loop of one registration.
    private func poll(_ registration: UInt64) async {
        var since: UInt64?
        var device: String?
        while !Task.isCancelled {
            guard let channel = channelSource(), channel.isConnected,
                  TSMediaFileType.allCases.contains(where: { channel.supportedOperations(for: $0).contains(.observeChanges) })
            else {
                try? await Task.sleep(for: Self.retryDelay)
                continue
            }
            if device != channel.deviceIdentity {
                device = channel.deviceIdentity
                since = baselines.generation(for: channel.deviceIdentity)
            }
            do {
                guard let known = since else {
                    since = try await channel.changed(since: 0, waitMilliseconds: 0).generation
                    continue
                }
                let change = try await channel.changed(since: known, waitMilliseconds: Self.waitMilliseconds)
                guard !Task.isCancelled else { return }
                if change.generation != known {
                    since = change.generation
                    fire(Self.types(of: change, on: channel), registration: registration)
                }
            } catch {
                guard !Task.isCancelled else { return }
                logService().log(.debug, "topstep", "list observation: \(error)")
                try? await Task.sleep(for: Self.retryDelay)
            }
        }
    }

    /// The TopStep types a change reports: the known types the device observes, once each; every
    /// observed type when the device did not say which.
    static func types(of change: MediaListChange, on channel: TSMediaChannel) -> [TSMediaFileType] {
        let observed = TSMediaFileType.allCases.filter {
            $0 != .unknown && channel.supportedOperations(for: $0).contains(.observeChanges)
        }
        guard !change.types.isEmpty else { return observed }
        let reported = Set(change.types.map { TSMediaFileType(wireType: $0.rawValue) })
        return observed.filter(reported.contains)
    }

    /// Calls the block for each type on the main queue, unless the registration has ended by then.
    private func fire(_ types: [TSMediaFileType], registration: UInt64) {
        guard !types.isEmpty else { return }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                for type in types {
                    let block = state.withLock { $0.registration == registration ? $0.block : nil }
                    block?(type)
                }
            }
        }
    }
}

/// The generation of the last list fetched from each device, by device identity.
final class FetchedGenerations: Sendable {
    private let generations = Locked<[String: UInt64]>([:])

    /// Records the generation of a list just fetched from `device`.
    func record(_ generation: UInt64, for device: String) {
        generations.withLock { $0[device] = generation }
    }

    /// The generation of the last list fetched from `device`, if any.
    func generation(for device: String) -> UInt64? {
        generations.withLock { $0[device] }
    }
}
