import AIBuds
import AIBudsEmulator
import AIBudsNet
import AIBudsSMP
import AIBudsSMPClient
import Foundation
import TopStepComKit

/// `aibuds recordings bench`: downloads a recording from an emulated watch over the BLE link
/// profile through the TopStep facade, and the same file stop-and-wait, in one run.
struct RecordingsBenchCommand: CLICommand {
    static let path = ["recordings", "bench"]
    static let abstract = "Benchmark a recording download over the BLE link profile against stop-and-wait."
    static let help = """
        usage: aibuds recordings bench [--size BYTES] [--runs N] [--transport udp|bluez]

        Starts an emulated watch (link profile ble) holding one recording of BYTES (default
        1048576), connects to it, and downloads the recording N times (default 1) with
        TopStepComKit (pipelined File download, verified), then once with one request in flight
        (stop-and-wait, the same File download with a window of 1). Prints each run's time,
        throughput and fraction of the link's payload capacity (178,933 bytes/s).

        --transport bluez serves the watch over SMP/GATT through the emulator's BlueZ stand-in on
        a private dbus-daemon (Debian's dbus package) and connects through the BlueZ plugin
        (ATT MTU 247, the same link shaping); udp (default) over SMP/UDP.
        """

    let size: UInt64
    let runs: Int
    let bluez: Bool

    init(_ arguments: inout Arguments) throws {
        size = try arguments.number("--size") ?? 1_048_576
        runs = try arguments.number("--runs") ?? 1
        let transport = try arguments.option("--transport") ?? "udp"
        guard transport == "udp" || transport == "bluez" else {
            throw CommandFailure.usage("--transport must be udp or bluez, not '\(transport)'")
        }
        bluez = transport == "bluez"
    }

    func validate() throws {
        if size == 0 || size > 1 << 30 { throw CommandFailure.usage("--size must be 1 byte to 1 GiB") }
        if runs < 1 || runs > 20 { throw CommandFailure.usage("--runs must be 1 to 20") }
    }

    func run() async throws -> ExitCode {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }

        var configuration = EmulatorConfiguration()
        configuration.profile = .watch
        configuration.link = .ble
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.mediaSeeds = [.generated("REC_BENCH.opus", type: .audio, size: size)]
        configuration.announce = false
        let emulator: Emulator
        let spec: String
        var bus: PrivateBus?
        do {
            emulator = try Emulator(configuration: configuration)
            if bluez {
                let privateBus = try PrivateBus()
                bus = privateBus
                // The BlueZ plugin of the SDK this command initializes reads the bus from here.
                setenv("DBUS_SYSTEM_BUS_ADDRESS", privateBus.address, 1)
                let standIn = try await emulator.startBlueZ(bus: privateBus.address)
                spec = "ble://\(standIn.address)"
            } else {
                spec = "udp://\(try emulator.start())"
            }
        } catch {
            throw CommandFailure.failure("cannot start the emulator: \(error)")
        }
        defer {
            emulator.stop()
            bus?.stop()
        }
        let capacity = BLELinkShaper().maxBytesPerSecond

        return try await Recordings.withKit(spec) { kit in
            let file = try Recordings.select(["REC_BENCH.opus"], from: try await Recordings.fetch(kit.mediaFile))[0]
            CLI.say("link ble over \(bluez ? "BlueZ (SMP over GATT)" : "UDP"): capacity \(Int(capacity)) bytes/s of payload; file \(size) bytes")
            for run in 1...runs {
                let folder = scratch.appendingPathComponent("run\(run)").path
                let start = ContinuousClock.now
                let path = try await Recordings.download(kit.mediaFile, file, to: folder)
                let seconds = (ContinuousClock.now - start).seconds
                guard (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value == size else {
                    throw CommandFailure.failure("the downloaded file has the wrong size")
                }
                report("TopStepComKit (pipelined)", seconds: seconds, capacity: capacity)
            }
            guard let client = (kit.device as? SMPDevice)?.smpClient else {
                throw CommandFailure.unavailable("the device disconnected")
            }
            let sink = scratch.appendingPathComponent("stop-and-wait.bin")
            _ = FileManager.default.createFile(atPath: sink.path, contents: nil)
            let handle = try FileHandle(forWritingTo: sink)
            defer { try? handle.close() }
            let start = ContinuousClock.now
            let result = try await client.downloadFile(path: "/media/REC_BENCH.opus", to: handle, window: 1)
            guard result.size == size, result.verified else { throw CommandFailure.failure("the stop-and-wait download did not verify") }
            report("stop-and-wait (window 1)", seconds: (ContinuousClock.now - start).seconds, capacity: capacity)
            return .ok
        }
    }

    /// Prints one result line.
    private func report(_ label: String, seconds: Double, capacity: Double) {
        let rate = Double(size) / seconds
        CLI.say(String(format: "%@: %.2f s, %.0f bytes/s, %.1f%% of link capacity", label, seconds, rate, rate / capacity * 100))
    }
}
