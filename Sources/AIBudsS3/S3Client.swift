import AIBudsDigest
import AIBudsSync
import CCurl
import Foundation

/// One answer of the store.
public struct S3Response: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The headers, names in lower case.
    public var headers: [String: String]
    /// The body (an error document for error statuses), empty for `HEAD`.
    public var body: Data
}

/// A client of an S3-compatible object store: each request is made by libcurl and signed by its
/// built-in AWS Signature Version 4 (`CURLOPT_AWS_SIGV4`). The signature covers the body's SHA-256
/// (`x-amz-content-sha256`) unless the caller sends it unsigned (``PayloadHash/unsigned``, for
/// parts that carry a checksum the store verifies instead: not every store checks the signed
/// hash; SeaweedFS accepts a wrong one, while it refuses a wrong `x-amz-checksum-*`). Thread-safe: each
/// request takes a libcurl handle no other request uses meanwhile; handles are kept between
/// requests (up to `keptHandles`) with their connections, so a station's hundreds of small
/// requests (heads, states, ledger entries) do not each connect anew.
public final class S3Client: Sendable {
    /// The store and the credentials.
    public let settings: S3Settings

    /// What a request's `x-amz-content-sha256` says of its body.
    public enum PayloadHash: Sendable {
        /// The body's SHA-256, known already (it is then not computed again).
        case sha256([UInt8])
        /// `UNSIGNED-PAYLOAD`: the body is not part of the signature (a checksum header guards it).
        case unsigned
    }
    /// Handles with their live connections, waiting for the next request.
    private let idle = Locked<[CurlHandle]>([])
    /// Requests sent so far (for tests that count them).
    let requestsSent = Locked(0)
    private static let keptHandles = 16

