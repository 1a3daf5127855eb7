import AIBudsEmulator
import AIBudsNet
import AIBudsSMPClient
import Foundation

/// `aibuds bench smp-download`: SMP File download throughput over an emulated link, pipelined and
/// stop-and-wait in the same run.
struct BenchSMPCommand: CLICommand {
    static let path = ["bench", "smp-download"]
    static let abstract = "Measure SMP File download throughput over the emulated BLE link."
    static let help = """
        usage: aibuds bench smp-download [--size BYTES] [--windows N,N,...] [--link ble|unlimited]
                                         [--repeat COUNT]

        Starts an emulated device on loopback with one generated file, downloads it with the SMP
        client once per window size (requests in flight; 1 is stop-and-wait) and prints the payload
        throughput and its fraction of the link's capacity (ble: 178,933 B/s, docs/protocol.md §6).
        Every download is checked against the device's SHA-256 (not counted in the time).

        options:
          --size BYTES      the file size (default 2097152)
          --windows LIST    the window sizes to measure, in order (default \(defaultWindows))
          --link L          ble (default) or unlimited
          --repeat COUNT    downloads per window size; the median is reported (default 1)
        """

    /// The pipelined client's default window first, then stop-and-wait.
    static var defaultWindows: String { "\(SMPClientConfiguration().window),1" }

    let size: UInt64
    let windows: [Int]
    let link: LinkProfile
    let repetitions: Int

    init(_ arguments: inout Arguments) throws {
        size = try arguments.number("--size") ?? 2 << 20
        let list = try arguments.option("--windows") ?? Self.defaultWindows
        windows = try list.split(separator: ",").map { word in
            guard let window = Int(word) else { throw CommandFailure.usage("--windows takes numbers, not '\(word)'") }
            return window
        }
        let linkName = try arguments.option("--link") ?? "ble"
        guard let link = LinkProfile(rawValue: linkName), link != .wifi else {
            throw CommandFailure.usage("--link must be ble or unlimited, not '\(linkName)'")
        }
        self.link = link
        repetitions = try arguments.number("--repeat") ?? 1
    }

    func validate() throws {
        guard size > 0, size <= 1 << 32 else { throw CommandFailure.usage("--size must be 1 byte to 4 GiB") }
        guard !windows.isEmpty, windows.allSatisfy({ (1...128).contains($0) }) else {
            throw CommandFailure.usage("--windows must list window sizes from 1 to 128")
        }
        guard (1...20).contains(repetitions) else { throw CommandFailure.usage("--repeat must be 1 to 20") }
    }

    func run() async throws -> ExitCode {
        var configuration = EmulatorConfiguration()
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.link = link
        configuration.announce = false
        configuration.mediaSeeds = [.generated("bench.mp4", type: .video, size: size)]
        let emulator = try Emulator(configuration: configuration)
        let address = try emulator.start()
        defer { emulator.stop() }

        let capacity = BLELinkShaper().maxBytesPerSecond
        CLI.say("SMP download of \(size) bytes over the \(link.rawValue) link (udp://\(address))"
            + (link == .ble ? ", capacity \(Int(capacity)) B/s" : ""))
        CLI.say("window  seconds  bytes/s   of capacity  requests")
        for window in windows {
            var runs: [(seconds: Double, requests: Int)] = []
            for _ in 0..<repetitions {
                runs.append(try await Self.download(from: address, size: size, window: window))
            }
            let median = runs.sorted { $0.seconds < $1.seconds }[runs.count / 2]
            let rate = Double(size) / median.seconds
            let fraction = link == .ble ? String(format: "%10.1f%%", 100 * rate / capacity) : "         -"
            CLI.say(String(format: "%6d  %7.2f  %8.0f  %@  %8d", window, median.seconds, rate, fraction, median.requests))
        }
        return .ok
    }

    /// One verified download with a fresh client; returns the seconds until the last byte and the
    /// number of requests.
    static func download(from address: SocketAddress, size: UInt64, window: Int) async throws -> (seconds: Double, requests: Int) {
        let client = try SMPClient(transport: UDPTransport(address: address),
                                   configuration: SMPClientConfiguration(window: window))
        defer { client.close() }
        try await client.negotiateMTU()
        let clock = ContinuousClock()
        let start = clock.now
        var received: UInt64 = 0
        var end = start
        let result = try await client.downloadFile(
            path: "/media/bench.mp4", window: window,
            progress: { if $0.completed == $0.total { end = clock.now } },
            sink: { received += UInt64($0.count) })
        guard received == size, result.verified else {
            throw CommandFailure.failure("the download was incomplete or did not verify (\(received) bytes)")
        }
        let elapsed = (end - start).components
        return (Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, result.requests)
    }
}
