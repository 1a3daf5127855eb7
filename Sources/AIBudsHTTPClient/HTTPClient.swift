import AIBudsErrors
import AIBudsSync
import CCurl
import CCurlOptions
import Foundation

/// One part of a `multipart/form-data` body.
public struct HTTPFormPart: Sendable {
    /// The field's name.
    public var name: String
    /// The field's bytes.
    public var data: Data
    /// The file name, for a file field.
    public var filename: String?
    /// The part's `Content-Type`.
    public var contentType: String?

    /// A form field (a file when `filename` is given).
    public init(name: String, data: Data, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.data = data
        self.filename = filename
        self.contentType = contentType
    }
}

/// What a request sends and how long it may take.
public struct HTTPClientRequest: Sendable {
    /// What the request's body is.
    public enum Body: Sendable {
        /// No body (a `GET`, a `HEAD`, or an empty `DELETE`).
        case none
        /// These bytes, sent as they are without a copy (an empty `Data` sends `Content-Length: 0`).
        case bytes(Data)
        /// A `multipart/form-data` form.
        case form([HTTPFormPart])
    }

    /// The method (`GET`, `HEAD`, `PUT`, `POST`, `DELETE`, ...).
    public var method: String
    /// The whole URL.
    public var url: String
    /// Header lines, `Name: value`.
    public var headers: [String]
    /// What follows the head: nothing, bytes, or a multipart form.
    public var body: Body
    /// AWS Signature Version 4 by libcurl: the provider (`aws:amz:REGION:s3`) and `KEY:SECRET`.
    public var awsSigV4: (provider: String, credentials: String)?
    /// The longest wait for a connection.
    public var connectTimeout: Duration
    /// The longest a transfer may go without a byte in either direction before it is abandoned,
    /// except while the server works on the request it has received (see ``firstByteTimeout``).
    public var stallTimeout: Duration
    /// The longest wait for the answer's first byte once the whole request is sent: a server that
    /// thinks before it answers (a speech model transcribing, a chat model queueing) is not
    /// stalled until this passes; nil: ``stallTimeout``. Counted until the first byte of the
    /// answer's body: a `100 Continue` or headers sent early do not end it.
    public var firstByteTimeout: Duration?
    /// The longest the whole request may take; nil: no bound but the stall timeout.
    public var totalTimeout: Duration?

    /// A request with the project's deadlines: 10 s to connect, 60 s without a byte (the wait for
    /// the first byte of the answer included, unless `firstByteTimeout` says otherwise).
    public init(
        _ method: String, url: String, headers: [String] = [], body: Body = .none,
        awsSigV4: (provider: String, credentials: String)? = nil, connectTimeout: Duration = .seconds(10),
        stallTimeout: Duration = .seconds(60), firstByteTimeout: Duration? = nil, totalTimeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.awsSigV4 = awsSigV4
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.firstByteTimeout = firstByteTimeout
        self.totalTimeout = totalTimeout
    }
}

/// An answer: its status and headers (names in lower case); the body went to the caller's sink.
public struct HTTPClientResponse: Sendable {
    /// The final answer's HTTP status (after any `100 Continue`).
    public var status: Int
    /// The headers of the final answer, names in lower case.
    public var headers: [String: String]
}

/// Why a request got no usable answer; its message names the method and URL.
///
/// The kinds of failure are ``HTTPClientErrorCode``, for callers that map them to their own codes.
public typealias HTTPClientError = CodedError<HTTPClientErrorCode>

/// The kinds of failure of an HTTP request.
public enum HTTPClientErrorCode: Sendable, Equatable, CodedErrorCode {
    /// No connection could be made (refused, no route, name not resolved, TLS failed).
    case unreachable
    /// A deadline passed: connecting, the first byte of the answer, a stall, or the whole request.
    case timeout
    /// The caller's sink refused the answer (too large, malformed); the transfer stopped there.
    case refused
    /// The caller cancelled.
    case canceled
    /// Any other transport failure.
    case transport
}

/// The project's one HTTP client, over libcurl: one global initialization, libcurl handles kept
/// between requests with their connections (up to `keptHandles`), bodies streamed to the caller's
/// sink, which may refuse the rest of an answer (bounded memory whatever a server sends), deadlines
/// for connecting, stalls and the whole request, and typed errors. Used by the S3 destination and
/// the OpenAI-compatible AI provider. Thread-safe: each request takes a handle no other uses.
public final class HTTPClient: Sendable {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    private let idle = Locked<[Handle]>([])
    private let keptHandles: Int

