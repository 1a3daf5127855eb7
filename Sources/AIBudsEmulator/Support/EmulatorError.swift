/// A failure of the emulator: a bad configuration, manifest or state file, or an I/O error.
public struct EmulatorError: Error, Sendable, CustomStringConvertible {
    /// The kinds of emulator failure.
    public enum Code: String, Sendable, Equatable {
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

    /// What went wrong.
    public var code: Code
    /// A human-readable explanation.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates an emulator failure of kind `code`, with `message` for the user and the lower-level
    /// cause, if any.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The message, with the underlying error when there is one.
    public var description: String {
        guard let underlying else { return message }
        return "\(message): \(underlying)"
    }
}
