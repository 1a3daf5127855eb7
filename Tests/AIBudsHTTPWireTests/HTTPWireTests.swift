import AIBudsHTTPWire
import Testing

@Suite("HTTP/1.1 wire: heads, ranges, percent-encoding, tokens, URLs")
struct HTTPWireTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func requestHeadRoundTrips() throws {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1:8080")
        headers.add(name: "Range", value: "bytes=10-")
        let head = HTTPRequestHead(method: "GET", target: "/media/a%20b", headers: headers)
        let wire = head.serialized()
        #expect(String(decoding: wire, as: UTF8.self) == "GET /media/a%20b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nRange: bytes=10-\r\n\r\n")
        let parsed = try HTTPRequestHead(parsing: wire)
        #expect(parsed == head)
        #expect(parsed.headers["range"] == "bytes=10-")
        #expect(parsed.keepAlive)
    }

    @Test func responseHeadParsesStatusAndHeaders() throws {
        let head = try HTTPResponseHead(parsing: bytes("HTTP/1.1 206 Partial Content\r\nContent-Length:  5 \r\nConnection: close\r\n\r\n"))
        #expect(head.status == 206)
        #expect(head.reason == "Partial Content")
        #expect(try head.headers.contentLength() == 5)
        #expect(!head.keepAlive)
        #expect(try HTTPResponseHead(parsing: head.serialized()) == head)
    }

    @Test func keepAliveFollowsVersionAndConnectionHeader() throws {
        #expect(try !HTTPRequestHead(parsing: bytes("GET / HTTP/1.0\r\n\r\n")).keepAlive)
        #expect(try HTTPRequestHead(parsing: bytes("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")).keepAlive)
        #expect(try !HTTPRequestHead(parsing: bytes("GET / HTTP/1.1\r\nConnection: foo, close\r\n\r\n")).keepAlive)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\nHost: x\r\n\r\n", HTTPError.Code.malformedHeader),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nHost: a\u{01}b\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nNoColon\r\n\r\n", .malformedHeader),
        ("GET  / HTTP/1.1\r\n\r\n", .malformedStartLine),
        ("GET /\r\n\r\n", .malformedStartLine),
        ("G(T / HTTP/1.1\r\n\r\n", .malformedStartLine),
        ("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion),
        ("GET / HTTX/1.1\r\n\r\n", .malformedStartLine),
    ])
    func malformedRequestHeadsAreRejected(text: String, code: HTTPError.Code) {
        #expect {
            try HTTPRequestHead(parsing: Array(text.utf8))
        } throws: { ($0 as? HTTPError)?.code == code }
    }

    @Test func statusLinesParseStrictly() throws {
        let ok = try HTTPResponseHead(parsing: bytes("HTTP/1.1 206 Partial  Content\r\nConnection: x ,, Close\r\n\r\n"))
        #expect(ok.status == 206 && ok.reason == "Partial  Content" && ok.version == .http1_1 && !ok.keepAlive)
        #expect(try HTTPResponseHead(parsing: bytes("HTTP/1.0 200\r\n\r\n")).reason == "OK")
        #expect(try HTTPResponseHead(parsing: Array("HTTP/1.1 404 Not Found \u{E9}\r\n\r\n".utf8)).status == 404)
        for bad in ["HTTP/1.1 099 Low\r\n\r\n", "HTTP/1.1 20 Short\r\n\r\n", "HTTP/1.1 2x0 Bad\r\n\r\n", "HTTP/1.1  200 OK\r\n\r\n",
                    "HTTP/1.12 200 OK\r\n\r\n", "HTTP/1.1\r\n\r\n"] {
            #expect(throws: HTTPError.self, "\(bad)") { try HTTPResponseHead(parsing: self.bytes(bad)) }
        }
        #expect { try HTTPRequestHead(parsing: self.bytes("GET / HTTP/1.1 extra\r\n\r\n")) } throws: { ($0 as? HTTPError)?.code == .malformedStartLine }
        // Non-ASCII text goes out as ISO-8859-1, or `?` beyond it.
        let head = HTTPRequestHead(method: "GET", target: "/", headers: ["X-Name": "caf\u{E9} \u{1F600}"])
        #expect(head.serialized() == Array("GET / HTTP/1.1\r\nX-Name: caf".utf8) + [0xE9, 0x20, 0x3F] + Array("\r\n\r\n".utf8))
    }

    /// Found by the `http` fuzz target: a reason phrase with NULs parsed, and serializing the head
    /// (NUL written as `?`) gave another head. RFC 9112 allows only HTAB, SP, VCHAR and obs-text.
    @Test func controlCharactersInAReasonPhraseAreRefused() throws {
        let found = Array("HTTP/1.1 206 Part".utf8) + [UInt8](repeating: 0, count: 8)
            + Array("ontent-Range: bytes 0-9/100\r\nETag: \"x\"\r\n\r\n".utf8)
        #expect { try HTTPResponseHead(parsing: found) } throws: { ($0 as? HTTPError)?.code == .malformedStartLine }
        for control in [0x00, 0x01, 0x1B, 0x7F] as [UInt8] {
            let line = Array("HTTP/1.1 200 O".utf8) + [control] + Array("K\r\n\r\n".utf8)
            #expect(throws: HTTPError.self, "\(control)") { try HTTPResponseHead(parsing: line) }
        }
        let tab = try HTTPResponseHead(parsing: Array("HTTP/1.1 200 O\tK \u{E9}\r\n\r\n".utf8))
        #expect(try HTTPResponseHead(parsing: tab.serialized()) == tab)
    }

    @Test func headLimitsAreEnforced() throws {
        var many = "GET / HTTP/1.1\r\n"
        for index in 0..<101 { many += "X-\(index): v\r\n" }
        many += "\r\n"
        #expect { try HTTPRequestHead(parsing: Array(many.utf8)) } throws: { ($0 as? HTTPError)?.code == .tooManyHeaders }

        let huge = Array("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 20_000))".utf8)
        #expect {
            try huge.withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) }
        } throws: { ($0 as? HTTPError)?.code == .headTooLarge }
    }

    @Test func headLengthFindsTheBlankLineOrAsksForMore() throws {
        let partial = bytes("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n")
        #expect(try partial.withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) } == nil)
        let whole = bytes("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc")
        #expect(try whole.withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) } == whole.count - 3)
        #expect {
            try self.bytes("HTTP/1.1 200 OK\n\n").withUnsafeBytes { try HTTPHeadParser.headLength(in: $0) }
        } throws: { ($0 as? HTTPError)?.code == .malformedHeader }
    }

    @Test func contentLengthMustBeOneNumber() throws {
        #expect(try (["Content-Length": "42", "content-length": "42"] as HTTPHeaders).contentLength() == 42)
        #expect(try (["CONTENT-LENGTH": " 7 ,\t7 "] as HTTPHeaders).contentLength() == 7)
        #expect(try HTTPHeaders().contentLength() == nil)
        let bad: [[(String, String)]] = [
            [("Content-Length", "4a")], [("Content-Length", "-1")], [("Content-Length", "1"), ("Content-length", "2")],
            [("Content-Length", "1, 2")], [("Content-Length", "5,")], [("Content-Length", "")], [("Content-Length", "1 2")],
            [("Content-Length", "1234567890123456789")],
        ]
        for fields in bad {
            var headers = HTTPHeaders()
            for (name, value) in fields { headers.add(name: name, value: value) }
            #expect { try headers.contentLength() } throws: { ($0 as? HTTPError)?.code == .invalidContentLength }
        }
    }

    @Test func rangesParseAndResolve() throws {
        #expect(try HTTPByteRange(parsing: "bytes=0-99") == .closed(first: 0, last: 99))
        #expect(try HTTPByteRange(parsing: "bytes=100-") == .from(first: 100))
        #expect(try HTTPByteRange(parsing: "bytes=-5") == .suffix(length: 5))
        #expect(HTTPByteRange.closed(first: 0, last: 99).resolve(size: 50) == 0..<50)
        #expect(HTTPByteRange.closed(first: 50, last: 60).resolve(size: 50) == nil)
        #expect(HTTPByteRange.from(first: 49).resolve(size: 50) == 49..<50)
        #expect(HTTPByteRange.suffix(length: 500).resolve(size: 50) == 0..<50)
        #expect(HTTPByteRange.suffix(length: 0).resolve(size: 50) == nil)
        #expect(HTTPByteRange.from(first: 0).resolve(size: 0) == nil)
        for bad in ["bytes=5-1", "bytes=1-2,4-5", "items=1-2", "bytes=-", "bytes=a-b", "bytes=99999999999999999999-"] {
            #expect { try HTTPByteRange(parsing: bad) } throws: { ($0 as? HTTPError)?.code == .invalidRange }
        }
    }

    @Test func contentRangesParseAndPrint() throws {
        #expect(try HTTPContentRange(parsing: "bytes 0-99/1000") == .bytes(first: 0, last: 99, size: 1000))
        #expect(try HTTPContentRange(parsing: "bytes 0-99/*") == .bytes(first: 0, last: 99, size: nil))
        #expect(try HTTPContentRange(parsing: "bytes */1000") == .unsatisfied(size: 1000))
        #expect(HTTPContentRange(range: 10..<20, size: 30).headerValue == "bytes 10-19/30")
        for bad in ["bytes 5-1/10", "bytes 0-10/10", "0-1/2", "bytes 0-1", "bytes */x"] {
            #expect { try HTTPContentRange(parsing: bad) } throws: { ($0 as? HTTPError)?.code == .invalidContentRange }
        }
    }

    @Test func percentEncodingEncodesEveryReservedByte() throws {
        #expect(PercentEncoding.encodeUnreserved("a-b_c.d~e") == "a-b_c.d~e")
        #expect(PercentEncoding.encodeUnreserved("../etc/passwd") == "..%2Fetc%2Fpasswd")
        #expect(PercentEncoding.encodeUnreserved("a b%?#é") == "a%20b%25%3F%23%C3%A9")
        for name in ["../x", "/etc/x", "a\u{0}b\u{1}c", "e\u{301}", "日本語 ファイル.mp4", String(repeating: "%", count: 300)] {
            #expect(PercentEncoding.decode(PercentEncoding.encodeUnreserved(name)) == name)
        }
        for bad in ["%", "%2", "%zz", "%C3%28"] {
            #expect(PercentEncoding.decode(bad) == nil)
            #expect { try HTTPMediaPath.deviceName(fromTarget: "/media/" + bad) } throws: {
                ($0 as? HTTPError)?.code == .invalidPercentEncoding
            }
        }
    }

    @Test func mediaPathsRoundTrip() throws {
        let target = HTTPMediaPath.target(forDeviceName: "a/b c.jpg")
        #expect(target == "/media/a%2Fb%20c.jpg")
        #expect(try HTTPMediaPath.deviceName(fromTarget: target) == "a/b c.jpg")
        #expect(try HTTPMediaPath.deviceName(fromTarget: target + "?x=1") == "a/b c.jpg")
        #expect(try HTTPMediaPath.deviceName(fromTarget: "/other/x") == nil)
        #expect(try HTTPMediaPath.deviceName(fromTarget: "/media/") == nil)
    }

    @Test func bearerTokensAreValidatedAndComparedExactly() throws {
        #expect(try HTTPAuthorization.bearerValue(token: "abc-._~+/==") == "Bearer abc-._~+/==")
        for bad in ["", "a b", "a\r\nX: y", "=abc", "a=b", String(repeating: "a", count: 1025)] {
            #expect { try HTTPAuthorization.bearerValue(token: bad) } throws: { ($0 as? HTTPError)?.code == .invalidToken }
        }
        #expect(HTTPAuthorization.authorizes(headerValue: "Bearer s3cret", token: "s3cret"))
        #expect(HTTPAuthorization.authorizes(headerValue: "bearer s3cret", token: "s3cret"))
        #expect(!HTTPAuthorization.authorizes(headerValue: "Bearer s3cres", token: "s3cret"))
        #expect(!HTTPAuthorization.authorizes(headerValue: "Bearer s3cret2", token: "s3cret"))
        #expect(!HTTPAuthorization.authorizes(headerValue: "Basic s3cret", token: "s3cret"))
        #expect(!HTTPAuthorization.authorizes(headerValue: nil, token: "s3cret"))
    }

    @Test func urlsParseStrictly() throws {
        let url = try HTTPURL(parsing: "http://127.0.0.1:8080/media/a%20b")
        #expect(url.host == "127.0.0.1" && url.port == 8080 && url.path == "/media/a%20b")
        #expect(url.hostHeader == "127.0.0.1:8080")
        let v6 = try HTTPURL(parsing: "http://[::1]:81")
        #expect(v6.host == "::1" && v6.port == 81 && v6.path == "/")
        #expect(try HTTPURL(parsing: "HTTP://h/x").port == 80)
        let query = try HTTPURL(parsing: "hTtP://h:0080?x=1")
        #expect(query.host == "h" && query.port == 80 && query.path == "/?x=1")
        for bad in ["https://h/", "http://", "http://h:0/", "http://h:99999/", "http://u@h/", "http://h/a b", "http://h/#f", "ftp://h",
                    "http://h:/", "http://[::1/", "http://[::1]x/", "http://h/\u{E9}", "http:/h"] {
            #expect { try HTTPURL(parsing: bad) } throws: { ($0 as? HTTPError)?.code == .invalidURL }
        }
    }

    @Test func serializingNeverInjectsLines() {
        var headers = HTTPHeaders()
        headers.add(name: "X", value: "a\r\nInjected: yes")
        let wire = String(decoding: HTTPRequestHead(method: "GET", target: "/", headers: headers).serialized(), as: UTF8.self)
        #expect(wire == "GET / HTTP/1.1\r\nX: a??Injected: yes\r\n\r\n")
    }
}
