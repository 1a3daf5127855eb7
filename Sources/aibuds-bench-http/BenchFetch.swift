import AIBuds
import AIBudsTransfer
import Foundation

/// `fetch --base URL --token T --dir D --set NAME --dest OUT [--parallel N] [--commit-width N] [--pipeline N]`: downloads a set
/// with the SDK's engine, checking every size and SHA-256; prints the wall time.
enum BenchFetch {
    static func run(_ options: Options) async throws {
        let entries = try Manifest.read(directory: try options.require("--dir"), set: try options.require("--set"))
        let destination = URL(fileURLWithPath: try options.require("--dest"))
        let token = try options.require("--token")
        let base = try options.require("--base")
        let parallelism = try options.int("--parallel", default: HTTPFileDownloader.Configuration().parallelism)
        let endpoint = try DataPlaneEndpoint(baseURL: base, token: token)
        let requests = entries.map {
            DownloadRequest(
                endpoint: endpoint, deviceFileName: $0.name, destinationDirectory: destination, localName: $0.name,
                expectedSize: $0.size, expectedSHA256: $0.sha256)
        }
        var configuration = HTTPFileDownloader.Configuration()
        if let buffer = options.value("--buffer") { configuration.bufferSize = Int(try parseSize(buffer)) }
        configuration.commitWidth = try options.int("--commit-width", default: configuration.commitWidth)
        configuration.pipelineDepth = try options.int("--pipeline", default: configuration.pipelineDepth)
        let downloader = HTTPFileDownloader(configuration: configuration)
        let start = ContinuousClock.now
        let results = await downloader.download(requests, parallelism: parallelism)
        let elapsed = seconds(since: start)
        let failures = results.compactMap { result -> TransferError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        guard failures.isEmpty else { throw BenchFailure("\(failures.count) downloads failed; first: \(failures[0])") }
        let bytes = entries.reduce(0) { $0 + $1.size }
        say("fetched \(entries.count) files, \(bytes) bytes in \(String(format: "%.3f", elapsed)) s")
    }
}
