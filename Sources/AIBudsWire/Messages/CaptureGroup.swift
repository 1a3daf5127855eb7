import Foundation

// Messages of the project Capture group (67). See docs/protocol.md.

/// Capture audio start: begins an audio recording (rc 5 when already recording).
public struct CaptureAudioStartRequest: SMPRequest, Equatable {
    /// The device answers `audio start` with ``CaptureAudioStartResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = CaptureAudioStartResponse

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
public typealias CaptureAudioStopRequest = SMPEmptyRequest<SMPCommand.CaptureAudioStop, CaptureAudioStopResponse>

/// The answer to ``CaptureAudioStopRequest``: the new recording.
public typealias CaptureAudioStopResponse = CaptureFileResponse

/// Capture photo: takes a photo.
public struct CapturePhotoRequest: SMPRequest, Equatable {
    /// The device answers `photo` with ``CapturePhotoResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = CapturePhotoResponse

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
public typealias CaptureVideoStartRequest = SMPEmptyRequest<SMPCommand.CaptureVideoStart, CaptureVideoStartResponse>

/// The (empty) answer to ``CaptureVideoStartRequest``.
public typealias CaptureVideoStartResponse = SMPEmptyResponse

/// Capture video stop: ends the recording (rc 7 when not recording).
public typealias CaptureVideoStopRequest = SMPEmptyRequest<SMPCommand.CaptureVideoStop, CaptureVideoStopResponse>

/// The answer to ``CaptureVideoStopRequest``: the new recording.
public typealias CaptureVideoStopResponse = CaptureFileResponse

/// Capture max audio duration read.
public typealias CaptureMaxAudioReadRequest = SMPEmptyRequest<SMPCommand.CaptureMaxAudioRead, CaptureMaxAudioReadResponse>

/// The answer to ``CaptureMaxAudioReadRequest``.
public typealias CaptureMaxAudioReadResponse = CaptureDurationResponse

/// Capture max audio duration write.
public struct CaptureMaxAudioWriteRequest: SMPRequest, Equatable {
    /// The device answers `max audio duration` with ``CaptureMaxAudioWriteResponse``; the client
    /// decodes the answer as this type.
    public typealias Response = CaptureMaxAudioWriteResponse

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
public typealias CaptureMaxVideoReadRequest = SMPEmptyRequest<SMPCommand.CaptureMaxVideoRead, CaptureMaxVideoReadResponse>

/// The answer to ``CaptureMaxVideoReadRequest``.
public typealias CaptureMaxVideoReadResponse = CaptureDurationResponse

/// Capture max video duration write.
public struct CaptureMaxVideoWriteRequest: SMPRequest, Equatable {
    /// The device answers `max video duration` with ``CaptureMaxVideoWriteResponse``; the client
    /// decodes the answer as this type.
    public typealias Response = CaptureMaxVideoWriteResponse

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
