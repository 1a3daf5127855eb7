import AIBudsFoundation
import AIBudsSync
import Foundation

/// Imports from many devices at once on one station (a charging station, a laptop with a dozen
/// glasses): each device into its own folder with its own ledger, all at the same time, sharing
/// the station's transfers fairly, with one stream of events for all.
///
/// Every device runs its own import (``MediaImportEngine``) over its own link, and no device ever
/// waits for another's file: a device on a slow link holds only its own share of transfers, so it
/// never starves the others. The share is the station's ``Configuration/stationTransfers`` divided
/// by the devices importing when the device starts (at least one), and at most
/// ``Configuration/transfersPerDevice``. Devices can be submitted while
/// others run (a station adds them as they appear); ``finish()`` ends ``events`` once the last one is done.
public final class MediaImportScheduler: Sendable {
    /// How a station imports.
    public struct Configuration: Sendable {
        /// Where the import goes: each device gets its own place below it (a folder
        /// `<destination>/<device id>/`, or the prefix `<prefix>/<device id>/` in a bucket).
        public var destination: MediaImportDestination
        /// How many files the station downloads at once over all devices; each device gets an
        /// equal share (at least one) when it starts.
        public var stationTransfers: Int
        /// At most this many files of one device at once, whatever its share. Without a limit, a
        /// device that starts while few others run would take much of the station's transfers
        /// (all 16 when it is the first).
        public var transfersPerDevice: Int
        /// Whether files the device's ledger already has are left out.
        public var onlyNew: Bool
        /// Whether imported and verified files are then deleted from their device.
        public var deletesVerifiedFilesFromDevice: Bool
        /// Whether the per-file progress events are reported (`false` for a consumer that only
        /// wants each device's result).
        public var reportsProgress: Bool

        /// Creates the settings of a station; by default 16 transfers shared by the devices, at
        /// most `transfersPerDevice` per device (nil:
        /// ``MediaImportDestination/preferredTransfersPerDevice``).
        public init(
            destination: MediaImportDestination, stationTransfers: Int = 16, transfersPerDevice: Int? = nil, onlyNew: Bool = false,
            deletesVerifiedFilesFromDevice: Bool = false, reportsProgress: Bool = true
        ) {
            self.destination = destination
            self.stationTransfers = stationTransfers
            self.transfersPerDevice = transfersPerDevice ?? destination.preferredTransfersPerDevice
            self.onlyNew = onlyNew
            self.deletesVerifiedFilesFromDevice = deletesVerifiedFilesFromDevice
            self.reportsProgress = reportsProgress
        }
    }

    private struct State {
        var active = 0
        var running: [String: Task<FleetDeviceResult, Never>] = [:]
        var finishing = false
        var cancelled = false
    }

    /// The station's settings.
    public let configuration: Configuration
    /// Every device's events, interleaved as they happen; ends after ``finish()`` once no device runs.
    public let events: AsyncStream<FleetImportEvent>
    private let continuation: AsyncStream<FleetImportEvent>.Continuation
    private let state = Locked(State())

    /// Creates a scheduler; nothing runs until a device is submitted.
    public init(configuration: Configuration) {
        self.configuration = configuration
        (events, continuation) = AsyncStream.makeStream(of: FleetImportEvent.self)
    }

    /// Imports every file of each device at once and returns each device's result, in the order given.
    public static func importAll(
        from devices: [any MediaImportControlChannel], configuration: Configuration,
        onEvent: @escaping @Sendable (FleetImportEvent) -> Void = { _ in }
    ) async -> [FleetDeviceResult] {
        let scheduler = MediaImportScheduler(configuration: configuration)
        let tasks = devices.map { scheduler.submit($0) }
        scheduler.finish()
        let consumer = Task { for await event in scheduler.events { onEvent(event) } }
        var results: [FleetDeviceResult] = []
        await withTaskCancellationHandler {
            for task in tasks { results.append(await task.value) }
        } onCancel: {
            scheduler.cancel()
        }
        await consumer.value
        return results
    }

    /// Whether the device with this ledger identifier is importing now.
    public func isImporting(deviceID: String) -> Bool { state.withLock { $0.running[deviceID] != nil } }

    /// Starts importing from `device` (every file, or the new ones with `onlyNew`) and returns the
    /// task that ends with its result. A device already importing is not started twice: its
    /// running task is returned.
    @discardableResult
    public func submit(_ device: any MediaImportControlChannel) -> Task<FleetDeviceResult, Never> {
        let id = device.mediaImportDeviceID
        return state.withLock { state in
            if let running = state.running[id] { return running }
            state.active += 1
            let task = Task { await self.run(device, id: id) }
            if state.cancelled { task.cancel() }
            state.running[id] = task
            return task
        }
    }

    /// Ends ``events`` once every submitted device is done; devices may still be submitted until then.
    public func finish() {
        let done = state.withLock { state in
            state.finishing = true
            return state.running.isEmpty
        }
        if done { continuation.finish() }
    }

    /// Cancels every running import (each keeps its partial downloads for a resume).
    public func cancel() {
        let tasks = state.withLock { state in
            state.cancelled = true
            return Array(state.running.values)
        }
        for task in tasks { task.cancel() }
    }

    /// The transfers a device starting now gets: its share of the station's, at most
    /// ``Configuration/transfersPerDevice``.
    private func share() -> Int {
        let share = state.withLock { max(1, configuration.stationTransfers / max(1, $0.active)) }
        return min(share, max(1, configuration.transfersPerDevice))
    }

    private func run(_ device: any MediaImportControlChannel, id: String) async -> FleetDeviceResult {
        let result = await DeviceImport(
            device: device, id: id, configuration: configuration, share: { self.share() },
            emit: { self.continuation.yield($0) }
        ).run()
        continuation.yield(.finished(result))
        let finished = state.withLock { state in
            state.active -= 1
            state.running[id] = nil
            return state.finishing && state.running.isEmpty
        }
        if finished { continuation.finish() }
        return result
    }
}
