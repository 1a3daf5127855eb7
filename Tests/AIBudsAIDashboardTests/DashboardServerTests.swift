import AIBudsAIDashboard
import AIBudsLog
import AIBudsNet
import AIBudsTestKit
import Foundation
import Testing

/// Text a hostile device or AI provider might report: markup, script, quotes, control characters.
let hostileStrings = [
    "<script>window.__pwned = 1</script>",
    "\"><img src=x onerror=\"window.__pwned=2\">",
    "'; window.__pwned = 3; //",
    "</td></tr><svg onload=window.__pwned=4>",
    "javascript:window.__pwned=5",
    "line\nbreak\u{0} nul \u{202E} rtl",
]

@Suite(.timeLimit(.minutes(2))) struct DashboardServerTests {
    func start() throws -> AIBudsAIDashboard {
        try AIBudsAIDashboard.start(directory: try makeTemporaryDirectory())
    }

    func get(_ dashboard: AIBudsAIDashboard, _ target: String, headers: [String: String] = [:]) async throws -> PlainResponse {
        let address = dashboard.address
        return try await onOwnThread { try PlainHTTP.request("GET", address, target, headers: headers) }
    }

    @Test func listensOnLoopbackByDefault() throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        #expect(dashboard.address.host == "127.0.0.1")
        #expect(dashboard.address.port != 0)
        #expect(dashboard.url.hasPrefix("http://127.0.0.1:\(dashboard.address.port)/?token="))
        #expect(dashboard.token.count >= 43)
        // Two dashboards get different tokens.
        let other = try start()
        defer { other.stop() }
        #expect(other.token != dashboard.token)
    }

    @Test func everyPathNeedsTheToken() async throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        let session = try dashboard.recorder.start(kind: .aiRecording, device: AIRecordDevice(identifier: "d", name: "d"))
        session.audio(tone(seconds: 0.1))
        for path in ["/", "/app.js", "/api/records", "/api/records/\(session.id)", "/api/records/\(session.id)/audio.wav", "/api/live", "/nothing"] {
            let response = try await get(dashboard, path)
            #expect(response.status == 401, "\(path)")
            #expect(!response.text.contains("d\""), "\(path) leaked a record")
            let wrong = try await get(dashboard, path, headers: ["Authorization": "Bearer not-the-token"])
            #expect(wrong.status == 401, "\(path)")
            let wrongQuery = try await get(dashboard, path + "?token=" + String(dashboard.token.dropLast()))
            #expect(wrongQuery.status == 401, "\(path)")
        }
        let bearer = try await get(dashboard, "/api/records", headers: ["Authorization": "Bearer \(dashboard.token)"])
        #expect(bearer.status == 200)
        #expect((try bearer.json() as? [Any])?.count == 1)
    }

    /// A flood of requests without the token costs a counter, not a log line each with its path
    /// (2,000 of them, with 16 KB paths, once added 34 MB to the log store).
    @Test func refusalsAreLoggedAtMostOnceInTenSeconds() async throws {
        let recorder = RecordingLogService(minimumLevel: .trace)
        let dashboard = try AIBudsAIDashboard.start(directory: try makeTemporaryDirectory(), logger: recorder)
        defer { dashboard.stop() }
        let longPath = "/" + String(repeating: "a", count: 8_000)
        for _ in 0..<200 {
            let response = try await get(dashboard, longPath)
            #expect(response.status == 401)
        }
        let refusals = recorder.records.filter { $0.message.contains("refused") }
        #expect(refusals.count == 1, "\(refusals.count) refusal lines")
        #expect(recorder.records.allSatisfy { $0.message.count <= ThrottledLog.maximumMessageLength + 60 })
        #expect(!recorder.records.contains { $0.message.contains("aaaaaaaa") }, "the path is not logged")
    }

    @Test func theTokenInTheURLBecomesACookie() async throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        let first = try await get(dashboard, "/?token=\(dashboard.token)")
        #expect(first.status == 303)
        #expect(first.headers["location"] == "/")
        let cookie = try #require(first.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let pair = String(cookie.split(separator: ";")[0])
        let page = try await get(dashboard, "/", headers: ["Cookie": pair])
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(page.headers["referrer-policy"] == "no-referrer")
        #expect(page.text.contains("<script src=\"/app.js\" defer></script>"))
        // No inline script anywhere: the policy would refuse it, and there is none to refuse.
        #expect(!page.text.contains("<script>"))
        let script = try await get(dashboard, "/app.js", headers: ["Cookie": pair])
        #expect(script.status == 200)
        #expect(!script.text.contains("innerHTML"))
        #expect(!script.text.contains("insertAdjacentHTML"))
    }

    @Test func hostileTextComesBackAsInertJSON() async throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        let device = AIRecordDevice(identifier: hostileStrings[4], name: hostileStrings[0], details: [hostileStrings[3]: hostileStrings[1]])
        let session = try dashboard.recorder.start(kind: .aiConversation, device: device, parameters: [hostileStrings[2]: hostileStrings[5]])
        for text in hostileStrings { session.transcript(text) }
        let response = try await get(dashboard, "/api/records/\(session.id)", headers: ["Authorization": "Bearer \(dashboard.token)"])
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["x-content-type-options"] == "nosniff")
        let detail = try JSONDecoder.dashboard.decode(AIRecordDetail.self, from: response.body)
        #expect(detail.device == device)
        #expect(detail.timeline.map(\.text) == hostileStrings)
    }

    @Test func audioIsServedWithRanges() async throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        let session = try dashboard.recorder.start(kind: .aiRecording, device: AIRecordDevice(identifier: "d", name: "d"))
        session.audio(tone(seconds: 0.5))
        let auth = ["Authorization": "Bearer \(dashboard.token)"]
        let whole = try await get(dashboard, "/api/records/\(session.id)/audio.wav", headers: auth)
        #expect(whole.status == 200)
        #expect(whole.body.count == 44 + 16000)
        #expect(whole.headers["content-type"] == "audio/wav")
        let part = try await get(dashboard, "/api/records/\(session.id)/audio.wav", headers: auth.merging(["Range": "bytes=44-143"]) { $1 })
        #expect(part.status == 206)
        #expect(part.body == whole.body[44..<144])
        #expect(part.headers["content-range"] == "bytes 44-143/16044")
        let beyond = try await get(dashboard, "/api/records/\(session.id)/audio.wav", headers: auth.merging(["Range": "bytes=99999-"]) { $1 })
        #expect(beyond.status == 416)
        let peaks = try #require(try (await get(dashboard, "/api/records/\(session.id)/waveform?buckets=10", headers: auth)).json() as? [Double])
        #expect(peaks.count == 10)
        #expect(peaks.allSatisfy { $0 > 0.45 && $0 < 0.51 })
        let missing = try await get(dashboard, "/api/records/999/audio.wav", headers: auth)
        #expect(missing.status == 404)
        let badFilter = try await get(dashboard, "/api/records?kind=%3Cscript%3E", headers: auth)
        #expect(badFilter.status == 400)
    }

    /// A web page that rebinds a name of its own to 127.0.0.1 sends that name as `Host`: refused
    /// with 421 even with the token (which such a page could not have anyway).
    @Test func aForeignHostIsRefused() async throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        let auth = ["Authorization": "Bearer \(dashboard.token)"]
        let foreign = try await get(dashboard, "/api/records", headers: auth.merging(["Host": "evil.example:\(dashboard.address.port)"]) { $1 })
        #expect(foreign.status == 421)
        let local = try await get(dashboard, "/api/records", headers: auth.merging(["Host": "localhost:\(dashboard.address.port)"]) { $1 })
        #expect(local.status == 200)
    }

    @Test func liveUpdatesArriveAsServerSentEvents() async throws {
        let dashboard = try start()
        defer { dashboard.stop() }
        let connection = try TCPConnection.connect(to: dashboard.address, timeout: .seconds(10))
        defer { connection.close() }
        let request = "GET /api/live HTTP/1.1\r\nHost: \(dashboard.address)\r\nAuthorization: Bearer \(dashboard.token)\r\n\r\n"
        try connection.write(Array(request.utf8), timeout: .seconds(10))
        let received = LockedText()
        let reader = Thread {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
            defer { buffer.deallocate() }
            while let count = try? connection.read(into: buffer, timeout: .seconds(60)), count > 0 {
                received.append(String(decoding: buffer[0..<count], as: UTF8.self))
            }
        }
        reader.start()
        try await eventually("the stream's head") { received.text.contains(": connected") }
        #expect(received.text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"))
        let session = try dashboard.recorder.start(kind: .simultaneousInterpretation, device: AIRecordDevice(identifier: "d", name: "d"))
        session.reply("hola")
        try await eventually("the created and entry events") {
            received.text.contains("event: change\ndata: {\"change\":\"created\",\"id\":\(session.id)}")
                && received.text.contains("{\"change\":\"entry\",\"id\":\(session.id)}")
        }
        // A record made by another process (another connection to the same files) is announced too.
        let elsewhere = try AIRecordStore(directory: dashboard.store.directory)
        _ = try AIRecorder(store: elsewhere).start(kind: .aiRecording, device: AIRecordDevice(identifier: "e", name: "e"))
        try await eventually("the external change") { received.text.contains("{\"change\":\"external\",\"id\":0}") }
        connection.shutdown()
    }
}

final class LockedText: @unchecked Sendable {
    private var value = ""
    private let lock = NSLock()
    func append(_ text: String) { lock.withLock { value += text } }
    var text: String { lock.withLock { value } }
}

extension JSONDecoder {
    /// Decodes the dashboard's JSON (ISO 8601 dates).
    static var dashboard: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
