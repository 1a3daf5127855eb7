import AIBudsEmulator
import AIBudsNet
import AIBudsHTTPWire
import Foundation
import Testing

@Suite("Data plane server over real sockets")
struct DataPlaneServerTests {
    @Test func servesWholeFilesOnlyWithTheToken() throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(300_000)
        let file = try fixture.add("clip.mp4", content)
        let client = try RawHTTPClient(fixture.address)
        try client.send(RawHTTPClient.request(name: "clip.mp4", token: nil))
        let refused = try client.readResponse()
        #expect(refused.head.status == 401)
        #expect(refused.body.isEmpty)
        #expect(refused.head.headers["WWW-Authenticate"] == "Bearer")
        try client.send(RawHTTPClient.request(name: "clip.mp4", token: "nope"))
        #expect(try client.readResponse().head.status == 401)
        #expect(fixture.server.statistics.bodyBytesSent == 0)

        try client.send(RawHTTPClient.request(name: "clip.mp4", token: "tok3n"))
        let response = try client.readResponse()
        #expect(response.head.status == 200)
        #expect(response.body == content)
        #expect(response.head.headers["ETag"] == file.etag)
        #expect(response.head.headers["Accept-Ranges"] == "bytes")
        #expect(fixture.server.statistics.connections == 1)
    }

    @Test func rangesIfRangeAndHead() throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(10_000, seed: 2)
        let file = try fixture.add("a b/c.jpg", content)
        let client = try RawHTTPClient(fixture.address)
        let cases: [(String, Int, ArraySlice<UInt8>)] = [
            ("bytes=100-199", 206, content[100..<200]), ("bytes=9990-", 206, content[9990...]), ("bytes=-10", 206, content[9990...]),
            ("bytes=0-99999", 206, content[...]),
        ]
        for (range, status, expected) in cases {
            try client.send(RawHTTPClient.request(name: "a b/c.jpg", token: "tok3n", extra: ["Range: \(range)"]))
            let response = try client.readResponse()
            #expect(response.head.status == status, "\(range)")
            #expect(response.body == Array(expected), "\(range)")
        }
        try client.send(RawHTTPClient.request(name: "a b/c.jpg", token: "tok3n", extra: ["Range: bytes=10000-"]))
        let unsatisfiable = try client.readResponse()
        #expect(unsatisfiable.head.status == 416)
        #expect(unsatisfiable.head.headers["Content-Range"] == "bytes */10000")

        try client.send(RawHTTPClient.request(name: "a b/c.jpg", token: "tok3n", extra: ["Range: bytes=5000-", "If-Range: \(file.etag)"]))
        #expect(try client.readResponse().body == Array(content[5000...]))
        try client.send(RawHTTPClient.request(name: "a b/c.jpg", token: "tok3n", extra: ["Range: bytes=5000-", "If-Range: \"stale\""]))
        let stale = try client.readResponse()
        #expect(stale.head.status == 200)
        #expect(stale.body == content)

        try client.send(RawHTTPClient.request("HEAD", name: "a b/c.jpg", token: "tok3n"))
        let head = try client.readResponse(bodyExpected: false)
        #expect(head.head.status == 200)
        #expect(head.head.headers["Content-Length"] == "10000")
        // The HEAD sent no body: the next response on the connection parses cleanly.
        try client.send(RawHTTPClient.request(name: "missing", token: "tok3n"))
        #expect(try client.readResponse().head.status == 404)
        #expect(fixture.server.statistics.connections == 1)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let fixture = try DataPlaneFixture()
        try fixture.add("one", Array("first".utf8))
        try fixture.add("two", Array("second".utf8))
        let client = try RawHTTPClient(fixture.address)
        try client.send(RawHTTPClient.request(name: "one", token: "tok3n") + RawHTTPClient.request(name: "two", token: "tok3n"))
        #expect(try client.readResponse().body == Array("first".utf8))
        #expect(try client.readResponse().body == Array("second".utf8))
    }

    @Test func connectionCloseAndHTTP10CloseTheConnection() throws {
        let fixture = try DataPlaneFixture()
        try fixture.add("f", Array("data".utf8))
        for request in [
            RawHTTPClient.request(name: "f", token: "tok3n", extra: ["Connection: close"]),
            "GET /media/f HTTP/1.0\r\nAuthorization: Bearer tok3n\r\n\r\n",
        ] {
            let client = try RawHTTPClient(fixture.address)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.body == Array("data".utf8))
            #expect(response.head.headers["Connection"] == "close")
            #expect(try client.readToEnd().isEmpty)
        }
    }

    @Test(arguments: [
        ("GET /media/f HTTP/1.1\nHost: x\r\n\r\n", 400),
        ("GET /media/f HTTP/2.0\r\n\r\n", 505),
        ("GET /media/f HTTP/1.1\r\nX: \(String(repeating: "a", count: 17_000))\r\n\r\n", 431),
        ("GET /media/f HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        ("GET /media/f HTTP/1.1\r\nContent-Length: 999999\r\n\r\n", 413),
        ("GET /media/%zz HTTP/1.1\r\nAuthorization: Bearer tok3n\r\n\r\n", 400),
        ("DELETE /media/f HTTP/1.1\r\nAuthorization: Bearer tok3n\r\n\r\n", 405),
        ("GET /other HTTP/1.1\r\nAuthorization: Bearer tok3n\r\n\r\n", 404),
    ])
    func badRequestsGetAnErrorStatus(request: String, status: Int) throws {
        let fixture = try DataPlaneFixture()
        try fixture.add("f", Array("data".utf8))
        let client = try RawHTTPClient(fixture.address)
        try client.send(request)
        let response = try client.readResponse()
        #expect(response.head.status == status)
        #expect(response.body.isEmpty)
    }

    @Test func aSmallRequestBodyIsSkipped() throws {
        let fixture = try DataPlaneFixture()
        try fixture.add("f", Array("data".utf8))
        let client = try RawHTTPClient(fixture.address)
        try client.send("GET /media/f HTTP/1.1\r\nAuthorization: Bearer tok3n\r\nContent-Length: 5\r\n\r\nhello" + RawHTTPClient.request(name: "f", token: "tok3n"))
        #expect(try client.readResponse().body == Array("data".utf8))
        #expect(try client.readResponse().body == Array("data".utf8))
    }

    @Test func closeAtByteDropsTheConnectionAndAResumeSucceeds() throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(200_000, seed: 3)
        try fixture.add("f", content)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 123_456))
        let client = try RawHTTPClient(fixture.address)
        try client.send(RawHTTPClient.request(name: "f", token: "tok3n"))
        let received = try client.readToEnd()
        let headEnd = try #require(received.withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) })
        #expect(Array(received[headEnd...]) == Array(content[0..<123_456]))

        let resume = try RawHTTPClient(fixture.address)
        try resume.send(RawHTTPClient.request(name: "f", token: "tok3n", extra: ["Range: bytes=123456-"]))
        #expect(try resume.readResponse().body == Array(content[123_456...]))
    }

    @Test func injectedFailuresStallsAndSlowFirstBytes() throws {
        let fixture = try DataPlaneFixture()
        let content = DataPlaneFixture.bytes(50_000, seed: 4)
        try fixture.add("f", content)
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 1000, duration: .milliseconds(150)), firstByteDelay: .milliseconds(50), failNextRequests: 1))
        let client = try RawHTTPClient(fixture.address)
        try client.send(RawHTTPClient.request(name: "f", token: "tok3n"))
        #expect(try client.readResponse().head.status == 500)
        let start = ContinuousClock.now
        try client.send(RawHTTPClient.request(name: "f", token: "tok3n"))
        let response = try client.readResponse()
        #expect(response.body == content)
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }

    @Test func theWifiProfileShapesRateAndRoundTrip() throws {
        let fixture = try DataPlaneFixture(shaping: .wifi)
        let content = DataPlaneFixture.bytes(2_500_000, seed: 5)
        try fixture.add("f", content)
        let client = try RawHTTPClient(fixture.address)
        let start = ContinuousClock.now
        try client.send(RawHTTPClient.request(name: "f", token: "tok3n"))
        #expect(try client.readResponse().body == content)
        let elapsed = ContinuousClock.now - start
        // 2.5 MB at 25 MB/s is 100 ms (less the 5 ms of slack a token bucket allows), plus 5 ms.
        #expect(elapsed >= .milliseconds(95))
        #expect(elapsed < .seconds(2))

        let roundTripStart = ContinuousClock.now
        try client.send(RawHTTPClient.request("HEAD", name: "f", token: "tok3n"))
        _ = try client.readResponse(bodyExpected: false)
        #expect(ContinuousClock.now - roundTripStart >= .milliseconds(5))
    }

    @Test func tokenRotationAndStopCloseTheOldSession() throws {
        let fixture = try DataPlaneFixture()
        try fixture.add("f", Array("data".utf8))
        let client = try RawHTTPClient(fixture.address)
        try client.send(RawHTTPClient.request(name: "f", token: "tok3n"))
        #expect(try client.readResponse().head.status == 200)
        fixture.server.setToken("next")
        try client.send(RawHTTPClient.request(name: "f", token: "tok3n"))
        #expect(try client.readResponse().head.status == 401)
        let start = ContinuousClock.now
        fixture.server.stop()
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(try client.readToEnd().isEmpty)
        #expect(fixture.server.baseURL == nil)
        #expect { try TCPConnection.connect(to: fixture.address, timeout: .seconds(1)) } throws: { ($0 as? NetError)?.code == .connectFailed }
    }

    @Test func hostileAndEmptyFilesAreServed() throws {
        let fixture = try DataPlaneFixture()
        let names = ["../../etc/passwd", "nul\u{0}byte", "日本語.mp4", "%2F", "sp ace?#"]
        for (index, name) in names.enumerated() { try fixture.add(name, Array("content \(index)".utf8)) }
        try fixture.add("empty", [])
        let client = try RawHTTPClient(fixture.address)
        for (index, name) in names.enumerated() {
            try client.send(RawHTTPClient.request(name: name, token: "tok3n"))
            #expect(try client.readResponse().body == Array("content \(index)".utf8), "\(name)")
        }
        try client.send(RawHTTPClient.request(name: "empty", token: "tok3n"))
        let empty = try client.readResponse()
        #expect(empty.head.status == 200 && empty.body.isEmpty)
    }

    /// A connection takes a serving slot with its first authorized request (an idle or
    /// unauthorized one waits in the pending pool, see DataPlaneSlowClientTests), so it is that
    /// request that gets the `503`.
    @Test func authorizedConnectionsBeyondTheLimitGet503() throws {
        let catalog = DictionaryDataPlaneCatalog()
        let server = DataPlaneServer(catalog: catalog, token: "t", maxConnections: 1)
        let url = try server.start()
        defer { server.stop() }
        let address = try SocketAddress(parsing: String(url.dropFirst("http://".count)))
        let first = try RawHTTPClient(address)
        try first.send(RawHTTPClient.request(name: "x", token: "t"))
        #expect(try first.readResponse().head.status == 404)
        let second = try RawHTTPClient(address)
        try second.send(RawHTTPClient.request(name: "x", token: "wrong"))
        #expect(try second.readResponse().head.status == 401)
        try second.send(RawHTTPClient.request(name: "x", token: "t"))
        #expect(try second.readResponse().head.status == 503)
        #expect(try second.readToEnd().isEmpty)
    }

    @Test func aDirectoryCatalogServesItsFilesOnly() throws {
        let fixture = try DataPlaneFixture()
        let folder = fixture.directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("abc".utf8).write(to: folder.appendingPathComponent("a.jpg"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let catalog = DirectoryDataPlaneCatalog(directory: folder.path)
        let first = try #require(catalog.file(named: "a.jpg"))
        #expect(first.size == 3)
        for name in ["", ".", "..", "sub", "../served/a.jpg", "sub/x", "missing"] { #expect(catalog.file(named: name) == nil, "\(name)") }
        try Data("abcd".utf8).write(to: folder.appendingPathComponent("a.jpg"))
        // A later modification time, whatever the file system's timestamp granularity.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: folder.appendingPathComponent("a.jpg").path)
        #expect(catalog.file(named: "a.jpg")?.etag != first.etag)
    }
}
