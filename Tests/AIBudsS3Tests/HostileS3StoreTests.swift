@testable import AIBudsS3
import AIBudsTestKit
import Foundation
import Testing

/// The S3 destination against a store that lies, on loopback (Python's http.server, started by the
/// test): one that calls every key taken, one that answers a small read with a gigabyte, one that
/// refuses every conditional write. Each costs a bounded number of requests and bounded memory,
/// and ends in a typed error. The store's calls block: they run on a thread of their own.
@Suite(.timeLimit(.minutes(2))) struct HostileS3StoreTests {
    static let handler = #"""
    bucket = self.path.split("/")[1]
    if self.command == "HEAD" and bucket == "taken":
        # Every key "exists", with bytes of its own.
        self.send_response(200); self.send_header("Content-Length", "5")
        self.send_header("x-amz-meta-sha256", "0" * 64); self.end_headers()
    elif self.command == "GET" and bucket == "huge":
        self.send_response(200); self.send_header("Content-Length", str(1 << 30)); self.end_headers()
        chunk = b"{" * (1 << 20)
        for _ in range(1024): self.wfile.write(chunk)
    elif self.command == "HEAD":
        self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
    elif self.command == "PUT" and bucket == "racing":
        error = b"<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>"
        self.send_response(412); self.send_header("Content-Length", str(len(error))); self.end_headers(); self.wfile.write(error)
    else:
        self.send_response(200); self.send_header("Content-Length", "0"); self.send_header("ETag", '"e"'); self.end_headers()
    """#

    private func start() async throws -> (endpoint: URL, server: ScriptedHTTPServer) {
        let server = try await ScriptedHTTPServer.start(Self.handler)
        return (URL(string: server.base)!, server)
    }

    private func store(_ endpoint: URL, bucket: String) -> S3MediaStore {
        let settings = S3Settings(accessKeyID: "key", secretAccessKey: "secret", region: "us-east-1", endpoint: endpoint, pathStyle: true)
        return S3MediaStore(client: S3Client(settings: settings), location: S3Location("s3://\(bucket)/imports")!)
    }

    @Test func aStoreThatCallsEveryKeyTakenIsAskedAtMostSeventeenTimes() async throws {
        let (endpoint, server) = try await start()
        defer { server.stop() }
        let store = store(endpoint, bucket: "taken")
        let sha = [UInt8](repeating: 0xAB, count: 32)
        let refused = await #expect(throws: S3Error.self) {
            _ = try await onOwnThread { try store.streamTarget(deviceID: "watch", name: "IMG_1.jpg", size: 5, sha256: sha) }
        }
        #expect(refused?.kind == .http && refused?.message.contains("no free key for IMG_1.jpg") == true, "\(String(describing: refused))")
        #expect(store.client.requestsSent.withLock { $0 } == S3MediaStore.numberedKeys + 1)
    }

    @Test func aStoreThatRefusesEveryConditionalWriteEndsTheStoreOfAFile() async throws {
        let (endpoint, server) = try await start()
        defer { server.stop() }
        let store = store(endpoint, bucket: "racing")
        let file = try makeTemporaryDirectory().appendingPathComponent("IMG_2.jpg")
        try Data(repeating: 1, count: 1000).write(to: file)
        let refused = await #expect(throws: S3Error.self) {
            _ = try await onOwnThread { try store.store(file: file, deviceID: "watch", name: "IMG_2.jpg", sha256: [], companionName: nil) }
        }
        #expect(refused != nil)
        // Each lost race takes one of the 17 keys, with a HEAD and a PUT (and a removal) each.
        #expect(store.client.requestsSent.withLock { $0 } < 100, "\(store.client.requestsSent.withLock { $0 }) requests")
    }

    @Test func aGigabyteAnswerToALedgerReadIsRefusedAtTheLimit() async throws {
        let (endpoint, server) = try await start()
        defer { server.stop() }
        let store = store(endpoint, bucket: "huge")
        let before = residentBytes()
        let refused = await #expect(throws: S3Error.self) {
            _ = try await onOwnThread { try store.ledgerEntry(deviceID: "watch", name: "IMG_3.jpg") }
        }
        #expect(refused?.kind == .network, "\(String(describing: refused))")
        #expect(residentBytes() - before < 100 << 20, "the answer was kept")
    }

    /// This process's resident memory now.
    private func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = status.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
