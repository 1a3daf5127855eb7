import AIBuds
import AIBudsTransfer
import AIBudsDigest
import AIBudsEmulator
import Foundation

/// `faults --dir D --set NAME --out OUT [--imports N] [--seed S]`: imports the set's first file N
/// times from an in-process data plane that drops the connection once at a random byte each
/// time; checks every import and counts the bytes fetched twice.
enum BenchFaults {
    static func run(_ options: Options) async throws {
        let directory = try options.require("--dir")
        let entry = try Manifest.read(directory: directory, set: try options.require("--set"))[0]
        let out = try options.require("--out")
        let imports = try options.int("--imports", default: 100)
        var generator = SeededRandom(seed: UInt64(try options.int("--seed", default: 42)))
        let server = DataPlaneServer(catalog: DirectoryDataPlaneCatalog(directory: directory), token: "bench")
        let baseURL = try server.start()
        defer { server.stop() }
        let downloader = HTTPFileDownloader(configuration: .init(retry: RetryPolicy(initialBackoff: .milliseconds(10))))
        var extra: Int64 = 0
        var maxExtra: Int64 = 0
        var attempts = 0
        var failures: [String] = []
        let start = ContinuousClock.now
        for index in 0..<imports {
            let dropAt = Int64.random(in: 1..<entry.size, using: &generator)
            server.setFaults(DataPlaneFaults(closeAtByte: dropAt))
            let destination = "\(out)/\(index)"
            try recreateDirectory(destination)
            let request = DownloadRequest(
                endpoint: try DataPlaneEndpoint(baseURL: baseURL, token: "bench"), deviceFileName: entry.name, destinationDirectory: URL(fileURLWithPath: destination),
                localName: entry.name, expectedSize: entry.size, expectedSHA256: entry.sha256)
            do {
                let result = try await downloader.download(request)
                let onDisk = try SHA256.hash(fileAt: result.fileURL)
                let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: destination + "/.partial")) ?? []
                if onDisk != entry.sha256 { failures.append("import \(index): bytes differ") }
                if !leftovers.isEmpty { failures.append("import \(index): left \(leftovers)") }
                if server.faults.closeAtByte != nil { failures.append("import \(index): the drop at \(dropAt) did not happen") }
                extra += result.bytesReceived - entry.size
                maxExtra = max(maxExtra, result.bytesReceived - entry.size)
                attempts += result.attempts
            } catch {
                failures.append("import \(index) (drop at \(dropAt)): \(error)")
            }
            try? FileManager.default.removeItem(atPath: destination)
        }
        let elapsed = seconds(since: start)
        let total = Int64(imports) * entry.size
        say("faults: \(imports) imports of \(entry.size) bytes, one drop each, in \(String(format: "%.1f", elapsed)) s")
        say("faults: \(imports - failures.count) byte-identical with no partial file left; \(attempts) requests")
        say(String(format: "faults: extra bytes fetched %lld (%.4f%% of %lld; worst import %lld)", extra, Double(extra) * 100 / Double(total), total, maxExtra))
        for failure in failures.prefix(10) { say("faults: FAILED \(failure)") }
        if !failures.isEmpty { throw BenchFailure("\(failures.count) imports failed") }
    }
}
