/// Why an audio operation failed: every reader, codec and device call of `AIBudsAudio` throws this.
public enum AudioError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The audio's rate, channel count or sample count is not one the call accepts.
    case invalidFormat(String)
    /// A file is not a valid file of its kind; `offset` is the byte where parsing stopped.
    case malformedFile(kind: String, offset: Int, reason: String)
    /// A valid file of a variant this library does not read (for example 24-bit or float WAV).
    case unsupportedFile(kind: String, reason: String)
    /// A file could not be opened, read or written.
    case io(path: String, reason: String)
    /// A codec library (libopus, libopusfile, libopusenc) reported an error.
    case codec(library: String, code: Int32, message: String)
    /// A sound server (PulseAudio/PipeWire) is not running or refused the stream.
    case soundServerUnavailable(String)
    /// A required model or library file could not be found or loaded.
    case engineUnavailable(String)

    /// A sentence for people: what failed and why.
    public var description: String {
        switch self {
        case .invalidFormat(let reason): "invalid audio format: \(reason)"
        case .malformedFile(let kind, let offset, let reason): "malformed \(kind) file at byte \(offset): \(reason)"
        case .unsupportedFile(let kind, let reason): "unsupported \(kind) file: \(reason)"
        case .io(let path, let reason): "\(path): \(reason)"
        case .codec(let library, let code, let message): "\(library) error \(code): \(message)"
        case .soundServerUnavailable(let reason): "no sound server: \(reason)"
        case .engineUnavailable(let reason): "engine unavailable: \(reason)"
        }
    }
}
