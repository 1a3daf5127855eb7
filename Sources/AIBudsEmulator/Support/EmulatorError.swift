import AIBudsErrors

/// A failure of the emulator: a bad configuration, manifest or state file, or an I/O error.
///
/// The kinds of failure are ``EmulatorErrorCode``.
public typealias EmulatorError = CodedError<EmulatorErrorCode>

/// The kinds of emulator failure.
public enum EmulatorErrorCode: String, Sendable, Equatable, CodedErrorCode {
    /// A command-line option or configuration value is wrong.
    case invalidConfiguration
    /// The manifest file cannot be read or describes an impossible store.
    case invalidManifest
    /// The media folder cannot be read.
    case invalidMediaFolder
    /// The state folder holds a file that cannot be read back.
    case invalidState
    /// A file operation failed.
    case io
    /// The socket could not be opened or bound.
    case network
    /// No device file has that name.
    case notFound
    /// A delete named a media list generation that is no longer current.
    case staleGeneration
    /// The device storage cannot hold the file.
    case noSpace
    /// A request's value is out of range (an offset, a length, a name without a media type).
    case invalidArgument
    /// The device profile does not support the request.
    case notSupported
    /// The device is busy (for example already recording).
    case busy
    /// The device is in the wrong mode for the request.
    case badState
}
