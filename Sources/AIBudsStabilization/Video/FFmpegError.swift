import CFFmpeg

/// A failed FFmpeg call: which call, FFmpeg's error code and its message.
public struct FFmpegError: Error, Sendable, CustomStringConvertible {
    /// The call that failed, for example `avcodec_open2(libx264)`.
    public var call: String
    /// FFmpeg's (negative) error code, or 0 when the failure is not one of FFmpeg's codes.
    public var code: Int32
    /// FFmpeg's message for the code, or the reason.
    public var message: String

    /// Wraps FFmpeg's code `code` from `call`.
    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A failure with a reason of this module's own.
    public init(_ call: String, reason: String) {
        self.call = call
        code = 0
        message = reason
    }

    /// `call: message`.
    public var description: String { "\(call): \(message)" }

    /// Returns `result` unchanged when it is not negative; a negative one (FFmpeg's error) throws.
    @discardableResult
    public static func check(_ result: Int32, _ call: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
        if result < 0 { throw FFmpegError(call(), code: result) }
        return result
    }
}