    /// A client keeping up to `keptHandles` idle handles (and their connections).
    public init(keptHandles: Int = 16) {
        self.keptHandles = keptHandles
    }

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle.pointer) }
    }

    /// Sends `request`; the body is handed to `onData` as it arrives. `onData` returns nil to go on,
    /// or a reason to stop: the transfer ends at once and the reason is thrown. `cancelled` is
    /// polled while the transfer runs.
    ///
    /// - Throws: ``HTTPClientError``; a reason `onData` returned.
    public func perform(
        _ request: HTTPClientRequest, cancelled: @escaping @Sendable () -> Bool = { false },
        onData: @escaping (Data) -> (any Error)?
    ) throws -> HTTPClientResponse {
        guard Self.initialized, let handle = idle.withLock({ $0.popLast() }) ?? curl_easy_init().map(Handle.init) else {
            throw HTTPClientError(.transport, "libcurl did not initialize")
        }
        var answered = false
        defer { giveBack(handle, reusable: answered) }
        let context = Context(
            onData: onData, cancelled: cancelled,
            quiet: QuietDeadline(stall: request.stallTimeout, firstByte: request.firstByteTimeout ?? request.stallTimeout))
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        var mime: OpaquePointer?
        defer { curl_mime_free(mime) }
        let pointer = handle.pointer
        let set = { (option: CURLoption, value: Int) in _ = aibuds_curl_set_long(pointer, option, value) }
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout))
        if let total = request.totalTimeout { set(CURLOPT_TIMEOUT_MS, Self.milliseconds(total)) }
        // libcurl adds `Expect: 100-continue` to large bodies: send them at once instead.
        set(CURLOPT_EXPECT_100_TIMEOUT_MS, 0)
        for line in request.headers { list = curl_slist_append(list, line) }
        _ = aibuds_curl_set_pointer(pointer, CURLOPT_HTTPHEADER, list)
        let body: Data
        switch request.body {
        case .none: body = Data()
        case .bytes(let bytes): body = bytes
        case .form(let parts):
            body = Data()
            mime = curl_mime_init(pointer)
            for part in parts {
                let field = curl_mime_addpart(mime)
                _ = part.name.withCString { curl_mime_name(field, $0) }
                _ = part.data.withUnsafeBytes { curl_mime_data(field, $0.baseAddress?.assumingMemoryBound(to: CChar.self), part.data.count) }
                if let filename = part.filename { _ = filename.withCString { curl_mime_filename(field, $0) } }
                if let type = part.contentType { _ = type.withCString { curl_mime_type(field, $0) } }
            }
            _ = aibuds_curl_set_pointer(pointer, CURLOPT_MIMEPOST, UnsafeRawPointer(mime))
        }
        _ = aibuds_curl_set_write(pointer, { data, size, count, raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeUnretainedValue()
            if context.cancelled() { return 0 }
            let length = size * count
            if let data, length > 0, let refusal = context.onData(Data(bytes: data, count: length)) {
                context.refusal = refusal
                return 0
            }
            return length
        }, unmanaged.toOpaque())
        _ = aibuds_curl_set_header(pointer, { data, size, count, raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeUnretainedValue()
            guard let data else { return 0 }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
            if line.hasPrefix("HTTP/") { context.headers = [:] }
            if let colon = line.firstIndex(of: ":"), context.headers.count < 200 {
                context.headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines).prefix(8192))
            }
            return size * count
        }, unmanaged.toOpaque())
        _ = aibuds_curl_set_progress(pointer, { raw, _, received, toSend, sent in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeUnretainedValue()
            if context.cancelled() { return 1 }
            return context.quiet.passed(received: Int64(received), sent: Int64(sent), toSend: Int64(toSend)) ? 1 : 0
        }, unmanaged.toOpaque())
        let code: CURLcode = request.url.withCString { url in
            request.method.withCString { method in
                withOptionalCString(request.awsSigV4?.provider) { provider in
                    withOptionalCString(request.awsSigV4?.credentials) { credentials in
                        body.withUnsafeBytes { bytes in
                            _ = aibuds_curl_set_pointer(pointer, CURLOPT_URL, url)
                            if let provider, let credentials {
                                _ = aibuds_curl_set_pointer(pointer, CURLOPT_AWS_SIGV4, provider)
                                _ = aibuds_curl_set_pointer(pointer, CURLOPT_USERPWD, credentials)
                            }
                            switch (request.method, request.body) {
                            case ("HEAD", _): set(CURLOPT_NOBODY, 1)
                            case ("GET", _): break
                            case (_, .form): _ = aibuds_curl_set_pointer(pointer, CURLOPT_CUSTOMREQUEST, method)
                            default:
                                _ = aibuds_curl_set_pointer(pointer, CURLOPT_CUSTOMREQUEST, method)
                                _ = aibuds_curl_set_offset(pointer, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                                _ = aibuds_curl_set_pointer(
                                    pointer, CURLOPT_POSTFIELDS,
                                    bytes.count > 0 ? bytes.baseAddress : UnsafeRawPointer(("" as StaticString).utf8Start))
                            }
                            return curl_easy_perform(pointer)
                        }
                    }
                }
            }
        }
        if let refusal = context.refusal { throw refusal }
        guard code == CURLE_OK else {
            if cancelled() { throw HTTPClientError(.canceled, "\(request.method) \(request.url): cancelled") }
            if let missed = context.quiet.missed { throw HTTPClientError(.timeout, "\(request.method) \(request.url): \(missed)") }
            let reason = "\(request.method) \(request.url): \(String(cString: curl_easy_strerror(code)))"
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SSL_CONNECT_ERROR:
                throw HTTPClientError(.unreachable, reason)
            case CURLE_OPERATION_TIMEDOUT: throw HTTPClientError(.timeout, reason)
            default: throw HTTPClientError(.transport, "\(reason) (libcurl \(code.rawValue))")
            }
        }
        answered = true
        return HTTPClientResponse(status: aibuds_curl_response_code(pointer), headers: context.headers)
    }

    /// Sends `request` and returns the answer with its body, which may hold at most `limit` bytes:
    /// a larger body (an error document included) is refused as soon as it goes over.
    public func fetch(
        _ request: HTTPClientRequest, limit: Int, cancelled: @escaping @Sendable () -> Bool = { false }
    ) throws -> (response: HTTPClientResponse, body: Data) {
        let body = BoundedBody(limit: limit, what: "\(request.method) \(request.url)")
        let response = try perform(request, cancelled: cancelled) { body.append($0) }
        return (response, body.data)
    }

    private func giveBack(_ handle: Handle, reusable: Bool) {
        curl_easy_reset(handle.pointer)
        let kept = reusable && idle.withLock { idle in
            guard idle.count < keptHandles else { return false }
            idle.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle.pointer) }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// What the transfer's callbacks reach.
    private final class Context {
        let onData: (Data) -> (any Error)?
        let cancelled: @Sendable () -> Bool
        var quiet: QuietDeadline
        var refusal: (any Error)?
        var headers: [String: String] = [:]
        init(onData: @escaping (Data) -> (any Error)?, cancelled: @escaping @Sendable () -> Bool, quiet: QuietDeadline) {
            self.onData = onData
            self.cancelled = cancelled
            self.quiet = quiet
        }
    }

    /// A libcurl easy handle, moved between threads but used by one request at a time.
    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }
}

