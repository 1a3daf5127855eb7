import AIBudsTransfer
import AIBudsDigest
import AIBudsEmulator
import AIBudsSync
import AIBudsTestKit
import Foundation

/// A data plane serving files from a temporary folder, and a destination folder, for one test.
final class DownloadFixture {
    let root: URL
    let destination: URL
    let catalog = DictionaryDataPlaneCatalog()
    let server: DataPlaneServer
    let baseURL: String
    let token = "test-token"
    /// The data plane as the engine takes it, made once.
    let endpoint: DataPlaneEndpoint
    private let counter = Locked(0)

    init(shaping: DataPlaneShaping = .unlimited, address: String = "127.0.0.1", port: UInt16 = 0) throws {
        root = try makeTemporaryDirectory("download")
        destination = root.appendingPathComponent("dest")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("device"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        server = DataPlaneServer(catalog: catalog, token: token, shaping: shaping)
        baseURL = try server.start()
        endpoint = try DataPlaneEndpoint(baseURL: baseURL, token: token)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// Serves `content` under a device name; a new `generation` makes a new entity tag.
    @discardableResult
    func add(_ name: String, _ content: [UInt8], generation: UInt64 = 1) throws -> DataPlaneFile {
        let number = counter.withLock { value -> Int in
            value += 1
            return value
        }
        let path = root.appendingPathComponent("device/file-\(number)").path
        try writeTestFile(content, to: URL(fileURLWithPath: path))
        let file = DataPlaneFile(id: "id-\(number)", size: Int64(content.count), etag: DataPlaneFile.etag(id: "id-\(number)", size: Int64(content.count), generation: generation), path: path)
        catalog.set(file, named: name)
        return file
    }

    /// A request for a served device name, checked against `content`.
    func request(_ name: String, content: [UInt8]? = nil, localName: String? = nil, overwrite: Bool = false) -> DownloadRequest {
        DownloadRequest(
            endpoint: endpoint, deviceFileName: name, destinationDirectory: destination, localName: localName ?? name,
            expectedSize: content.map { Int64($0.count) }, expectedSHA256: content.map { SHA256.hash($0) }, overwrite: overwrite)
    }

    /// Serves `count` files named `<prefix><index>` of `size(index)` pseudo-random bytes (seed
    /// `seed + index`); returns their checked requests and contents, in order.
    func serve(_ count: Int, prefix: String, seed: UInt64, size: (Int) -> Int) throws -> (requests: [DownloadRequest], contents: [[UInt8]]) {
        var requests: [DownloadRequest] = []
        var contents: [[UInt8]] = []
        for index in 0..<count {
            let content = DownloadFixture.bytes(size(index), seed: seed + UInt64(index))
            try add("\(prefix)\(index)", content)
            requests.append(request("\(prefix)\(index)", content: content))
            contents.append(content)
        }
        return (requests, contents)
    }

    /// The bytes of a file in the destination.
    func downloaded(_ localName: String) throws -> [UInt8] {
        Array(try Data(contentsOf: destination.appendingPathComponent(localName)))
    }

    /// The names in `.partial/`.
    func partialFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent(".partial").path))?.sorted() ?? []
    }

    /// Pseudo-random bytes, the same for the same seed.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] { pseudoRandomBytes(count, seed: seed) }

    /// A fixture serving one file, `name`, of `count` pseudo-random bytes (`seed`), and those bytes.
    static func holding(_ name: String, bytes count: Int, seed: UInt64 = 1) throws -> (DownloadFixture, [UInt8]) {
        let fixture = try DownloadFixture()
        let content = bytes(count, seed: seed)
        try fixture.add(name, content)
        return (fixture, content)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Thread-safe record of progress reports.
final class ProgressLog: Sendable {
    private let reports = Locked<[DownloadProgress]>([])

    func record(_ progress: DownloadProgress) { reports.withLock { $0.append(progress) } }
    var all: [DownloadProgress] { reports.withLock { $0 } }
    var bytesTransferred: Int64 { reports.withLock { $0.last?.bytesTransferred ?? 0 } }

    /// Waits until at least `bytes` have been written.
    func wait(forBytes bytes: Int64, timeout: Duration = .seconds(60)) async throws {
        try await eventually("progress to reach \(bytes) bytes", timeout: timeout) { bytesTransferred >= bytes }
    }
}
