import AIBudsDigest
import AIBudsHTTPClient
import AIBudsSync
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
/// hash; SeaweedFS accepts a wrong one, while it refuses a wrong `x-amz-checksum-*`). Requests go
/// through the project's one HTTP client (`AIBudsHTTPClient`), which keeps libcurl handles and
/// their connections between requests, so a station's hundreds of small requests (heads, states,
/// ledger entries) do not each connect anew. An answer's body is kept in memory up to
/// ``answerLimit`` and refused beyond it: the store's answers are small documents.
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
    /// The most bytes of an answer kept (error documents, upload states, ledger entries, part lists).
    public static let answerLimit = 16 << 20
    private let http = HTTPClient()
    /// Requests sent so far (for tests that count them).
    let requestsSent = Locked(0)

    /// Creates a client of the store that `settings` describe.
    public init(settings: S3Settings) {
        self.settings = settings
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
        let request = HTTPClientRequest(
            method, url: target, headers: lines, body: .bytes(body),
            awsSigV4: ("aws:amz:\(settings.region):s3", "\(settings.accessKeyID):\(settings.secretAccessKey)"))
        do {
            let (response, answer) = try http.fetch(request, limit: Self.answerLimit)
            return S3Response(status: response.status, headers: response.headers, body: answer)
        } catch let error as HTTPClientError {
            throw S3Error(.network, error.message)
        }
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
