import CCurl
import Foundation

/// libcurl's variadic entry points, called through one non-variadic signature: Swift imports no
/// C variadic function, and on the platforms this SDK builds for a `long`, an `off_t` and a
/// pointer are passed alike (one integer register).
enum Curl {
    private typealias SetOption = @convention(c) (UnsafeMutableRawPointer?, CURLoption, Int) -> CURLcode
    // `dlsym(nil, …)` is glibc's RTLD_DEFAULT: the symbols of the process, libcurl's among them.
    private typealias GetInfo = @convention(c) (UnsafeMutableRawPointer?, CURLINFO, UnsafeMutableRawPointer?) -> CURLcode

    private static let setOption: SetOption = {
        _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return unsafeBitCast(dlsym(nil, "curl_easy_setopt"), to: SetOption.self)
    }()
    private static let getInfo: GetInfo = unsafeBitCast(dlsym(nil, "curl_easy_getinfo"), to: GetInfo.self)

    /// Sets an integer (`long` or `curl_off_t`) option.
    @discardableResult
    static func set(_ handle: UnsafeMutableRawPointer?, _ option: CURLoption, _ value: Int) -> CURLcode {
        setOption(handle, option, value)
    }

    /// Sets a pointer option (a string, a list, a callback or its user data).
    @discardableResult
    static func set(_ handle: UnsafeMutableRawPointer?, _ option: CURLoption, pointer: UnsafeRawPointer?) -> CURLcode {
        setOption(handle, option, Int(bitPattern: pointer))
    }

    /// The response code of the last transfer.
    static func responseCode(_ handle: UnsafeMutableRawPointer?) -> Int {
        var code = 0
        _ = withUnsafeMutablePointer(to: &code) { getInfo(handle, CURLINFO_RESPONSE_CODE, UnsafeMutableRawPointer($0)) }
        return code
    }
}