/// How long a transfer may stay quiet: `stall` without a byte moving either way, except between
/// the end of the request and the first byte of the answer's body, where the server works and
/// `firstByte` applies (a `100 Continue`, or headers sent before the work, as streaming servers do,
/// do not end that wait). Fed by libcurl's progress callback, called as bytes move and about once a
/// second while none do.
struct QuietDeadline {
    let stall: Duration
    let firstByte: Duration
    private let clock = ContinuousClock()
    private var lastMoved: ContinuousClock.Instant
    private var received: Int64 = 0
    private var sent: Int64 = 0
    /// Which deadline passed, in words, once one has.
    private(set) var missed: String?

    init(stall: Duration, firstByte: Duration) {
        self.stall = stall
        self.firstByte = firstByte
        lastMoved = clock.now
    }

    /// Takes the transfer's counts; true when the quiet has lasted longer than allowed.
    mutating func passed(received: Int64, sent: Int64, toSend: Int64) -> Bool {
        let now = clock.now
        if received != self.received || sent != self.sent {
            self.received = received
            self.sent = sent
            lastMoved = now
        }
        let waitingForAnswer = received == 0 && sent >= toSend
        let limit = waitingForAnswer ? firstByte : stall
        guard now - lastMoved > limit else { return false }
        missed = waitingForAnswer ? "no answer within \(limit) of the request" : "no byte moved for \(limit)"
        return true
    }
}

/// Bytes of an answer up to a limit, refused past it.
final class BoundedBody: @unchecked Sendable {
    private(set) var data = Data()
    private let limit: Int
    private let what: String

    init(limit: Int, what: String) {
        self.limit = limit
        self.what = what
    }

    func append(_ bytes: Data) -> (any Error)? {
        guard data.count + bytes.count <= limit else {
            return HTTPClientError(.refused, "\(what): the answer is larger than \(limit) bytes; it was not read further")
        }
        data.append(bytes)
        return nil
    }
}

private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
