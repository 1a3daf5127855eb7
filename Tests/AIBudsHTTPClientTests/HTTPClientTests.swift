import AIBudsHTTPClient
import AIBudsTestKit
import Foundation
import Testing

/// The one HTTP client against a hostile server on loopback (Python's http.server, started by the
/// test): answers far larger than allowed, a peer that stops sending, a port where nothing listens.
@Suite(.timeLimit(.minutes(2))) struct HTTPClientTests {
    static let handler = #"""
    if self.path == "/huge":
        self.send_response(200); self.send_header("Content-Length", str(1 << 30)); self.end_headers()
        chunk = b"\0" * (1 << 20)
        for _ in range(1024): self.wfile.write(chunk)
    elif self.path == "/stall":
        self.send_response(200); self.send_header("Content-Length", "100"); self.end_headers()
        self.wfile.write(b"x" * 10); self.wfile.flush(); time.sleep(30)
    elif self.path == "/think":
        time.sleep(3)
        self.send_response(200); self.send_header("Content-Length", "4"); self.end_headers(); self.wfile.write(b"done")
    elif self.path == "/headers-then-think":
        self.send_response(200); self.send_header("Content-Length", "4"); self.end_headers(); self.wfile.flush()
        time.sleep(3)
        self.wfile.write(b"done")
    else:
        reply = b"%s %d %s" % (self.command.encode(), len(body), (self.headers.get("X-Test") or "").encode())
        self.send_response(201); self.send_header("Content-Length", str(len(reply))); self.send_header("X-Echo", "yes"); self.end_headers()
        self.wfile.write(reply)
    """#

    /// Runs a blocking request on a thread of its own, never on one of Swift concurrency's few.
    private func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await onOwnThread(body)
    }

    private func start() async throws -> (base: String, server: ScriptedHTTPServer) {
        let server = try await ScriptedHTTPServer.start(Self.handler)
        return (server.base, server)
    }

    @Test func requestsCarryTheirBodyAndHeadersAndAnswersTheirs() async throws {
        let (base, server) = try await start()
        defer { server.stop() }
        let client = HTTPClient()
        for _ in 0..<3 {  // a kept handle serves the next request
            let (response, body) = try await offPool {
                try client.fetch(
                    HTTPClientRequest("PUT", url: base + "/echo", headers: ["X-Test: hello"], body: .bytes(Data(repeating: 7, count: 5000))),
                    limit: 1024)
            }
            #expect(response.status == 201 && response.headers["x-echo"] == "yes")
            #expect(String(decoding: body, as: UTF8.self) == "PUT 5000 hello")
        }
    }

    @Test func anAnswerOverTheLimitIsRefusedAsItGoesOver() async throws {
        let (base, server) = try await start()
        defer { server.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await offPool { try HTTPClient().fetch(HTTPClientRequest("GET", url: base + "/huge"), limit: 4 << 20) }
        }
        #expect(error?.code == .refused && error?.message.contains("larger than") == true, "\(String(describing: error))")
        #expect(clock.now - started < .seconds(10), "refused at 4 MiB, not read to 1 GiB")
    }

    @Test func aStalledAnswerIsATimeoutAndNothingListeningIsUnreachable() async throws {
        let (base, server) = try await start()
        defer { server.stop() }
        let stalled = await #expect(throws: HTTPClientError.self) {
            _ = try await offPool { try HTTPClient().fetch(HTTPClientRequest("GET", url: base + "/stall", stallTimeout: .seconds(1)), limit: 1024) }
        }
        #expect(stalled?.code == .timeout, "\(String(describing: stalled))")
        let nobody = await #expect(throws: HTTPClientError.self) {
            _ = try await offPool { try HTTPClient().fetch(HTTPClientRequest("GET", url: "http://127.0.0.1:9/"), limit: 1024) }
        }
        #expect(nobody?.code == .unreachable, "\(String(describing: nobody))")
    }

    /// A server that works on the request before it answers (a model transcribing, a queue) is
    /// given the first-byte deadline, not the stall one, until the first byte of the answer's body:
    /// a `100 Continue` to a large upload, or headers sent before the work, do not end the wait.
    /// Once the body flows, a pause is a stall.
    @Test func theWaitForTheFirstByteHasItsOwnDeadline() async throws {
        let (base, server) = try await start()
        defer { server.stop() }
        let small = Data("audio".utf8), large = Data(repeating: 7, count: 2 << 20)  // libcurl asks 100 Continue for > 1 MiB
        for (path, body) in [("/think", Data()), ("/think", small), ("/think", large), ("/headers-then-think", Data())] {
            let method = body.isEmpty ? "GET" : "POST"
            let (response, answer) = try await offPool {
                try HTTPClient().fetch(
                    HTTPClientRequest(method, url: base + path, body: body.isEmpty ? .none : .bytes(body),
                                      stallTimeout: .seconds(1), firstByteTimeout: .seconds(20)),
                    limit: 1024)
            }
            #expect(response.status == 200 && answer == Data("done".utf8), "\(method) \(path) with \(body.count) bytes")
        }
        let impatient = await #expect(throws: HTTPClientError.self) {
            _ = try await offPool { try HTTPClient().fetch(HTTPClientRequest("GET", url: base + "/think", stallTimeout: .seconds(1)), limit: 1024) }
        }
        #expect(impatient?.code == .timeout && impatient?.message.contains("no answer within 1") == true, "\(String(describing: impatient))")
        let stalled = await #expect(throws: HTTPClientError.self) {
            _ = try await offPool {
                try HTTPClient().fetch(HTTPClientRequest("GET", url: base + "/stall", stallTimeout: .seconds(1), firstByteTimeout: .seconds(20)), limit: 1024)
            }
        }
        #expect(stalled?.code == .timeout && stalled?.message.contains("no byte moved for 1") == true, "\(String(describing: stalled))")
    }

    @Test func cancellingStopsTheTransfer() async throws {
        let (base, server) = try await start()
        defer { server.stop() }
        let error = await #expect(throws: HTTPClientError.self) {
            _ = try await offPool { try HTTPClient().perform(HTTPClientRequest("GET", url: base + "/stall"), cancelled: { true }) { _ in nil } }
        }
        #expect(error?.code == .canceled, "\(String(describing: error))")
    }
}
