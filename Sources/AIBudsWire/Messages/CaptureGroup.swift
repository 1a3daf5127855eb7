import Foundation

// Messages of the project Capture group (67). See docs/protocol.md.

/// Capture audio start: begins an audio recording (rc 5 when already recording).
public struct CaptureAudioStartRequest: SMPRequest, Equatable {
    /// The device answers `audio start` with ``CaptureAudioStartResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = CaptureAudioStartResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 0 of group 67, `audio start` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 0
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// True for an AI audio recording (named `AI_…`, for the device's AI services) instead of a
    /// normal one; absent: normal.
    public var ai: Bool?

    /// Creates the request that starts an audio recording, an AI one when `ai` is true; without it
    /// the payload is the empty map.
    public init(ai: Bool? = nil) { self.ai = ai }
}

/// The (empty) answer to ``CaptureAudioStartRequest``.
public typealias CaptureAudioStartResponse = SMPEmptyResponse

/// Capture audio stop: ends the recording (rc 7 when not recording).
public struct CaptureAudioStopRequest: SMPRequest, Equatable {
    /// The device answers `audio stop` with ``CaptureAudioStopResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = CaptureAudioStopResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 1 of group 67, `audio stop` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 1
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// Creates the request that ends the audio recording; its payload is the empty map.
    public init() {}
}

/// The answer to ``CaptureAudioStopRequest``: the new recording.
public typealias CaptureAudioStopResponse = CaptureFileResponse

/// Capture photo: takes a photo.
public struct CapturePhotoRequest: SMPRequest, Equatable {
    /// The device answers `photo` with ``CapturePhotoResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = CapturePhotoResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 2 of group 67, `photo` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 2
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// The `PhotoCaptureMode` raw value (single 0, burst 1); the device takes a single photo when
    /// absent.
    public var mode: Int?

    /// Creates the request for one capture in the `PhotoCaptureMode` with raw value `mode` (a
    /// single photo when nil).
    public init(mode: Int? = nil) {
        self.mode = mode
    }
}

/// The answer to ``CapturePhotoRequest``: the new photo.
public typealias CapturePhotoResponse = CaptureFileResponse

/// Capture video start: begins a video recording (rc 5 when already recording).
public struct CaptureVideoStartRequest: SMPRequest, Equatable {
    /// The device answers `video start` with ``CaptureVideoStartResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = CaptureVideoStartResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 3 of group 67, `video start` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 3
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// Creates the request that starts a video recording; its payload is the empty map.
    public init() {}
}

/// The (empty) answer to ``CaptureVideoStartRequest``.
public typealias CaptureVideoStartResponse = SMPEmptyResponse

/// Capture video stop: ends the recording (rc 7 when not recording).
public struct CaptureVideoStopRequest: SMPRequest, Equatable {
    /// The device answers `video stop` with ``CaptureVideoStopResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = CaptureVideoStopResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 4 of group 67, `video stop` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 4
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// Creates the request that ends the video recording; its payload is the empty map.
    public init() {}
}

/// The answer to ``CaptureVideoStopRequest``: the new recording.
public typealias CaptureVideoStopResponse = CaptureFileResponse

/// Capture max audio duration read.
public struct CaptureMaxAudioReadRequest: SMPRequest, Equatable {
    /// The device answers `max audio duration` with ``CaptureMaxAudioReadResponse``; the client
    /// decodes the answer as this type.
    public typealias Response = CaptureMaxAudioReadResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 5 of group 67, `max audio duration` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 5
    /// SMP op 0, a read: asks for state without changing it; the device answers with op 1 (read
    /// response).
    public static let operation = SMPOperation.read

    /// Creates the request for the longest audio recording the device makes; its payload is the
    /// empty map.
    public init() {}
}

/// The answer to ``CaptureMaxAudioReadRequest``.
public typealias CaptureMaxAudioReadResponse = CaptureDurationResponse

/// Capture max audio duration write.
public struct CaptureMaxAudioWriteRequest: SMPRequest, Equatable {
    /// The device answers `max audio duration` with ``CaptureMaxAudioWriteResponse``; the client
    /// decodes the answer as this type.
    public typealias Response = CaptureMaxAudioWriteResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 5 of group 67, `max audio duration` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 5
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// The longest audio recording, in seconds.
    public var seconds: UInt64

