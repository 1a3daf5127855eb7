import Foundation

// Messages of the OS management group (0), as Zephyr specifies them. See docs/protocol.md.

/// OS echo: the device answers with the same text.
public struct OSEchoRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = OSEchoResponse
    /// The OS group.
    public static let group = SMPGroupID.os
    /// Command 0.
    public static let command: UInt8 = 0
    /// A write.
    public static let operation = SMPOperation.write

    /// The text to echo.
    public var d: String

    /// Creates the message.
    public init(d: String) {
        self.d = d
    }
}

/// The answer to ``OSEchoRequest``.
public struct OSEchoResponse: Codable, Sendable, Equatable {
    /// The echoed text.
    public var r: String

    /// Creates the message.
    public init(r: String) {
        self.r = r
    }
}

/// OS datetime read: the device's clock.
public struct OSDatetimeReadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = OSDatetimeReadResponse
    /// The OS group.
    public static let group = SMPGroupID.os
    /// Command 4.
    public static let command: UInt8 = 4
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``OSDatetimeReadRequest``.
public struct OSDatetimeReadResponse: Codable, Sendable, Equatable {
    /// UTC time as `YYYY-MM-DDTHH:MM:SS`, optionally with `.ffffff`.
    public var datetime: String

    /// Creates the message.
    public init(datetime: String) {
        self.datetime = datetime
    }
}

/// OS datetime write: sets the device's clock.
public struct OSDatetimeWriteRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = OSDatetimeWriteResponse
    /// The OS group.
    public static let group = SMPGroupID.os
    /// Command 4.
    public static let command: UInt8 = 4
    /// A write.
    public static let operation = SMPOperation.write

    /// UTC time as `YYYY-MM-DDTHH:MM:SS`, optionally with `.ffffff`.
    public var datetime: String

    /// Creates the message.
    public init(datetime: String) {
        self.datetime = datetime
    }
}

/// The (empty) answer to ``OSDatetimeWriteRequest``.
public typealias OSDatetimeWriteResponse = SMPEmptyResponse

/// OS reset: the device answers, then restarts its session.
public struct OSResetRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = OSResetResponse
    /// The OS group.
    public static let group = SMPGroupID.os
    /// Command 5.
    public static let command: UInt8 = 5
    /// A write.
    public static let operation = SMPOperation.write

    /// Non-zero to reset even when busy.
    public var force: UInt64?

    /// Creates the message.
    public init(force: UInt64? = nil) {
        self.force = force
    }
}

/// The (empty) answer to ``OSResetRequest``.
public typealias OSResetResponse = SMPEmptyResponse

/// OS MCUmgr parameters: buffer size (the MTU) and count.
public struct OSParamsRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = OSParamsResponse
    /// The OS group.
    public static let group = SMPGroupID.os
    /// Command 6.
    public static let command: UInt8 = 6
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

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

    /// Creates the message.
    public init(bufSize: UInt64, bufCount: UInt64) {
        self.bufSize = bufSize
        self.bufCount = bufCount
    }
}

/// OS/application info, in the style of `uname`.
public struct OSInfoRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = OSInfoResponse
    /// The OS group.
    public static let group = SMPGroupID.os
    /// Command 7.
    public static let command: UInt8 = 7
    /// A read.
    public static let operation = SMPOperation.read

    /// Letters selecting fields: `s` kernel name, `n` node name, `r` release, `v` version, `b` build, `m` machine, `p` processor, `i` platform, `o` OS, `a` all.
    public var format: String?

    /// Creates the message.
    public init(format: String? = nil) {
        self.format = format
    }
}

/// The answer to ``OSInfoRequest``.
public struct OSInfoResponse: Codable, Sendable, Equatable {
    /// The requested fields, space-separated.
    public var output: String

    /// Creates the message.
    public init(output: String) {
        self.output = output
    }
}
