import AIBudsPCM
import CPulseSimple

/// Plays audio on this machine's speakers through the PulseAudio protocol (PulseAudio itself or
/// PipeWire's pulse server), with libpulse-simple.
public enum AudioPlayer {
    /// Plays `audio` to the end (blocking the calling thread until the server has played it).
    ///
    /// - Parameters:
    ///   - audio: the samples to play, at their own rate and channel count.
    ///   - server: the server to use (`unix:/path` or a host); nil uses the default
    ///     (`$PULSE_SERVER`, then the user's runtime socket).
    ///   - applicationName: the name the sound server shows for the stream.
    /// - Throws: `AudioError.soundServerUnavailable` when no server answers, naming the cause.
    public static func play(_ audio: PCMAudio, server: String? = nil, applicationName: String = "aibuds") throws {
        try audio.validate()
        let stream = try open(sampleRate: audio.sampleRate, channels: audio.channels, server: server, applicationName: applicationName)
        defer { pa_simple_free(stream) }
        var error: Int32 = 0
        let written = audio.samples.withUnsafeBytes { bytes in
            pa_simple_write(stream, bytes.baseAddress, bytes.count, &error)
        }
        guard written == 0, pa_simple_drain(stream, &error) == 0 else {
            throw AudioError.soundServerUnavailable("the server dropped the stream (\(String(cString: pa_strerror(error))))")
        }
    }

    /// Opens a playback stream and closes it again: whether ``play(_:server:applicationName:)``
    /// would find a sound server, asked before there is anything to play.
    /// - Throws: `AudioError.soundServerUnavailable` when no server answers, naming the cause.
    public static func checkServer(_ server: String? = nil, applicationName: String = "aibuds") throws {
        pa_simple_free(try open(sampleRate: 16_000, channels: 1, server: server, applicationName: applicationName))
    }

    private static func open(sampleRate: Int, channels: Int, server: String?, applicationName: String) throws -> OpaquePointer {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        var error: Int32 = 0
        guard let stream = pa_simple_new(server, applicationName, PA_STREAM_PLAYBACK, nil, "speech", &spec, nil, nil, &error) else {
            throw AudioError.soundServerUnavailable(
                "no PulseAudio or PipeWire server answers (\(String(cString: pa_strerror(error))))")
        }
        return stream
    }
}
