import CCurl
import CCurlOptions

/// libcurl's variadic `curl_easy_setopt` and `curl_easy_getinfo`, through CCurlOptions' typed C
/// wrappers (Swift imports no C variadic function).
enum Curl {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// Sets a `long` option.
    @discardableResult
    static func set(_ handle: UnsafeMutableRawPointer?, _ option: CURLoption, _ value: Int) -> CURLcode {
        _ = initialized
        return aibuds_curl_set_long(handle, option, value)
    }

    /// Sets a `curl_off_t` option (the `_LARGE` sizes).
    @discardableResult
    static func set(_ handle: UnsafeMutableRawPointer?, _ option: CURLoption, offset: Int64) -> CURLcode {
        _ = initialized
        return aibuds_curl_set_offset(handle, option, curl_off_t(offset))
    }

    /// Sets a pointer option (a string, a list, a callback or its user data).
    @discardableResult
    static func set(_ handle: UnsafeMutableRawPointer?, _ option: CURLoption, pointer: UnsafeRawPointer?) -> CURLcode {
        _ = initialized
        return aibuds_curl_set_pointer(handle, option, pointer)
    }

    /// The response code of the last transfer.
    static func responseCode(_ handle: UnsafeMutableRawPointer?) -> Int {
        aibuds_curl_response_code(handle)
    }
}
