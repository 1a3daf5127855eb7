import Foundation

// Messages of the OS management group (0), as Zephyr specifies them. See docs/protocol.md.

/// OS echo: the device answers with the same text.
public struct OSEchoRequest: SMPRequest, Equatable {
    /// The device answers `echo` with ``OSEchoResponse``; the client decodes the answer as this
    /// type.
    public typealias Response = OSEchoResponse

    /// The text to echo.
    public var d: String

    /// Creates the request that the device echo the text `d`.
    public init(d: String) {
        self.d = d
    }
}

/// The answer to ``OSEchoRequest``.
public struct OSEchoResponse: Codable, Sendable, Equatable {
    /// The echoed text.
    public var r: String

    /// Creates the answer echoing the text `r`, as the emulator sends it.
    public init(r: String) {
        self.r = r
    }
}

/// OS datetime read: the device's clock.
public typealias OSDatetimeReadRequest = SMPEmptyRequest<SMPCommand.OSDatetimeRead, OSDatetimeReadResponse>

/// The answer to ``OSDatetimeReadRequest``.
public struct OSDatetimeReadResponse: Codable, Sendable, Equatable {
    /// UTC time as `YYYY-MM-DDTHH:MM:SS`, optionally with `.ffffff`.
    public var datetime: String

    /// Creates the answer with the clock as `YYYY-MM-DDTHH:MM:SS` in UTC, as the emulator sends it.
    public init(datetime: String) {
        self.datetime = datetime
    }
}

/// OS datetime write: sets the device's clock.
public struct OSDatetimeWriteRequest: SMPRequest, Equatable {
    /// The device answers `datetime` with ``OSDatetimeWriteResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = OSDatetimeWriteResponse

    /// UTC time as `YYYY-MM-DDTHH:MM:SS`, optionally with `.ffffff`.
    public var datetime: String

    /// Creates the request that sets the device clock to `datetime`, `YYYY-MM-DDTHH:MM:SS` in UTC.
    public init(datetime: String) {
        self.datetime = datetime
    }
}

/// The (empty) answer to ``OSDatetimeWriteRequest``.
public typealias OSDatetimeWriteResponse = SMPEmptyResponse

/// OS reset: the device answers, then restarts its session.
public struct OSResetRequest: SMPRequest, Equatable {
    /// The device answers `reset` with ``OSResetResponse``; the client decodes the answer as this
    /// type.
    public typealias Response = OSResetResponse

    /// Non-zero to reset even when busy.
    public var force: UInt64?

    /// Creates the request that restarts the device's session; a non-zero `force` resets it even
    /// when busy.
    public init(force: UInt64? = nil) {
        self.force = force
    }
}

/// The (empty) answer to ``OSResetRequest``.
public typealias OSResetResponse = SMPEmptyResponse

/// OS MCUmgr parameters: buffer size (the MTU) and count.
public typealias OSParamsRequest = SMPEmptyRequest<SMPCommand.OSParams, OSParamsResponse>

/// The answer to ``OSParamsRequest``.
public struct OSParamsResponse: Codable, Sendable, Equatable {
    /// The largest SMP packet the device takes (its MTU).
    public var bufSize: UInt64
    /// The number of buffers.
    public var bufCount: UInt64

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case bufSize = "buf_size"
        case bufCount = "buf_count"
    }

    /// Creates the answer with the SMP buffer size and count, as the emulator sends it.
    public init(bufSize: UInt64, bufCount: UInt64) {
        self.bufSize = bufSize
        self.bufCount = bufCount
    }
}

/// OS/application info, in the style of `uname`.
public struct OSInfoRequest: SMPRequest, Equatable {
    /// The device answers `os/app info` with ``OSInfoResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = OSInfoResponse

    /// Letters selecting fields: `s` kernel name, `n` node name, `r` release, `v` version, `b` build, `m` machine, `p` processor, `i` platform, `o` OS, `a` all.
    public var format: String?

    /// Creates the request for `uname`-style text; `format` holds the letters of the fields to give
    /// (`a` for all).
    public init(format: String? = nil) {
        self.format = format
    }
}

/// The answer to ``OSInfoRequest``.
public struct OSInfoResponse: Codable, Sendable, Equatable {
    /// The requested fields, space-separated.
    public var output: String

    /// Creates the answer with the `uname`-style text, as the emulator sends it.
    public init(output: String) {
        self.output = output
    }
}
