import AIBudsPCM

/// Where a session's audio comes from: a WAV file, the computer's microphone, a device's microphone.
///
/// A source hands out its audio as a stream of PCM chunks (any rate, mono or stereo; sessions mix
/// to mono and resample to 16 kHz); the stream ends when the source does (end of file, device
/// session over) and throws when it fails. A session calls `audioChunks()` once.
public protocol AIAudioSource: Sendable {
    /// Where the audio comes from, for observers and records.
    var deviceInfo: AISessionDeviceInfo { get }
    /// Starts the source and returns its audio as it arrives.
    func audioChunks() -> AsyncThrowingStream<PCMAudio, any Error>
}

/// Where a session's spoken output goes: a WAV file, the computer's speaker, a device's speaker.
public protocol AIAudioSink: Sendable {
    /// Plays or stores one piece of speech; returns when the sink has taken it (not when it is heard).
    func play(_ audio: PCMAudio) async throws
    /// Called once when the session will send no more audio; a file sink writes its file here.
    func finish() async throws
}
