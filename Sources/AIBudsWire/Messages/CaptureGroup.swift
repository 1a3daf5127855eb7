import Foundation

// Messages of the project Capture group (67). See docs/protocol.md.

/// Capture audio start: begins an audio recording (rc 5 when already recording).
public struct CaptureAudioStartRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureAudioStartResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 0.
    public static let command: UInt8 = 0
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``CaptureAudioStartRequest``.
public typealias CaptureAudioStartResponse = SMPEmptyResponse

/// Capture audio stop: ends the recording (rc 7 when not recording).
public struct CaptureAudioStopRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureAudioStopResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 1.
    public static let command: UInt8 = 1
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The answer to ``CaptureAudioStopRequest``: the new recording.
public typealias CaptureAudioStopResponse = CaptureFileResponse

/// Capture photo: takes a photo.
public struct CapturePhotoRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CapturePhotoResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 2.
    public static let command: UInt8 = 2
    /// A write.
    public static let operation = SMPOperation.write

    /// The photo mode.
    public var mode: Int?

    /// Creates the message.
    public init(mode: Int? = nil) {
        self.mode = mode
    }
}

/// The answer to ``CapturePhotoRequest``: the new photo.
public typealias CapturePhotoResponse = CaptureFileResponse

/// Capture video start: begins a video recording (rc 5 when already recording).
public struct CaptureVideoStartRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureVideoStartResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 3.
    public static let command: UInt8 = 3
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``CaptureVideoStartRequest``.
public typealias CaptureVideoStartResponse = SMPEmptyResponse

/// Capture video stop: ends the recording (rc 7 when not recording).
public struct CaptureVideoStopRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureVideoStopResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 4.
    public static let command: UInt8 = 4
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The answer to ``CaptureVideoStopRequest``: the new recording.
public typealias CaptureVideoStopResponse = CaptureFileResponse

/// Capture max audio duration read.
public struct CaptureMaxAudioReadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureMaxAudioReadResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 5.
    public static let command: UInt8 = 5
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``CaptureMaxAudioReadRequest``.
public typealias CaptureMaxAudioReadResponse = CaptureDurationResponse

/// Capture max audio duration write.
public struct CaptureMaxAudioWriteRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureMaxAudioWriteResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 5.
    public static let command: UInt8 = 5
    /// A write.
    public static let operation = SMPOperation.write

    /// The longest audio recording, in seconds.
    public var seconds: UInt64

    /// Creates the message.
    public init(seconds: UInt64) {
        self.seconds = seconds
    }
}

/// The (empty) answer to ``CaptureMaxAudioWriteRequest``.
public typealias CaptureMaxAudioWriteResponse = SMPEmptyResponse

/// Capture max video duration read.
public struct CaptureMaxVideoReadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureMaxVideoReadResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 6.
    public static let command: UInt8 = 6
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``CaptureMaxVideoReadRequest``.
public typealias CaptureMaxVideoReadResponse = CaptureDurationResponse

/// Capture max video duration write.
public struct CaptureMaxVideoWriteRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = CaptureMaxVideoWriteResponse
    /// The Capture group.
    public static let group = SMPGroupID.capture
    /// Command 6.
    public static let command: UInt8 = 6
    /// A write.
    public static let operation = SMPOperation.write

    /// The longest video recording, in seconds.
    public var seconds: UInt64

    /// Creates the message.
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

    /// Creates the message.
    public init(name: String) {
        self.name = name
    }
}

/// The answer to a max-duration read.
public struct CaptureDurationResponse: Codable, Sendable, Equatable {
    /// The limit in seconds.
    public var seconds: UInt64

    /// Creates the message.
    public init(seconds: UInt64) {
        self.seconds = seconds
    }
}
