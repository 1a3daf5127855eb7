import AIBudsSMPClient
import AIBudsWire
import Foundation

/// A real `aibuds emulator` process serving a prepared set, and what the benchmark asks it over
/// SMP: its data plane (for curl) and whether its media list carries every file's SHA-256.
struct BenchDevice {
    /// The emulator process; its `url` is `udp://HOST:PORT`.
    let server: BenchRun.Server
    /// The SMP address, `udp://HOST:PORT`.
    var address: String { server.url }

    /// Starts `aibuds emulator --profile glasses --manifest <set's manifest> --listen 127.0.0.1:0`
    /// with `extra` options; its standard error goes to `log` when given.
    init(aibuds: String, files: String, set: String, extra: [String] = [], log: String? = nil) throws {
        let manifest = try Self.writeManifest(files: files, set: set)
        server = try BenchRun.Server(
            aibuds, ["emulator", "--profile", "glasses", "--manifest", manifest, "--listen", "127.0.0.1:0"] + extra, log: log)
    }

    /// Stops the emulator.
    func stop() { server.stop() }

    /// The emulator's manifest of a prepared set: every file by its name, its bytes read from the
    /// set's folder (the same files curl and the engine fetch).
    static func writeManifest(files: String, set: String) throws -> String {
        let entries = try Manifest.read(directory: files, set: set)
        let type = set == "small" ? "image" : "video"
        let list = entries.map { ["name": $0.name, "type": type, "source": $0.name] }
        let path = "\(files)/emulator-\(set).json"
        try JSONSerialization.data(withJSONObject: ["files": list], options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The data plane (`http://HOST:PORT`) of an emulator started with `--hotspot-open`.
    func dataPlane() async throws -> String {
        let client = try SMPClient(transport: UDPTransport(url: address))
        defer { client.close() }
        let state = try await client.send(HotspotStateRequest())
        guard state.state == 1, let base = state.baseURL else { throw BenchFailure("the emulator at \(address) has no open data plane") }
        return base
    }

    /// Waits until the media list holds `count` files, each with its SHA-256 (the emulator hashes
    /// its files in the background after it starts); returns the seconds waited.
    func waitForListedDigests(count: Int, timeout: Duration = .seconds(120)) async throws -> Double {
        let client = try SMPClient(transport: UDPTransport(url: address))
        defer { client.close() }
        let start = ContinuousClock.now
        while true {
            let listing = try await client.mediaListing(type: nil)
            if listing.files.count == count, listing.files.allSatisfy({ $0.sha256 != nil }) { return seconds(since: start) }
            guard ContinuousClock.now - start < timeout else {
                throw BenchFailure("the emulator at \(address) did not list the digests of its \(count) files within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
