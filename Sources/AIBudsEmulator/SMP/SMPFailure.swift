import AIBudsCBOR
import AIBudsWire

/// An error response of the emulator, in both SMP versions' shapes.
///
/// A group error carries the group's own code (sent as `err: {group, rc}` to SMP v2 requests) and
/// the `MGMT_ERR` code Zephyr translates it to for SMP v1 requests. An SMP-level error (unknown
/// group or command, undecodable request to a standard group) is a plain `rc` in both versions.
struct SMPFailure: Error, Sendable, Equatable {
    /// The group of a group error, nil for an SMP-level error.
    var group: UInt16?
    /// The group's own code (v2).
    var groupCode: Int
    /// The SMP-level code (v1, and every SMP-level error).
    var mgmt: MGMTError

    /// An SMP-level error.
    static func smp(_ code: MGMTError) -> SMPFailure { SMPFailure(group: nil, groupCode: code.rawValue, mgmt: code) }

    /// A group error.
    static func group(_ group: UInt16, _ code: Int, v1 mgmt: MGMTError) -> SMPFailure {
        SMPFailure(group: group, groupCode: code, mgmt: mgmt)
    }

    /// The response payload for a request of `version`.
    func payload(version: SMPVersion) -> CBOR {
        if version == .v2, let group {
            return SMPDeviceError(group: group, rc: groupCode, version: .v2).payload()
        }
        return SMPDeviceError(group: nil, rc: mgmt.rawValue, version: version).payload()
    }

    // MARK: - File group (Zephyr's FS_MGMT_ERR codes and their v1 translation)

    /// FS_MGMT_ERR_UNKNOWN.
    static let fileUnknown = group(SMPGroupID.file, 1, v1: .unknown)
    /// FS_MGMT_ERR_FILE_INVALID_NAME.
    static let fileInvalidName = group(SMPGroupID.file, 2, v1: .invalidValue)
    /// FS_MGMT_ERR_FILE_NOT_FOUND.
    static let fileNotFound = group(SMPGroupID.file, 3, v1: .noEntry)
    /// FS_MGMT_ERR_FILE_WRITE_FAILED (no space left).
    static let fileWriteFailed = group(SMPGroupID.file, 10, v1: .noMemory)
    /// FS_MGMT_ERR_FILE_OFFSET_LARGER_THAN_FILE.
    static let fileOffsetPastEnd = group(SMPGroupID.file, 12, v1: .invalidValue)
    /// FS_MGMT_ERR_CHECKSUM_HASH_NOT_FOUND.
    static let fileHashNotFound = group(SMPGroupID.file, 13, v1: .invalidValue)
    /// FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND (an upload outside `/media/`).
    static let fileMountPointNotFound = group(SMPGroupID.file, 14, v1: .noEntry)

    // MARK: - Image group (Zephyr's IMG_MGMT_ERR codes and their v1 translation)

    /// An Image group error.
    static func image(_ code: ImageManagementError) -> SMPFailure {
        let mgmt: MGMTError
        switch code {
        case .ok: mgmt = .ok
        case .noImage, .hashNotFound: mgmt = .noEntry
        case .noFreeSlot, .imageAlreadyPending, .testOfActiveDenied, .confirmationDenied, .flashContextNotSet: mgmt = .badState
        case .imageTooLarge: mgmt = .noMemory
        case .invalidLength, .invalidOffset, .invalidHash, .invalidSlot, .invalidImageHeader, .invalidImageHeaderMagic,
            .noTLVs, .invalidTLV, .multipleHashes, .tlvInvalidSize, .imageDataOverrun, .currentVersionIsNewer:
            mgmt = .invalidValue
        default: mgmt = .unknown
        }
        return group(SMPGroupID.image, code.rawValue, v1: mgmt)
    }

    // MARK: - OS and Enumeration groups

    /// OS_MGMT_ERR_INVALID_FORMAT.
    static let osInvalidFormat = group(SMPGroupID.os, 2, v1: .invalidValue)
    /// ENUM_MGMT_ERR_INDEX_TOO_LARGE.
    static let enumIndexTooLarge = group(SMPGroupID.enumeration, 4, v1: .noEntry)

    // MARK: - Project groups

    /// A project group's code, with its v1 translation.
    static func project(_ group: UInt16, _ code: ProjectReturnCode) -> SMPFailure {
        let mgmt: MGMTError
        switch code {
        case .ok: mgmt = .ok
        case .unknown: mgmt = .unknown
        case .notFound: mgmt = .noEntry
        case .staleGeneration, .badState: mgmt = .badState
        case .notSupported: mgmt = .notSupported
        case .busy: mgmt = .busy
        case .invalidArgument: mgmt = .invalidValue
        case .noSpace: mgmt = .noMemory
        }
        return SMPFailure(group: group, groupCode: code.rawValue, mgmt: mgmt)
    }

    /// The project group error for an emulator error.
    static func project(_ group: UInt16, _ error: EmulatorError) -> SMPFailure {
        switch error.code {
        case .notFound: return project(group, .notFound)
        case .staleGeneration: return project(group, .staleGeneration)
        case .noSpace: return project(group, .noSpace)
        case .invalidArgument, .invalidConfiguration: return project(group, .invalidArgument)
        case .notSupported: return project(group, .notSupported)
        case .busy: return project(group, .busy)
        case .badState: return project(group, .badState)
        case .invalidManifest, .invalidMediaFolder, .invalidState, .io, .network: return project(group, .unknown)
        }
    }
}
