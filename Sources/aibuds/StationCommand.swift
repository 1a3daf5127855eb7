import AIBuds
import AIBudsImport
import AIBudsFoundation
import AIBudsSync
import Foundation

/// `aibuds station`: a charging station. Watches every stored device (and every `--device`),
/// imports from each one as it appears and is idle, all at once, until Ctrl-C.
struct StationCommand: CLICommand {
    static let path = ["station"]
    static let abstract = "Import from every known device as it appears, many at once, until Ctrl-C."
    static let help = """
        usage: aibuds station --to DIR [--device D]... [--new] [--delete-after] [--jobs N]
                              [--interval SECONDS] [--no-stabilize] [--json]

        Watches the stored devices ('aibuds devices') and every --device given. A device that
        can be reached and is idle (not recording, calling or updating) is imported from at once,
        into DIR/<device id>/ with its own ledger, while the others go on; each device is
        imported once each time it appears (it must be unreachable for a round before it is
        imported again). Devices share the station's transfers fairly: a slow one never holds
        up the others. Ctrl-C stops the station cleanly (partial files resume next time).

        options:
          --to DIR          the folder to import into (one subfolder per device), or
                            s3://BUCKET/PREFIX (see 'aibuds media import --help')
          --device D        also watch this device (udp://HOST:PORT, a name or a MAC address)
          --new             only files not in the device's ledger
          --delete-after    delete each imported and verified file from its device
          --jobs N          files downloaded at once per device (1 to 64; default 6 into a folder,
                            2 into s3://, where each file streams into the store part by part)
          --interval S      seconds between looks for devices (default 5, 0.1 to 3600)
          --no-stabilize    keep videos as recorded
          --json            print one JSON document for the whole session when it stops
        """

    var destination: String
    var extra: [String]
    var onlyNew: Bool
    var deleteAfter: Bool
    /// `--jobs`; nil: the destination's preferred number.
    var jobs: Int?
    var interval: Double
    var noStabilize: Bool
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        destination = try arguments.option("--to") ?? ""
        extra = try arguments.options("--device")
        onlyNew = arguments.flag("--new")
        deleteAfter = arguments.flag("--delete-after")
        jobs = try arguments.number("--jobs")
        interval = try arguments.number("--interval") ?? 5
        noStabilize = arguments.flag("--no-stabilize")
        json = arguments.flag("--json")
        _ = try arguments.positionals()
    }

    func validate() throws {
        if destination.isEmpty { throw CommandFailure.usage("station needs --to DIR") }
        if let jobs, !(1...64).contains(jobs) { throw CommandFailure.usage("--jobs takes a number from 1 to 64") }
        if !(interval >= 0.1 && interval <= 3600) { throw CommandFailure.usage("--interval takes seconds from 0.1 to 3600") }
    }

    /// What the station knows of one watched device.
    private enum Presence {
        /// Not seen since the station started, or seen unreachable: imported when it appears.
        case away
        /// Being imported from now.
        case importing
        /// Imported during this appearance: not again until it has been away.
        case done
    }

    func run() async throws -> ExitCode {
        if noStabilize { AIBudsSDK.isVideoStabilizationDisabled = true }
        DeviceCommandSupport.initializeSDK()
        let stored = (try? await StoredDevicesMgr.loadDevices()) ?? []
        let watched = stored.map { Watched(name: $0.name, stored: $0) } + extra.map { Watched(name: $0, spec: $0) }
        if watched.isEmpty {
            throw CommandFailure.usage("no device to watch: store devices with an app, or give --device D")
        }
        let target = try FleetImportRunner.destination(destination)
        let runner = FleetImportRunner(
            destination: target.destination, jobs: jobs, devices: watched.count, onlyNew: onlyNew, deleteAfter: deleteAfter, json: json)
        // The sleep between looks, which Ctrl-C cuts short.
        let sleeping = Locked<Task<Void, Never>?>(nil)
        let interrupt = MediaInterrupt {
            runner.scheduler.cancel()
            sleeping.withLock { $0?.cancel() }
        }
        defer { interrupt.remove() }
        runner.start()
        runner.view.line("Station: watching \(watched.count) devices, importing into \(target.name) (Ctrl-C stops)")
        var presence = Array(repeating: Presence.away, count: watched.count)
        var running: [Int: Task<Void, Never>] = [:]
        // Devices whose import (or failed look) ended report their new presence here.
        let ended = Locked<[Int: Presence]>([:])
        while !interrupt.wasInterrupted {
            let reports: [Int: Presence] = ended.withLock { ended in
                let all = ended
                ended = [:]
                return all
            }
            for (index, state) in reports {
                presence[index] = state
                running[index] = nil
            }
            for index in watched.indices where running[index] == nil && !interrupt.wasInterrupted {
                let device = watched[index]
                let state = presence[index]
                running[index] = Task {
                    let next = await device.visit(state, runner: runner)
                    ended.withLock { $0[index] = next }
                }
                presence[index] = .importing
            }
            // Sleep one interval, or until Ctrl-C. (Not a stream that Ctrl-C finishes, waited on
            // by a task cancelled each round: cancelling the task that iterates an AsyncStream
            // ends the stream, and every later sleep ended at once, a busy loop.)
            let sleeper = Task { _ = try? await Task.sleep(for: .seconds(interval)) }
            sleeping.withLock { $0 = sleeper }
            if interrupt.wasInterrupted { sleeper.cancel() }
            await sleeper.value
        }
        for task in running.values { await task.value }
        // Ctrl-C is how a station stops: the exit status says how the imports went.
        return try await runner.finish { false }
    }

    /// One watched device: a stored one, or one named by `--device`.
    private struct Watched: Sendable {
        var name: String
        var stored: (any DeviceConvertible)?
        var spec: String?

        init(name: String, stored: any DeviceConvertible) {
            self.name = name
            self.stored = stored
        }

        init(name: String, spec: String) {
            self.name = name
            self.spec = spec
        }

        /// Looks for the device: away or unreachable → `.away`; reachable and imported before during
        /// this appearance → `.done` without importing; else imports (when idle) and → `.done`.
        func visit(_ presence: Presence, runner: FleetImportRunner) async -> Presence {
            let connection: MediaDeviceConnection
            do {
                connection = try await connect()
            } catch {
                return .away
            }
            defer { Task { await connection.close() } }
            if case .done = presence { return .done }
            if let worker = connection.device as? any DeviceWorkStateAPI,
                let state = try? await worker.requestQueryWorkState(), !Self.idleStates.contains(state)
            {
                // Busy (recording, calling, updating): looked at again next round.
                return .away
            }
            let result = await runner.scheduler.submit(connection.device).value
            return result.error?.code == .importFilesCanceled || result.result?.error?.code == .importFilesCanceled ? .away : .done
        }

        private func connect() async throws -> MediaDeviceConnection {
            if let stored {
                try await stored.connectAndWait(ConnectParams())
                guard let media = stored as? any MediaImportControlChannel & DeviceMediaFileImportAPI else {
                    await stored.disconnectAndWait()
                    throw CommandFailure.failure("\(name) cannot import media")
                }
                return MediaDeviceConnection(device: media)
            }
            return try await MediaDeviceConnection.connect(spec ?? name)
        }

        /// The work states in which a station may import (the device does nothing else).
        static let idleStates: Set<WorkState> = [
            .unknown, .reserved, .btOrBleWaitingForConnection, .btOrBleConnectedIdle, .btOrBleDisconnectedIdle,
        ]
    }
}
