import AIBudsProcess
import AIBudsS3
import AIBudsTestKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real S3-compatible server for a test: SeaweedFS's S3 gateway (`weed server -s3`) on a
/// loopback port, started by `scripts/s3-server.sh` (which installs it with awscli, the
/// independent client the tests check objects with), with one bucket. Stop it when done.
final class S3ServerFixture: Sendable {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let endpoint: String
    let pid: Int32
    let folder: URL
    let bucket: String
    /// The folder holding `aws` and `weed`.
    let tools: URL

    /// Starts a server with an empty `bucket`; throws a clear error when it cannot start.
    init(bucket: String = "station", test: String = #function) async throws {
        folder = try makeTemporaryDirectory("s3-\(test)")
        let venv = try await runProgram(Self.repository.appendingPathComponent("scripts/s3-venv.sh"), [])
        guard venv.status == 0 else { throw S3Error(.configuration, "scripts/s3-venv.sh failed: \(venv.err)") }
        tools = URL(fileURLWithPath: venv.out.trimmingCharacters(in: .whitespacesAndNewlines))
        // The script leaves the server running in the background: its line is read from a file,
        // not from a pipe waited on to its end.
        let output = folder.appendingPathComponent("server.out")
        let errors = folder.appendingPathComponent("server.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        _ = try ChildProcess(
            Self.repository.appendingPathComponent("scripts/s3-server.sh").path, [folder.appendingPathComponent("server").path],
            output: .file(output.path), errors: .file(errors.path))
        var line = ""
        try await eventually("SeaweedFS's S3 server to start (scripts/s3-server.sh; its errors: \(errors.path))", timeout: .seconds(150)) {
            line = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if line.contains("endpoint=") { return true }
            let failure = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            if failure.contains("s3-server:") { throw S3Error(.configuration, "SeaweedFS's S3 server did not start: \(failure)") }
            return false
        }
        let fields = Dictionary(
            line.split(separator: " ").compactMap { field -> (String, String)? in
                let parts = field.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
        guard let endpoint = fields["endpoint"], let pid = fields["pid"].flatMap(Int32.init) else {
            throw S3Error(.configuration, "scripts/s3-server.sh printed no endpoint: \(line)")
        }
        self.endpoint = endpoint
        self.pid = pid
        self.bucket = bucket
        let made = try await aws(["s3", "mb", "s3://\(bucket)"])
        guard made.status == 0 else {
            stop()
            throw S3Error(.configuration, "cannot make the bucket: \(made.err)")
        }
    }

    /// The environment of a station: the endpoint and the read-write identity (or `key`/`secret`).
    func environment(key: String = "station", secret: String = "stationsecret", extra: [String: String] = [:]) -> [String: String] {
        [
            "AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1",
            "AWS_SHARED_CREDENTIALS_FILE": folder.appendingPathComponent("none").path,
            "AWS_CONFIG_FILE": folder.appendingPathComponent("none").path,
        ].merging(extra) { $1 }
    }

    /// Runs the independent client, `aws --endpoint-url ENDPOINT ARGUMENTS` as the read-write identity.
    func aws(_ arguments: [String]) async throws -> ProgramResult {
        try await runProgram(
            tools.appendingPathComponent("aws"), ["--endpoint-url", endpoint] + arguments,
            environment: environment().merging(["AWS_DEFAULT_REGION": "us-east-1"]) { $1 })
    }

    /// The checksums the store keeps for an object (`ChecksumCRC32`, `ChecksumSHA256`...), by the
    /// independent client (`head-object --checksum-mode ENABLED`).
    func checksums(_ key: String) async throws -> [String: String] {
        let head = try await aws(["s3api", "head-object", "--bucket", bucket, "--key", key, "--checksum-mode", "ENABLED", "--output", "json"])
        guard head.status == 0 else { throw S3Error(.http, "head-object \(key) failed: \(head.err)") }
        let document = try JSONSerialization.jsonObject(with: Data(head.out.utf8)) as? [String: Any] ?? [:]
        return document.compactMapValues { $0 as? String }.filter { $0.key.hasPrefix("Checksum") }
    }

    /// Every key in the bucket under `prefix`, by the independent client.
    func keys(prefix: String = "") async throws -> [String] {
        let listed = try await aws(["s3api", "list-objects-v2", "--bucket", bucket, "--prefix", prefix, "--output", "json"])
        guard listed.status == 0 else { throw S3Error(.http, "list-objects-v2 failed: \(listed.err)") }
        guard !listed.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            let document = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any]
        else { return [] }
        return (document["Contents"] as? [[String: Any]] ?? []).compactMap { $0["Key"] as? String }
    }

    /// The multipart uploads still in progress, by the independent client.
    func uploadsInProgress() async throws -> Int {
        let listed = try await aws(["s3api", "list-multipart-uploads", "--bucket", bucket, "--output", "json"])
        guard listed.status == 0 else { throw S3Error(.http, "list-multipart-uploads failed: \(listed.err)") }
        guard !listed.out.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            let document = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any]
        else { return 0 }
        return (document["Uploads"] as? [[String: Any]])?.count ?? 0
    }

    /// An object's bytes and metadata, by the independent client.
    func object(_ key: String) async throws -> (data: Data, metadata: [String: String]) {
        let file = folder.appendingPathComponent("get-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let got = try await aws(["s3api", "get-object", "--bucket", bucket, "--key", key, file.path, "--output", "json"])
        guard got.status == 0 else { throw S3Error(.http, "get-object \(key) failed: \(got.err)") }
        let document = try JSONSerialization.jsonObject(with: Data(got.out.utf8)) as? [String: Any]
        return (try Data(contentsOf: file), document?["Metadata"] as? [String: String] ?? [:])
    }

    /// A client of this server (for watching an import from the test).
    func client() -> S3Client {
        S3Client(settings: S3Settings(
            accessKeyID: "station", secretAccessKey: "stationsecret", region: "us-east-1", endpoint: URL(string: endpoint)!, pathStyle: true))
    }

    /// Stops the server and removes its folder.
    func stop() {
        kill(pid, SIGTERM)
        // The server is not our child (the script started it): wait until it is gone.
        for _ in 0..<100 where kill(pid, 0) == 0 { usleep(50_000) }
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: folder)
    }
}
