import Foundation

// Messages of the project Audio group (68): the AI audio path. See docs/protocol.md §3.

/// The stream format of both directions: Opus, 16 kHz mono, 20 ms frames.
public struct AudioStreamFormat: Codable, Sendable, Equatable {
    /// Always `opus`.
    public var codec: String
    /// Samples per second (16,000).
    public var rate: UInt64
    /// Channels (1).
    public var channels: UInt64
    /// Milliseconds of audio per frame (20).
    public var frameMs: UInt64

    /// The wire names of the fields.
    enum CodingKeys: String, CodingKey {
        case codec, rate, channels
        case frameMs = "frame_ms"
    }

    /// The one format of this protocol version: Opus, 16 kHz, mono, 20 ms.
    public static let speech = AudioStreamFormat(codec: "opus", rate: 16_000, channels: 1, frameMs: 20)

    /// Creates a format description.
    public init(codec: String, rate: UInt64, channels: UInt64, frameMs: UInt64) {
        self.codec = codec
        self.rate = rate
        self.channels = channels
        self.frameMs = frameMs
    }
}

/// Audio mic start: opens the microphone stream; the device enters (or stays in) its AI
/// conversation (`workState` `aiConversing`). rc 4 without the `aiAudio` capability, rc 5 when a
/// video recording or another microphone stream runs.
public typealias AudioMicStartRequest = SMPEmptyRequest<SMPCommand.AudioMicStart, AudioStreamStartResponse>

/// The answer to a stream start: the stream's id (new for each stream) and its format.
public struct AudioStreamStartResponse: Codable, Sendable, Equatable {
    /// The id that later requests of this stream name.
    public var stream: UInt64
    /// The frames' format.
    public var format: AudioStreamFormat

    /// Creates the answer.
    public init(stream: UInt64, format: AudioStreamFormat) {
        self.stream = stream
        self.format = format
    }
}

/// Audio mic read (long-poll): the microphone frames from sequence number `from` on, waiting up to
/// `wait_ms` when none is ready. rc 7 for a stream that is not the open one.
public struct AudioMicReadRequest: SMPRequest, Equatable {
    /// The device answers with the frames it has.
    public typealias Response = AudioMicReadResponse

    /// The stream's id from `mic start`.
    public var stream: UInt64
    /// The first sequence number wanted (frame n was captured from n × 20 ms after the start).
    public var from: UInt64
    /// How long the device may hold the request when no frame from `from` on is ready (≤ 30,000).
    public var waitMs: UInt64

    /// The wire names of the fields.
    enum CodingKeys: String, CodingKey {
        case stream, from
        case waitMs = "wait_ms"
    }

    /// Creates the request for the frames of `stream` from `from` on.
    public init(stream: UInt64, from: UInt64, waitMs: UInt64) {
        self.stream = stream
        self.from = from
        self.waitMs = waitMs
    }
}

/// The answer to ``AudioMicReadRequest``.
public struct AudioMicReadResponse: Codable, Sendable, Equatable {
    /// The sequence number of the first frame in `frames`: `from`, or later when the frames from
    /// `from` have left the device's buffer (lost).
    public var first: UInt64
    /// Consecutive Opus packets, one 20 ms frame each, as many as fit the MTU.
    public var frames: [Data]
    /// True when the stream has ended (stopped, or the device left its AI conversation): no frame
    /// after these will come.
    public var ended: Bool

    /// Creates the answer.
    public init(first: UInt64, frames: [Data], ended: Bool) {
        self.first = first
        self.frames = frames
        self.ended = ended
    }
}

/// Audio mic stop: closes the microphone stream (the AI conversation ends when no stream and no AI
/// recording is left). rc 7 for a stream that is not the open one.
public struct AudioMicStopRequest: SMPRequest, Equatable {
    /// The answer is the empty map.
    public typealias Response = SMPEmptyResponse

    /// The stream's id from `mic start`.
    public var stream: UInt64

    /// Creates the request that closes `stream`.
    public init(stream: UInt64) { self.stream = stream }
}

/// Audio speaker start: opens a speaker stream; the device enters (or stays in) its AI
/// conversation. rc 4 without the `aiAudio` capability, rc 5 while another speaker stream or a
/// video recording runs.
public typealias AudioSpeakerStartRequest = SMPEmptyRequest<SMPCommand.AudioSpeakerStart, AudioStreamStartResponse>

/// Audio speaker write: consecutive Opus frames for the speaker, the first numbered `first`. The
/// device plays them in sequence order through its jitter buffer (duplicates dropped, a gap filled
/// by FEC or concealment). rc 7 for a stream that is not the open one; rc 6 for more than 50 frames.
public struct AudioSpeakerWriteRequest: SMPRequest, Equatable {
    /// The answer is the empty map.
    public typealias Response = SMPEmptyResponse

    /// The stream's id from `speaker start`.
    public var stream: UInt64
    /// The sequence number of the first frame (the stream's frames are numbered from 0).
    public var first: UInt64
    /// Opus packets, one 20 ms frame each.
    public var frames: [Data]

    /// Creates the request carrying `frames` numbered from `first`.
    public init(stream: UInt64, first: UInt64, frames: [Data]) {
        self.stream = stream
        self.first = first
        self.frames = frames
    }
}

/// Audio speaker stop: the stream is over once its frames have played; the answer counts them.
/// rc 7 for a stream that is not the open one.
public struct AudioSpeakerStopRequest: SMPRequest, Equatable {
    /// The device answers with what it played.
    public typealias Response = AudioSpeakerStopResponse

    /// The stream's id from `speaker start`.
    public var stream: UInt64
    /// How many frames the stream had (the device conceals any it did not get).
    public var frames: UInt64

    /// Creates the request that ends `stream` after `frames` frames.
    public init(stream: UInt64, frames: UInt64) {
        self.stream = stream
        self.frames = frames
    }
}

/// The answer to ``AudioSpeakerStopRequest``: how the device played the stream's frames.
public struct AudioSpeakerStopResponse: Codable, Sendable, Equatable {
    /// Frames decoded from their own packet.
    public var decoded: UInt64
    /// Frames rebuilt from the next packet's FEC copy.
    public var recovered: UInt64
    /// Frames concealed (lost with no FEC copy).
    public var concealed: UInt64

    /// Creates the answer.
    public init(decoded: UInt64, recovered: UInt64, concealed: UInt64) {
        self.decoded = decoded
        self.recovered = recovered
        self.concealed = concealed
    }
}
