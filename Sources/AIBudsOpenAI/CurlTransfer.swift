import AIBudsAIFoundation
import AIBudsSync
import CCurl
import CCurlOptions
import Foundation

/// One part of a `multipart/form-data` body.
struct FormPart: Sendable {
    var name: String
    var data: Data
    var filename: String?
    var contentType: String?
}

/// One HTTP request through libcurl, run to its end on the calling (blocking) thread.
///
/// The body arrives through `onData` as libcurl reads it (so a streamed answer is handled as it
/// comes); `cancelled` is polled by libcurl's progress callback, which aborts the transfer.
final class CurlTransfer {
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// What the transfer's callbacks reach.
    private final class Context {
        let onData: (Data) -> AIError?
        let cancelled: @Sendable () -> Bool
        /// What `onData` refused the answer with (the transfer stopped there).
        var refusal: AIError?
        init(onData: @escaping (Data) -> AIError?, cancelled: @escaping @Sendable () -> Bool) {
            self.onData = onData
            self.cancelled = cancelled
        }
    }

    /// Sends the request and returns the HTTP status; throws `AIError` for transport failures, and
    /// what `onData` returns when it refuses the answer (too large, malformed): the transfer stops at
    /// once, so a hostile server cannot make this process hold more than `onData` keeps.
    static func perform(
        url: String, headers: [String], json: Data? = nil, form: [FormPart]? = nil, timeout: Double,
        cancelled: @escaping @Sendable () -> Bool, onData: @escaping (Data) -> AIError?
    ) throws -> Int {
        guard globalInit, let handle = curl_easy_init() else { throw AIError(.engineFailed, "libcurl did not initialize") }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        var mime: OpaquePointer?
        defer { curl_mime_free(mime) }
        let context = Context(onData: onData, cancelled: cancelled)
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }

        try check(url.withCString { aibuds_curl_set_pointer(handle, CURLOPT_URL, $0) }, "URL")
        try check(aibuds_curl_set_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        try check(aibuds_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 10_000), "CONNECTTIMEOUT")
        try check(aibuds_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout * 1000)), "TIMEOUT")
        for header in headers { list = header.withCString { curl_slist_append(list, $0) } }
        if let json {
            list = curl_slist_append(list, "Content-Type: application/json")
            try check(aibuds_curl_set_long(handle, CURLOPT_POSTFIELDSIZE_LARGE, json.count), "POSTFIELDSIZE")
            try json.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies the body, so it may go out of scope before the transfer.
                try check(aibuds_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress), "COPYPOSTFIELDS")
            }
        }
        if let form {
            mime = curl_mime_init(handle)
            for part in form {
                let field = curl_mime_addpart(mime)
                _ = part.name.withCString { curl_mime_name(field, $0) }
                _ = part.data.withUnsafeBytes { curl_mime_data(field, $0.baseAddress?.assumingMemoryBound(to: CChar.self), part.data.count) }
                if let filename = part.filename { _ = filename.withCString { curl_mime_filename(field, $0) } }
                if let type = part.contentType { _ = type.withCString { curl_mime_type(field, $0) } }
            }
            try check(aibuds_curl_set_pointer(handle, CURLOPT_MIMEPOST, UnsafeRawPointer(mime)), "MIMEPOST")
        }
        try check(aibuds_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list), "HTTPHEADER")
        try check(aibuds_curl_set_write(handle, { data, size, count, raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeUnretainedValue()
            if context.cancelled() { return 0 }
            let length = size * count
            if let data, length > 0, let refusal = context.onData(Data(bytes: data, count: length)) {
                context.refusal = refusal
                return 0
            }
            return length
        }, unmanaged.toOpaque()), "WRITEFUNCTION")
        try check(aibuds_curl_set_progress(handle, { raw, _, _, _, _ in
            Unmanaged<Context>.fromOpaque(raw!).takeUnretainedValue().cancelled() ? 1 : 0
        }, unmanaged.toOpaque()), "XFERINFOFUNCTION")

        let code = curl_easy_perform(handle)
        if let refusal = context.refusal { throw refusal }
        if code != CURLE_OK {
            if cancelled() { throw AIError(.canceled) }
            let reason = String(cString: curl_easy_strerror(code))
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SSL_CONNECT_ERROR:
                throw AIError(.serverUnreachable, "\(url): \(reason)")
            case CURLE_OPERATION_TIMEDOUT:
                throw AIError(.timeout, "\(url): \(reason)")
            default:
                throw AIError(.serverUnreachable, "\(url): \(reason) (libcurl \(code.rawValue))")
            }
        }
        return aibuds_curl_response_code(handle)
    }

    private static func check(_ code: CURLcode, _ option: String) throws {
        guard code == CURLE_OK else {
            throw AIError(.engineFailed, "libcurl refused option \(option): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}

/// A flag a task's cancellation sets and a libcurl callback reads.
final class CancelFlag: Sendable {
    private let flag = Locked(false)
    /// Whether it was raised.
    var isRaised: Bool { flag.withLock { $0 } }
    /// Raises it.
    func raise() { flag.withLock { $0 = true } }
}
