import AIBudsPCM

/// One 20 ms frame of the device's microphone, decoded to 16 kHz mono.
public struct MicrophoneChunk: Sendable, Equatable {
    /// The frame's number in its stream: it was captured from `sequence` × 20 ms after the start.
    public var sequence: UInt64
    /// 320 samples, 16 kHz mono.
    public var audio: PCMAudio
    /// Decoded from its own packet, rebuilt from FEC, or concealed (the packet was lost).
    public var source: ReceivedAudioFrame.Source

    /// Creates a chunk from a decoded frame and its number in the stream.
    public init(sequence: UInt64, audio: PCMAudio, source: ReceivedAudioFrame.Source) {
        self.sequence = sequence
        self.audio = audio
        self.source = source
    }

    /// When the frame starts, from the stream's start.
    public var offset: Duration { .milliseconds(Int64(sequence) * 20) }
}

/// How the device played what ``DeviceAIAudioAPI/play(_:)`` sent.
public struct SpeakerPlaybackReport: Sendable, Equatable {
    /// Frames sent.
    public var frames: Int
    /// Frames the device decoded from their own packet.
    public var decoded: Int
    /// Frames the device rebuilt from the next packet's FEC copy.
    public var recovered: Int
    /// Frames the device concealed (lost).
    public var concealed: Int
    /// When frame 0 was sent; frame n is due n × 20 ms later, sent a little ahead (for latency
    /// measurements).
    public var streamOrigin: ContinuousClock.Instant

    /// Creates a report from the frame count sent and the device's counts.
    public init(frames: Int, decoded: Int, recovered: Int, concealed: Int, streamOrigin: ContinuousClock.Instant) {
        self.frames = frames
        self.decoded = decoded
        self.recovered = recovered
        self.concealed = concealed
        self.streamOrigin = streamOrigin
    }
}

/// The device's AI audio path over its control link: its microphone streamed to the app and the
/// app's speech streamed to its speaker, as 20 ms Opus frames (16 kHz mono) with sequence numbers,
/// a jitter buffer and loss concealment. A stream puts the device in its AI conversation (work
/// state `aiConversing`, with its `workState` event); when the device leaves it (the wearer ends
/// it, or it turns off), the streams end. The SMP glasses and earbuds adopt it in module
/// AIBudsSMPAudio (with the Opus code), so a program finds it on them when it links that module
/// (AIBudsAllInOne does); the device core itself needs no audio library.
public protocol DeviceAIAudioAPI: DeviceAPI {
    /// Opens the microphone stream and returns its frames in order, as they come (a lost frame is
    /// concealed, so the audio stays continuous). The sequence finishes when the device ends the
    /// stream or ``stopMicrophone()`` is called, and throws when the link fails; ending the
    /// iteration early stops the device's microphone. One microphone stream at a time.
    func startMicrophone() async throws -> AsyncThrowingStream<MicrophoneChunk, any Error>
    /// Stops the microphone stream (its sequence then finishes); nothing when none is open.
    func stopMicrophone() async throws
    /// Plays `audio` (any rate and channels; converted to 16 kHz mono and Opus) on the device's
    /// speaker, paced in real time, and returns once the device has played it all.
    func play(_ audio: PCMAudio) async throws -> SpeakerPlaybackReport
}
