import AIBudsErrors
import Foundation

/// The operation of an SMP packet (the `op` bits of byte 0).
public enum SMPOperation: UInt8, Sendable {
    /// A read request.
    case read = 0
    /// Op 1: the device's answer to a read, with the same group, command and sequence number.
    case readResponse = 1
    /// A write request.
    case write = 2
    /// Op 3: the device's answer to a write, with the same group, command and sequence number.
    case writeResponse = 3

    /// Whether this is a response operation.
    public var isResponse: Bool { rawValue & 1 == 1 }

    /// The operation of the response to this request operation (`op + 1`); a response maps to itself.
    public var response: SMPOperation { isResponse ? self : SMPOperation(rawValue: rawValue + 1)! }
}

/// The SMP protocol version of a packet (the `ver` bits of byte 0).
public enum SMPVersion: UInt8, Sendable {
    /// SMP version 1: errors as `rc`.
    case v1 = 0
    /// SMP version 2: group errors as `err {group, rc}`.
    case v2 = 1
}

/// The well-known SMP group ids this project uses.
public enum SMPGroupID {
    /// Zephyr OS management.
    public static let os: UInt16 = 0
    /// Zephyr image management (firmware slots, upload, test and confirm).
    public static let image: UInt16 = 1
    /// Zephyr file system management.
    public static let file: UInt16 = 8
    /// Zephyr enumeration management.
    public static let enumeration: UInt16 = 10
    /// Device information and controls (project group).
    public static let device: UInt16 = 64
    /// Media list and deletion (project group).
    public static let media: UInt16 = 65
    /// Hotspot and transfer mode (project group).
    public static let hotspot: UInt16 = 66
    /// Recording and camera controls (project group).
    public static let capture: UInt16 = 67
    /// The AI audio path: the microphone and speaker streams as Opus frames (project group).
    public static let audio: UInt16 = 68
}

/// The 8-byte SMP header, in Zephyr's layout.
///
/// Byte 0 is `res:3 ver:2 op:3` (reserved bits high, operation low), byte 1 flags, bytes 2–3 the
/// payload length and 4–5 the group, both big-endian, byte 6 the sequence number and byte 7 the
/// command id.
public struct SMPHeader: Hashable, Sendable {
    /// Read, write, or the response to one (the low 3 bits of byte 0).
    public var operation: SMPOperation
    /// The protocol version.
    public var version: SMPVersion
    /// The flags byte (0; no flags are defined).
    public var flags: UInt8
    /// The payload length in bytes.
    public var length: UInt16
    /// The group id.
    public var group: UInt16
    /// The sequence number; a response echoes the request's.
    public var sequence: UInt8
    /// The command id within the group.
    public var command: UInt8

    /// The size of an encoded header in bytes.
    public static let size = 8

    /// Creates the 8-byte header of a packet whose payload is `length` bytes; a response repeats
    /// its request's group, sequence and command.
    public init(operation: SMPOperation, version: SMPVersion = .v2, flags: UInt8 = 0, length: UInt16,
                group: UInt16, sequence: UInt8, command: UInt8) {
        self.operation = operation
        self.version = version
        self.flags = flags
        self.length = length
        self.group = group
        self.sequence = sequence
        self.command = command
    }

    /// The 8 header bytes.
    public func encoded() -> [UInt8] {
        [
            version.rawValue << 3 | operation.rawValue, flags,
            UInt8(length >> 8), UInt8(truncatingIfNeeded: length),
            UInt8(group >> 8), UInt8(truncatingIfNeeded: group),
            sequence, command,
        ]
    }

    /// Decodes the header at the start of `bytes` (which may be longer).
    ///
    /// The reserved bits of byte 0 are ignored, as Zephyr does; an unknown version (2, 3) or
    /// operation (4–7) is an error.
    public static func decode(_ bytes: some Collection<UInt8>) throws(SMPPacketError) -> SMPHeader {
        let header = Array(bytes.prefix(size))
        guard header.count == size else {
            throw SMPPacketError(.shortHeader, "\(header.count) bytes is shorter than the 8-byte SMP header")
        }
        guard let operation = SMPOperation(rawValue: header[0] & 0x07) else {
            throw SMPPacketError(.invalidOperation, "operation \(header[0] & 0x07) is not defined")
        }
        guard let version = SMPVersion(rawValue: header[0] >> 3 & 0x03) else {
            throw SMPPacketError(.unsupportedVersion, "SMP version \(header[0] >> 3 & 0x03) is not supported")
        }
        return SMPHeader(operation: operation, version: version, flags: header[1],
                         length: UInt16(header[2]) << 8 | UInt16(header[3]),
                         group: UInt16(header[4]) << 8 | UInt16(header[5]),
                         sequence: header[6], command: header[7])
    }

    /// The header of the response to this request: same group, command, sequence and version,
    /// `op + 1`, with the given payload length.
    public func response(length: UInt16) -> SMPHeader {
        SMPHeader(operation: operation.response, version: version, flags: 0, length: length,
                  group: group, sequence: sequence, command: command)
    }
}


/// Why a datagram is not a well-formed SMP packet.
///
/// The kinds of failure are ``SMPPacketErrorCode``.
public typealias SMPPacketError = CodedError<SMPPacketErrorCode>

/// The kinds of framing failure.
public enum SMPPacketErrorCode: String, Sendable, Equatable, CodedErrorCode {
    /// Fewer than 8 bytes.
    case shortHeader
    /// The header's length field differs from the bytes that follow.
    case lengthMismatch
    /// An operation other than 0–3.
    case invalidOperation
    /// A version other than 0 (v1) or 1 (v2).
    case unsupportedVersion
    /// The payload would not fit the 16-bit length field.
    case payloadTooLarge

    /// `SMP` and the code's name: a description reads `SMP lengthMismatch: …`.
    public var descriptionPrefix: String? { "SMP \(rawValue)" }
}
