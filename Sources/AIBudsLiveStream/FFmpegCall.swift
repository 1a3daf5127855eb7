import CFFmpeg

/// FFmpeg's message for an error code.
func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    av_strerror(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Throws a ``LiveStreamError`` of `kind` when `code` is negative.
@discardableResult
func check(_ code: Int32, _ kind: LiveStreamError.Kind, _ call: String) throws -> Int32 {
    guard code >= 0 else { throw LiveStreamError(kind, "\(call): \(ffmpegMessage(code))", code: code) }
    return code
}

/// The current wall-clock time in microseconds since 1970, the clock capture stamps use.
public func liveWallClockMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec / 1000)
}