    /// Creates a client of the store that `settings` describe.
    public init(settings: S3Settings) {
        self.settings = settings
    }

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }

    /// A handle for one request: a kept one (its options reset, its connections kept), or a new one.
    private func takeHandle() -> CurlHandle? {
        if let kept = idle.withLock({ $0.popLast() }) { return kept }
        return curl_easy_init().map(CurlHandle.init)
    }

    /// Keeps a handle after a request that got an answer; one that failed is closed.
    private func giveBack(_ handle: CurlHandle, reusable: Bool) {
        curl_easy_reset(handle.pointer)
        let kept = reusable && idle.withLock { idle in
            guard idle.count < Self.keptHandles else { return false }
            idle.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle.pointer) }
    }

    /// The URL of `key` in `bucket` (path-style or virtual-hosted), with `query` (already encoded).
    public func url(bucket: String, key: String, query: String = "") -> String {
        var base = settings.endpoint.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let path = "/" + Self.encodeKey(key)
        let withBucket: String
        if settings.pathStyle {
            withBucket = base + "/" + bucket + (key.isEmpty ? "" : path)
        } else {
            let scheme = settings.endpoint.scheme ?? "https"
            withBucket = base.replacingOccurrences(of: "\(scheme)://", with: "\(scheme)://\(bucket).") + path
        }
        return query.isEmpty ? withBucket : withBucket + "?" + query
    }

    /// Sends one request and returns the answer, whatever its status. `query` must list its
    /// parameters sorted by name, as SigV4 signs them (libcurl signs the query as given).
    ///
    /// `payload` says what `x-amz-content-sha256` holds; nil: the body's SHA-256, computed here.
    ///
    /// - Throws: ``S3Error`` (`.network`) when no answer came.
    public func send(
        _ method: String, bucket: String, key: String, query: String = "", headers: [String: String] = [:], body: Data = Data(),
        payload: PayloadHash? = nil
    ) throws -> S3Response {
        requestsSent.withLock { $0 += 1 }
        guard let kept = takeHandle() else { throw S3Error(.network, "libcurl could not make a handle") }
        let handle = kept.pointer
        var answered = false
        defer { giveBack(kept, reusable: answered) }
        let target = url(bucket: bucket, key: key, query: query)
        var lines = headers.map { "\($0.key): \($0.value)" }
        switch payload {
        case .unsigned: lines.append("x-amz-content-sha256: UNSIGNED-PAYLOAD")
        case .sha256(let digest): lines.append("x-amz-content-sha256: \(digest.hexString)")
        case nil: lines.append("x-amz-content-sha256: \(SHA256.hash(body).hexString)")
        }
        if let token = settings.sessionToken { lines.append("x-amz-security-token: \(token)") }
        // An explicit type (libcurl would send a form's); an empty header to remove one would be
        // signed but not sent, which the store rejects.
        if headers.keys.contains(where: { $0.lowercased() == "content-type" }) == false, method == "PUT" || method == "POST" {
            lines.append("Content-Type: application/octet-stream")
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        let sink = ResponseSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let status: CURLcode = target.withCString { urlText in
            "aws:amz:\(settings.region):s3".withCString { provider in
                "\(settings.accessKeyID):\(settings.secretAccessKey)".withCString { userpwd in
                    method.withCString { methodText in
                        body.withUnsafeBytes { bytes in
                            Curl.set(handle, CURLOPT_URL, pointer: urlText)
                            Curl.set(handle, CURLOPT_AWS_SIGV4, pointer: provider)
                            Curl.set(handle, CURLOPT_USERPWD, pointer: userpwd)
                            Curl.set(handle, CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(list))
                            Curl.set(handle, CURLOPT_NOSIGNAL, 1)
                            // libcurl adds `Expect: 100-continue` to large bodies: send them at once instead.
                            Curl.set(handle, CURLOPT_EXPECT_100_TIMEOUT_MS, 0)
                            Curl.set(handle, CURLOPT_CONNECTTIMEOUT, 10)
                            Curl.set(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
                            Curl.set(handle, CURLOPT_LOW_SPEED_TIME, 60)
                            switch method {
                            case "HEAD": Curl.set(handle, CURLOPT_NOBODY, 1)
                            case "GET": break
                            default:
                                Curl.set(handle, CURLOPT_CUSTOMREQUEST, pointer: methodText)
                                Curl.set(handle, CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(bytes.count))
                                Curl.set(handle, CURLOPT_POSTFIELDS, pointer: bytes.count > 0 ? bytes.baseAddress : UnsafeRawPointer(("" as StaticString).utf8Start))
                            }
                            Curl.set(handle, CURLOPT_WRITEFUNCTION, pointer: unsafeBitCast(ResponseSink.write, to: UnsafeRawPointer.self))
                            Curl.set(handle, CURLOPT_WRITEDATA, pointer: unmanaged.toOpaque())
                            Curl.set(handle, CURLOPT_HEADERFUNCTION, pointer: unsafeBitCast(ResponseSink.header, to: UnsafeRawPointer.self))
                            Curl.set(handle, CURLOPT_HEADERDATA, pointer: unmanaged.toOpaque())
                            return curl_easy_perform(handle)
                        }
                    }
                }
            }
        }
        guard status == CURLE_OK else {
            throw S3Error(.network, "\(method) \(target): \(String(cString: curl_easy_strerror(status)))")
        }
        answered = true
        return S3Response(status: Curl.responseCode(handle), headers: sink.headers, body: sink.body)
    }

    /// `send`, then an ``S3Error`` for any status outside 200–299, with the store's error code.
    @discardableResult
    public func expectSuccess(
        _ method: String, bucket: String, key: String, query: String = "", headers: [String: String] = [:], body: Data = Data(),
        payload: PayloadHash? = nil
    ) throws -> S3Response {
        let response = try send(method, bucket: bucket, key: key, query: query, headers: headers, body: body, payload: payload)
        guard (200..<300).contains(response.status) else { throw Self.error(response, "\(method) s3://\(bucket)/\(key)") }
        return response
    }

    /// The typed error of an error answer.
    static func error(_ response: S3Response, _ what: String) -> S3Error {
        let code = XMLText.first("Code", in: response.body) ?? "HTTP \(response.status)"
        let message = XMLText.first("Message", in: response.body).map { ": \($0)" } ?? ""
        let kind: S3Error.Kind
        switch (response.status, code) {
        case (403, _), (401, _): kind = .denied
        case (412, _): kind = .preconditionFailed
        case (404, _): kind = .notFound
        case (_, "BadDigest"), (_, "XAmzContentSHA256Mismatch"), (_, "InvalidDigest"): kind = .integrity
        default: kind = .http
        }
        let hint = kind == .denied ? " (check the credentials and the bucket's permissions)" : ""
        return S3Error(kind, "\(what) failed: \(code)\(message)\(hint)", status: response.status)
    }

    /// A key percent-encoded for a URL path (RFC 3986 unreserved characters and `/` kept), as SigV4 expects.
    static func encodeKey(_ key: String) -> String {
        var out = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// A query value percent-encoded (RFC 3986 unreserved characters kept).
    public static func encodeQueryValue(_ value: String) -> String {
        encodeKey(value).replacingOccurrences(of: "/", with: "%2F")
    }
}

/// Collects an answer's headers and body from libcurl's callbacks.
private final class ResponseSink {
    var headers: [String: String] = [:]
    var body = Data()

    static let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, user in
        guard let data, let user else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
        sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
        return size * count
    }

    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, user in
        guard let data, let user else { return 0 }
        let sink = Unmanaged<ResponseSink>.fromOpaque(user).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
        if line.hasPrefix("HTTP/") { sink.headers = [:] }
        if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            sink.headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return size * count
    }
}

/// The text of XML elements in the store's small answers (error documents, upload ids, part lists).
enum XMLText {
    /// The text of the first `<name>` element, unescaped.
    static func first(_ name: String, in data: Data) -> String? { all(name, in: data).first }

    /// The text of every `<name>` element, in order, unescaped.
    static func all(_ name: String, in data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var values: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest[open.upperBound...].range(of: "</\(name)>") {
            values.append(unescape(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return values
    }

    /// `text` with XML's special characters escaped.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#34;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// A libcurl easy handle, moved between threads but used by one request at a time.
private struct CurlHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}