    /// Creates the request that limits audio recordings to `seconds`.
    public init(seconds: UInt64) {
        self.seconds = seconds
    }
}

/// The (empty) answer to ``CaptureMaxAudioWriteRequest``.
public typealias CaptureMaxAudioWriteResponse = SMPEmptyResponse

/// Capture max video duration read.
public struct CaptureMaxVideoReadRequest: SMPRequest, Equatable {
    /// The device answers `max video duration` with ``CaptureMaxVideoReadResponse``; the client
    /// decodes the answer as this type.
    public typealias Response = CaptureMaxVideoReadResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 6 of group 67, `max video duration` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 6
    /// SMP op 0, a read: asks for state without changing it; the device answers with op 1 (read
    /// response).
    public static let operation = SMPOperation.read

    /// Creates the request for the longest video recording the device makes; its payload is the
    /// empty map.
    public init() {}
}

/// The answer to ``CaptureMaxVideoReadRequest``.
public typealias CaptureMaxVideoReadResponse = CaptureDurationResponse

/// Capture max video duration write.
public struct CaptureMaxVideoWriteRequest: SMPRequest, Equatable {
    /// The device answers `max video duration` with ``CaptureMaxVideoWriteResponse``; the client
    /// decodes the answer as this type.
    public typealias Response = CaptureMaxVideoWriteResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 6 of group 67, `max video duration` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 6
    /// SMP op 2, a write: carries data to the device or changes its state; the device answers with
    /// op 3 (write response).
    public static let operation = SMPOperation.write

    /// The longest video recording, in seconds.
    public var seconds: UInt64

    /// Creates the request that limits video recordings to `seconds`.
    public init(seconds: UInt64) {
        self.seconds = seconds
    }
}

/// The (empty) answer to ``CaptureMaxVideoWriteRequest``.
public typealias CaptureMaxVideoWriteResponse = SMPEmptyResponse

/// The answer to a capture that made a file: its name.
public struct CaptureFileResponse: Codable, Sendable, Equatable {
    /// The device file name of the new recording or photo.
    public var name: String

    /// Creates the answer naming the file the capture made, as the emulator sends it.
    public init(name: String) {
        self.name = name
    }
}

/// The answer to a max-duration read.
public struct CaptureDurationResponse: Codable, Sendable, Equatable {
    /// The limit in seconds.
    public var seconds: UInt64

    /// Creates the answer carrying a maximum recording duration in seconds, as the emulator sends
    /// it.
    public init(seconds: UInt64) {
        self.seconds = seconds
    }
}

/// Capture lens profile: a part of the camera's Gyroflow lens-profile JSON (the profile can be
/// longer than one SMP packet, so it is read in parts from `off`, as a File download is).
public struct CaptureLensProfileRequest: SMPRequest, Equatable {
    /// The device answers `lens profile` with ``CaptureLensProfileResponse``; the client decodes
    /// the answer as this type.
    public typealias Response = CaptureLensProfileResponse
    /// Group 67, this project's Capture group (docs/protocol.md §3).
    public static let group = SMPGroupID.capture
    /// Command 7 of group 67, `lens profile` in the table of docs/protocol.md §3.
    public static let command: UInt8 = 7
    /// SMP op 0, a read: asks for state without changing it; the device answers with op 1 (read
    /// response).
    public static let operation = SMPOperation.read

    /// The byte offset into the profile's JSON of the part asked for (0 for the first).
    public var off: UInt64

    /// Creates the request for the part of the lens profile that starts at byte `off`.
    public init(off: UInt64 = 0) { self.off = off }
}

/// One part of the camera's lens profile: `data` starts at `off` of the `len` bytes of JSON.
public struct CaptureLensProfileResponse: Codable, Sendable, Equatable {
    /// The offset of `data` in the profile (the request's `off`).
    public var off: UInt64
    /// The profile's whole length in bytes.
    public var len: UInt64
    /// The part's bytes (empty at the end).
    public var data: Data

    /// Creates the answer carrying `data` from byte `off` of a `len`-byte profile.
    public init(off: UInt64, len: UInt64, data: Data) {
        self.off = off
        self.len = len
        self.data = data
    }
}
