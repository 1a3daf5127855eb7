/// SMP's own return codes (Zephyr's `MGMT_ERR_*`), as an SMP v1 `rc` carries them.
public enum MGMTError: Int, Sendable, CaseIterable {
    /// EOK: success.
    case ok = 0
    /// EUNKNOWN: unknown error.
    case unknown
    /// ENOMEM: out of memory.
    case noMemory
    /// EINVAL: invalid value (for example a read past the end of a file).
    case invalidValue
    /// ETIMEOUT: timed out.
    case timeout
    /// ENOENT: no such entry.
    case noEntry
    /// EBADSTATE: wrong state for the request.
    case badState
    /// EMSGSIZE: response too large.
    case messageTooLarge
    /// ENOTSUP: unknown group or command, or unsupported request.
    case notSupported
    /// ECORRUPT: corrupt data.
    case corrupt
    /// EBUSY: busy.
    case busy
    /// EACCESSDENIED: access denied.
    case accessDenied
    /// UNSUPPORTED_TOO_OLD: the protocol version is too old.
    case unsupportedTooOld
    /// UNSUPPORTED_TOO_NEW: the protocol version is too new.
    case unsupportedTooNew
}

/// The return codes of this project's groups (64 and up), as an SMP v2 `err.rc` carries them.
public enum ProjectReturnCode: Int, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// Unexpected failure.
    case unknown
    /// No such file.
    case notFound
    /// The request named a list generation that is no longer current.
    case staleGeneration
    /// The device profile does not support this.
    case notSupported
    /// The device is busy (recording, or an import is running).
    case busy
    /// A field is missing, of the wrong type or out of range.
    case invalidArgument
    /// Wrong mode (hotspot not configured, not in transfer mode).
    case badState
    /// The device storage is full.
    case noSpace
}
